"""The Warden's Office (OFF-1..3): reaching it, Bribe and its restrictions, and the three
Corruption effects with their occasions."""

from support import breaks, follows, play, rule_test, said, start

WARDEN = {"warden": True}


def _corrupt_table(**extra):
    """The Warden in the Gymnasium with Carmen; Nicholas and Yellow each hold a Corruption token."""
    fields = {
        0: {"place": "gymnasium", "cigarettes": 5, "hand": ["rare", "rare", "links", "pike", "knife"]},
        1: {"tokens": {"corruption": 2}},
        2: {"tokens": {"corruption": 1}},
    }
    fields.update(extra.pop("player_fields", {}))
    return start(
        3,
        modules={"warden": True, "places": ["gymnasium"]},
        start={"warden": "gymnasium"},
        player_fields=fields,
        **extra,
    )


@rule_test("OFF-1")
class TestOff1:
    def test_breaks(self):
        """A 4 does not name the Cell Block: the Office is not on offer."""
        state = start(3, modules=WARDEN)
        breaks(state, "OFF-1", type="move", player=0, die=[4], to="wardens_office")

    def test_breaks_is_refused(self):
        """Whatever the rule cited, that move is refused and changes nothing."""
        state = start(3, modules=WARDEN)
        answer = play(state, type="move", player=0, die=[4], to="wardens_office")
        assert not answer.accepted and state.players[0].place == "cell_block" and state.actions_left == 2

    def test_follows(self):
        """A 1 names the Cell Block, where Carmen stands: the Office instead of the Cafeteria."""
        state = start(3, modules=WARDEN)
        follows(state, type="move", player=0, die=[1], to="wardens_office")
        assert state.players[0].place == "wardens_office" and state.actions_left == 1

    def test_follows_from_any_place_the_die_names(self):
        """From the Cafeteria a 1 offers the Cell Block or the Office (MOVE-2's exception)."""
        state = start(3, modules=WARDEN, player_fields={0: {"place": "cafeteria"}})
        answer = follows(state, type="move", player=0, die=[1])
        assert answer.pending["options"] == ["cell_block", "wardens_office"]

    def test_follows_die_not_naming_the_place(self):
        """From the Cafeteria a 5 names Showers and Infirmary only: no Office."""
        state = start(3, modules=WARDEN, player_fields={0: {"place": "cafeteria"}})
        answer = follows(state, type="move", player=0, die=[5])
        assert answer.pending["options"] == ["showers", "infirmary"]

    def test_follows_cautious_move_and_search(self):
        """A Cautious move may go there; a Search there draws nothing (assumption)."""
        state = start(3, modules=WARDEN)
        follows(state, type="cautious_move", player=0, to="wardens_office")
        state.actions_left = 1
        answer = follows(state, type="search", player=0)
        assert {"type": "draw", "player": 0, "cards": [], "why": "search"} in said(answer)
        assert state.players[0].hand.unknown == 3

    def test_follows_beside_the_cell_block(self):
        state = start(3, modules=WARDEN)
        assert state.board.adjacent["wardens_office"] == frozenset({"cell_block"})


