"""Numbers typed or tapped (issue 37): every number a table enters takes a typed value in one
step as well as −/+, checked once where it is typed; a sale's printed total is one tap among the
usual values, asked on the same panel as the cards sold."""

from __future__ import annotations

import asyncio
from pathlib import Path

import flet as ft
import pytest

from companion.app.vm.actions import Composer
from companion.app.vm.digits import typed_number
from companion.app.vm.text import Tr
from companion.rules import new_game

from .conftest import make_store, settled, show
from .test_app_offline import new_app
from .test_interaction import control

TR = Tr("en")


@pytest.mark.parametrize(
    ("text", "low", "high", "value"),
    [
        ("9", 0, 99, 9),
        (" 12 ", 0, 99, 12),
        ("۱۲", 0, 99, 12),  # Persian digits, as a Persian screen shows them
        ("٣", 0, 99, 3),  # Arabic-Indic
        ("100", 0, 99, None),
        ("-1", 0, 99, None),
        ("", 0, 99, None),
        ("two", 0, 99, None),
        ("1.5", 0, 99, None),
        ("12345678", 0, 10**9, None),
    ],
)
def test_a_typed_number_is_taken_only_within_its_bounds(text, low, high, value) -> None:
    assert typed_number(text, low, high) == value


def test_a_sale_asks_its_cards_and_printed_total_on_one_panel() -> None:
    state = new_game({"players": [{"name": "Anna", "place": "recreational_area", "hand": ["ring"]}, {"name": "Bea"}]})
    composer = Composer(state, 0, "sell", TR)
    cards = composer.step()
    assert cards is not None and cards.kind == "many" and cards.default == ("ring",)  # the one card it can be
    assert cards.then is not None and cards.then.field == "cigarettes" and cards.then.quick == (1, 2, 3, 4, 5, 6)
    composer.answer("cards", ["ring"])
    composer.answer("cigarettes", 3)
    assert composer.done and composer.action() == {"type": "sell", "player": 0, "cards": ["ring"], "cigarettes": 3}


def test_one_tap_on_a_total_records_the_sale(store) -> None:
    game_id = store.create_game(
        {"players": [{"name": "Anna", "place": "recreational_area", "hand": ["ring"]}, {"name": "Bea"}]}
    )
    ctl, _ = control(store, game_id)
    ctl.start_action("sell")
    step = ctl.composer.step()
    ctl.answer_all((step.field, list(step.default)), (step.then.field, 3))
    state = store.load(game_id).game.state
    assert state.players[0].cigarettes == 3 and state.players[0].hand.size() == 0


def test_a_number_typed_is_kept_for_done_without_a_redraw(store) -> None:
    game_id = store.create_game({"players": [{"name": "Anna", "cigarettes": 5}, {"name": "Bea"}]})
    ctl, screen = control(store, game_id)
    ctl.draft.clear()
    shows = len(screen.said)
    ctl.keep("cigarettes", 4)
    assert ctl.draft["cigarettes"] == 4 and len(screen.said) == shows


def field_of(control: ft.Control, identifier: str) -> ft.TextField:
    """The number field whose value is read out as `identifier`."""
    stack: list[object] = [control]
    while stack:
        node = stack.pop()
        if isinstance(node, ft.Semantics) and node.identifier == identifier and isinstance(node.content, ft.TextField):
            return node.content
        for name in ("content", "controls"):
            child = getattr(node, name, None)
            if isinstance(child, list):
                stack += child
            elif isinstance(child, ft.Control):
                stack.append(child)
    raise AssertionError(f"no number field {identifier}")


def test_the_correction_screen_takes_typed_numbers(tmp_path: Path) -> None:
    """Tunnel points from 2 to 9 in one step: typed, then Enter; a wrong number changes nothing."""
    store = make_store(tmp_path)
    game = store.create_game({"players": [{"name": "Anna", "tunnel": 2}, {"name": "Bea"}]})

    async def run() -> None:
        app = await new_app(store, tmp_path, 1280)
        await show(app, f"/game/{game}/correct")
        screen = app.screen
        tunnel = field_of(screen.content(), "correct-players-0-tunnel-value")
        assert tunnel.value == "2"
        tunnel.value = "120"
        tunnel.on_submit(ft.Event("submit", tunnel))
        assert tunnel.error == "0–99" and "players.0.tunnel" not in screen.draft.values
        tunnel.value = "9"
        tunnel.on_submit(ft.Event("submit", tunnel))
        assert screen.draft.values["players.0.tunnel"] == 9
        screen._record()
        await settled(screen)
        assert store.load(game).game.state.players[0].tunnel == 9

    asyncio.run(run())
