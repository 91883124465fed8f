"""The Warden (WARD-1..8): where she stands, the ten illegal actions, reports, and what a report
does and does not take away."""

import pytest

from companion.rules import ConfigError

from support import breaks, follows, known, play, rule_test, said, start

# For each illegal action (WARD-2): the Place where it is legal, the Dig In Places it needs, the
# acting player's hand and the action. Nicholas (seat 1) stands in the same Place with a Rare item.
OFFENCES = {
    "extort": ("cafeteria", [], ["knife"], {"type": "extort", "target": 1, "tool": "spoon", "weapons": ["knife"]}),
    "dig": ("cell_block", [], ["spoon"], {"type": "dig", "tool": "spoon"}),
    "sell": ("gymnasium", ["gymnasium"], ["rare"], {"type": "sell", "cards": ["rare"], "cigarettes": 4}),
    "bet": ("gambling_cells", ["gambling_cells"], [], {"type": "bet", "amount": 1, "number": 2, "die": [5]}),
    "steal_bandage": ("laundry", ["laundry"], [], {"type": "steal_bandage"}),
    "craft": ("cafeteria", [], ["links", "blade"], {"type": "craft", "recipe": "knives"}),
    "buy": ("recreational_area", [], [], {"type": "buy", "item": "knife"}),
    "steal_spoon": ("cafeteria", [], [], {"type": "steal_spoon"}),
    "improve_tool": ("workshop", ["workshop"], ["pickaxe"], {"type": "improve_tool", "tool": "pickaxe"}),
    "brawl": ("gymnasium", ["gymnasium"], ["knife"], {"type": "brawl", "weapon": "knife"}),
}


def _offence_game(name, warden_here=True):
    place, places, hand, _ = OFFENCES[name]
    return start(
        3,
        modules={"warden": True, "places": places},
        hands={0: hand, 1: ["rare"]},
        start={"warden": place if warden_here else "showers"},
        player_fields={0: {"place": place, "cigarettes": 3}, 1: {"place": place}},
    )


def _sell_in_front_of_her(players=3, places=("gymnasium",), **extra):
    """Yellow (seat 2, first player) sells two cards in the Gymnasium under the Warden's eyes."""
    fields = {
        1: {"place": "gymnasium", "tokens": {"corruption": 1}},
        2: {"place": "gymnasium", "hand": ["rare", "golden_chain", "knife"]},
    }
    state = start(
        players,
        modules={"warden": True, "places": list(places)},
        start={"warden": "gymnasium"},
        player_fields=fields,
        first_player=2,
        **extra,
    )
    answer = follows(state, type="sell", player=2, cards=["rare", "golden_chain"], cigarettes=7)
    assert answer.offence.to_json() == {"rule": "WARD-2", "action": "sell", "place": "gymnasium", "offender": 2}
    return state


@rule_test("WARD-1")
class TestWard1:
    def test_breaks(self):
        """No Warden module, no Warden to place."""
        state = start(3)
        breaks(state, "WARD-1", type="adjust", player=0, changes=[{"path": "warden", "set": "cafeteria"}])

    def test_breaks_message_names_the_missing_warden(self):
        state = start(3)
        answer = breaks(state, "WARD-1", type="adjust", player=0, changes=[{"path": "warden", "set": "cafeteria"}])
        message = answer.violations[0].message
        assert "Warden" in message and "is not a Place" not in message

    def test_breaks_at_setup(self):
        with pytest.raises(ConfigError) as error:
            start(3, start={"warden": "cafeteria"})
        assert error.value.rule == "WARD-1"

    def test_follows(self):
        """She starts in the Cell Block (the Gambling Cells when they cover it) and stays there
        through whole turns."""
        state = start(2, modules={"warden": True})
        assert state.warden == "cell_block"
        follows(state, type="move", player=0, die=[4], to="cafeteria")
        follows(state, type="end_turn", player=0)
        follows(state, type="cautious_move", player=1, to="showers")
        follows(state, type="end_turn", player=1)
        assert state.warden == "cell_block"
        assert start(2, modules={"warden": True, "places": ["gambling_cells"]}).warden == "gambling_cells"


