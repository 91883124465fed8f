"""The correction draft (companion/app/vm/correct.py), without a browser."""

from __future__ import annotations

from companion.app.vm import correct as vm
from companion.app.vm.text import Tr
from companion.rules import new_game, parse_action, step

CONFIG = {
    "players": [{"name": "Ana", "hand": ["spoon", "unknown"]}, {"name": "Bo"}],
    "seed": 1,
    "modules": {"neutrals": 1, "warden": True},
}


def test_only_real_changes_are_recorded_and_the_engine_applies_them() -> None:
    s = new_game(CONFIG)
    draft = vm.Draft()
    draft.values.update({"players.0.cigarettes": 4, "players.1.tunnel": 0, "warden": "showers"})  # tunnel unchanged
    draft.hand.append((0, "identify", "blade"))
    action = vm.correction(s, draft)
    assert action == {
        "type": "adjust",
        "player": s.active,
        "changes": [
            {"path": "players.0.cigarettes", "set": 4},
            {"path": "warden", "set": "showers"},
            {"path": "players.0.hand", "identify": ["blade"]},
        ],
    }
    assert vm.problems(s, draft, Tr()) == []
    assert step(s, parse_action(action, s.catalog)).accepted
    assert (s.players[0].cigarettes, s.warden, s.players[0].hand.known) == (4, "showers", {"spoon": 1, "blade": 1})


def test_nothing_changed_is_no_correction() -> None:
    s = new_game(CONFIG)
    draft = vm.Draft(values={"players.0.place": s.players[0].place})
    assert vm.correction(s, draft) is None and vm.summary(s, draft, Tr()) == []


def test_an_impossible_correction_is_explained_with_its_rule() -> None:
    s = new_game(CONFIG)
    draft = vm.Draft(values={"piles.knife": 0})
    draft.hand.append((1, "add", "knife"))
    assert [p.rule for p in vm.problems(s, draft, Tr())] == ["SUP-2"]
    draft = vm.Draft(hand=[(0, "identify", "blade"), (0, "identify", "ring")])  # Ana had one unentered card
    assert [p.rule for p in vm.problems(s, draft, Tr())] == ["HAND-1"]


def test_the_draft_is_read_back_in_the_table_language() -> None:
    s = new_game(CONFIG)
    draft = vm.Draft(values={"players.1.beatings": 1, "neutrals.michel": "infirmary"})
    assert vm.summary(s, draft, Tr()) == ["Bo · Beatings: from 0 to 1", "Michel: from Showers to Infirmary"]
    assert vm.summary(s, draft, Tr("it"))[0] == "Bo · Pestaggi: da 0 a 1"
    assert "۱" in vm.summary(s, draft, Tr("fa"))[0]  # Persian digits


def test_removing_offers_only_entered_cards() -> None:
    s = new_game(CONFIG)
    assert vm.card_choices(s, "remove", 0) == ["spoon"]
    assert vm.card_choices(s, "remove", 1) == []
    assert "knife" in vm.card_choices(s, "add", 1) and "knife" not in vm.card_choices(s, "identify", 0)
