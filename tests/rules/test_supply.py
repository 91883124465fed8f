"""SUP-1..7: the components and supplies (Search deck, board piles, Gang piles, Backgrounds,
cigarettes, Dig In tokens, Weapons and Tools)."""

from support import breaks, follows, known, rule_test, said, start

# The whole Search deck but 6 Action cards: with two 3-card hands, the deck is empty.
ALL_BUT_SIX = (
    ["container"] * 5
    + ["pike"] * 6
    + ["links"] * 14
    + ["blade"] * 10
    + [a for a in ("boots", "ring", "bandana", "golden_chain", "silver_watch", "cap") for _ in range(3)]
    + ["rare"] * 6
    + ["action"] * 12
)


@rule_test("SUP-1")
class TestSup1:
    def test_breaks(self):
        """All 6 Rare items lie in the discard: an unknown card cannot be a 7th one."""
        state = start(player_fields={0: {"place": "recreational_area"}}, start={"discard": ["rare"] * 6})
        answer = breaks(state, "SUP-1", type="sell", player=0, cards=["rare"], cigarettes=4)
        assert answer.violations[0].message == "Every Rare item card is already accounted for elsewhere."

    def test_breaks_when_entering_a_drawn_card(self):
        """A Search that says it drew a 7th Rare item is refused."""
        state = start(start={"discard": ["rare"] * 6})
        breaks(state, "SUP-1", type="search", player=0, cards=["rare"])

    def test_follows(self):
        """An empty deck: the discard pile is shuffled into a new deck, then the draw goes on."""
        state = start(2, start={"discard": ALL_BUT_SIX})
        assert state.deck == 0 and len(state.discard) == 71
        answer = follows(state, type="search", player=0)
        assert {"type": "reshuffle", "cards": 71} in said(answer)
        assert state.deck == 70 and state.discard == []
        assert state.players[0].hand.unknown == 4

    def test_composition(self):
        """77 cards: a fresh 3-player game has 68 in the deck after dealing 3 each."""
        state = start()
        assert state.deck == 77 - 9
        assert sum(state.catalog.search_deck.values()) == 77


@rule_test("SUP-2")
class TestSup2:
    def test_breaks(self):
        """Nicholas holds all 11 Spoons: nothing to steal from the empty pile."""
        state = start(hands={1: ["spoon"] * 11}, player_fields={0: {"place": "cafeteria"}})
        assert state.piles["spoon"] == 0
        answer = breaks(state, "SUP-2", type="steal_spoon", player=0)
        assert answer.violations[0].message == "That takes 1 Spoon card; the pile has 0."

    def test_breaks_buy_two_knives_from_a_pile_of_one(self):
        state = start(hands={1: ["knife"] * 19}, player_fields={0: {"place": "recreational_area", "cigarettes": 5}})
        breaks(state, "SUP-2", type="buy", player=0, item="two_knives")

    def test_breaks_craft_from_an_empty_pile(self):
        state = start(hands={0: ["links", "pike"], 1: ["pickaxe"] * 11}, player_fields={0: {"place": "cafeteria"}})
        breaks(state, "SUP-2", type="craft", player=0, recipe="pickaxe")

    def test_follows(self):
        """Discarded Tools and Knives go back to their board pile, not to the Search discard."""
        state = start(hands={0: ["spoon", "knife", "pickaxe"]}, player_fields={0: {"place": "recreational_area"}})
        assert state.piles == {"spoon": 10, "pickaxe": 10, "shovel": 11, "knife": 19}
        follows(state, type="sell", player=0, cards=["spoon", "knife", "pickaxe"], cigarettes=0)
        assert state.piles == {"spoon": 11, "pickaxe": 11, "shovel": 11, "knife": 20}
        assert state.discard == [] and known(state, 0) == {}


