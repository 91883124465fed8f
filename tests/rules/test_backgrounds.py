"""BG: the 18 Background cards, each with a test that its effect (and its Gang bonus) is applied,
plus the moments they may be revealed (own turn, combat, combat start as defender)."""

import pytest

from support import breaks, follows, known, rule_test, said, start


def reveal(state, seat, card, **fields):
    return follows(state, type="reveal_background", player=seat, card=card, **fields)


def combat(attacker_hand=("knife", "knife"), defender_hand=("blade",), tool="pickaxe", fields=None, **config):
    """Carmen (0) extorts Nicholas (1) in the Cafeteria; the combat has started (Nicholas to play)."""
    player_fields = {0: {"place": "cafeteria"}, 1: {"place": "cafeteria"}}
    for seat, extra in (fields or {}).items():
        player_fields[seat].update(extra)
    state = start(hands={0: list(attacker_hand), 1: list(defender_hand)}, player_fields=player_fields, **config)
    follows(state, type="extort", player=0, target=1, tool=tool, weapons=[attacker_hand[0]])
    if state.pending.kind == "extortion_answer":
        follows(state, type="fight", player=1)
    assert state.pending.kind == "combat" and state.pending.player == 1
    return state


def test_every_background_is_in_the_catalog():
    assert len(start().catalog.backgrounds) == 18


@rule_test("BG")
class TestBg:
    def test_breaks(self):
        """A Background for after a lost combat cannot be revealed when nobody lost one."""
        state = start()
        answer = breaks(state, "BG", type="reveal_background", player=0, card="is_that_everything_youve_got")
        assert (
            answer.violations[0].message
            == "“Is That Everything You've Got?” can only be revealed after you lose a combat, "
            "before the next action starts."
        )

    def test_breaks_a_card_already_revealed(self):
        state = start()
        reveal(state, 0, "too_fast_for_you")
        follows(state, type="end_turn", player=0)
        answer = breaks(state, "BG", type="reveal_background", player=1, card="too_fast_for_you")
        assert answer.violations[0].message == "“Too Fast for You?” has already been revealed in this game."

    def test_breaks_a_card_someone_else_holds(self):
        state = start(player_fields={2: {"background": "i_know_a_guy"}})
        breaks(state, "BG", type="reveal_background", player=0, card="i_know_a_guy")

    def test_breaks_another_card_than_the_one_entered(self):
        """The table entered Carmen's hidden card: she cannot reveal a different one."""
        state = start(player_fields={0: {"background": "i_know_a_guy"}})
        breaks(state, "BG", type="reveal_background", player=0, card="too_fast_for_you")

    def test_the_refusal_names_the_card_cleanly(self):
        state = start(player_fields={0: {"background": "i_know_a_guy"}})
        answer = breaks(state, "BG", type="reveal_background", player=0, card="too_fast_for_you")
        assert answer.violations[0].message == "Your Background card is “I Know a Guy.”"

    def test_follows(self):
        """Free, once: Too Fast for You? gives a 3rd action; as a Biker, a 4th."""
        state = start(player_fields={0: {"gang": "bikers"}})
        answer = reveal(state, 0, "too_fast_for_you")
        assert state.actions_left == 4
        assert {"type": "background", "player": 0, "background": "too_fast_for_you", "bonus": True} in said(answer)


