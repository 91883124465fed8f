"""Ending a turn in one tap (issue 37): End the turn offers the neutrals' move with it, the real
die's faces and Places included, or leaves them where they are when the table said so once."""

from __future__ import annotations

from companion.app.vm.dice import TableChance
from companion.app.vm.text import Tr
from companion.app.vm.turn_end import turn_end_view
from companion.rules import Game

from .test_interaction import control

EN = Tr("en")
NEUTRALS = {"players": [{"name": "Anna"}, {"name": "Bea"}, {"name": "Carla"}], "modules": {"neutrals": 2}, "seed": 4}


def test_end_the_turn_offers_each_neutral_and_leaving_them() -> None:
    state = Game(NEUTRALS).state
    te = turn_end_view(state, 0, EN)
    assert te is not None and te.title == "End the turn, then:"
    assert [a.label for a in te.moves] == ["Move Michel (now in the Showers)", "Move Michelle (now in the Showers)"]
    assert te.leave is not None and te.leave.label == "Leave them where they are" and te.then is None
    real = turn_end_view(state, 0, EN, physical_dice=True)
    assert real is not None and real.moves == [] and [p.who for p in real.pads] == ["michel", "michelle"]
    stay = turn_end_view(state, 0, EN, neutrals_stay=True)
    assert stay is not None and stay.then == {"type": "skip_neutral", "player": 0} and not stay.moves
    assert stay.end_turn.hint == "the neutrals stay where they are"


def test_without_neutrals_or_with_a_hand_to_discard_end_the_turn_is_alone() -> None:
    plain = Game({"players": [{"name": "Anna"}, {"name": "Bea"}]}).state
    te = turn_end_view(plain, 0, EN)
    assert te is not None and (te.moves, te.pads, te.leave) == ([], [], None)
    full = Game({**NEUTRALS, "players": [{"name": "Anna", "hand": ["unknown"] * 11}, {"name": "Bea"}]}).state
    over = turn_end_view(full, 0, EN)
    assert over is not None and over.moves == [] and over.end_turn.hint == "discard 1 first"


def test_when_the_rules_want_a_neutral_moved_they_cannot_stay() -> None:
    state = Game({**NEUTRALS, "house_rules": {"neutral_move_optional": False}}).state
    te = turn_end_view(state, 0, EN, neutrals_stay=True)
    assert te is not None and te.leave is None and not te.stays and len(te.moves) == 2


def test_one_tap_ends_the_turn_and_moves_the_neutral_with_the_real_die(store) -> None:
    game_id = store.create_game(NEUTRALS)
    ctl, screen = control(store, game_id, physical=TableChance(dice=True))
    te = turn_end_view(ctl.state, 0, EN, physical_dice=True)
    assert te is not None
    target = te.pads[0].faces[0].targets[0]  # Michel, the face 1, its first Place
    ctl.end_turn(target.action)
    stored = store.load(game_id)
    assert stored.version == 2 and [a.TYPE for a in stored.game.log] == ["end_turn", "move_neutral"]
    assert stored.game.state.neutrals["michel"] == target.action["to"]
    assert any("ends" in line or "moves" in line for line in ctl.result)
    assert "Michel moves from the Showers" in " ".join(ctl.result)


def test_leaving_them_is_one_tap_too(store) -> None:
    game_id = store.create_game(NEUTRALS)
    ctl, _ = control(store, game_id)
    ctl.end_turn({"type": "skip_neutral", "player": 0})
    stored = store.load(game_id).game
    assert [a.TYPE for a in stored.log] == ["end_turn", "skip_neutral"] and stored.state.active == 1
    ctl.shown_version = store.load(game_id).version  # the screen redrew
    ctl.end_turn({"type": "move_neutral", "player": 1, "neutral": "michel"})  # Bea's turn: ends it, Michel moves
    assert [a.TYPE for a in store.load(game_id).game.log][-2:] == ["end_turn", "move_neutral"]


def test_a_hand_to_discard_is_asked_first_and_a_cancel_forgets_the_move(store) -> None:
    game_id = store.create_game({**NEUTRALS, "players": [{"name": "Anna", "hand": ["unknown"] * 11}, {"name": "Bea"}]})
    ctl, _ = control(store, game_id)
    ctl.end_turn({"type": "skip_neutral", "player": 0})
    assert ctl.composer is not None and ctl.composer.step().field == "discard"
    ctl.cancel_action()
    assert ctl.then is None and store.load(game_id).version == 0
    ctl.end_turn({"type": "skip_neutral", "player": 0})
    ctl.answer("discard", ["unknown"])
    assert [a.TYPE for a in store.load(game_id).game.log] == ["end_turn", "skip_neutral"]


def test_a_move_that_no_longer_answers_is_not_sent(store) -> None:
    """The turn ended but the engine asks something else (here: nothing, no neutrals): the
    neutral's move is not recorded, nor flagged."""
    game_id = store.create_game({"players": [{"name": "Anna"}, {"name": "Bea"}]})
    ctl, screen = control(store, game_id)
    ctl.end_turn({"type": "move_neutral", "player": 0, "neutral": "michel"})
    assert [a.TYPE for a in store.load(game_id).game.log] == ["end_turn"] and "flag" not in screen.kinds()


def test_a_die_pad_wraps_its_faces_side_by_side() -> None:
    """The real die's pad lays each face with its Places as one group, the groups wrapping in
    one row: three or four lines for six faces, not six (it pushed the other actions below
    the fold of a laptop)."""
    import flet as ft

    from companion.app.ui.widgets.panels.dice import die_pad
    from companion.app.vm.dice import move_pad
    from companion.rules import die_destinations

    state = Game(NEUTRALS).state
    pad = move_pad(state, 0, EN, die_destinations(state, 0))
    drawn = die_pad(None, pad, EN, on_target=print)  # type: ignore[arg-type]  # nothing is tapped here
    column = drawn.content
    assert isinstance(column, ft.Column) and len(column.controls) == 2  # the title, then the faces
    faces = column.controls[1]
    assert isinstance(faces, ft.Row) and faces.wrap and len(faces.controls) == 6
