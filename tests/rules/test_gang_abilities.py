"""GA: the 24 Gang abilities, each with a test that its effect is applied.

Abilities marked "as 1 action" (Master Key, (Not So) Free Pass, Group Deal, Equivalent Exchange)
are `gang_ability` actions; the others act by themselves at the moment their text names.
"""

import pytest

from support import breaks, follows, known, rule_test, said, start


def member(ability, seat=0, **fields):
    """Starting fields for a player holding one Gang card."""
    gang = {
        "master_key": "bikers",
        "second_chance": "bikers",
        "not_so_free_pass": "bikers",
        "lucky_number": "bikers",
        "untouchable": "bratva",
        "sturdiness": "bratva",
        "grudge": "bratva",
        "spying": "bratva",
        "fury": "cartel",
        "knife_throwing": "cartel",
        "improvisation": "cartel",
        "the_kings_choice": "cartel",
        "collect": "crew",
        "negotiation": "crew",
        "cigarettes_stash": "crew",
        "group_deal": "crew",
        "successful_search": "queers",
        "item_stash": "queers",
        "recycling": "queers",
        "equivalent_exchange": "queers",
        "versatile_links": "triad",
        "versatile_blades": "triad",
        "pickaxe_expertise": "triad",
        "knife_expertise": "triad",
    }[ability]
    return {"gang": gang, "ability": ability, **fields}


def test_every_ability_is_tested_here():
    """The table above lists the 24 abilities of the catalog."""
    state = start()
    assert sorted(state.catalog.ability_gang) == sorted(a for g in state.catalog.gangs.values() for a in g.abilities)
    assert len(state.catalog.ability_gang) == 24
    for ability in state.catalog.ability_gang:
        assert member(ability)["gang"] == state.catalog.ability_gang[ability]


@rule_test("GA")
class TestGa:
    def test_breaks(self):
        """An ability used as an action needs its Gang card."""
        state = start(player_fields={0: {"cigarettes": 5}})
        answer = breaks(state, "GA", type="gang_ability", player=0, ability="not_so_free_pass", to="showers")
        assert answer.violations[0].message == "You need the (Not So) Free Pass Gang card for that."

    def test_breaks_a_recipe_needing_an_ability(self):
        state = start(hands={0: ["links", "pike", "container"]}, player_fields={0: {"place": "cafeteria"}})
        answer = breaks(state, "GA", type="craft", player=0, recipe="pickaxes")
        assert answer.violations[0].message == "That recipe needs the Pickaxe Expertise Gang card."

    def test_follows(self):
        """(Not So) Free Pass, as 1 action: pay 2 cigarettes, move to any Place."""
        state = start(player_fields={0: member("not_so_free_pass", cigarettes=3)})
        answer = follows(state, type="gang_ability", player=0, ability="not_so_free_pass", to="showers")
        assert state.players[0].place == "showers" and state.players[0].cigarettes == 1
        assert state.actions_left == 1 and not [e for e in said(answer) if e["type"] == "roll"]