@rule_test("WARD-2")
class TestWard2:
    """Outcome rule: an offence is a flag on an accepted action, never a refusal."""

    def test_breaks(self):
        """Adversarial: selling in front of the Warden is accepted and flagged, with a report window."""
        state = _offence_game("sell")
        answer = play(state, player=0, **OFFENCES["sell"][3])
        assert answer.accepted and answer.violations == []
        assert answer.offence.to_json() == {"rule": "WARD-2", "action": "sell", "place": "gymnasium", "offender": 0}
        assert state.offence == answer.offence
        assert state.players[0].cigarettes == 7

    def test_follows(self):
        """A legal action that is not on the list (Search) in her Place is no offence."""
        state = start(3, modules={"warden": True})
        answer = follows(state, type="search", player=0)
        assert answer.offence is None and state.offence is None

    @pytest.mark.parametrize("name", sorted(OFFENCES))
    def test_offence_in_her_place(self, name):
        state = _offence_game(name)
        answer = follows(state, player=0, **OFFENCES[name][3])
        place = OFFENCES[name][0]
        assert answer.offence.to_json() == {"rule": "WARD-2", "action": name, "place": place, "offender": 0}
        assert {"type": "offence", "player": 0, "action": name, "place": place} in said(answer)
        assert state.offence == answer.offence

    @pytest.mark.parametrize("name", sorted(OFFENCES))
    def test_no_offence_outside_her_place(self, name):
        state = _offence_game(name, warden_here=False)
        answer = follows(state, player=0, **OFFENCES[name][3])
        assert answer.offence is None and state.offence is None
        assert not [e for e in said(answer) if e["type"] == "offence"]

    @pytest.mark.parametrize(
        "place, action",
        [
            ("library", {"type": "study"}),
            ("library", {"type": "rehabilitate"}),
            ("workshop", {"type": "develop_skills"}),
            ("gambling_cells", {"type": "plan"}),
            ("gymnasium", {"type": "workout"}),
            ("laundry", {"type": "change_style", "gang": "bikers", "cards": ["boots"]}),
            ("laundry", {"type": "heal"}),
            ("gambling_cells", {"type": "search"}),
        ],
    )
    def test_other_place_actions_are_no_offence(self, place, action):
        """Only the ten listed actions are offences: the other Dig In Place actions are not."""
        places = ["gambling_cells", "workshop", "gymnasium", "laundry", "library"]
        state = start(
            3,
            modules={"warden": True, "places": places},
            hands={0: ["boots"]},
            start={"warden": place},
            player_fields={0: {"place": place, "beatings": 1}},
        )
        answer = follows(state, player=0, **action)
        assert answer.offence is None and state.offence is None

    def test_exchange_is_no_offence(self):
        state = start(4, modules={"team": True, "warden": True}, hands={0: ["rare"]}, start={"warden": "cell_block_a"})
        answer = follows(state, type="exchange", player=0, to=2, cards=["rare"])
        assert answer.offence is None

    def test_the_list_is_the_rulebook_list(self):
        """Decision 2: Buy is illegal (English rulebook); exactly these ten actions."""
        state = start(2, modules={"warden": True})
        assert state.catalog.warden_illegal_actions == frozenset(OFFENCES)


