"""The Laundry (LAUN-1..2): Change style, Steal bandage, and the Bandage's two uses."""

from support import breaks, follows, known, rule_test, start

LAUNDRY = {"places": ["laundry"]}


def _in_laundry(hand=None, **fields):
    return start(
        3, modules=LAUNDRY, hands=None if hand is None else {0: hand}, player_fields={0: {"place": "laundry", **fields}}
    )


@rule_test("LAUN-1")
class TestLaun1:
    def test_breaks(self):
        """Change style is a Laundry action."""
        state = start(3, modules=LAUNDRY, hands={0: ["boots"]})
        breaks(state, "LAUN-1", type="change_style", player=0, gang="bikers", cards=["boots"])

    def test_breaks_full_price(self):
        """One Accessory fewer is the price: the Bikers take exactly 1 here, not 2."""
        state = _in_laundry(["boots", "ring"])
        answer = breaks(state, "GANG-1", type="change_style", player=0, gang="bikers", cards=["boots", "ring"])
        assert answer.violations[0].params == {"gang": "bikers", "count": 1}

    def test_follows(self):
        """The Bikers for one Accessory: the card is taken from the top of the pile (or the one named)."""
        state = _in_laundry(["boots", "cap"])
        follows(state, type="change_style", player=0, gang="bikers", cards=["boots"], card="master_key")
        p = state.players[0]
        assert (p.gang, p.ability) == ("bikers", "master_key")
        assert known(state, 0) == {"cap": 1} and state.discard == ["boots"]
        assert "master_key" not in state.gang_piles["bikers"] and len(state.gang_piles["bikers"]) == 3
        assert state.actions_left == 1

    def test_follows_queers_for_two(self):
        state = _in_laundry(["boots", "cap"])
        follows(state, type="change_style", player=0, gang="queers", cards=["boots", "cap"])
        assert state.players[0].gang == "queers" and known(state, 0) == {}


@rule_test("LAUN-2")
class TestLaun2:
    def test_breaks(self):
        """Steal bandage is a Laundry action."""
        state = start(3, modules=LAUNDRY)
        breaks(state, "LAUN-2", type="steal_bandage", player=0)

    def test_breaks_heal_without_a_bandage(self):
        state = start(3, modules=LAUNDRY, player_fields={0: {"beatings": 1}})
        answer = breaks(state, "LAUN-2", type="heal", player=0, bandage=True)
        assert answer.violations[0].message == "You have no Bandage token."

    def test_breaks_craft_without_a_bandage(self):
        state = _in_laundry(["pike"])
        breaks(state, "LAUN-2", type="craft", player=0, recipe="pickaxe", bandage=1, cards=["pike"])

    def test_breaks_bandage_for_a_non_links_card(self):
        """A recipe with one Links card takes one Bandage at most."""
        state = _in_laundry(["pike"], tokens={"bandage": 2})
        breaks(state, "LAUN-2", type="craft", player=0, recipe="pickaxe", bandage=2, cards=["pike"])

    def test_breaks_bandage_heal_costs_an_action(self):
        """It is the Heal action: with no action left it is refused."""
        state = start(3, modules=LAUNDRY, player_fields={0: {"beatings": 1, "tokens": {"bandage": 1}}})
        state.actions_left = 0
        breaks(state, "TURN-1", type="heal", player=0, bandage=True)

    def test_follows(self):
        """Steal bandage takes a token from the Laundry's supply."""
        state = _in_laundry()
        follows(state, type="steal_bandage", player=0)
        assert state.players[0].tokens == {"bandage": 1}
        assert state.supplies["bandage"] == 9 and state.actions_left == 1

    def test_follows_craft_with_a_bandage(self):
        """Bandage + Pike make a Pickaxe (in the Laundry, where Craft is allowed); no Links used."""
        state = _in_laundry(["pike", "links"], tokens={"bandage": 1})
        follows(state, type="craft", player=0, recipe="pickaxe", bandage=1, cards=["pike"])
        assert known(state, 0) == {"links": 1, "pickaxe": 1}
        assert state.players[0].tokens == {} and state.supplies["bandage"] == 10
        assert state.discard == ["pike"] and state.piles["pickaxe"] == 10

    def test_follows_heal_anywhere(self):
        """In the Cell Block, a Bandage heals 1 Beating for 1 action."""
        state = start(3, modules=LAUNDRY, player_fields={0: {"beatings": 2, "tokens": {"bandage": 1}}})
        follows(state, type="heal", player=0, bandage=True)
        p = state.players[0]
        assert p.beatings == 1 and p.tokens == {} and state.supplies["bandage"] == 10
        assert state.actions_left == 1
