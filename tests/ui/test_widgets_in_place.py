"""Widgets that are rewritten in place: a change sends only the controls that show it.

Flet diffs the whole subtree of a control it sends and builds every control it has not seen,
so these widgets keep their controls and say which of them changed.
"""

from __future__ import annotations

import dataclasses

import flet as ft

from companion.app.ui.widgets.die import PIPS, die_face, show_pips
from companion.app.ui.widgets.players import ScoreStrip, StatusBanner
from companion.app.vm.table import build_table, score_strip
from companion.app.vm.text import Tr
from companion.rules import new_game

TR = Tr("en")


def _scores(**changes: object) -> list:
    s = new_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}, {"name": "Dana"}], "seed": 3})
    for name, value in changes.items():
        setattr(s.players[0], name, value)
    return score_strip(build_table(s, TR), TR)


def test_a_score_that_moves_sends_its_entry_alone() -> None:
    strip = ScoreStrip(TR, lambda seat: None)
    assert strip.set(_scores()) == [strip.control]  # the first time: the whole row
    chips = list(strip.row.controls)
    assert strip.set(_scores()) == []  # nothing changed: nothing to send
    moved = strip.set(_scores(cigarettes=7))
    assert moved == [chips[0]] and strip.row.controls == chips  # the same controls, rewritten
    assert strip.chips[0].cigarettes.value == "7" and "7" in chips[0].label


def test_a_turn_that_passes_repaints_both_entries() -> None:
    strip = ScoreStrip(TR, lambda seat: None)
    before = _scores()
    strip.set(before)
    after = [dataclasses.replace(s, turn=s.seat == 1) for s in before]
    chips = list(strip.row.controls)
    assert strip.set(after) == [chips[0], chips[1]]
    assert not chips[0].selected and chips[1].selected
    assert strip.chips[1].control.content.border.top.width == 3  # the thick outline moved with the turn


def test_other_players_rebuild_the_row() -> None:
    strip = ScoreStrip(TR, lambda seat: None)
    strip.set(_scores())
    fewer = _scores()[:2]
    assert strip.set(fewer) == [strip.control] and len(strip.row.controls) == 2


def _pips(face: ft.Container) -> list[bool]:
    return [cell.bgcolor is not None for row in face.content.controls for cell in row.controls]


def test_a_tumbling_die_turns_its_pips_in_place() -> None:
    face = die_face(2)
    cells = [cell for row in face.content.controls for cell in row.controls]
    for value in range(1, 7):
        show_pips(face, value)
        assert _pips(face) == _pips(die_face(value)) == [i in PIPS[value] for i in range(9)]
    assert [cell for row in face.content.controls for cell in row.controls] == cells


def test_the_die_of_the_last_roll_turns_in_place_and_says_so() -> None:
    from companion.app.ui.widgets.head import TableHead

    head = TableHead(TR, lambda seat: None, lambda *_: None)
    head.set_result(["Carmen rolls a 3."], 3, rolls=False)
    shown = head.result.die.content
    face = shown.content
    head.changed.clear()
    head.set_result(["Carmen rolls a 3."], 3, rolls=False)
    assert head.changed == []  # the same roll: nothing to send
    head.set_result(["Carmen rolls a 3."], 5, rolls=False)  # a new roll with the same words
    assert head.changed == [head.result_slot]
    assert head.result.die.content is shown and shown.content is face  # the same controls, turned
    assert _pips(face) == _pips(die_face(5)) and shown.label == TR("ui.die_rolled", value=5)
    head.set_result(["Carmen rolls a 4."], 4, rolls=True)  # rolled here: a die that tumbles
    assert head.roller is not None and head.result.die.content is head.roller.control


def test_a_roll_after_one_without_a_die_shows_the_same_die_again() -> None:
    from companion.app.ui.widgets.head import TableHead

    head = TableHead(TR, lambda seat: None, lambda *_: None)
    head.set_result(["Carmen rolls a 3."], 3, rolls=False)
    shown = head.result.die.content
    head.set_result(["Carmen searches."], None, rolls=False)
    assert head.result.die.visible is False and head.result.die.content is shown  # hidden, kept
    head.changed.clear()
    head.set_result(["Carmen rolls a 6."], 6, rolls=False)
    assert head.result.die.visible is True and head.result.die.content is shown
    assert head.changed == [head.result_slot]