class TestBikers:
    def test_master_key(self):
        """As 1 action: to an adjacent Place without rolling."""
        state = start(player_fields={0: member("master_key", place="showers")})
        answer = follows(state, type="gang_ability", player=0, ability="master_key", to="recreational_area")
        assert state.players[0].place == "recreational_area" and state.actions_left == 1
        assert not [e for e in said(answer) if e["type"] == "roll"]

    def test_master_key_never_stays(self):
        state = start(player_fields={0: member("master_key")})
        breaks(state, "MOVE-2", type="gang_ability", player=0, ability="master_key", to="cell_block")

    def test_second_chance_with_two_table_dice(self):
        """Reroll once: the second result stands."""
        state = start(player_fields={0: member("second_chance")})
        answer = follows(state, type="move", player=0, die=[2, 5], to="showers")
        assert state.players[0].place == "showers" and state.actions_left == 1
        assert [e["die"] for e in said(answer) if e["type"] == "roll"] == [2, 5]
        assert {"type": "reroll", "player": 0, "ability": "second_chance"} in said(answer)

    def test_second_chance_offered_after_the_roll(self):
        """Without a destination the reroll is offered next to the Places; after it, no more reroll."""
        state = start(player_fields={0: member("second_chance")})
        follows(state, type="move", player=0, die=[2])
        assert state.pending.kind == "destination" and state.pending.options == ["recreational_area", "reroll"]
        follows(state, type="choose", player=0, option="reroll", die=[1])
        assert state.players[0].place == "cafeteria" and state.pending is None

    def test_second_chance_the_second_result_stands(self):
        state = start(player_fields={0: member("second_chance")})
        follows(state, type="move", player=0, die=[2])
        follows(state, type="choose", player=0, option="reroll", die=[4])
        assert state.pending.options == ["cafeteria", "recreational_area"]
        breaks(state, "MOVE-1", type="choose", player=0, option="reroll")

    def test_two_dice_need_second_chance(self):
        state = start()
        breaks(state, "GA", type="move", player=0, die=[2, 5], to="showers")

    def test_not_so_free_pass_needs_two_cigarettes(self):
        state = start(player_fields={0: member("not_so_free_pass", cigarettes=1)})
        breaks(state, "GA", type="gang_ability", player=0, ability="not_so_free_pass", to="showers")

    def test_not_so_free_pass_refusal_reads_plainly(self):
        state = start(player_fields={0: member("not_so_free_pass", cigarettes=1)})
        answer = breaks(state, "GA", type="gang_ability", player=0, ability="not_so_free_pass", to="showers")
        assert answer.violations[0].message == "(Not So) Free Pass costs 2 cigarettes; you have 1."

    def test_lucky_number_five_draws_a_knife(self):
        state = start(player_fields={0: member("lucky_number")})
        follows(state, type="move", player=0, die=[5], to="infirmary")
        assert state.players[0].place == "infirmary" and known(state, 0) == {"knife": 1}
        assert state.piles["knife"] == 19

    def test_lucky_number_six_goes_anywhere(self):
        state = start(player_fields={0: member("lucky_number")})
        follows(state, type="move", player=0, die=[6], to="cafeteria")
        assert state.players[0].place == "cafeteria" and known(state, 0) == {}

    def test_without_lucky_number_a_six_does_not_reach_the_cafeteria(self):
        state = start()
        breaks(state, "MOVE-1", type="move", player=0, die=[6], to="cafeteria")


class TestBratva:
    def test_untouchable(self):
        """Action cards cannot target Nicholas on others' turns."""
        state = start(hands={0: ["solitary_confinement"]}, player_fields={1: member("untouchable")})
        answer = breaks(state, "GA", type="play_action", player=0, card="solitary_confinement", target=1)
        assert answer.violations[0].message == "Nicholas is Untouchable: no Action card can target them now."
        follows(state, type="play_action", player=0, card="solitary_confinement", target=2)
        assert state.players[2].place == "solitary" and state.players[1].place == "cell_block"

    def test_untouchable_still_feels_effects_on_everybody(self):
        """Get Out of Here moves every other standee, the Untouchable one too."""
        state = start(player_fields={1: member("untouchable")})
        follows(state, type="reveal_background", player=0, card="get_out_of_here", to="showers")
        assert [p.place for p in state.players] == ["cell_block", "showers", "showers"]

    def test_sturdiness(self):
        """Intimidating Nicholas takes 2 Weapons."""
        state = start(hands={0: ["knife", "blade"], 1: ["spoon"]}, player_fields={1: member("sturdiness")})
        breaks(state, "EXT-2", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife", "blade"])
        assert state.combat.laid == [(0, "knife"), (0, "blade")]

    def test_grudge_after_losing_as_defender(self):
        state = start(hands={0: ["knife"], 1: ["rare"]}, player_fields={1: member("grudge")})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="give_up", player=1)
        assert state.players[1].beatings == 1 and known(state, 1) == {"knife": 2}
        assert known(state, 0) == {"rare": 1} and state.piles["knife"] == 18

    def test_grudge_after_losing_as_attacker(self):
        state = start(hands={0: ["knife"], 1: ["blade"]}, player_fields={0: member("grudge")})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="weapon", player=1, card="blade")
        follows(state, type="give_up", player=0)
        assert state.players[0].beatings == 1 and known(state, 0) == {"knife": 2}

    def test_no_grudge_for_the_winner(self):
        state = start(hands={0: ["knife"], 1: ["rare"]}, player_fields={0: member("grudge")})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="give_up", player=1)
        assert known(state, 0) == {"rare": 1}

    def test_spying(self):
        """When extorted, the answer shows the extorter's hand to the Spying player."""
        state = start(hands={0: ["knife"], 1: ["spoon"]}, player_fields={1: member("spying")})
        answer = follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert answer.pending["show_hand_of"] == 0 and answer.pending["player"] == 1

    def test_no_spying_without_the_card(self):
        state = start(hands={0: ["knife"], 1: ["spoon"]})
        answer = follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert "show_hand_of" not in answer.pending