class TestBikersBackgrounds:
    def test_too_fast_for_you(self):
        state = start()
        reveal(state, 0, "too_fast_for_you")
        assert state.actions_left == 3
        follows(state, type="search", player=0)
        follows(state, type="move", player=0, die=[1])
        follows(state, type="move", player=0, die=[1])
        assert state.actions_left == 0 and state.players[0].place == "cell_block"

    def test_get_out_of_here(self):
        """Every other standee to one Place (not Solitary)."""
        state = start(4, player_fields={1: {"place": "showers"}, 2: {"place": "infirmary"}})
        reveal(state, 0, "get_out_of_here", to="cafeteria")
        assert [p.place for p in state.players] == ["cell_block", "cafeteria", "cafeteria", "cafeteria"]

    def test_get_out_of_here_never_to_solitary(self):
        state = start()
        answer = breaks(state, "BG", type="reveal_background", player=0, card="get_out_of_here", to="solitary")
        assert answer.violations[0].message == "“Get Out of Here!” cannot send anyone to Solitary Confinement."

    def test_get_out_of_here_bonus_moves_you_too(self):
        state = start(player_fields={0: {"gang": "bikers"}})
        reveal(state, 0, "get_out_of_here", to="showers", own_to="recreational_area")
        assert [p.place for p in state.players] == ["recreational_area", "showers", "showers"]

    def test_get_out_of_here_own_move_needs_the_bonus(self):
        state = start()
        answer = breaks(
            state,
            "BG",
            type="reveal_background",
            player=0,
            card="get_out_of_here",
            to="showers",
            own_to="recreational_area",
        )
        assert answer.violations[0].message == "That part of “Get Out of Here!” needs its Gang bonus."

    def test_get_out_of_here_moves_michel_and_he_extorts_the_arrivals(self):
        state = start(hands={1: ["rare"]}, modules={"neutrals": 1}, player_fields={2: {"place": "cafeteria"}})
        answer = reveal(state, 0, "get_out_of_here", to="cafeteria", michel_cards=["knife_spoon"])
        assert state.neutrals == {"michel": "cafeteria"}
        assert answer.pending["kind"] == "combat" and answer.pending["player"] == 1

    def test_this_is_my_turf(self):
        state = start(player_fields={0: {"place": "showers"}})
        reveal(state, 0, "this_is_my_turf")
        assert [p.place for p in state.players] == ["cell_block"] * 3

    def test_this_is_my_turf_bonus(self):
        """As a Biker, the others in the Cell Block go to Solitary."""
        state = start(player_fields={0: {"place": "showers", "gang": "bikers"}, 2: {"place": "infirmary"}})
        reveal(state, 0, "this_is_my_turf")
        assert [p.place for p in state.players] == ["cell_block", "solitary", "infirmary"]


