"""GANG-1, GANG-2 (joining a Gang) and ACT-1 (playing an Action card)."""

import pytest

from support import breaks, follows, known, rule_test, said, start

JOIN = {
    "bikers": ["boots", "bandana"],
    "bratva": ["golden_chain", "silver_watch"],
    "cartel": ["cap", "silver_watch"],
    "crew": ["golden_chain", "bandana"],
    "queers": ["boots", "cap", "silver_watch"],
    "triad": ["ring", "golden_chain", "bandana"],
}


@rule_test("GANG-1")
class TestGang1:
    def test_breaks(self):
        """The Bikers take Boots, Ring or Bandana: not a Cap."""
        state = start(hands={0: ["boots", "cap"]})
        answer = breaks(state, "GANG-1", type="join_gang", player=0, gang="bikers", cards=["boots", "cap"])
        assert answer.violations[0].message == "The Bikers do not take Cap; they take Bandana, Boots, Ring."

    def test_breaks_with_two_copies_of_one_type(self):
        state = start(hands={0: ["boots", "boots"]})
        answer = breaks(state, "GANG-1", type="join_gang", player=0, gang="bikers", cards=["boots", "boots"])
        assert answer.violations[0].message == "Two copies of one Accessory never count: discard different ones."

    def test_breaks_with_too_few(self):
        state = start(hands={0: ["boots", "ring"]})
        answer = breaks(state, "GANG-1", type="join_gang", player=0, gang="queers", cards=["boots", "ring"])
        assert answer.violations[0].message == "Joining the Queers takes exactly 3 different Accessories."

    def test_breaks_with_too_many(self):
        state = start(hands={0: ["boots", "ring", "bandana"]})
        breaks(state, "GANG-1", type="join_gang", player=0, gang="bikers", cards=["boots", "ring", "bandana"])

    @pytest.mark.parametrize("gang", sorted(JOIN))
    def test_follows(self, gang):
        """Discard the Accessories (1 action), take the top card of the Gang's pile."""
        cards = JOIN[gang]
        state = start(hands={0: cards + ["links"]})
        pile = list(state.gang_piles[gang])
        top = pile[0]
        answer = follows(state, type="join_gang", player=0, gang=gang, cards=cards)
        p = state.players[0]
        assert p.gang == gang and p.ability == top
        assert known(state, 0) == {"links": 1} and state.discard == cards
        assert state.gang_piles[gang] == pile[1:] and state.actions_left == 1
        assert {"type": "join_gang", "player": 0, "gang": gang, "ability": top} in said(answer)

    def test_unknown_cards_stand_for_the_accessories(self):
        state = start()
        follows(state, type="join_gang", player=0, gang="crew", cards=["cap", "bandana"])
        assert state.players[0].gang == "crew" and state.players[0].hand.unknown == 1


@rule_test("GANG-2")
class TestGang2:
    def test_breaks(self):
        """Four players hold the four Bikers cards: a fifth cannot join the Bikers."""
        fields = {
            seat: {"gang": "bikers", "ability": ability}
            for seat, ability in enumerate(["master_key", "second_chance", "not_so_free_pass", "lucky_number"])
        }
        fields[4] = {"place": "cell_block"}
        state = start(5, hands={4: ["boots", "ring"]}, player_fields=fields, first_player=4)
        assert state.gang_piles["bikers"] == []
        answer = breaks(state, "GANG-2", type="join_gang", player=4, gang="bikers", cards=["boots", "ring"])
        assert answer.violations[0].message == "The Bikers pile is empty: nobody can join them now."

    def test_follows(self):
        """Joining the same Gang again: the old card goes under the pile, the top card is taken."""
        state = start(hands={0: ["boots", "ring"]}, player_fields={0: {"gang": "bikers", "ability": "master_key"}})
        pile = list(state.gang_piles["bikers"])
        follows(state, type="join_gang", player=0, gang="bikers", cards=["boots", "ring"])
        assert state.players[0].gang == "bikers" and state.players[0].ability == pile[0]
        assert state.gang_piles["bikers"] == pile[1:] + ["master_key"]

    def test_one_gang_at_a_time(self):
        state = start(
            hands={0: ["cap", "silver_watch"]}, player_fields={0: {"gang": "bikers", "ability": "master_key"}}
        )
        follows(state, type="join_gang", player=0, gang="cartel", cards=["cap", "silver_watch"])
        assert state.players[0].gang == "cartel"
        assert state.gang_piles["bikers"][-1] == "master_key" and len(state.gang_piles["bikers"]) == 4


@rule_test("ACT-1")
class TestAct1:
    def test_breaks(self):
        """Solitary Confinement sends a player there: it needs a target."""
        state = start(hands={0: ["solitary_confinement"]})
        answer = breaks(state, "ACT-1", type="play_action", player=0, card="solitary_confinement")
        assert answer.violations[0].message == "Choose a player."

    def test_breaks_a_card_not_in_hand(self):
        state = start(hands={0: ["links"]})
        breaks(state, "HAND-1", type="play_action", player=0, card="cafeteria_key")

    def test_follows(self):
        """1 action: the card is revealed, its effect applied (a Spoon), and discarded."""
        state = start(hands={0: ["cafeteria_key", "links"]})
        answer = follows(state, type="play_action", player=0, card="cafeteria_key")
        assert known(state, 0) == {"links": 1, "spoon": 1}
        assert state.discard == ["cafeteria_key"] and state.piles["spoon"] == 10 and state.actions_left == 1
        assert {"type": "action_card", "player": 0, "card": "cafeteria_key", "target": None} in said(answer)

    def test_an_unknown_card_can_be_the_action_card(self):
        state = start()
        follows(state, type="play_action", player=0, card="cafeteria_key")
        assert known(state, 0) == {"spoon": 1} and state.players[0].hand.unknown == 2