class TestCartel:
    def test_fury(self):
        """Winning with Fury: the loser takes 2 Beatings."""
        state = start(hands={0: ["knife"], 1: ["rare"]}, player_fields={0: member("fury")})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="give_up", player=1)
        assert state.players[1].beatings == 2

    def test_fury_as_defender(self):
        state = start(hands={0: ["knife"], 1: ["blade"]}, player_fields={1: member("fury")})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="weapon", player=1, card="blade")
        follows(state, type="give_up", player=0)
        assert state.players[0].beatings == 2

    def test_fury_never_beyond_two(self):
        state = start(hands={0: ["knife"], 1: ["rare"]}, player_fields={0: member("fury"), 1: {"beatings": 1}})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="give_up", player=1)
        assert state.players[1].beatings == 2

    def test_knife_throwing(self):
        """Extort a player in an adjacent Place."""
        state = start(
            hands={0: ["knife"], 1: ["spoon"]}, player_fields={0: member("knife_throwing"), 1: {"place": "cafeteria"}}
        )
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="cooperate", player=1)
        assert known(state, 0) == {"spoon": 1} and state.players[0].place == "cell_block"

    def test_knife_throwing_not_beyond_adjacent(self):
        state = start(hands={0: ["knife"]}, player_fields={0: member("knife_throwing"), 1: {"place": "showers"}})
        answer = breaks(state, "ADJ-1", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert (
            answer.violations[0].message
            == "Nicholas is not in a Place adjacent to the Cell Block (never Solitary Confinement)."
        )

    def test_knife_throwing_never_into_solitary(self):
        state = start(hands={0: ["knife"]}, player_fields={0: member("knife_throwing"), 1: {"place": "solitary"}})
        breaks(state, "ADJ-1", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])

    def test_improvisation_once_per_extortion(self):
        """Any card as a Weapon, once: here a Rare item intimidates, then only real Weapons."""
        state = start(
            hands={0: ["rare", "links", "knife"], 1: ["blade", "blade"]}, player_fields={0: member("improvisation")}
        )
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["rare"])
        follows(state, type="weapon", player=1, card="blade")
        answer = breaks(state, "SUP-7", type="weapon", player=0, card="links")
        assert answer.violations[0].message == "Links is not a Weapon: only Knives and Blades are."
        follows(state, type="weapon", player=0, card="knife")
        follows(state, type="weapon", player=1, card="blade")
        follows(state, type="give_up", player=0)
        assert state.discard == ["rare", "blade", "blade"] and state.piles["knife"] == 20

    def test_improvisation_in_combat(self):
        state = start(hands={0: ["knife", "knife"], 1: ["cap"]}, player_fields={1: member("improvisation")})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="weapon", player=1, card="cap")
        assert state.combat.laid == [(0, "knife"), (1, "cap")] and state.pending.player == 0

    def test_no_improvisation_without_the_card(self):
        state = start(hands={0: ["rare"]})
        breaks(state, "SUP-7", type="extort", player=0, target=1, tool="spoon", weapons=["rare"])

    def test_the_kings_choice(self):
        """The winner looks at the loser's hand and picks the card."""
        state = start(hands={0: ["knife"], 1: ["links", "rare", "ring"]}, player_fields={0: member("the_kings_choice")})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        answer = follows(state, type="give_up", player=1)
        assert answer.pending == {"kind": "kings_choice", "player": 0, "options": ["links", "rare", "ring"], "from": 1}
        follows(state, type="choose", player=0, option="rare")
        assert known(state, 0) == {"rare": 1} and known(state, 1) == {"links": 1, "ring": 1}
        assert state.pending is None and state.active == 0

    def test_the_kings_choice_never_instead_of_the_tool(self):
        state = start(hands={0: ["knife"], 1: ["spoon", "rare"]}, player_fields={0: member("the_kings_choice")})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="fight", player=1)
        follows(state, type="give_up", player=1)
        assert state.pending is None and known(state, 0) == {"spoon": 1}


