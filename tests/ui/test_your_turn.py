"""A phone says "Your turn" and buzzes once; the console says what the real box must do next.

Without a browser: the calls and steps from engine states (vm/call.py), then phones and a
console of one game on one instance of the app (companion/bench/instance.py), whose banners
are read and whose nudges are counted.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from companion.app.ui.phone import nudge
from companion.app.vm.call import DECISION, REPORT, TURN, seat_call, seat_said, table_step
from companion.app.vm.dice import TableChance
from companion.app.vm.pending import AnswerVM
from companion.app.vm.text import Tr
from companion.rules import Game, new_game, parse_action, step

from .conftest import make_store, settled, show, until, write_settings
from .test_app_offline import new_app

TR = Tr("en")
NAMES = ("Anna", "Bruno", "Carla")


def test_a_seat_is_called_to_its_turn_its_decision_and_a_report() -> None:
    s = new_game({"players": [{"name": n} for n in NAMES], "seed": 3})
    turn = seat_call(s, 0, TR)
    assert turn is not None and (turn.kind, turn.text) == (TURN, "Your turn")
    assert seat_said(turn).headline == "Your turn" and seat_said(turn).cue is None
    assert seat_call(s, 1, TR) is None and seat_said(None).headline is None
    assert step(s, parse_action({"type": "search", "player": 0})).accepted
    assert seat_call(s, 0, TR) == turn  # the same turn: the same call (no second nudge)
    assert step(s, parse_action({"type": "end_turn", "player": 0})).accepted
    assert seat_call(s, 0, TR) is None and seat_call(s, 1, TR).key != turn.key

    decide = new_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 3, "modules": {"neutrals": 1}})
    step(decide, parse_action({"type": "end_turn", "player": 0}))
    call = seat_call(decide, decide.pending.player, TR)
    assert call is not None and call.kind == DECISION and call.text == "Your decision: move a neutral or not"

    warden = Game(
        {"players": [{"name": "Carmen", "hand": ["spoon"]}, {"name": "Nicholas"}], "modules": {"warden": True}}
    )
    assert warden.submit({"type": "dig", "player": 0, "tool": "spoon"}).offence is not None  # under the Warden
    report = seat_call(warden.state, 1, TR)
    assert report is not None and report.kind == REPORT
    assert seat_said(report).cue == "You may report Carmen to the Warden" and seat_said(report).headline is None
    assert seat_call(warden.state, 0, TR).kind == TURN  # the offender reports nobody

    s.winner = 1
    assert seat_call(s, 1, TR) is None  # a won game calls nobody


def test_the_console_says_what_the_real_box_must_do() -> None:
    michel = new_game(
        {
            "players": [{"name": "Carmen", "place": "cafeteria", "hand": ["spoon"]}, {"name": "Nicholas"}],
            "modules": {"neutrals": 1},
            "seed": 3,
        }
    )
    step(michel, parse_action({"type": "end_turn", "player": 0}))
    move = {"type": "move_neutral", "player": 0, "neutral": "michel", "die": [1], "to": "cafeteria"}
    real = TableChance(dice=True, michel=True, cards=True)
    assert table_step(michel, TR, real) == "Roll the die if Carmen moves a neutral"
    assert table_step(michel, TR, real, michel_for=move) == "Draw a Michel card for Carmen"
    assert table_step(michel, TR, TableChance(), michel_for=move) is None  # the app draws them itself
    answer = AnswerVM("Move Michel", move, 1)
    assert table_step(michel, TR, TableChance(dice=True), die_for=answer) == "Roll the die for Nicholas"
    plain = new_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 3})
    assert table_step(plain, TR, real) is None  # a turn: the player chooses; nothing from the box yet


def test_the_console_banner_asks_for_the_michel_card(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    write_settings(tmp_path / "settings.json", michel_mode="physical")
    game = store.create_game(
        {
            "players": [{"name": "Carmen", "place": "cafeteria", "hand": ["spoon"]}, {"name": "Nicholas"}],
            "modules": {"neutrals": 1},
            "seed": 3,
        }
    )
    store.submit(game, {"type": "end_turn", "player": 0}, base_version=store.load(game).version)

    async def run() -> None:
        app = await new_app(store, tmp_path)
        await show(app, f"/game/{game}")
        table = app.screen
        banner = table._head.status
        assert not banner.cue.visible
        table.control.submit_checked(
            {"type": "move_neutral", "player": 0, "neutral": "michel", "die": [1], "to": "cafeteria"}
        )
        assert table.control.michel_for is not None
        assert banner.cue.visible and banner.cue.value == "Draw a Michel card for Carmen"
        assert "Draw a Michel card for Carmen" in banner.control.label

    asyncio.run(run())


@pytest.fixture
def buzzes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seats whose phones buzzed, in order (the haptic call itself needs a browser)."""
    found: list[int] = []

    async def buzz(self: Any, app: Any) -> None:
        found.append(app.join_devices and next(iter(app.join_devices.values())).seat)

    monkeypatch.setattr(nudge.Nudge, "_buzz", buzz)
    return found