class TestBratvaBackgrounds:
    def test_is_that_everything_youve_got(self):
        """After losing a combat: the Beating is taken back (the winner keeps the card)."""
        state = combat(defender_hand=("rare",))
        follows(state, type="give_up", player=1)
        assert state.players[1].beatings == 1 and state.summary()["combat_lost"] == [
            {"loser": 1, "winner": 0, "neutral": None}
        ]
        answer = reveal(state, 1, "is_that_everything_youve_got")
        assert state.players[1].beatings == 0 and known(state, 0) == {"knife": 1, "rare": 1}
        assert {"type": "heal", "player": 1, "count": 1, "total": 0, "why": "is_that_everything_youve_got"} in said(
            answer
        )
        assert state.summary()["combat_lost"] == []

    def test_is_that_everything_youve_got_bonus(self):
        """As a Bratva member, the winner takes no card either: the card comes back."""
        state = combat(defender_hand=("rare",), fields={1: {"gang": "bratva", "ability": "spying"}})
        follows(state, type="give_up", player=1)
        reveal(state, 1, "is_that_everything_youve_got")
        assert state.players[1].beatings == 0 and known(state, 1) == {"rare": 1} and known(state, 0) == {"knife": 1}

    def test_is_that_everything_youve_got_not_during_the_combat(self):
        """Revealed while the combat is still open, it could be spent on a combat its holder then wins."""
        state = combat(defender_hand=("rare",))
        breaks(state, "BG", type="reveal_background", player=1, card="is_that_everything_youve_got")

    def test_is_that_everything_youve_got_not_for_the_winner(self):
        state = combat(attacker_hand=("knife",), defender_hand=("blade",))
        follows(state, type="weapon", player=1, card="blade")
        follows(state, type="give_up", player=0)
        breaks(state, "BG", type="reveal_background", player=1, card="is_that_everything_youve_got")
        reveal(state, 0, "is_that_everything_youve_got")
        assert state.players[0].beatings == 0

    def test_is_that_everything_youve_got_until_the_next_action(self):
        """Out of turn, while the active player hesitates; once the next action starts, too late."""
        state = combat(defender_hand=("rare",))
        follows(state, type="give_up", player=1)
        follows(state, type="search", player=0)
        breaks(state, "BG", type="reveal_background", player=1, card="is_that_everything_youve_got")
        assert state.players[1].beatings == 1

    def test_is_that_everything_youve_got_takes_back_fury(self):
        state = combat(defender_hand=("rare",), fields={0: {"gang": "cartel", "ability": "fury"}})
        follows(state, type="give_up", player=1)
        assert state.players[1].beatings == 2
        reveal(state, 1, "is_that_everything_youve_got")
        assert state.players[1].beatings == 0

    def test_is_that_everything_youve_got_bonus_returns_the_tool(self):
        state = combat(defender_hand=("pickaxe",), fields={1: {"gang": "bratva", "ability": "spying"}})
        follows(state, type="give_up", player=1)
        assert known(state, 0) == {"knife": 1, "pickaxe": 1}
        reveal(state, 1, "is_that_everything_youve_got")
        assert known(state, 0) == {"knife": 1} and known(state, 1) == {"pickaxe": 1}

    def test_is_that_everything_youve_got_bonus_drops_the_kings_choice(self):
        state = combat(
            defender_hand=("rare", "links"),
            fields={0: {"gang": "cartel", "ability": "the_kings_choice"}, 1: {"gang": "bratva", "ability": "spying"}},
        )
        answer = follows(state, type="give_up", player=1)
        assert answer.pending["kind"] == "kings_choice"
        answer = reveal(state, 1, "is_that_everything_youve_got")
        assert answer.pending is None and known(state, 1) == {"rare": 1, "links": 1}

    def test_is_that_everything_youve_got_against_michel(self):
        """Against Michel the Tool the loss discarded comes back with the bonus."""
        state = start(
            hands={0: ["spoon"]}, modules={"neutrals": 1}, player_fields={0: {"place": "infirmary", "gang": "bratva"}}
        )
        follows(state, type="move", player=0, die=[5], to="showers", michel_cards=["knife_spoon"])
        follows(state, type="fight", player=0)
        follows(state, type="give_up", player=0)
        assert state.players[0].beatings == 1 and known(state, 0) == {}
        reveal(state, 0, "is_that_everything_youve_got")
        assert state.players[0].beatings == 0 and known(state, 0) == {"spoon": 1} and state.piles["spoon"] == 10

    def test_i_will_cut_you_with_your_own_blade(self):
        """Before a combat you defend, the attacker hands you a Weapon."""
        state = combat(attacker_hand=("knife", "blade"), defender_hand=())
        answer = reveal(state, 1, "i_will_cut_you_with_your_own_blade")
        assert answer.pending == {"kind": "give_weapon", "player": 0, "options": ["blade", "lose"], "to": 1}
        follows(state, type="choose", player=0, option="blade")
        assert known(state, 1) == {"blade": 1} and known(state, 0) == {}
        assert state.pending.kind == "combat" and state.pending.player == 1
        follows(state, type="weapon", player=1, card="blade")
        follows(state, type="give_up", player=0)
        assert state.players[0].beatings == 1 and known(state, 1) == {}

    def test_i_will_cut_you_a_card_nobody_entered_is_no_blade_once_every_blade_is_seen(self):
        """The attacker's unknown cards may be a Blade only while a Blade is still unseen (SUP-1):
        with every copy in the discard pile, an attacker holding nothing else known must lose."""
        state = combat(attacker_hand=("knife", "unknown"), defender_hand=())
        state.discard.extend(["blade"] * state.catalog.search_deck["blade"])
        reveal(state, 1, "i_will_cut_you_with_your_own_blade")
        assert state.combat is None and state.players[0].beatings == 1

    def test_i_will_cut_you_the_attacker_may_rather_lose(self):
        state = combat(attacker_hand=("knife", "blade", "rare"), defender_hand=())
        reveal(state, 1, "i_will_cut_you_with_your_own_blade")
        follows(state, type="choose", player=0, option="lose")
        assert state.players[0].beatings == 1 and state.combat is None and state.piles["knife"] == 20
        kept, taken = known(state, 0), known(state, 1)
        assert sorted([*kept, *taken]) == ["blade", "rare"] and len(kept) == len(taken) == 1

    def test_i_will_cut_you_an_unarmed_attacker_loses_at_once(self):
        state = combat(attacker_hand=("knife", "rare"), defender_hand=())
        reveal(state, 1, "i_will_cut_you_with_your_own_blade")
        assert state.combat is None and state.players[0].beatings == 1 and known(state, 1) == {"rare": 1}

    def test_i_will_cut_you_bonus_three_knives_for_the_win(self):
        state = combat(
            attacker_hand=("knife", "blade"), defender_hand=(), fields={1: {"gang": "bratva", "ability": "spying"}}
        )
        reveal(state, 1, "i_will_cut_you_with_your_own_blade")
        follows(state, type="choose", player=0, option="blade")
        follows(state, type="weapon", player=1, card="blade")
        follows(state, type="give_up", player=0)
        assert known(state, 1) == {"knife": 3} and state.piles["knife"] == 17

    def test_i_will_cut_you_only_for_the_defender(self):
        state = combat(attacker_hand=("knife", "knife"))
        breaks(state, "BG", type="reveal_background", player=0, card="i_will_cut_you_with_your_own_blade")

    def test_i_will_cut_you_not_after_the_first_weapon(self):
        state = combat(attacker_hand=("knife", "knife"), defender_hand=("blade",))
        follows(state, type="weapon", player=1, card="blade")
        answer = breaks(state, "BG", type="reveal_background", player=1, card="i_will_cut_you_with_your_own_blade")
        assert answer.violations[0].message == (
            "“I Will Cut You with Your Own Blade!” can only be revealed as a combat "
            "you defend begins, before any Weapon is played."
        )

    def test_i_will_cut_you_not_against_michel(self):
        """Michel holds no hand: there is no attacker to hand over a Weapon."""
        state = start(hands={0: ["knife"]}, modules={"neutrals": 1}, player_fields={0: {"place": "infirmary"}})
        follows(state, type="move", player=0, die=[5], to="showers", michel_cards=["knife_shovel"])
        assert state.pending.kind == "combat"
        breaks(state, "BG", type="reveal_background", player=0, card="i_will_cut_you_with_your_own_blade")

    @pytest.mark.parametrize("gang, left", [(None, 1), ("bratva", 0)])
    def test_i_got_strong_bones_they_say(self, gang, left):
        state = start(player_fields={0: {"beatings": 2, "gang": gang}})
        reveal(state, 0, "i_got_strong_bones_they_say")
        assert state.players[0].beatings == left and state.actions_left == 2

    def test_i_got_strong_bones_needs_a_beating(self):
        state = start()
        breaks(state, "BG", type="reveal_background", player=0, card="i_got_strong_bones_they_say")