class TestCrew:
    @pytest.mark.parametrize("cigarettes, after", [(0, 2), (3, 4)])
    def test_collect(self, cigarettes, after):
        """End of your turn: 2 cigarettes if you have none, else 1."""
        state = start(player_fields={0: member("collect", cigarettes=cigarettes)})
        follows(state, type="end_turn", player=0)
        assert state.players[0].cigarettes == after and state.active == 1

    def test_collect_only_at_the_end_of_your_own_turn(self):
        state = start(player_fields={1: member("collect")})
        follows(state, type="end_turn", player=0)
        assert state.players[1].cigarettes == 0

    def test_negotiation(self):
        """Each card sold gives 1 more cigarette."""
        state = start(hands={0: ["rare", "ring"]}, player_fields={0: member("negotiation", place="recreational_area")})
        follows(state, type="sell", player=0, cards=["rare", "ring"], cigarettes=5)
        assert state.players[0].cigarettes == 7

    @pytest.mark.parametrize("face, to, gain", [(4, "cafeteria", 2), (1, "cafeteria", 0), (2, "recreational_area", 2)])
    def test_cigarettes_stash(self, face, to, gain):
        """Simple move with an even result: gain 2 cigarettes."""
        state = start(player_fields={0: member("cigarettes_stash")})
        follows(state, type="move", player=0, die=[face], to=to)
        assert state.players[0].cigarettes == gain and state.players[0].place == to

    def test_group_deal(self):
        """As 1 action: draw 3 Search cards, discard them, gain their printed value."""
        state = start(player_fields={0: member("group_deal")})
        follows(
            state, type="gang_ability", player=0, ability="group_deal", cards=["rare", "ring", "links"], cigarettes=6
        )
        p = state.players[0]
        assert p.cigarettes == 6 and p.hand.unknown == 3 and known(state, 0) == {}
        assert state.discard == ["rare", "ring", "links"] and state.deck == 65 and state.actions_left == 1

    def test_group_deal_needs_the_printed_total(self):
        state = start(player_fields={0: member("group_deal")})
        breaks(state, "GA", type="gang_ability", player=0, ability="group_deal")


class TestQueers:
    def test_successful_search(self):
        """Search draws 1 more: 2 in the Cell Block."""
        state = start(player_fields={0: member("successful_search")})
        follows(state, type="search", player=0, cards=["links", "pike"])
        assert known(state, 0) == {"links": 1, "pike": 1} and state.deck == 66

    @pytest.mark.parametrize("face, to, drawn", [(2, "recreational_area", 1), (3, "infirmary", 0)])
    def test_item_stash(self, face, to, drawn):
        """Simple move with an even result: draw 1 Search card."""
        state = start(player_fields={0: member("item_stash")})
        follows(state, type="move", player=0, die=[face], to=to)
        assert state.players[0].hand.unknown == 3 + drawn and state.deck == 68 - drawn

    def test_recycling(self):
        """Search may take from the top of the discard pile."""
        state = start(player_fields={0: member("recycling", place="cafeteria")}, start={"discard": ["links", "blade"]})
        assert state.summary()["discard_top"] == "blade"  # the last card discarded lies on top
        follows(state, type="search", player=0, from_discard=1)
        assert known(state, 0) == {"blade": 1} and state.players[0].hand.unknown == 4
        assert state.discard == ["links"] and state.deck == 77 - 9 - 2 - 1
        assert state.summary()["discard_top"] == "links"

    def test_recycling_needs_the_card(self):
        state = start(start={"discard": ["links"]})
        answer = breaks(state, "GA", type="search", player=0, from_discard=1)
        assert answer.violations[0].message == "You need the Recycling Gang card for that."

    def test_recycling_at_most_the_search_value(self):
        state = start(player_fields={0: member("recycling")}, start={"discard": ["links", "blade"]})
        breaks(state, "GA", type="search", player=0, from_discard=2)

    def test_equivalent_exchange(self):
        """As 1 action: discard up to 4 cards, draw as many."""
        state = start(
            hands={0: ["links", "pike", "rare", "ring", "cap"]}, player_fields={0: member("equivalent_exchange")}
        )
        follows(
            state, type="gang_ability", player=0, ability="equivalent_exchange", cards=["links", "pike", "rare", "ring"]
        )
        assert known(state, 0) == {"cap": 1} and state.players[0].hand.unknown == 4
        assert state.discard == ["links", "pike", "rare", "ring"] and state.actions_left == 1

    def test_equivalent_exchange_at_most_four(self):
        state = start(
            hands={0: ["links", "pike", "rare", "ring", "cap"]}, player_fields={0: member("equivalent_exchange")}
        )
        answer = breaks(
            state,
            "GA",
            type="gang_ability",
            player=0,
            ability="equivalent_exchange",
            cards=["links", "pike", "rare", "ring", "cap"],
        )
        assert answer.violations[0].message == "Equivalent Exchange: discard 1 to 4 cards."