def test_a_phone_says_your_turn_and_buzzes_once_per_call(tmp_path: Path, buzzes: list[int]) -> None:
    from companion.bench.instance import Instance

    async def run() -> None:
        one = Instance(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path, "one")
        try:
            game = one.store.create_game({"players": [{"name": n} for n in NAMES], "seed": 3})
            secret = one.store.devices.secret(game)
            referee = await one.open_screen(f"/game/{game}")
            phones = []
            for seat in range(3):
                device, _ = one.services.join.join(game, secret, "127.0.0.1", seat, "test phone")
                phones.append(await one.open_screen(f"/play/{game}", device))
            titles = [p.screen._head.status.title.value for p in phones]
            assert titles == ["Your turn", "Anna's turn · 2 actions left", "Anna's turn · 2 actions left"]
            assert buzzes == []  # arriving at one's own turn is no news

            async def heard(count: int) -> None:
                """Until `count` buzzes and every phone has drawn the news (however slow the
                machine), and a moment more for a buzz too many."""
                await until(
                    lambda: len(buzzes) >= count and all(p.screen.news.waiting is False for p in phones),
                    f"buzz {count} and the news drawn on every phone",
                )
                await asyncio.sleep(0.05)

            referee.screen.control.submit({"type": "end_turn", "player": 0})
            await heard(1)
            assert buzzes == [1]
            assert phones[1].screen._head.status.title.value == "Your turn"
            assert phones[0].screen._head.status.title.value == "Bruno's turn · 2 actions left"
            referee.screen.control.submit({"type": "search", "player": 1})  # the same turn: no second buzz
            await settled(referee.screen)
            await heard(1)
            assert buzzes == [1]
            bruno = phones[1].screen
            bruno.control.submit({"type": "end_turn", "player": 1})  # Bruno's own tap: Carla's phone buzzes
            await settled(bruno)
            await heard(2)
            assert buzzes == [1, 2]
        finally:
            for app in list(one.screens):
                one.close_screen(app)
            one.close()

    asyncio.run(run())


class FakePrefs:
    """A browser's storage as the device storage answers it."""

    def __init__(self, kept: dict[str, str] | None = None) -> None:
        self.kept = dict(kept or {})

    async def get(self, key: str) -> Any:
        return self.kept.get(key)

    async def set(self, key: str, value: str) -> None:
        self.kept[key] = value

    async def remove(self, key: str) -> None:
        self.kept.pop(key, None)


def test_the_turn_sound_is_each_phones_own_and_off_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone's Settings offer the chime (off until chosen), kept in its own storage; a phone
    that chose it chimes when buzzed, one that did not only vibrates."""
    from companion.app.ui import sound

    played: list[str] = []

    class Player:
        async def play(self) -> None:
            played.append("chime")

    class Haptic:
        async def vibrate(self) -> None:
            played.append("vibrate")

    monkeypatch.setattr(nudge, "chime_player", Player)
    monkeypatch.setattr(nudge.ft, "HapticFeedback", Haptic)
    store = make_store(tmp_path)

    async def run() -> None:
        app = await new_app(store, tmp_path)
        app.host = False  # a joined phone's settings
        prefs = FakePrefs()
        app.prefs = prefs
        await show(app, "/settings")
        from .conftest import identified

        [off] = identified(app.page, "turn-sound-off")
        assert off.selected and not identified(app.page, "turn-sound-on")[0].selected
        await nudge.Nudge()._buzz(app)
        assert played == ["vibrate"]
        identified(app.page, "turn-sound-on")[0].content.on_click(None)
        await asyncio.sleep(0.05)
        assert prefs.kept == {sound.PREF_KEY: "on"} and identified(app.page, "turn-sound-on")[0].selected
        await nudge.Nudge()._buzz(app)
        assert played == ["vibrate", "vibrate", "chime"]
        later = await new_app(store, tmp_path)  # the same phone another day: its storage remembers
        later.prefs = prefs
        assert await sound.read_turn_sound(later)

    asyncio.run(run())