@rule_test("SUP-3")
class TestSup3:
    def test_breaks(self):
        """Nicholas holds Master Key: it is not in the Bikers pile for Carmen to take."""
        state = start(hands={0: ["boots", "ring"]}, player_fields={1: {"gang": "bikers", "ability": "master_key"}})
        answer = breaks(
            state, "SUP-3", type="join_gang", player=0, gang="bikers", cards=["boots", "ring"], card="master_key"
        )
        assert answer.violations[0].message == "Master Key is not in the Bikers pile."

    def test_breaks_a_card_of_another_gang(self):
        state = start(hands={0: ["boots", "ring"]})
        breaks(state, "SUP-3", type="join_gang", player=0, gang="bikers", cards=["boots", "ring"], card="fury")

    def test_follows(self):
        """Six piles of 4 face-up cards; a discarded Gang card goes to the bottom of its pile."""
        state = start(hands={0: ["boots", "ring"]}, player_fields={0: {"gang": "crew", "ability": "collect"}})
        assert sorted(state.gang_piles) == ["bikers", "bratva", "cartel", "crew", "queers", "triad"]
        assert all(len(pile) == 4 for gang, pile in state.gang_piles.items() if gang != "crew")
        crew_before = list(state.gang_piles["crew"])
        assert len(crew_before) == 3 and "collect" not in crew_before
        top = state.gang_piles["bikers"][0]
        follows(state, type="join_gang", player=0, gang="bikers", cards=["boots", "ring"])
        assert state.players[0].gang == "bikers" and state.players[0].ability == top
        assert state.gang_piles["crew"] == crew_before + ["collect"]
        assert len(state.gang_piles["bikers"]) == 3 and top not in state.gang_piles["bikers"]

    def test_the_summary_shows_each_face_up_top(self):
        """Each Gang pile shows its top card (first of the list); an empty pile shows none."""
        state = start(hands={0: ["boots", "ring"]})
        tops = state.summary()["gang_tops"]
        assert tops == {g: pile[0] for g, pile in sorted(state.gang_piles.items())}
        second = state.gang_piles["bikers"][1]
        follows(state, type="join_gang", player=0, gang="bikers", cards=["boots", "ring"])
        assert state.summary()["gang_tops"]["bikers"] == second
        fields = {
            seat: {"gang": "bikers", "ability": a}
            for seat, a in enumerate(["master_key", "second_chance", "not_so_free_pass", "lucky_number"])
        }
        assert start(4, player_fields=fields).summary()["gang_tops"]["bikers"] is None

    def test_a_named_top_card_is_taken(self):
        state = start(hands={0: ["boots", "ring"]})
        pile = list(state.gang_piles["bikers"])
        follows(state, type="join_gang", player=0, gang="bikers", cards=["boots", "ring"], card=pile[0])
        assert state.players[0].ability == pile[0] and state.gang_piles["bikers"] == pile[1:]

    def test_a_named_card_below_the_top_is_the_top_the_table_saw(self):
        """The app's order below the top is its own shuffle: the box's face-up top wins, the rest keeps its order."""
        state = start(hands={0: ["boots", "ring"]})
        pile = list(state.gang_piles["bikers"])
        answer = follows(state, type="join_gang", player=0, gang="bikers", cards=["boots", "ring"], card=pile[2])
        assert state.players[0].ability == pile[2]
        assert state.gang_piles["bikers"] == [pile[0], pile[1], pile[3]]
        assert {"type": "join_gang", "player": 0, "gang": "bikers", "ability": pile[2]} in said(answer)


@rule_test("SUP-4")
class TestSup4:
    def test_breaks(self):
        """One Background per player, usable once: a second reveal is refused."""
        state = start()
        follows(state, type="reveal_background", player=0, card="too_fast_for_you")
        answer = breaks(state, "SUP-4", type="reveal_background", player=0, card="i_know_a_guy")
        assert answer.violations[0].message == "You have already revealed your Background."

    def test_follows(self):
        """Each player holds one hidden Background; revealing it spends it (18 in the box)."""
        state = start()
        assert state.background_deck == 18 - 3
        assert all(p.has_background and p.background is None for p in state.players)
        follows(state, type="reveal_background", player=0, card="too_fast_for_you")
        p = state.players[0]
        assert not p.has_background and p.revealed == ["too_fast_for_you"] and p.background == "too_fast_for_you"
        assert state.background_deck == 15


@rule_test("SUP-5")
class TestSup5:
    def test_breaks(self):
        """Cigarettes are never negative: a correction to -1 is refused, citing SUP-5."""
        state = start()
        answer = breaks(
            state,
            "SUP-5",
            type="adjust",
            player=0,
            changes=[{"path": "players.0.cigarettes", "set": -1}],
            reason="typo",
        )
        assert answer.violations[0].message == "players.0.cigarettes must be a whole number from 0 to 1000000."

    def test_follows(self):
        """No upper limit on cigarettes."""
        state = start(hands={0: ["rare"]}, player_fields={0: {"place": "recreational_area", "cigarettes": 999}})
        follows(state, type="sell", player=0, cards=["rare"], cigarettes=5)
        assert state.players[0].cigarettes == 1004


LIBRARY = {"neutrals": 0, "places": ["library"]}


@rule_test("SUP-6")
class TestSup6:
    def test_breaks(self):
        """Every Spy token is held: Study cannot take one from the empty supply."""
        state = start(modules=LIBRARY, player_fields={0: {"place": "library"}, 1: {"tokens": {"spy": 10}}})
        assert state.supplies["spy"] == 0
        answer = breaks(state, "SUP-6", type="study", player=0)
        assert answer.violations[0].message == "No Spy token is left in its supply."

    def test_follows(self):
        """A token taken leaves the supply; a discarded one returns to it."""
        state = start(modules=LIBRARY, player_fields={0: {"place": "library"}})
        assert state.supplies["spy"] == 10
        follows(state, type="study", player=0)
        assert state.supplies["spy"] == 9 and state.players[0].tokens == {"spy": 1}
        follows(state, type="spy", player=0, target=1)
        assert state.supplies["spy"] == 10 and state.players[0].tokens == {}


@rule_test("SUP-7")
class TestSup7:
    def test_breaks(self):
        """Links are not a Weapon: they cannot intimidate."""
        state = start(hands={0: ["links"], 1: ["spoon"]})
        answer = breaks(state, "SUP-7", type="extort", player=0, target=1, tool="spoon", weapons=["links"])
        assert answer.violations[0].message == "Links is not a Weapon: only Knives and Blades are."

    def test_follows(self):
        """A Blade is a Weapon (laid to intimidate); Tools score 1, 2 and 3 Tunnel points."""
        state = start(hands={0: ["blade"], 1: ["spoon"]})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["blade"])
        assert state.combat.laid == [(0, "blade")]
        scores = start(hands={0: ["spoon", "pickaxe", "shovel"]}, house_rules={"actions_per_turn": 3})
        for tool, total in (("spoon", 1), ("pickaxe", 3), ("shovel", 6)):
            follows(scores, type="dig", player=0, tool=tool)
            assert scores.players[0].tunnel == total
        assert scores.players[0].dug == ["spoon", "pickaxe", "shovel"]
