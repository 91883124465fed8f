"""The console tells what a phone did, in the words the table view uses: a mixed table (some
players on phones, some at the laptop) stays on the console and still reads the story."""

from __future__ import annotations

import asyncio
from pathlib import Path

from companion.app.services.joining import JoinService
from companion.app.services.news import game_topic
from companion.app.services.sync import SeatSession
from companion.app.vm.seat import SPECTATOR, event_lines
from companion.app.vm.table import names_of

from .conftest import make_store, show, write_settings
from .test_app_offline import new_app

GAME = {"players": [{"name": "Carmen", "hand": ["bandana"]}, {"name": "Nicholas"}], "seed": 4}


def test_the_console_words_a_phones_action_as_the_table_view_does(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    game_id = store.create_game(GAME)
    write_settings(tmp_path / "settings.json", screen="shared")
    join = JoinService(store)
    phone, _ = join.join(game_id, store.devices.secret(game_id), "10.0.0.2", 0, "Mozilla/5.0 (Android 14)")

    async def run() -> None:
        app = await new_app(store, tmp_path, width=1280)
        await show(app, f"/game/{game_id}")
        console = app.screen
        outcome = SeatSession(store, game_id, phone, join).submit({"type": "search", "player": 0})
        assert outcome.accepted
        news = {"version": store.load(game_id).version, "events": outcome.events}  # as another instance's
        await console.news._heard(game_topic(game_id), news)
        state = console.session.state
        public = event_lines(outcome.events, names_of(state), app.tr, SPECTATOR)
        assert public and console.control.result == public
        assert not any("Bandana" in line for line in console.control.result)  # the card drawn stays hidden

    asyncio.run(run())
