"""The Gambling Cells (GAMB-1..2): Bet, Plan, and the one-action Cautious move."""

import pytest

from support import breaks, follows, rule_test, said, start

CELLS = {"places": ["gambling_cells"]}


def _at_the_tables(cigarettes=5, **fields):
    """Everybody starts in the Gambling Cells (they cover the Cell Block)."""
    return start(3, modules=CELLS, player_fields={0: {"cigarettes": cigarettes, **fields}})


@rule_test("GAMB-1")
class TestGamb1:
    def test_breaks(self):
        """Bet only in the Gambling Cells."""
        state = start(3, modules=CELLS, player_fields={0: {"place": "cafeteria", "cigarettes": 5}})
        breaks(state, "GAMB-1", type="bet", player=0, amount=1, number=2, die=[6])

    @pytest.mark.parametrize("amount, number", [(0, 3), (4, 3), (2, 1), (2, 7)])
    def test_breaks_out_of_range(self, amount, number):
        state = _at_the_tables()
        answer = breaks(state, "GAMB-1", type="bet", player=0, amount=amount, number=number, die=[6])
        assert answer.violations[0].message == "Bet 1 to 3 cigarettes on a number from 2 to 6."

    def test_breaks_without_the_cigarettes(self):
        state = _at_the_tables(cigarettes=2)
        breaks(state, "GAMB-1", type="bet", player=0, amount=3, number=2, die=[6])

    def test_breaks_two_dice(self):
        state = _at_the_tables()
        breaks(state, "GAMB-1", type="bet", player=0, amount=1, number=2, die=[1, 6])

    def test_follows(self):
        """A win pays the bet times the number: 5 - 2 + 2 x 3 = 9."""
        state = _at_the_tables()
        answer = follows(state, type="bet", player=0, amount=2, number=3, die=[3])
        assert state.players[0].cigarettes == 9
        assert state.actions_left == 1
        assert [e["change"] for e in said(answer) if e["type"] == "cigarettes"] == [-2, 6]

    def test_follows_lost_bet(self):
        """A result below the number loses the bet."""
        state = _at_the_tables()
        follows(state, type="bet", player=0, amount=3, number=6, die=[5])
        assert state.players[0].cigarettes == 2

    def test_follows_top_payout(self):
        state = _at_the_tables(cigarettes=3)
        follows(state, type="bet", player=0, amount=3, number=6, die=[6])
        assert state.players[0].cigarettes == 18

    def test_follows_dig_stays(self):
        """The Gambling Cells keep the Dig."""
        state = start(3, modules=CELLS, hands={0: ["spoon"]})
        follows(state, type="dig", player=0, tool="spoon")
        assert state.players[0].tunnel == 1


@rule_test("GAMB-2")
class TestGamb2:
    def test_breaks(self):
        """A Planning token is needed to pay a Cautious move with one action."""
        state = start(3, modules=CELLS)
        answer = breaks(state, "GAMB-2", type="cautious_move", player=0, to="showers", planning=True)
        assert answer.violations[0].message == "You have no Planning token."

    def test_breaks_plan_elsewhere(self):
        state = start(3, modules=CELLS, player_fields={0: {"place": "cafeteria"}})
        breaks(state, "GAMB-2", type="plan", player=0)

    def test_breaks_one_action_left_without_token(self):
        """Without the token a Cautious move still costs 2 actions (MOVE-3)."""
        state = start(3, modules=CELLS)
        state.actions_left = 1
        breaks(state, "MOVE-3", type="cautious_move", player=0, to="showers")

    def test_follows(self):
        """Plan, then a Cautious move with the token: 2 actions for both, the token goes back."""
        state = start(3, modules=CELLS)
        follows(state, type="plan", player=0)
        assert state.players[0].tokens == {"planning": 1} and state.supplies["planning"] == 9
        follows(state, type="cautious_move", player=0, to="showers", planning=True)
        assert state.players[0].place == "showers"
        assert state.players[0].tokens == {} and state.supplies["planning"] == 10
        assert state.actions_left == 0

    def test_follows_out_of_solitary(self):
        """A turn started in Solitary Confinement (1 action) can still end with a Cautious move."""
        state = start(3, modules=CELLS, player_fields={0: {"place": "solitary", "tokens": {"planning": 1}}})
        assert state.actions_left == 1
        follows(state, type="cautious_move", player=0, to="cafeteria", planning=True)
        assert state.players[0].place == "cafeteria" and state.actions_left == 0

    def test_follows_with_one_action_left(self):
        state = start(3, modules=CELLS, player_fields={0: {"tokens": {"planning": 1}}})
        state.actions_left = 1
        follows(state, type="cautious_move", player=0, to="solitary", planning=True)
        assert state.players[0].place == "solitary" and state.actions_left == 0