class TestCartelBackgrounds:
    @pytest.mark.parametrize("gang, knives", [(None, 2), ("cartel", 4)])
    def test_you_really_believe_it_will_do(self, gang, knives):
        """Before a combat, draw 2 Knives (4 as a Cartel member)."""
        state = combat(defender_hand=(), fields={1: {"gang": gang}})
        reveal(state, 1, "you_really_believe_it_will_do")
        assert known(state, 1) == {"knife": knives} and state.piles["knife"] == 18 - knives

    def test_you_really_believe_for_the_attacker(self):
        state = combat(attacker_hand=("knife",))
        reveal(state, 0, "you_really_believe_it_will_do")
        assert known(state, 0) == {"knife": 2}

    def test_you_really_believe_not_once_weapons_fly(self):
        state = combat()
        follows(state, type="weapon", player=1, card="blade")
        breaks(state, "BG", type="reveal_background", player=0, card="you_really_believe_it_will_do")

    def test_you_really_believe_against_michel(self):
        state = start(modules={"neutrals": 1}, hands={0: []}, player_fields={0: {"place": "infirmary"}})
        follows(state, type="move", player=0, die=[5], to="showers", michel_cards=["knife_shovel"])
        reveal(state, 0, "you_really_believe_it_will_do")
        assert known(state, 0) == {"knife": 2}
        follows(state, type="weapon", player=0, card="knife", michel_cards=["no_knife"])
        assert state.combat is None and known(state, 0) == {"knife": 1} and state.players[0].hand.unknown == 1

    def test_dont_think_about_saying_no_to_me(self):
        """Extorting a Pickaxe, the target must cooperate."""
        state = start(hands={0: ["knife"], 1: ["pickaxe", "blade"]})
        reveal(state, 0, "dont_think_about_saying_no_to_me")
        answer = follows(state, type="extort", player=0, target=1, tool="pickaxe", weapons=["knife"])
        assert answer.pending is None and state.combat is None
        assert known(state, 0) == {"pickaxe": 1} and known(state, 1) == {"blade": 1}

    def test_dont_think_about_saying_no_a_shovel_needs_the_bonus(self):
        state = start(hands={0: ["knife"], 1: ["shovel"]})
        reveal(state, 0, "dont_think_about_saying_no_to_me")
        answer = follows(state, type="extort", player=0, target=1, tool="shovel", weapons=["knife"])
        assert answer.pending["kind"] == "extortion_answer"

    def test_dont_think_about_saying_no_bonus_shovel(self):
        state = start(hands={0: ["knife"], 1: ["shovel"]}, player_fields={0: {"gang": "cartel"}})
        reveal(state, 0, "dont_think_about_saying_no_to_me")
        follows(state, type="extort", player=0, target=1, tool="shovel", weapons=["knife"])
        assert known(state, 0) == {"shovel": 1} and state.pending is None

    def test_nobody_walks_away_from_me(self):
        state = start(hands={2: ["rare"]})
        reveal(state, 0, "nobody_walks_away_from_me", target=2)
        assert [p.beatings for p in state.players] == [0, 0, 1] and known(state, 2) == {"rare": 1}

    def test_nobody_walks_away_bonus_steals(self):
        state = start(hands={2: ["rare"]}, player_fields={0: {"gang": "cartel"}})
        reveal(state, 0, "nobody_walks_away_from_me", target=2)
        assert state.players[2].beatings == 1 and known(state, 0) == {"rare": 1} and known(state, 2) == {}

    def test_nobody_walks_away_not_yourself(self):
        state = start()
        breaks(state, "BG", type="reveal_background", player=0, card="nobody_walks_away_from_me", target=0)


