"""The tutorial round's coach (vm/tutorial.py): every step told in every language, with its rules'
texts, the guide's action to play, the real die's hint, the end and a step off the path."""

from __future__ import annotations

import pytest

from companion.app.vm.text import Tr
from companion.app.vm.tutorial import coach_view
from companion.rules import Game, tutorial_config, tutorial_steps


@pytest.mark.parametrize("lang", ["en", "it", "fa"])
def test_every_step_is_told_with_its_rules(lang) -> None:
    tr = Tr(lang)
    game = Game(tutorial_config())
    for step in tutorial_steps():
        coach = coach_view(game, tr)
        assert coach is not None and coach.phase == "step" and coach.action == dict(step.action)
        assert coach.text and coach.why and "tutorial." not in coach.text + coach.why  # a text, not its key
        assert [rule for rule, _ in coach.rules] == list(step.rules) and all(text for _, text in coach.rules)
        assert game.submit(coach.action).accepted
    done = coach_view(game, tr)
    assert done is not None and done.phase == "done" and done.action is None


def test_the_real_die_is_told_which_face_the_guide_rolled() -> None:
    game = Game(tutorial_config())
    assert coach_view(game, Tr("en"), physical_dice=True).die_hint == (
        "With the real die: the guide rolled a 1; enter 1 to follow it."
    )
    assert coach_view(game, Tr("en")).die_hint == ""


def test_off_the_path_it_offers_undo_and_any_other_game_has_no_coach() -> None:
    game = Game(tutorial_config())
    game.submit({"type": "cautious_move", "player": 0, "to": "showers"})
    coach = coach_view(game, Tr("en"))
    assert coach is not None and coach.phase == "off" and "step 1" in coach.text
    assert coach_view(Game({"players": [{"name": "A"}, {"name": "B"}]}), Tr("en")) is None
