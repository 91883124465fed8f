"""Rules that bind a whole turn: SOL-1 (restated by WARD-7 for a reported player) forbids Search,
Extort and Craft for the turn that began in Solitary Confinement, wherever the player goes.

No exception that lifts a Place's rule lifts SOL-1: from rules version 3 neither "I Never Liked
Rules." nor the other team's Cell Block lets such a turn Craft. Games of versions 1 and 2 keep the
judgement they were played with (the exceptions let the Craft pass), so they replay as before.
"""

import pytest

from support import breaks, follows, play, start

TEAM = {"team": True}


def out_of_solitary_into_the_other_cell_block(version: int):
    """Carmen (team A) begins her turn in Solitary; Too Fast for You? gives her a 2nd action and a
    Simple move (a 1) takes her to Cell Block B, where team A may Craft (TEAM-6)."""
    state = start(
        4,
        modules=TEAM,
        hands={0: ["links", "blade"]},
        rules_version=version,
        player_fields={0: {"place": "solitary", "background": "too_fast_for_you"}},
    )
    assert state.players[0].team == "a" and state.actions_left == 1
    follows(state, type="reveal_background", player=0, card="too_fast_for_you")
    follows(state, type="move", player=0, die=[1], to="cell_block_b")
    assert state.players[0].place == "cell_block_b" and state.actions_left == 1
    return state


def out_of_solitary_with_i_never_liked_rules(version: int):
    """Carmen begins her turn in Solitary with two actions (house rule `solitary_actions`), walks to
    the Cell Block (a 1) and reveals "I Never Liked Rules.", which lets a turn Craft Pickaxes there."""
    state = start(
        hands={0: ["links", "pike"]},
        rules_version=version,
        house_rules={"solitary_actions": 2},
        player_fields={0: {"place": "solitary", "background": "i_never_liked_rules"}},
    )
    follows(state, type="move", player=0, die=[1], to="cell_block")
    follows(state, type="reveal_background", player=0, card="i_never_liked_rules")
    assert state.players[0].place == "cell_block" and state.actions_left == 1
    return state


class TestSolitaryBindsTheWholeTurn:
    def test_breaks_craft_in_the_other_teams_cell_block(self):
        """Left Solitary for Cell Block B: TEAM-6 allows team A to Craft there, SOL-1 still forbids it."""
        state = out_of_solitary_into_the_other_cell_block(3)
        answer = breaks(state, "SOL-1", type="craft", player=0, recipe="knives")
        assert answer.violations[0].key == "v.no_craft_after_solitary"
        assert answer.violations[0].message == "You started this turn in Solitary Confinement: no Craft this turn."

    def test_breaks_craft_with_i_never_liked_rules(self):
        """The card lifts the Cell Block's "no Craft" (CRAFT-1), not SOL-1."""
        state = out_of_solitary_with_i_never_liked_rules(3)
        answer = breaks(state, "SOL-1", type="craft", player=0, recipe="pickaxe")
        assert [v.key for v in answer.violations] == ["v.no_craft_after_solitary"]

    def test_breaks_under_the_latest_rules(self):
        """A new game gets the latest rules, which refuse it."""
        state = start(
            4,
            modules=TEAM,
            hands={0: ["links", "blade"]},
            player_fields={0: {"place": "solitary", "background": "too_fast_for_you"}},
        )
        follows(state, type="reveal_background", player=0, card="too_fast_for_you")
        follows(state, type="move", player=0, die=[1], to="cell_block_b")
        breaks(state, "SOL-1", type="craft", player=0, recipe="knives")

    def test_follows_the_next_turn(self):
        """The turn after, begun in Cell Block B, the same Craft is legal (TEAM-6)."""
        state = out_of_solitary_into_the_other_cell_block(3)
        for seat in range(4):
            follows(state, type="end_turn", player=seat)
        assert state.active == 0 and state.actions_left == 2
        follows(state, type="craft", player=0, recipe="knives")
        assert state.players[0].hand.known == {"knife": 2}

    def test_follows_i_never_liked_rules_without_solitary(self):
        state = start(hands={0: ["links", "pike"]}, rules_version=3)
        follows(state, type="reveal_background", player=0, card="i_never_liked_rules")
        follows(state, type="craft", player=0, recipe="pickaxe")
        assert state.players[0].hand.known == {"pickaxe": 1}


class TestTheVersionGate:
    """A stored game replays by judging its entries again: what version 3 refuses, a game of
    versions 1 and 2 took, and still takes."""

    @pytest.mark.parametrize("version", [1, 2])
    def test_older_games_craft_in_the_other_teams_cell_block(self, version):
        state = out_of_solitary_into_the_other_cell_block(version)
        follows(state, type="craft", player=0, recipe="knives")
        assert state.players[0].hand.known == {"knife": 2}

    @pytest.mark.parametrize("version", [1, 2])
    def test_older_games_craft_with_i_never_liked_rules(self, version):
        state = out_of_solitary_with_i_never_liked_rules(version)
        follows(state, type="craft", player=0, recipe="pickaxe")
        assert state.players[0].hand.known == {"pickaxe": 1}

    @pytest.mark.parametrize("version, accepted", [(2, True), (3, False)])
    def test_the_same_craft_by_version(self, version, accepted):
        state = out_of_solitary_with_i_never_liked_rules(version)
        answer = play(state, type="craft", player=0, recipe="pickaxe")
        assert answer.accepted is accepted
        assert [v.rule for v in answer.violations] == ([] if accepted else ["SOL-1"])


class TestSearchAndExtortAlreadyBoundTheTurn:
    """SOL-1 names Search and Extort too. No exception ever lifted them, so every version already
    refused them for the whole turn: nothing changes for them, and they need no version."""

    @pytest.mark.parametrize("version", [1, 2, 3])
    def test_breaks_search_and_extort_in_the_other_teams_cell_block(self, version):
        state = start(
            4,
            modules=TEAM,
            hands={0: ["knife"], 1: ["spoon"]},
            rules_version=version,
            player_fields={0: {"place": "solitary", "background": "too_fast_for_you"}, 1: {"place": "cell_block_b"}},
        )
        follows(state, type="reveal_background", player=0, card="too_fast_for_you")
        follows(state, type="move", player=0, die=[1], to="cell_block_b")
        answer = breaks(state, "SOL-1", type="search", player=0)
        assert answer.violations[0].key == "v.no_search_after_solitary"
        answer = breaks(state, "SOL-1", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert answer.violations[0].key == "v.no_extort_after_solitary"

    def test_follows_search_and_extort_the_next_turn(self):
        state = start(
            4,
            modules=TEAM,
            hands={0: ["knife"], 1: ["spoon"]},
            player_fields={0: {"place": "cell_block_b"}, 1: {"place": "cell_block_b"}},
        )
        follows(state, type="search", player=0)
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert state.pending.kind == "extortion_answer"
