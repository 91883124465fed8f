"""ACTC: the Action cards the catalog knows (Solitary Confinement, Cafeteria Key, Extra Search,
Camouflage, Heist) and the generic `action` whose effect the table enters as state changes."""

import pytest

from support import breaks, follows, known, rule_test, said, start


@rule_test("ACTC")
class TestActc:
    def test_breaks(self):
        """A camouflaged player cannot be extorted until their next turn."""
        state = start(hands={0: ["camouflage"], 1: ["knife"]})
        follows(state, type="play_action", player=0, card="camouflage")
        follows(state, type="end_turn", player=0)
        answer = breaks(state, "ACTC", type="extort", player=1, target=0, tool="spoon", weapons=["knife"])
        assert answer.violations[0].message == "Carmen is camouflaged until their next turn."

    def test_breaks_changes_with_a_known_card(self):
        """A known card's effect is the app's to apply: no state changes with it."""
        state = start(hands={0: ["cafeteria_key"]})
        answer = breaks(
            state,
            "ACTC",
            type="play_action",
            player=0,
            card="cafeteria_key",
            changes=[{"path": "players.0.cigarettes", "set": 3}],
        )
        assert answer.violations[0].message == "Cafeteria Key has a known effect: enter no state changes with it."

    def test_breaks_a_target_for_a_card_without_one(self):
        state = start(hands={0: ["cafeteria_key"]})
        breaks(state, "ACTC", type="play_action", player=0, card="cafeteria_key", target=1)

    def test_follows(self):
        """Any other Action card: its effect is entered as explicit state changes, applied together."""
        state = start(hands={0: ["action", "links"]})
        answer = follows(
            state,
            type="play_action",
            player=0,
            card="action",
            changes=[{"path": "players.0.cigarettes", "set": 3}, {"path": "players.1.hand", "add": ["knife"]}],
        )
        assert state.players[0].cigarettes == 3 and known(state, 1) == {"knife": 1} and state.piles["knife"] == 19
        assert known(state, 0) == {"links": 1} and state.discard == ["action"] and state.actions_left == 1
        assert [e["type"] for e in said(answer) if e["type"] == "adjust"] == ["adjust", "adjust"]


class TestKnownCards:
    def test_solitary_confinement(self):
        """Send a player to Solitary: their next turn has 1 action."""
        state = start(hands={0: ["solitary_confinement"]})
        follows(state, type="play_action", player=0, card="solitary_confinement", target=2)
        assert state.players[2].place == "solitary" and state.discard == ["solitary_confinement"]
        follows(state, type="end_turn", player=0)
        follows(state, type="end_turn", player=1)
        assert state.active == 2 and state.actions_left == 1

    def test_solitary_confinement_on_yourself_ends_your_turn(self):
        state = start(hands={0: ["solitary_confinement"]})
        answer = follows(state, type="play_action", player=0, card="solitary_confinement", target=0)
        assert state.players[0].place == "solitary" and state.active == 1
        assert {"type": "turn_ended", "player": 0, "why": "action_card"} in said(answer)

    def test_cafeteria_key(self):
        state = start(hands={0: ["cafeteria_key"]}, player_fields={0: {"place": "showers"}})
        follows(state, type="play_action", player=0, card="cafeteria_key")
        assert known(state, 0) == {"spoon": 1} and state.piles["spoon"] == 10

    def test_cafeteria_key_needs_a_spoon_in_the_pile(self):
        state = start(hands={0: ["cafeteria_key"], 1: ["spoon"] * 11})
        breaks(state, "SUP-2", type="play_action", player=0, card="cafeteria_key")

    def test_extra_search(self):
        state = start(hands={0: ["extra_search"]})
        follows(state, type="play_action", player=0, card="extra_search", cards=["blade"])
        assert known(state, 0) == {"blade": 1} and state.players[0].hand.unknown == 1
        assert state.deck == 77 - 7 - 2

    def test_extra_search_draws_two_at_most(self):
        state = start(hands={0: ["extra_search"]})
        answer = breaks(
            state, "ACTC", type="play_action", player=0, card="extra_search", cards=["blade", "links", "pike"]
        )
        assert answer.violations[0].message == "You draw 2 cards here."

    def test_extra_search_is_not_the_search_action(self):
        """It does not count as the turn's Search."""
        state = start(hands={0: ["extra_search"]})
        follows(state, type="play_action", player=0, card="extra_search")
        follows(state, type="search", player=0)
        assert state.players[0].hand.unknown == 3

    def test_camouflage_lasts_until_the_next_turn(self):
        state = start(hands={0: ["camouflage"], 1: ["knife"], 2: ["knife"]})
        follows(state, type="play_action", player=0, card="camouflage")
        assert state.players[0].camouflaged
        for seat in (0, 1, 2):
            follows(state, type="end_turn", player=seat)
        assert not state.players[0].camouflaged
        follows(state, type="end_turn", player=0)
        follows(state, type="extort", player=1, target=0, tool="spoon", weapons=["knife"])

    def test_camouflage_keeps_michel_away(self):
        state = start(hands={0: ["camouflage"]}, modules={"neutrals": 1}, player_fields={0: {"place": "infirmary"}})
        follows(state, type="play_action", player=0, card="camouflage")
        answer = follows(state, type="move", player=0, die=[5], to="showers", michel_cards=["knife_spoon"])
        assert {"type": "camouflaged", "neutral": "michel", "player": 0} in said(answer)
        assert state.pending is None and state.combat is None

    def test_heist(self):
        """Steal a random card from a player in your Place."""
        state = start(hands={0: ["heist"], 1: ["rare"]})
        follows(state, type="play_action", player=0, card="heist", target=1)
        assert known(state, 0) == {"rare": 1} and known(state, 1) == {} and state.discard == ["heist"]

    def test_heist_only_in_your_place(self):
        state = start(hands={0: ["heist"]}, player_fields={1: {"place": "showers"}})
        answer = breaks(state, "ACTC", type="play_action", player=0, card="heist", target=1)
        assert answer.violations[0].message == "Nicholas is not in the Cell Block with you."

    def test_heist_not_yourself(self):
        state = start(hands={0: ["heist"]})
        breaks(state, "ACTC", type="play_action", player=0, card="heist", target=0)

    def test_other_card_with_a_refused_change(self):
        """A refused change refuses the card and names the rule; nothing is applied."""
        state = start(hands={0: ["action"]})
        answer = breaks(
            state,
            "BEAT-1",
            type="play_action",
            player=0,
            card="action",
            changes=[{"path": "players.0.cigarettes", "set": 3}, {"path": "players.1.beatings", "set": 5}],
        )
        assert answer.violations[0].message == "players.1.beatings must be a whole number from 0 to 2."

    @pytest.mark.parametrize("card", ["solitary_confinement", "cafeteria_key", "extra_search", "camouflage", "heist"])
    def test_the_catalog_knows_the_card(self, card):
        assert card in start().catalog.action_cards
