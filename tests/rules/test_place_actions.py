"""Place actions: DIG-1, SPOON-1, SELL-1, BUY-1, HEAL-1 (1 action each, only in their Place)."""

import pytest

from support import breaks, follows, known, rule_test, said, start


@rule_test("DIG-1")
class TestDig1:
    def test_breaks(self):
        """Dig only in the Cell Block."""
        state = start(hands={0: ["spoon"]}, player_fields={0: {"place": "cafeteria"}})
        answer = breaks(state, "DIG-1", type="dig", player=0, tool="spoon")
        assert answer.violations[0].message == "Dig is not possible in the Cafeteria (only in: Cell Block)."

    @pytest.mark.parametrize("tool, points", [("spoon", 1), ("pickaxe", 2), ("shovel", 3)])
    def test_follows(self, tool, points):
        """The Tool leaves the hand for the player's board (not its pile) and scores its points."""
        state = start(hands={0: [tool, "links"]}, player_fields={0: {"tunnel": 2}})
        pile = state.piles[tool]
        answer = follows(state, type="dig", player=0, tool=tool)
        p = state.players[0]
        assert p.tunnel == 2 + points and p.dug == [tool] and known(state, 0) == {"links": 1}
        assert state.piles[tool] == pile and state.actions_left == 1
        assert {"type": "dig", "player": 0, "tool": tool, "points": points, "tunnel": 2 + points} in said(answer)


@rule_test("SPOON-1")
class TestSpoon1:
    def test_breaks(self):
        """Steal a Spoon only in the Cafeteria."""
        state = start()
        answer = breaks(state, "SPOON-1", type="steal_spoon", player=0)
        assert answer.violations[0].message == "Steal a Spoon is not possible in the Cell Block (only in: Cafeteria)."

    def test_follows(self):
        state = start(player_fields={0: {"place": "cafeteria"}})
        follows(state, type="steal_spoon", player=0)
        assert known(state, 0) == {"spoon": 1} and state.piles["spoon"] == 10 and state.actions_left == 1


@rule_test("SELL-1")
class TestSell1:
    def test_breaks(self):
        """Sell only in the Recreational Area."""
        state = start(hands={0: ["rare"]}, player_fields={0: {"place": "cafeteria"}})
        breaks(state, "SELL-1", type="sell", player=0, cards=["rare"], cigarettes=4)

    def test_breaks_without_the_printed_total(self):
        state = start(hands={0: ["rare"]}, player_fields={0: {"place": "recreational_area"}})
        answer = breaks(state, "SELL-1", type="sell", player=0, cards=["rare"])
        assert answer.violations[0].message == "Enter the cigarettes printed on the cards."

    def test_breaks_selling_nothing(self):
        state = start(player_fields={0: {"place": "recreational_area"}})
        answer = breaks(state, "SELL-1", type="sell", player=0, cards=[], cigarettes=0)
        assert answer.violations[0].message == "Choose at least one card to sell."

    def test_follows(self):
        """Any number of cards, one action: gain the printed total, the cards are discarded."""
        state = start(
            hands={0: ["rare", "ring", "links"]}, player_fields={0: {"place": "recreational_area", "cigarettes": 1}}
        )
        follows(state, type="sell", player=0, cards=["rare", "ring"], cigarettes=7)
        assert state.players[0].cigarettes == 8 and known(state, 0) == {"links": 1}
        assert state.discard == ["rare", "ring"] and state.actions_left == 1


@rule_test("BUY-1")
class TestBuy1:
    def test_breaks(self):
        """A Knife costs 2 cigarettes."""
        state = start(player_fields={0: {"place": "recreational_area", "cigarettes": 1}})
        answer = breaks(state, "BUY-1", type="buy", player=0, item="knife")
        assert answer.violations[0].message == "1 Knife costs 2 cigarettes; you have 1."

    def test_breaks_outside_the_recreational_area(self):
        state = start(player_fields={0: {"cigarettes": 10}})
        breaks(state, "BUY-1", type="buy", player=0, item="knife")

    def test_breaks_a_spoon_is_not_for_sale(self):
        state = start(player_fields={0: {"place": "recreational_area", "cigarettes": 10}})
        answer = breaks(state, "BUY-1", type="buy", player=0, item="spoon")
        assert answer.violations[0].message == "1 Spoon is not for sale with these rules."

    @pytest.mark.parametrize(
        "item, price, card, count",
        [
            ("knife", 2, "knife", 1),
            ("two_knives", 5, "knife", 2),
            ("pickaxe", 6, "pickaxe", 1),
            ("shovel", 8, "shovel", 1),
        ],
    )
    def test_follows(self, item, price, card, count):
        """One purchase per action, at the box's prices."""
        state = start(player_fields={0: {"place": "recreational_area", "cigarettes": 9}})
        pile = state.piles[card]
        follows(state, type="buy", player=0, item=item)
        assert state.players[0].cigarettes == 9 - price
        assert known(state, 0) == {card: count} and state.piles[card] == pile - count
        assert state.actions_left == 1


@rule_test("HEAL-1")
class TestHeal1:
    def test_breaks(self):
        """Heal only in the Infirmary."""
        state = start(player_fields={0: {"beatings": 1}})
        answer = breaks(state, "HEAL-1", type="heal", player=0)
        assert answer.violations[0].message == "Heal is not possible in the Cell Block (only in: Infirmary)."

    def test_breaks_with_no_beating(self):
        state = start(player_fields={0: {"place": "infirmary"}})
        answer = breaks(state, "HEAL-1", type="heal", player=0)
        assert answer.violations[0].message == "You have no Beating to heal."

    def test_follows(self):
        """1 action removes 1 Beating (of 2)."""
        state = start(player_fields={0: {"place": "infirmary", "beatings": 2}})
        follows(state, type="heal", player=0)
        assert state.players[0].beatings == 1 and state.actions_left == 1
        follows(state, type="heal", player=0)
        assert state.players[0].beatings == 0