class TestCrewBackgrounds:
    def test_i_know_a_guy(self):
        """This turn Buy anywhere but the Cell Block and Solitary."""
        state = start(player_fields={0: {"place": "cafeteria", "cigarettes": 6}})
        breaks(state, "BUY-1", type="buy", player=0, item="knife")
        reveal(state, 0, "i_know_a_guy")
        follows(state, type="buy", player=0, item="knife")
        assert known(state, 0) == {"knife": 1} and state.players[0].cigarettes == 4

    def test_i_know_a_guy_not_in_the_cell_block(self):
        state = start(player_fields={0: {"cigarettes": 6}})
        reveal(state, 0, "i_know_a_guy")
        breaks(state, "BUY-1", type="buy", player=0, item="knife")

    def test_i_know_a_guy_only_this_turn(self):
        state = start(player_fields={0: {"place": "cafeteria", "cigarettes": 6}})
        reveal(state, 0, "i_know_a_guy")
        for seat in (0, 1, 2):
            follows(state, type="end_turn", player=seat)
        breaks(state, "BUY-1", type="buy", player=0, item="knife")

    def test_i_know_a_guy_bonus_two_less(self):
        state = start(player_fields={0: {"place": "recreational_area", "cigarettes": 6, "gang": "crew"}})
        reveal(state, 0, "i_know_a_guy")
        follows(state, type="buy", player=0, item="pickaxe")
        follows(state, type="buy", player=0, item="knife")
        assert state.players[0].cigarettes == 6 - 4 - 0 and known(state, 0) == {"pickaxe": 1, "knife": 1}

    @pytest.mark.parametrize("gang, has, taken", [(None, 5, 3), (None, 4, 2), ("crew", 5, 5)])
    def test_protection_doesnt_come_cheap(self, gang, has, taken):
        """Half a player's cigarettes, rounded up (all of them as a Crew member)."""
        state = start(player_fields={0: {"gang": gang, "cigarettes": 1}, 1: {"cigarettes": has}})
        reveal(state, 0, "protection_doesnt_come_cheap", target=1)
        assert state.players[1].cigarettes == has - taken and state.players[0].cigarettes == 1 + taken

    def test_me_cheating_never(self):
        """Roll twice, no move, gain the total."""
        state = start()
        answer = reveal(state, 0, "me_cheating_never", die=[6, 3])
        assert state.players[0].cigarettes == 9 and state.players[0].place == "cell_block"
        assert [e["die"] for e in said(answer) if e["type"] == "roll"] == [6, 3]

    def test_me_cheating_never_bonus_third_roll(self):
        state = start(player_fields={0: {"gang": "crew"}})
        reveal(state, 0, "me_cheating_never", die=[6, 3, 2])
        assert state.players[0].cigarettes == 11

    def test_me_cheating_never_no_third_die_without_the_bonus(self):
        state = start()
        breaks(state, "BG", type="reveal_background", player=0, card="me_cheating_never", die=[6, 3, 2])