class TestTriad:
    def test_versatile_links(self):
        """In Craft, a Cap counts as Links."""
        state = start(hands={0: ["cap", "pike"]}, player_fields={0: member("versatile_links", place="cafeteria")})
        follows(state, type="craft", player=0, recipe="pickaxe", cards=["cap", "pike"])
        assert known(state, 0) == {"pickaxe": 1} and state.discard == ["cap", "pike"]

    def test_no_versatile_links_without_the_card(self):
        state = start(hands={0: ["cap", "pike"]}, player_fields={0: {"place": "cafeteria"}})
        breaks(state, "CRAFT-1", type="craft", player=0, recipe="pickaxe", cards=["cap", "pike"])

    def test_versatile_blades(self):
        """In Craft, a Ring counts as a Blade."""
        state = start(hands={0: ["links", "ring"]}, player_fields={0: member("versatile_blades", place="infirmary")})
        follows(state, type="craft", player=0, recipe="knives", cards=["links", "ring"])
        assert known(state, 0) == {"knife": 2}

    def test_pickaxe_expertise(self):
        """Links + Pike + Container: 2 Pickaxes."""
        state = start(
            hands={0: ["links", "pike", "container"]}, player_fields={0: member("pickaxe_expertise", place="cafeteria")}
        )
        follows(state, type="craft", player=0, recipe="pickaxes")
        assert known(state, 0) == {"pickaxe": 2} and state.piles["pickaxe"] == 9

    def test_knife_expertise(self):
        """Links + Links + Pike: 3 Knives."""
        state = start(
            hands={0: ["links", "links", "pike"]}, player_fields={0: member("knife_expertise", place="cafeteria")}
        )
        follows(state, type="craft", player=0, recipe="knives3")
        assert known(state, 0) == {"knife": 3} and state.piles["knife"] == 17
        assert state.discard == ["links", "links", "pike"]


MICHEL = {"neutrals": 1}


class TestWithMichel:
    def test_master_key_into_michel_s_place_is_extorted_on_arrival(self):
        state = start(hands={0: ["spoon"]}, modules=MICHEL, player_fields={0: member("master_key", place="infirmary")})
        answer = follows(
            state, type="gang_ability", player=0, ability="master_key", to="showers", michel_cards=["knife_spoon"]
        )
        assert answer.pending["kind"] == "michel_answer" and answer.pending["tools"] == ["spoon"]

    def test_grudge_after_losing_to_michel(self):
        state = start(hands={0: ["rare"]}, modules=MICHEL, player_fields={0: member("grudge", place="infirmary")})
        follows(state, type="move", player=0, die=[5], to="showers", michel_cards=["knife_pickaxe_shovel"])
        follows(state, type="give_up", player=0)
        assert state.players[0].beatings == 1 and known(state, 0) == {"knife": 2}
        assert state.discard == ["rare"]

    def test_improvisation_against_michel(self):
        state = start(hands={0: ["cap"]}, modules=MICHEL, player_fields={0: member("improvisation", place="infirmary")})
        follows(state, type="move", player=0, die=[5], to="showers", michel_cards=["knife_shovel"])
        follows(state, type="weapon", player=0, card="cap", michel_cards=["no_knife"])
        assert state.combat is None and state.players[0].hand.unknown == 1 and state.discard == ["cap"]