@rule_test("WARD-3")
class TestWard3:
    def test_breaks(self):
        """Nothing to report."""
        state = start(3, modules={"warden": True})
        answer = breaks(state, "WARD-3", type="report", player=1)
        assert answer.violations[0].message == "There is no Warden offence to report now."

    def test_breaks_reporting_yourself(self):
        state = _sell_in_front_of_her()
        answer = breaks(state, "WARD-3", type="report", player=2)
        assert answer.violations[0].message == "You cannot report your own offence."

    def test_breaks_after_the_next_action_started(self):
        """The window closes when the next action starts: unreported, nothing happens."""
        state = _sell_in_front_of_her()
        answer = follows(state, type="search", player=2)
        assert answer.offence is None and state.offence is None
        breaks(state, "WARD-3", type="report", player=1)
        assert state.players[2].place == "gymnasium" and state.players[2].cigarettes == 7

    def test_breaks_after_the_turn_ended(self):
        state = _sell_in_front_of_her()
        follows(state, type="end_turn", player=2)
        breaks(state, "WARD-3", type="report", player=1)

    def test_follows(self):
        """Nicholas reports: Yellow goes to Solitary Confinement and her turn ends at once (she
        still had an action); Carmen's turn starts."""
        state = _sell_in_front_of_her()
        assert state.actions_left == 1
        answer = follows(state, type="report", player=1)
        assert state.players[2].place == "solitary"
        assert state.offence is None and answer.offence is None
        assert (state.active, state.turn, state.actions_left) == (0, 2, 2)
        assert [e["type"] for e in said(answer)] == ["report", "move", "turn_ended", "turn"]
        assert said(answer)[0] == {"type": "report", "player": 1, "offender": 2, "action": "sell"}

    def test_follows_any_other_player_may_report(self):
        """Carmen, in the Cell Block, reports too: no need to stand with the Warden."""
        state = _sell_in_front_of_her()
        follows(state, type="report", player=0)
        assert state.players[2].place == "solitary"

    def test_follows_to_the_psychiatric_ward(self):
        """With the Ward in play the offender goes there and draws a Trauma."""
        state = _sell_in_front_of_her(places=("gymnasium", "psychiatric_ward"))
        top = state.trauma_stack[0]
        answer = follows(state, type="report", player=1)
        assert state.players[2].place == "psychiatric_ward" and state.players[2].trauma == top
        assert {"type": "trauma", "player": 2, "trauma": top, "change": 1, "why": "psychiatric_ward"} in said(answer)

    def test_follows_window_survives_reactions(self):
        """Revealing a Background is a reaction, not an action: the window stays open."""
        state = _sell_in_front_of_her()
        state.players[2].beatings = 1
        state.players[2].background = "i_got_strong_bones_they_say"
        follows(state, type="reveal_background", player=2, card="i_got_strong_bones_they_say")
        follows(state, type="report", player=1)
        assert state.players[2].place == "solitary"

    def test_follows_window_survives_a_spy_token(self):
        """Spying costs no action, so it does not start the next action: Nicholas may still report."""
        state = _sell_in_front_of_her(places=("gymnasium", "library"))
        state.players[2].tokens["spy"] = 1
        state.supplies["spy"] -= 1
        follows(state, type="spy", player=2, target=1)
        follows(state, type="report", player=1)
        assert state.players[2].place == "solitary"

    def test_follows_after_the_combat(self):
        """An extortion in her Place is reported once its combat is over, not during it."""
        state = _offence_game("extort")
        follows(state, player=0, **OFFENCES["extort"][3])
        breaks(state, "TURN-5", type="report", player=2)
        follows(state, type="give_up", player=1)
        follows(state, type="report", player=2)
        assert state.players[0].place == "solitary" and state.active == 1
        assert known(state, 0) == {"rare": 1} and state.players[1].beatings == 1

    def test_follows_after_the_brawl(self):
        state = _offence_game("brawl")
        follows(state, player=0, **OFFENCES["brawl"][3])
        breaks(state, "TURN-5", type="report", player=2)
        follows(state, type="brawl_response", player=1, discard=None)
        follows(state, type="report", player=1)
        assert state.players[0].place == "solitary" and state.players[1].beatings == 1

    def test_follows_hand_limit_still_applies(self):
        """A turn ended by a report still checks the hand limit: 12 cards, discard 2."""
        state = start(
            3,
            modules={"warden": True},
            start={"warden": "cafeteria"},
            hands={0: ["rare"] * 6 + ["links"] * 5},
            player_fields={0: {"place": "cafeteria"}},
        )
        follows(state, type="steal_spoon", player=0)
        answer = follows(state, type="report", player=1)
        assert answer.pending == {"kind": "hand_limit", "player": 0, "options": [], "discard": 2, "limit": 10}
        assert state.active == 0 and state.players[0].place == "solitary"
        follows(state, type="end_turn", player=0, discard=["links", "links"])
        assert state.active == 1 and state.players[0].hand.size() == 10


@rule_test("WARD-4")
class TestWard4:
    """Outcome rule: a report never takes back what the offence gained."""

    def test_breaks(self):
        """Adversarial: Nicholas reports hoping Yellow loses the sale; she keeps the 7 cigarettes
        and the sold cards stay discarded."""
        state = _sell_in_front_of_her()
        follows(state, type="report", player=1)
        assert state.players[2].cigarettes == 7
        assert known(state, 2) == {"knife": 1}
        assert state.discard == ["rare", "golden_chain"]

    def test_follows(self):
        """The reported Buy keeps its Knife; the reported Spoon theft keeps its Spoon."""
        state = _offence_game("buy")
        follows(state, player=0, **OFFENCES["buy"][3])
        follows(state, type="report", player=1)
        assert known(state, 0) == {"knife": 1} and state.players[0].cigarettes == 1
        state = _offence_game("steal_spoon")
        follows(state, player=0, **OFFENCES["steal_spoon"][3])
        follows(state, type="report", player=1)
        assert known(state, 0) == {"spoon": 1} and state.piles["spoon"] == 10


@rule_test("WARD-5")
class TestWard5:
    """Outcome rule: the winning Dig stands."""

    def test_breaks(self):
        """Adversarial: reporting the winning Dig is refused: the game is already over."""
        state = start(3, modules={"warden": True}, hands={0: ["shovel"]}, player_fields={0: {"tunnel": 9}})
        answer = follows(state, type="dig", player=0, tool="shovel")
        assert answer.winner == 0
        answer = breaks(state, "WIN-1", type="report", player=1)
        assert answer.violations[0].message == "The game is over: Carmen won."
        assert state.players[0].place == "cell_block" and state.winner == 0

    def test_follows(self):
        """The winning Dig in her Place is both an offence and a win."""
        state = start(3, modules={"warden": True}, hands={0: ["shovel"]}, player_fields={0: {"tunnel": 9}})
        answer = follows(state, type="dig", player=0, tool="shovel")
        assert answer.offence.to_json() == {"rule": "WARD-2", "action": "dig", "place": "cell_block", "offender": 0}
        assert answer.winner == 0 and state.players[0].tunnel == 12