class TestQueersBackgrounds:
    def test_i_will_take_it_all_for_free(self):
        """Draw Search cards up to 10 in hand."""
        state = start()
        reveal(state, 0, "i_will_take_it_all_for_free")
        assert state.players[0].hand.size() == 10 and state.deck == 68 - 7

    def test_i_will_take_it_all_bonus_swap(self):
        """As a Queer: then discard any, draw as many."""
        state = start(hands={0: ["rare", "links"]}, player_fields={0: {"gang": "queers"}})
        reveal(state, 0, "i_will_take_it_all_for_free", discard=["rare", "links"])
        assert state.players[0].hand.size() == 10 and known(state, 0) == {}
        assert state.discard == ["rare", "links"] and state.deck == 77 - 6 - 2 - 8 - 2

    def test_i_will_take_it_all_discard_needs_the_bonus(self):
        state = start(hands={0: ["rare"]})
        breaks(state, "BG", type="reveal_background", player=0, card="i_will_take_it_all_for_free", discard=["rare"])

    def test_every_cent_is_good_to_take(self):
        state = start(start={"discard": ["links", "rare", "blade"]})
        reveal(state, 0, "every_cent_is_good_to_take", cards=["rare"])
        assert known(state, 0) == {"rare": 1} and state.discard == ["links", "blade"]

    def test_every_cent_bonus_three_cards(self):
        state = start(start={"discard": ["links", "rare", "blade", "pike"]}, player_fields={0: {"gang": "queers"}})
        reveal(state, 0, "every_cent_is_good_to_take", cards=["rare", "blade", "links"])
        assert known(state, 0) == {"rare": 1, "blade": 1, "links": 1} and state.discard == ["pike"]

    def test_every_cent_only_from_the_discard(self):
        state = start(start={"discard": ["links"]})
        answer = breaks(
            state, "BG", type="reveal_background", player=0, card="every_cent_is_good_to_take", cards=["rare"]
        )
        assert answer.violations[0].message == "There is no Rare item in the discard pile."

    def test_every_cent_one_card_without_the_bonus(self):
        state = start(start={"discard": ["links", "rare"]})
        breaks(
            state, "BG", type="reveal_background", player=0, card="every_cent_is_good_to_take", cards=["rare", "links"]
        )

    def test_you_shouldnt_look_away(self):
        """Steal 2 random cards from players of your choice (twice the same one here)."""
        state = start(hands={1: ["rare", "rare"], 2: ["links"]})
        reveal(state, 0, "you_shouldnt_look_away", targets=[1, 1])
        assert known(state, 0) == {"rare": 2} and known(state, 1) == {} and known(state, 2) == {"links": 1}

    def test_you_shouldnt_look_away_bonus_four(self):
        state = start(hands={1: ["rare", "rare"], 2: ["links", "links"]}, player_fields={0: {"gang": "queers"}})
        reveal(state, 0, "you_shouldnt_look_away", targets=[1, 2, 1, 2])
        assert known(state, 0) == {"rare": 2, "links": 2}

    def test_you_shouldnt_look_away_counts_steals(self):
        state = start()
        answer = breaks(
            state, "BG", type="reveal_background", player=0, card="you_shouldnt_look_away", targets=[1, 2, 1]
        )
        assert (
            answer.violations[0].message
            == "“You Shouldn't Look Away.”: choose 2 steals (the same player may be chosen twice)."
        )


