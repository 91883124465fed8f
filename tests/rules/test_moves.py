"""SRCH-1 (Search), MOVE-1..3 (Simple and Cautious moves), SOL-1 (Solitary Confinement) and
ADJ-1 (adjacent Places)."""

import pytest

from support import breaks, follows, known, rule_test, said, start


@rule_test("SRCH-1")
class TestSrch1:
    def test_breaks(self):
        """At most one Search per turn."""
        state = start(house_rules={"actions_per_turn": 3})
        follows(state, type="search", player=0)
        answer = breaks(state, "SRCH-1", type="search", player=0)
        assert answer.violations[0].message == "You have already searched this turn."

    def test_breaks_entering_more_cards_than_the_place_gives(self):
        state = start()
        answer = breaks(state, "SRCH-1", type="search", player=0, cards=["links", "pike"])
        assert answer.violations[0].message == "You draw 1 card here."

    def test_breaks_entering_a_board_card(self):
        """A Search draws Search cards: a Knife cannot be entered as drawn."""
        state = start()
        breaks(state, "SRCH-1", type="search", player=0, cards=["knife"])

    @pytest.mark.parametrize(
        "place, count",
        [("cell_block", 1), ("cafeteria", 2), ("recreational_area", 2), ("infirmary", 1), ("showers", 3)],
    )
    def test_follows(self, place, count):
        """Draw as many Search cards as the Place shows; unentered ones join the hand as unknown."""
        state = start(player_fields={0: {"place": place}})
        answer = follows(state, type="search", player=0)
        assert state.players[0].hand.unknown == 3 + count
        assert state.deck == 68 - count and state.actions_left == 1
        assert {"type": "draw", "player": 0, "cards": ["unknown"] * count, "why": "search"} in said(answer)

    def test_entered_cards_are_known(self):
        state = start(player_fields={0: {"place": "showers"}})
        follows(state, type="search", player=0, cards=["blade", "links"])
        assert known(state, 0) == {"blade": 1, "links": 1} and state.players[0].hand.unknown == 4

    def test_once_per_turn_again_next_turn(self):
        state = start()
        follows(state, type="search", player=0)
        for seat in (0, 1, 2):
            follows(state, type="end_turn", player=seat)
        follows(state, type="search", player=0)
        assert state.players[0].hand.unknown == 5


# Simple move: from the Showers (named by faces 5 and 6 only), the two Places of each face.
FACES = {
    1: ["cell_block", "cafeteria"],
    2: ["cell_block", "recreational_area"],
    3: ["cell_block", "infirmary"],
    4: ["cafeteria", "recreational_area"],
}


@rule_test("MOVE-1")
class TestMove1:
    def test_breaks(self):
        """A 1 names the Cell Block and the Cafeteria: not the Infirmary."""
        state = start(player_fields={0: {"place": "showers"}})
        answer = breaks(state, "MOVE-1", type="move", player=0, die=[1], to="infirmary")
        assert answer.violations[0].message == "A 1 does not lead to the Infirmary: go to one of Cell Block, Cafeteria."

    def test_breaks_a_wrong_answer_to_the_destination(self):
        state = start(player_fields={0: {"place": "showers"}})
        follows(state, type="move", player=0, die=[2])
        breaks(state, "MOVE-1", type="choose", player=0, option="cafeteria")

    @pytest.mark.parametrize("face", [1, 2, 3, 4])
    @pytest.mark.parametrize("pick", [0, 1])
    def test_follows(self, face, pick):
        """Each face names 2 Places; the mover takes one of them (1 action)."""
        to = FACES[face][pick]
        state = start(player_fields={0: {"place": "showers"}})
        answer = follows(state, type="move", player=0, die=[face], to=to)
        assert state.players[0].place == to and state.actions_left == 1 and state.pending is None
        assert said(answer)[0] == {"type": "roll", "player": 0, "die": face, "source": "table", "why": "move"}

    def test_the_app_rolls_when_no_die_is_given(self):
        state = start(seed=3)
        answer = follows(state, type="move", player=0)
        rolls = [e for e in said(answer) if e["type"] == "roll"]
        assert len(rolls) == 1 and rolls[0]["source"] == "app"
        face = rolls[0]["die"]
        if state.pending is not None:
            assert state.pending.options == [p for p in state.board.faces[face] if p != "cell_block"]
        else:
            assert state.players[0].place in state.board.faces[face]