def _decision(title: str, die: int | None, answers: list[str]) -> object:
    from companion.app.vm.pending import AnswerVM, PendingVM

    offered = [AnswerVM(label, {"type": "choose", "player": 0, "option": label}, 0, "primary") for label in answers]
    return PendingVM("destination", 0, "Carmen", "orange", title, answers=offered, die=die)


def test_a_new_decision_rewrites_the_same_panel() -> None:
    """The card, its header, title and die stay the same controls; only the answers are new,
    and an answer offered again keeps its button."""
    from companion.app.ui.widgets.head import TableHead
    from companion.app.ui.widgets.panels import PendingPanel

    head = TableHead(TR, lambda seat: None, lambda *_: None)
    panel = PendingPanel()
    assert panel.show(None, _decision("Where to, Carmen?", 3, ["Showers", "Cafeteria"]), TR, None, [])
    head.fill(head.main_slot, panel.control, True)
    title, die_cells = panel.title, [c for row in panel.die.content.controls for c in row.controls]
    showers = panel.offers.controls[-1].controls[0]
    assert panel.show(None, _decision("Where to, Carmen?", 3, ["Showers", "Cafeteria"]), TR, None, []) is False
    head.changed.clear()
    head.fill(head.main_slot, None)  # no decision now: the panel is hidden, not dropped
    assert head.main_slot.content is panel.control and head.main_slot.visible is False
    assert panel.show(None, _decision("Where to now?", 5, ["Showers", "Infirmary"]), TR, None, [])
    head.fill(head.main_slot, panel.control, True)
    assert head.main_slot.visible is True and head.changed == [head.main_slot]
    assert panel.title is title and panel.title.value == "Where to now?"
    assert [c for row in panel.die.content.controls for c in row.controls] == die_cells
    assert _pips(panel.die) == _pips(die_face(5))
    buttons = panel.offers.controls[-1].controls
    assert buttons[0] is showers and buttons[1] is not showers  # Showers offered again: the same button


def test_the_news_go_out_in_one_message_before_the_rest_of_the_head():
    """A connection writes one message per pass of the event loop, between the other screens'
    work, and a phone draws each message that arrives alone in a frame of its own: whose turn
    it is and what happened go in one message (their column), then the scores in one, then the
    panel."""
    from types import SimpleNamespace

    from companion.app.ui.widgets.head import TableHead

    head = TableHead(TR, lambda seat: None, lambda *_: None)
    sent: list[object] = []
    chips = [ft.Container(), ft.Container()]
    head.strip.chips = [SimpleNamespace(control=chip) for chip in chips]  # type: ignore[misc]
    for control in (head.news, head.status.control, head.result_slot, head.main_slot, head.strip.control, *chips):
        object.__setattr__(control, "update", lambda control=control: sent.append(control))
    for part in (chips[0], head.status.control, head.main_slot, chips[1], head.result_slot):
        head._mark(part)
    head.send()
    assert sent == [head.news, head.strip.control, head.main_slot] and head.changed == []
    sent.clear()
    head._mark(head.status.control)
    head._mark(chips[1])
    head.send()
    assert sent == [head.status.control, chips[1]]  # one part of each: only its own subtree


def test_a_won_game_counts_no_actions_left() -> None:
    """The phones keep the table after a win (the console opens the win screen): their banner
    names the winner and no longer counts the last turn's actions."""
    s = new_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 3})
    banner = StatusBanner()
    banner.set(build_table(s, TR), TR, False)
    assert banner.actions.control.visible and banner.actions.text.value == "2 actions left"
    s.winner = 1
    assert banner.set(build_table(s, TR), TR, False)
    assert banner.title.value == "Nicholas escaped!" and not banner.actions.control.visible