@rule_test("OFF-2")
class TestOff2:
    def test_breaks(self):
        """Bribe only in the Office."""
        state = start(3, modules=WARDEN, player_fields={0: {"cigarettes": 2}})
        breaks(state, "OFF-2", type="bribe", player=0)

    def test_breaks_without_two_cigarettes(self):
        state = start(3, modules=WARDEN, player_fields={0: {"place": "wardens_office", "cigarettes": 1}})
        answer = breaks(state, "OFF-2", type="bribe", player=0)
        assert answer.violations[0].params == {"price": 2, "have": 1, "item": "bribe"}

    def test_breaks_extort_in_the_office(self):
        state = start(
            3,
            modules=WARDEN,
            hands={0: ["knife"]},
            player_fields={0: {"place": "wardens_office"}, 1: {"place": "wardens_office"}},
        )
        answer = breaks(state, "OFF-2", type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert answer.violations[0].message == "No extortion in the Warden's Office."

    def test_breaks_craft_in_the_office(self):
        state = start(3, modules=WARDEN, hands={0: ["links", "pike"]}, player_fields={0: {"place": "wardens_office"}})
        breaks(state, "OFF-2", type="craft", player=0, recipe="pickaxe")

    def test_breaks_join_a_gang_in_the_office(self):
        state = start(3, modules=WARDEN, hands={0: ["boots", "ring"]}, player_fields={0: {"place": "wardens_office"}})
        breaks(state, "OFF-2", type="join_gang", player=0, gang="bikers", cards=["boots", "ring"])

    def test_follows(self):
        """2 cigarettes for a Corruption token, 1 action; Bribe is no offence even with the Warden there."""
        state = start(
            3,
            modules=WARDEN,
            start={"warden": "wardens_office"},
            player_fields={0: {"place": "wardens_office", "cigarettes": 3}},
        )
        answer = follows(state, type="bribe", player=0)
        assert state.players[0].cigarettes == 1 and state.players[0].tokens == {"corruption": 1}
        assert state.supplies["corruption"] == 9 and state.actions_left == 1
        assert answer.offence is None


@rule_test("OFF-3")
class TestOff3:
    def test_breaks(self):
        """No token, no effect."""
        state = _corrupt_table()
        follows(state, type="sell", player=0, cards=["rare"], cigarettes=4)
        answer = breaks(state, "OFF-3", type="corruption", player=0, effect="punishment")
        assert answer.violations[0].message == "You have no Corruption token."

    def test_breaks_without_the_warden(self):
        state = start(3)
        breaks(state, "OFF-3", type="corruption", player=1, effect="move", to="cafeteria")

    def test_breaks_freepass_for_someone_elses_offence(self):
        state = _corrupt_table()
        follows(state, type="sell", player=0, cards=["rare"], cigarettes=4)
        breaks(state, "OFF-3", type="corruption", player=1, effect="freepass")

    def test_breaks_freepass_too_late(self):
        """Freepass must come before the next action closes the window."""
        state = _corrupt_table(player_fields={0: {"place": "gymnasium", "hand": ["rare"], "tokens": {"corruption": 1}}})
        follows(state, type="sell", player=0, cards=["rare"], cigarettes=4)
        follows(state, type="search", player=0)
        breaks(state, "OFF-3", type="corruption", player=0, effect="freepass")

    def test_breaks_punishment_away_from_the_warden(self):
        """Nicholas searched in the Cell Block, far from the Warden: nobody can punish him for it."""
        state = _corrupt_table(first_player=1)
        follows(state, type="search", player=1)
        answer = breaks(state, "OFF-3", type="corruption", player=2, effect="punishment")
        assert answer.violations[0].message == "Punishment needs an action just finished in the Warden's Place."

    def test_breaks_punishment_of_another_player(self):
        state = _corrupt_table()
        follows(state, type="search", player=0)
        breaks(state, "OFF-3", type="corruption", player=1, effect="punishment", target=2)

    def test_breaks_move_without_a_move(self):
        state = _corrupt_table()
        follows(state, type="search", player=0)
        breaks(state, "OFF-3", type="corruption", player=1, effect="move", to="cell_block")

    def test_breaks_move_after_the_occasion(self):
        """The occasion passes when the next action starts."""
        state = _corrupt_table()
        follows(state, type="move", player=0, die=[4], to="cafeteria")
        follows(state, type="steal_spoon", player=0)
        breaks(state, "OFF-3", type="corruption", player=1, effect="move", to="cell_block")

    def test_breaks_one_player_per_effect_per_occasion(self):
        state = _corrupt_table()
        follows(state, type="move", player=0, die=[4], to="cafeteria")
        follows(state, type="corruption", player=2, effect="move", to="cafeteria")
        answer = breaks(state, "OFF-3", type="corruption", player=1, effect="move", to="cell_block")
        assert answer.violations[0].message == "Move the Warden has already been used on this occasion."
        assert state.warden == "cafeteria"

    def test_breaks_punishment_after_a_turn_without_action(self):
        """Carmen ends her turn without acting: there was no action to punish."""
        state = _corrupt_table()
        follows(state, type="end_turn", player=0)
        breaks(state, "OFF-3", type="corruption", player=1, effect="punishment")

    def test_follows(self):
        """Freepass: Carmen cancels her own offence at once; nobody can report it any more."""
        state = _corrupt_table(player_fields={0: {"place": "gymnasium", "hand": ["rare"], "tokens": {"corruption": 1}}})
        follows(state, type="sell", player=0, cards=["rare"], cigarettes=4)
        answer = follows(state, type="corruption", player=0, effect="freepass")
        assert {"type": "corruption", "player": 0, "effect": "freepass"} in said(answer)
        assert state.offence is None and state.players[0].tokens == {}
        assert state.supplies["corruption"] == 10 - 3
        assert state.actions_left == 1
        breaks(state, "WARD-3", type="report", player=1)
        assert state.players[0].place == "gymnasium" and state.players[0].cigarettes == 4

    def test_follows_freepass_during_the_combat(self):
        """A Freepass needs no waiting: it may be used while her extortion's combat is pending."""
        state = _corrupt_table(
            player_fields={
                0: {"place": "gymnasium", "hand": ["knife"], "tokens": {"corruption": 1}},
                1: {"place": "gymnasium", "hand": [], "tokens": {"corruption": 2}},
            }
        )
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="corruption", player=0, effect="freepass")
        follows(state, type="give_up", player=1)
        breaks(state, "WARD-3", type="report", player=2)

    def test_follows_punishment_beating(self):
        """Nicholas punishes Carmen after her (unreported) Sale and, spending the token, chooses the
        Beating (the Dig In rulebook: "choose: either they suffer a Beating, or...")."""
        state = _corrupt_table()
        follows(state, type="sell", player=0, cards=["rare"], cigarettes=4)
        answer = follows(state, type="corruption", player=1, effect="punishment")
        assert answer.pending == {
            "kind": "punishment_choice",
            "player": 1,
            "options": ["beating", "discard_half", "lose_cigarettes"],
            "by": 1,
            "target": 0,
        }
        breaks(state, "TURN-4", type="punishment_choice", player=0, choice="lose_cigarettes")
        answer = follows(state, type="punishment_choice", player=1, choice="beating")
        assert {"type": "punishment", "player": 0, "choice": "beating", "chooser": 1} in said(answer)
        p = state.players[0]
        assert (p.beatings, p.cigarettes, p.hand.size()) == (1, 9, 4)
        assert state.players[1].tokens == {"corruption": 1} and state.pending is None
        assert state.players[1].beatings == 0

    def test_follows_punishment_chosen_by_the_victim(self):
        """The house rule `punishment_choice: victim` (the Italian guide): the punished player chooses."""
        state = _corrupt_table(house_rules={"punishment_choice": "victim"})
        follows(state, type="sell", player=0, cards=["rare"], cigarettes=4)
        answer = follows(state, type="corruption", player=1, effect="punishment")
        assert answer.pending["player"] == 0 and answer.pending["target"] == 0
        breaks(state, "TURN-4", type="punishment_choice", player=1, choice="lose_cigarettes")
        follows(state, type="punishment_choice", player=0, choice="lose_cigarettes")
        assert state.players[0].cigarettes == 0 and state.players[0].beatings == 0

    def test_follows_punishment_discard_half(self):
        """7 cards after a Search: 4 discarded at random (half rounded up)."""
        state = _corrupt_table()
        follows(state, type="search", player=0)
        assert state.players[0].hand.size() == 7
        follows(state, type="corruption", player=2, effect="punishment", target=0)
        answer = follows(state, type="punishment_choice", player=2, choice="discard_half")
        discarded = [c for e in said(answer) if e["type"] == "discard" for c in e["cards"]]
        assert len(discarded) == 4 and state.players[0].hand.size() == 3
        assert (state.players[0].beatings, state.players[0].cigarettes) == (0, 5)

    def test_follows_punishment_lose_cigarettes(self):
        state = _corrupt_table()
        follows(state, type="search", player=0)
        follows(state, type="corruption", player=1, effect="punishment")
        follows(state, type="punishment_choice", player=1, choice="lose_cigarettes")
        assert state.players[0].cigarettes == 0 and state.players[0].hand.size() == 7

    def test_follows_punishment_then_report(self):
        """Different effects and a report may all follow the same offence."""
        state = _corrupt_table()
        follows(state, type="sell", player=0, cards=["rare"], cigarettes=4)
        follows(state, type="corruption", player=1, effect="punishment")
        breaks(state, "TURN-5", type="report", player=2)
        follows(state, type="punishment_choice", player=1, choice="beating")
        follows(state, type="report", player=2)
        assert state.players[0].place == "solitary" and state.players[0].beatings == 1

    def test_follows_move(self):
        """After Carmen's Simple move, Yellow (out of turn) moves the Warden to the Cafeteria with her."""
        state = _corrupt_table()
        follows(state, type="move", player=0, die=[4], to="cafeteria")
        answer = follows(state, type="corruption", player=2, effect="move", to="cafeteria")
        assert state.warden == "cafeteria" and state.players[2].tokens == {}
        assert {"type": "warden_move", "to": "cafeteria", "why": "corruption", "player": 2} in said(answer)
        assert state.actions_left == 1 and state.active == 0

    def test_follows_move_after_a_cautious_move(self):
        state = _corrupt_table()
        follows(state, type="cautious_move", player=0, to="showers")
        follows(state, type="corruption", player=1, effect="move", to="showers")
        assert state.warden == "showers"

    def test_follows_each_effect_once_per_occasion(self):
        """Punishment and Move are different effects: both may follow the same move in her Place."""
        state = _corrupt_table()
        follows(state, type="move", player=0, die=[6], to="showers")
        follows(state, type="corruption", player=2, effect="move", to="showers")
        follows(state, type="corruption", player=1, effect="punishment")
        follows(state, type="punishment_choice", player=1, choice="lose_cigarettes")
        assert state.warden == "showers" and state.players[0].cigarettes == 0
        breaks(state, "OFF-3", type="corruption", player=1, effect="punishment")
