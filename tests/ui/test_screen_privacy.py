"""A shared screen stays shared when phones join, says what it shows, and changes with one tap
on that screen; the phones are told (their "only this phone sees your hand" stays true)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from companion.app.services.joining import JoinService
from companion.app.services.news import SCREEN_CHANGED, devices_topic

from .conftest import identified, make_store, show
from .test_app_offline import new_app

GAME = {"players": [{"name": "Carmen", "hand": ["bandana"]}, {"name": "Nicholas", "hand": ["boots"]}], "seed": 4}


def test_a_shared_console_stays_shared_when_a_phone_joins_until_the_table_taps(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    game_id = store.create_game(GAME)
    told: list[dict] = []

    async def run() -> None:
        app = await new_app(store, tmp_path, width=1280)
        await show(app, f"/game/{game_id}")
        console = app.screen
        policy = console.policy
        JoinService(store).join(game_id, store.devices.secret(game_id), "10.0.0.2", 0, "Mozilla/5.0 (Android 14)")
        await policy._devices_changed(devices_topic(game_id), {"kind": "joined", "devices": []})
        assert policy.shared and all(p.hand_hidden for p in console._table()[0].players)
        assert identified(app.page, "screen-show-hands") and not identified(app.page, "screen-hide-hands")
        publish = app.services.news.publish
        app.services.news.publish = lambda page, topic, message, **kw: (
            told.append(message),
            publish(page, topic, message, **kw),
        )
        policy.share(console, False)  # the one tap, on this screen
        assert not policy.shared and not app.services.settings_file.load().shared_screen
        assert told == [{"kind": SCREEN_CHANGED}]
        assert not any(p.hand_hidden for p in console._table()[0].players)
        assert identified(app.page, "screen-hide-hands")  # it says it shows the hands, and how to stop
        policy.share(console, True)
        assert policy.shared and app.services.settings_file.load().shared_screen

    asyncio.run(run())
