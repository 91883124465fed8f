"""The Psychiatric Ward (PSY-1..3): its restrictions, the Trauma drawn on arrival, and the six
Traumas' restrictions."""

import pytest

from support import breaks, follows, known, rule_test, said, start

WARD = {"places": ["psychiatric_ward"]}


def _with_trauma_on_top(trauma, **config):
    """A game whose seeded Trauma stack has `trauma` on top (the first such seed)."""
    for seed in range(1, 500):
        state = start(3, modules=WARD, seed=seed, **config)
        if state.trauma_stack[0] == trauma:
            return state
    raise AssertionError(f"no seed puts {trauma} on top")


def _with_trauma(trauma, hand=None, players=3, **fields):
    return start(
        players,
        modules=WARD,
        hands=None if hand is None else {0: hand},
        player_fields={0: {"trauma": trauma, **fields}},
    )


@rule_test("PSY-1")
class TestPsy1:
    def test_breaks(self):
        """No Search in the Psychiatric Ward."""
        state = start(3, modules=WARD, player_fields={0: {"place": "psychiatric_ward"}})
        answer = breaks(state, "PSY-1", type="search", player=0)
        assert answer.violations[0].message == "No Search in the Psychiatric Ward."

    def test_breaks_extort(self):
        state = start(
            3,
            modules=WARD,
            hands={0: ["knife"]},
            player_fields={0: {"place": "psychiatric_ward"}, 1: {"place": "psychiatric_ward"}},
        )
        breaks(state, "PSY-1", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])

    def test_breaks_craft(self):
        state = start(3, modules=WARD, hands={0: ["links", "pike"]}, player_fields={0: {"place": "psychiatric_ward"}})
        breaks(state, "PSY-1", type="craft", player=0, recipe="pickaxe")

    def test_follows(self):
        """A turn started in the Ward has 2 actions (Solitary Confinement would give 1)."""
        state = start(2, modules=WARD, player_fields={1: {"place": "psychiatric_ward"}})
        follows(state, type="end_turn", player=0)
        assert state.active == 1 and state.actions_left == 2
        follows(state, type="move", player=1, die=[4], to="cafeteria")
        follows(state, type="steal_spoon", player=1)
        assert state.players[1].place == "cafeteria" and known(state, 1) == {"spoon": 1}
        assert state.actions_left == 0


@rule_test("PSY-2")
class TestPsy2:
    def test_breaks(self):
        """Discarding a Trauma instead of a Beating needs a Trauma."""
        state = start(3, modules=WARD, player_fields={0: {"place": "infirmary", "beatings": 1}})
        answer = breaks(state, "PSY-2", type="heal", player=0, trauma=True)
        assert answer.violations[0].message == "You have no Trauma to discard."

    def test_follows(self):
        """Arrival draws and reveals the top Trauma token."""
        state = start(3, modules=WARD)
        stack = list(state.trauma_stack)
        answer = follows(state, type="cautious_move", player=0, to="psychiatric_ward")
        assert state.players[0].trauma == stack[0]
        assert state.trauma_stack == stack[1:] and state.supplies["trauma"] == 5
        assert {"type": "trauma", "player": 0, "trauma": stack[0], "change": 1, "why": "psychiatric_ward"} in said(
            answer
        )

    def test_follows_one_trauma_at_a_time(self):
        """A second arrival replaces the Trauma: the old one goes under the stack."""
        state = start(
            3,
            modules=WARD,
            hands={0: ["solitary_confinement"]},
            player_fields={1: {"place": "cafeteria", "trauma": "max_five"}},
        )
        stack = list(state.trauma_stack)
        assert "max_five" not in stack
        follows(state, type="play_action", player=0, card="solitary_confinement", target=1)
        assert state.players[1].trauma == stack[0]
        assert state.trauma_stack == stack[1:] + ["max_five"]
        assert state.supplies["trauma"] == 5

    def test_follows_heal_discards_the_trauma_instead(self):
        """Heal in the Infirmary may discard the Trauma and leave the Beating."""
        state = _with_trauma("no_buy", place="infirmary", beatings=1)
        follows(state, type="heal", player=0, trauma=True)
        p = state.players[0]
        assert p.trauma is None and p.beatings == 1
        assert state.trauma_stack[-1] == "no_buy" and state.supplies["trauma"] == 6
        assert state.actions_left == 1

    def test_follows_bandage_discards_the_trauma(self):
        """A Bandage performs the Heal action anywhere, so it may discard the Trauma too."""
        state = start(
            3,
            modules={"places": ["psychiatric_ward", "laundry"]},
            player_fields={0: {"trauma": "no_extort", "beatings": 1, "tokens": {"bandage": 1}}},
        )
        follows(state, type="heal", player=0, bandage=True, trauma=True)
        assert state.players[0].trauma is None and state.players[0].beatings == 1
        assert state.players[0].tokens == {}

    def test_follows_background_discards_the_trauma(self):
        """I Got Strong Bones They Say removes a Beating, so it may discard the Trauma instead."""
        state = _with_trauma("no_buy", beatings=1, background="i_got_strong_bones_they_say")
        follows(state, type="reveal_background", player=0, card="i_got_strong_bones_they_say", trauma=True)
        assert state.players[0].trauma is None and state.players[0].beatings == 1