@rule_test("WARD-6")
class TestWard6:
    def test_breaks(self):
        """She is already here."""
        state = start(3, modules={"warden": True})
        answer = breaks(state, "WARD-6", type="attract_warden", player=0)
        assert answer.violations[0].message == "The Warden is already in your Place."

    def test_breaks_without_the_warden(self):
        state = start(3)
        breaks(state, "WARD-6", type="attract_warden", player=0)

    def test_breaks_without_actions(self):
        state = start(3, modules={"warden": True}, player_fields={0: {"place": "cafeteria"}})
        state.actions_left = 0
        breaks(state, "TURN-1", type="attract_warden", player=0)

    def test_follows(self):
        """One action brings her to the player's Place; she then watches it (WARD-2)."""
        state = start(3, modules={"warden": True}, player_fields={0: {"place": "cafeteria"}})
        answer = follows(state, type="attract_warden", player=0)
        assert state.warden == "cafeteria" and state.actions_left == 1
        assert answer.offence is None
        assert {"type": "warden_move", "to": "cafeteria", "why": "attract_warden", "player": 0} in said(answer)
        answer = follows(state, type="steal_spoon", player=0)
        assert answer.offence.action == "steal_spoon"


@rule_test("WARD-7")
class TestWard7:
    """Restates SOL-1 for the reported offender; the engine cites SOL-1 (as RULES.md WARD-7 does)."""

    def _reported(self):
        state = _sell_in_front_of_her(players=3)
        follows(state, type="report", player=1)
        follows(state, type="end_turn", player=0)
        follows(state, type="end_turn", player=1)
        assert state.active == 2 and state.players[2].place == "solitary"
        return state

    def test_breaks(self):
        """Back on turn, Yellow cannot Search in Solitary Confinement."""
        state = self._reported()
        answer = breaks(state, "SOL-1", type="search", player=2)
        assert answer.violations[0].message == "No Search in Solitary Confinement."

    def test_breaks_second_action(self):
        state = self._reported()
        follows(state, type="move", player=2, die=[4], to="cafeteria")
        breaks(state, "TURN-1", type="steal_spoon", player=2)

    def test_follows(self):
        """She has exactly 1 action, and a Simple move gets her out."""
        state = self._reported()
        assert state.actions_left == 1
        follows(state, type="move", player=2, die=[6], to="showers")
        assert state.players[2].place == "showers" and state.actions_left == 0


@rule_test("WARD-8")
class TestWard8:
    """Outcome rule: the neutrals keep calm in the Warden's Place."""

    def test_breaks(self):
        """Adversarial: Carmen moves Michel onto Nicholas, who stands with the Warden: no extortion."""
        state = start(
            2,
            modules={"neutrals": 1, "warden": True},
            start={"warden": "cafeteria"},
            player_fields={1: {"place": "cafeteria"}},
        )
        follows(state, type="end_turn", player=0)
        answer = follows(
            state,
            type="move_neutral",
            player=0,
            neutral="michel",
            die=[4],
            to="cafeteria",
            michel_cards=["knife_spoon"],
        )
        assert {"type": "neutral_calm", "neutral": "michel", "player": 1, "place": "cafeteria"} in said(answer)
        assert state.combat is None and state.michel_discard == []
        assert state.active == 1 and state.pending is None

    def test_breaks_player_walks_in(self):
        """A player arriving where Michel and the Warden stand is not extorted either."""
        state = start(
            2,
            modules={"neutrals": 1, "warden": True},
            start={"warden": "cafeteria", "neutrals": {"michel": "cafeteria"}},
        )
        answer = follows(state, type="move", player=0, die=[1], to="cafeteria", michel_cards=["knife_spoon"])
        assert state.combat is None and answer.pending is None
        assert {"type": "neutral_calm", "neutral": "michel", "player": 0, "place": "cafeteria"} in said(answer)

    def test_follows(self):
        """Without the Warden there, Michel extorts as usual."""
        state = start(2, modules={"neutrals": 1, "warden": True}, player_fields={1: {"place": "cafeteria"}})
        follows(state, type="end_turn", player=0)
        answer = follows(
            state,
            type="move_neutral",
            player=0,
            neutral="michel",
            die=[4],
            to="cafeteria",
            michel_cards=["knife_spoon"],
        )
        assert {
            "type": "michel_card",
            "neutral": "michel",
            "player": 1,
            "card": "knife_spoon",
            "source": "table",
        } in said(answer)
        assert answer.pending["kind"] == "combat" and answer.pending["player"] == 1