@rule_test("MOVE-2")
class TestMove2:
    def test_breaks(self):
        """In the Cafeteria a 1 cannot keep you there."""
        state = start(player_fields={0: {"place": "cafeteria"}})
        answer = breaks(state, "MOVE-2", type="move", player=0, die=[1], to="cafeteria")
        assert answer.violations[0].message == "You are already in the Cafeteria: you cannot stay where you are."

    def test_breaks_a_cautious_move_to_where_you_are(self):
        state = start()
        breaks(state, "MOVE-2", type="cautious_move", player=0, to="cell_block")

    def test_follows(self):
        """When the face names your Place, you must take the other one: no question asked."""
        state = start(player_fields={0: {"place": "cafeteria"}})
        answer = follows(state, type="move", player=0, die=[1])
        assert state.players[0].place == "cell_block" and state.pending is None and answer.pending is None


@rule_test("MOVE-3")
class TestMove3:
    def test_breaks(self):
        """A Cautious move costs 2 actions: with 1 left it is refused."""
        state = start()
        follows(state, type="search", player=0)
        answer = breaks(state, "MOVE-3", type="cautious_move", player=0, to="showers")
        assert answer.violations[0].message == "That costs 2 actions; you have 1 left."

    def test_follows(self):
        """Any Place, Solitary Confinement included, without a die."""
        state = start()
        answer = follows(state, type="cautious_move", player=0, to="solitary")
        assert state.players[0].place == "solitary" and state.actions_left == 0
        assert not [e for e in said(answer) if e["type"] == "roll"]


@rule_test("SOL-1")
class TestSol1:
    def test_breaks(self):
        """Starting the turn in Solitary: no Search."""
        state = start(player_fields={0: {"place": "solitary"}})
        answer = breaks(state, "SOL-1", type="search", player=0)
        assert answer.violations[0].message == "No Search in Solitary Confinement."

    def test_breaks_extort_and_craft(self):
        state = start(
            hands={0: ["knife", "links", "blade"], 1: ["spoon"]},
            player_fields={0: {"place": "solitary"}, 1: {"place": "solitary"}},
        )
        breaks(state, "SOL-1", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        breaks(state, "SOL-1", type="craft", player=0, recipe="knives")

    def test_follows(self):
        """Only 1 action: a Simple move out, then nothing more (the next turn has 2 again)."""
        state = start(player_fields={0: {"place": "solitary"}})
        assert state.actions_left == 1
        follows(state, type="move", player=0, die=[5], to="showers")
        assert state.players[0].place == "showers" and state.actions_left == 0
        breaks(state, "TURN-1", type="search", player=0)
        for seat in (0, 1, 2):
            follows(state, type="end_turn", player=seat)
        assert state.active == 0 and state.actions_left == 2

    def test_a_player_sent_there_has_one_action_next_turn(self):
        state = start()
        follows(state, type="cautious_move", player=0, to="solitary")
        follows(state, type="end_turn", player=0)
        follows(state, type="cautious_move", player=1, to="solitary")
        follows(state, type="end_turn", player=1)
        follows(state, type="end_turn", player=2)
        assert state.active == 0 and state.actions_left == 1

    def test_the_restrictions_last_the_whole_turn(self):
        """Started in Solitary, left it (Too Fast for You gave a 2nd action): still no Search, Extort or Craft."""
        state = start(
            hands={0: ["links", "blade", "knife"], 1: ["spoon"]},
            player_fields={0: {"place": "solitary"}, 1: {"place": "cafeteria"}},
        )
        follows(state, type="reveal_background", player=0, card="too_fast_for_you")
        follows(state, type="move", player=0, die=[1], to="cafeteria")
        answer = breaks(state, "SOL-1", type="search", player=0)
        assert answer.violations[0].message == "You started this turn in Solitary Confinement: no Search this turn."
        breaks(state, "SOL-1", type="craft", player=0, recipe="knives")
        breaks(state, "SOL-1", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])


@rule_test("ADJ-1")
class TestAdj1:
    def test_breaks(self):
        """No die face names both the Cell Block and the Showers: Master Key cannot go there."""
        state = start(player_fields={0: {"gang": "bikers", "ability": "master_key"}})
        answer = breaks(state, "ADJ-1", type="gang_ability", player=0, ability="master_key", to="showers")
        assert answer.violations[0].message == "The Showers is not adjacent to the Cell Block."

    def test_follows(self):
        """Adjacent: one die face names both Places."""
        state = start(player_fields={0: {"gang": "bikers", "ability": "master_key"}})
        follows(state, type="gang_ability", player=0, ability="master_key", to="infirmary")
        assert state.players[0].place == "infirmary" and state.actions_left == 1

    def test_the_adjacency_table(self):
        adjacent = start().board.adjacent
        assert adjacent["cell_block"] == {"cafeteria", "recreational_area", "infirmary"}
        assert adjacent["cafeteria"] == {"cell_block", "recreational_area"}
        assert adjacent["recreational_area"] == {"cell_block", "cafeteria", "showers"}
        assert adjacent["infirmary"] == {"cell_block", "showers"}
        assert adjacent["showers"] == {"infirmary", "recreational_area"}
        assert adjacent["solitary"] == set()