@rule_test("PSY-3")
class TestPsy3:
    def test_breaks(self):
        """No Extort with that Trauma."""
        state = _with_trauma("no_extort", ["knife"])
        answer = breaks(state, "PSY-3", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert answer.violations[0].message == "Your Trauma forbids extorting."

    def test_follows(self):
        """The same extortion without a Trauma is fine."""
        state = start(3, modules=WARD, hands={0: ["knife"], 1: []})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert state.combat is not None and state.pending.player == 1

    @pytest.mark.parametrize("place, drawn", [("cafeteria", 1), ("cell_block", 0)])
    def test_search_minus_one(self, place, drawn):
        """Search draws one fewer, never below 0."""
        state = _with_trauma("search_minus_one", place=place)
        answer = follows(state, type="search", player=0)
        assert {"type": "draw", "player": 0, "cards": ["unknown"] * drawn, "why": "search"} in said(answer)
        assert state.players[0].hand.unknown == 3 + drawn

    def test_max_five_at_end_of_turn(self):
        """Six cards cannot end the turn; discarding one can."""
        state = _with_trauma("max_five", ["rare"] * 4 + ["knife", "knife"])
        answer = breaks(state, "TURN-3", type="end_turn", player=0)
        assert answer.violations[0].message == "You hold 6 cards: discard 1 to end your turn (limit 5)."
        follows(state, type="end_turn", player=0, discard=["knife"])
        assert known(state, 0) == {"rare": 4, "knife": 1} and state.active == 1

    def test_max_five_five_cards_are_fine(self):
        state = _with_trauma("max_five", ["rare"] * 5)
        follows(state, type="end_turn", player=0)

    def test_no_buy(self):
        state = _with_trauma("no_buy", place="recreational_area", cigarettes=5)
        breaks(state, "PSY-3", type="buy", player=0, item="knife")

    def test_no_join_gang(self):
        state = _with_trauma("no_join_gang", ["boots", "ring"])
        breaks(state, "PSY-3", type="join_gang", player=0, gang="bikers", cards=["boots", "ring"])

    def test_no_change_style(self):
        state = start(
            3,
            modules={"places": ["psychiatric_ward", "laundry"]},
            hands={0: ["boots"]},
            player_fields={0: {"trauma": "no_join_gang", "place": "laundry"}},
        )
        breaks(state, "PSY-3", type="change_style", player=0, gang="bikers", cards=["boots"])

    def test_no_join_gang_discards_the_gang_card(self):
        """Drawing that Trauma sends the held Gang card to the bottom of its pile."""
        state = _with_trauma_on_top("no_join_gang", player_fields={0: {"gang": "bikers", "ability": "master_key"}})
        pile = list(state.gang_piles["bikers"])
        follows(state, type="cautious_move", player=0, to="psychiatric_ward")
        p = state.players[0]
        assert p.trauma == "no_join_gang" and p.gang is None and p.ability is None
        assert state.gang_piles["bikers"] == pile + ["master_key"]

    def test_no_action_cards(self):
        state = _with_trauma("no_action_cards", ["cafeteria_key"])
        breaks(state, "PSY-3", type="play_action", player=0, card="cafeteria_key")

    def test_a_trauma_only_forbids_its_own_thing(self):
        """Holding "no_buy" does not stop an extortion."""
        state = _with_trauma("no_buy", ["knife"])
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