class TestTriadBackgrounds:
    @pytest.mark.parametrize("gang, product", [(None, "pickaxe"), ("triad", "shovel")])
    def test_i_can_fix_that(self, gang, product):
        """Return a Spoon, take a Pickaxe (a Shovel as a Triad member)."""
        state = start(hands={0: ["spoon"]}, player_fields={0: {"gang": gang}})
        reveal(state, 0, "i_can_fix_that")
        assert known(state, 0) == {product: 1} and state.piles["spoon"] == 11 and state.piles[product] == 10

    def test_i_can_fix_that_needs_a_spoon(self):
        state = start(hands={0: ["links"]})
        breaks(state, "HAND-1", type="reveal_background", player=0, card="i_can_fix_that")

    def test_i_never_liked_rules(self):
        """This turn, Pickaxes may be crafted in the Cell Block (not Shovels without the bonus)."""
        state = start(hands={0: ["links", "pike", "links", "container"]})
        reveal(state, 0, "i_never_liked_rules")
        breaks(state, "CRAFT-1", type="craft", player=0, recipe="shovel")
        follows(state, type="craft", player=0, recipe="pickaxe")
        assert known(state, 0) == {"pickaxe": 1, "links": 1, "container": 1}

    def test_i_never_liked_rules_bonus_shovels(self):
        state = start(hands={0: ["links", "container"]}, player_fields={0: {"gang": "triad"}})
        reveal(state, 0, "i_never_liked_rules")
        follows(state, type="craft", player=0, recipe="shovel")
        assert known(state, 0) == {"shovel": 1}

    def test_i_never_liked_rules_only_this_turn(self):
        state = start(hands={0: ["links", "pike"]})
        reveal(state, 0, "i_never_liked_rules")
        for seat in (0, 1, 2):
            follows(state, type="end_turn", player=seat)
        breaks(state, "CRAFT-1", type="craft", player=0, recipe="pickaxe")

    def test_i_have_friends_in_the_workshop(self):
        state = start(hands={0: []})
        reveal(state, 0, "i_have_friends_in_the_workshop")
        assert known(state, 0) == {"links": 1, "pike": 1} and state.deck == 77 - 6 - 2

    def test_i_have_friends_bonus(self):
        state = start(hands={0: []}, player_fields={0: {"gang": "triad"}})
        reveal(state, 0, "i_have_friends_in_the_workshop")
        assert known(state, 0) == {"links": 2, "pike": 1, "container": 1} and state.deck == 77 - 6 - 4

    def test_i_have_friends_else_from_the_discard(self):
        """Every Pike is out of the deck (5 held, 1 in the discard): that one is taken."""
        state = start(hands={0: [], 1: ["pike"] * 5}, start={"discard": ["pike", "rare"]})
        reveal(state, 0, "i_have_friends_in_the_workshop")
        assert known(state, 0) == {"links": 1, "pike": 1} and state.discard == ["rare"]


class TestTiming:
    def test_an_own_turn_card_not_during_a_decision(self):
        state = combat()
        answer = breaks(state, "TURN-5", type="reveal_background", player=0, card="too_fast_for_you")
        assert answer.violations[0].message.startswith("Waiting for Nicholas")

    def test_an_after_loss_card_only_for_the_loser(self):
        state = combat()
        follows(state, type="give_up", player=1)
        breaks(state, "BG", type="reveal_background", player=2, card="is_that_everything_youve_got")

    def test_an_after_loss_card_out_of_turn_by_the_defender(self):
        state = combat()
        follows(state, type="give_up", player=1)
        reveal(state, 1, "is_that_everything_youve_got")
        assert state.players[1].beatings == 0 and state.active == 0
