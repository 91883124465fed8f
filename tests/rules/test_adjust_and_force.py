"""`force: true` (the physical game wins, the violation is kept as overridden) and `adjust`
(explicit corrections, applied together or not at all)."""

import pytest

from companion.rules import ConfigError
from companion.rules.config import RULES_VERSION

from support import breaks, follows, known, play, said, snapshot, start


class TestForce:
    def test_a_forced_action_is_applied_and_its_violations_kept(self):
        """Crafting in the Cell Block, forced: applied, CRAFT-1 listed as overridden."""
        state = start(hands={0: ["links", "pike"]})
        answer = play(state, type="craft", player=0, recipe="pickaxe", force=True)
        assert answer.accepted and answer.forced
        assert answer.to_json()["violations"] == [
            {
                "rule": "CRAFT-1",
                "message": "No crafting in the Cell Block.",
                "key": "v.no_craft_here",
                "params": {"place": "cell_block"},
                "overridden": True,
            }
        ]
        assert known(state, 0) == {"pickaxe": 1} and state.piles["pickaxe"] == 10 and state.actions_left == 1
        assert said(answer)[0] == {"type": "forced", "player": 0, "rules": ["CRAFT-1"]}
        assert state.step == 1

    def test_every_violation_is_kept(self):
        state = start(hands={0: ["links", "pike"]}, player_fields={0: {"beatings": 1}})
        answer = play(state, type="craft", player=0, recipe="pickaxe", force=True)
        assert answer.accepted and [v["rule"] for v in answer.to_json()["violations"]] == ["CRAFT-1", "BEAT-2"]
        assert all(v["overridden"] for v in answer.to_json()["violations"])

    def test_a_forced_extra_action_never_goes_below_zero(self):
        state = start(player_fields={0: {"place": "cafeteria"}})
        follows(state, type="steal_spoon", player=0)
        follows(state, type="steal_spoon", player=0)
        answer = play(state, type="steal_spoon", player=0, force=True)
        assert answer.accepted and [v.rule for v in answer.violations] == ["TURN-1"]
        assert known(state, 0) == {"spoon": 3} and state.actions_left == 0

    def test_a_forced_dig_with_two_beatings_scores(self):
        state = start(hands={0: ["shovel"]}, player_fields={0: {"beatings": 2}})
        answer = play(state, type="dig", player=0, tool="shovel", force=True)
        assert answer.accepted and [v.rule for v in answer.violations] == ["BEAT-2"]
        assert state.players[0].tunnel == 3

    def test_a_card_the_player_cannot_hold_is_never_forced(self):
        """HAND-1 cannot be represented: still refused, state untouched."""
        state = start(hands={0: ["spoon"]})
        before = snapshot(state)
        answer = play(state, type="dig", player=0, tool="shovel", force=True)
        assert not answer.accepted and [v.rule for v in answer.violations] == ["HAND-1"]
        assert snapshot(state) == before

    def test_an_empty_pile_is_never_forced(self):
        state = start(hands={1: ["spoon"] * 11}, player_fields={0: {"place": "cafeteria"}})
        before = snapshot(state)
        answer = play(state, type="steal_spoon", player=0, force=True)
        assert not answer.accepted and [v.rule for v in answer.violations] == ["SUP-2"]
        assert snapshot(state) == before

    def test_acting_out_of_turn_is_never_forced(self):
        state = start()
        before = snapshot(state)
        answer = play(state, type="search", player=1, force=True)
        assert not answer.accepted and [v.rule for v in answer.violations] == ["TURN-4"]
        assert snapshot(state) == before

    def test_one_hard_violation_refuses_the_forced_action(self):
        """Craft in the Cell Block (forceable) without the materials in a known hand (HAND-1)."""
        state = start(hands={0: ["links"]})
        before = snapshot(state)
        answer = play(state, type="craft", player=0, recipe="pickaxe", force=True)
        assert not answer.accepted and {"CRAFT-1", "HAND-1"} <= {v.rule for v in answer.violations}
        assert snapshot(state) == before

    def test_a_forced_move_goes_where_the_table_says(self):
        """The physical game wins: a 1 entered with the Infirmary as destination, forced."""
        state = start()
        answer = play(state, type="move", player=0, die=[1], to="infirmary", force=True)
        assert answer.accepted and [v.rule for v in answer.violations] == ["MOVE-1"]
        assert state.players[0].place == "infirmary" and state.pending is None

    def test_a_forced_neutral_move_goes_where_the_table_says(self):
        state = start(modules={"neutrals": 1})
        follows(state, type="end_turn", player=0)
        answer = play(state, type="move_neutral", player=0, neutral="michel", die=[1], to="infirmary", force=True)
        assert answer.accepted and [v.rule for v in answer.violations] == ["MICH-2"]
        assert state.neutrals == {"michel": "infirmary"} and state.active == 1

    def test_a_forced_master_key_goes_where_the_table_says(self):
        state = start(player_fields={0: {"gang": "bikers", "ability": "master_key"}})
        answer = play(state, type="gang_ability", player=0, ability="master_key", to="showers", force=True)
        assert answer.accepted and [v.rule for v in answer.violations] == ["ADJ-1"]
        assert state.players[0].place == "showers"

    def test_a_forced_join_cannot_discard_a_card_the_player_cannot_hold(self):
        """Carmen holds 3 cards nobody entered: none can be a Knife (a board card)."""
        state = start()
        breaks(state, "HAND-1", type="join_gang", player=0, gang="cartel", cards=["knife", "cap"], force=True)
        assert state.piles["knife"] == 20

    def test_a_forced_action_card_without_a_target_is_refused(self):
        state = start(hands={0: ["solitary_confinement"]})
        breaks(state, "ACT-1", type="play_action", player=0, card="solitary_confinement", force=True)

    def test_a_forced_background_without_a_target_is_refused(self):
        state = start(player_fields={1: {"cigarettes": 4}})
        breaks(state, "BG", type="reveal_background", player=0, card="protection_doesnt_come_cheap", force=True)

    def test_a_forced_after_loss_background_without_a_loss_is_refused(self):
        state = start()
        breaks(state, "BG", type="reveal_background", player=0, card="is_that_everything_youve_got", force=True)

    def test_a_forced_cut_you_against_michel_is_refused(self):
        state = start(hands={0: ["knife"]}, modules={"neutrals": 1}, player_fields={0: {"place": "infirmary"}})
        follows(state, type="move", player=0, die=[5], to="showers", michel_cards=["knife_shovel"])
        breaks(state, "BG", type="reveal_background", player=0, card="i_will_cut_you_with_your_own_blade", force=True)

    def test_force_on_a_legal_action_changes_nothing_special(self):
        state = start(player_fields={0: {"place": "cafeteria"}})
        answer = play(state, type="steal_spoon", player=0, force=True)
        assert answer.accepted and not answer.forced and answer.violations == []
        assert not [e for e in said(answer) if e["type"] == "forced"]


class TestAdjust:
    def test_edits_are_applied_together(self):
        state = start(modules={"neutrals": 1})
        answer = follows(
            state,
            type="adjust",
            player=2,
            reason="we forgot",
            changes=[
                {"path": "players.0.cigarettes", "set": 5},
                {"path": "players.1.hand", "add": ["knife", "blade"]},
                {"path": "players.1.beatings", "set": 2},
                {"path": "neutrals.michel", "set": "cafeteria"},
                {"path": "players.2.place", "set": "infirmary"},
            ],
        )
        assert state.players[0].cigarettes == 5 and state.players[1].beatings == 2
        assert known(state, 1) == {"knife": 1, "blade": 1} and state.piles["knife"] == 19 and state.deck == 67
        assert state.neutrals == {"michel": "cafeteria"} and state.players[2].place == "infirmary"
        assert said(answer)[0] == {"type": "adjusted", "player": 2, "reason": "we forgot"}
        assert state.active == 0 and state.actions_left == 2

    def test_a_refused_edit_refuses_them_all(self):
        state = start()
        answer = breaks(
            state,
            "BEAT-1",
            type="adjust",
            player=0,
            changes=[{"path": "players.0.cigarettes", "set": 5}, {"path": "players.0.beatings", "set": 3}],
        )
        assert state.players[0].cigarettes == 0
        assert answer.violations[0].message == "players.0.beatings must be a whole number from 0 to 2."

    def test_an_empty_pile_names_sup_2(self):
        state = start(hands={1: ["shovel"] * 11})
        answer = breaks(
            state, "SUP-2", type="adjust", player=0, changes=[{"path": "players.0.hand", "add": ["shovel"]}]
        )
        assert answer.violations[0].message == "The Shovel pile is empty."

    def test_an_unknown_place_names_di_1(self):
        state = start()
        breaks(state, "DI-1", type="adjust", player=0, changes=[{"path": "players.0.place", "set": "library"}])

    def test_removing_a_card_that_is_not_there_names_hand_1(self):
        state = start(hands={0: ["spoon"]})
        breaks(state, "HAND-1", type="adjust", player=0, changes=[{"path": "players.0.hand", "remove": ["knife"]}])

    def test_a_bad_path_or_nothing_is_refused(self):
        state = start()
        answer = breaks(state, "ADJUST", type="adjust", player=0, changes=[{"path": "weather", "set": "rain"}])
        assert answer.violations[0].message == "weather cannot be corrected this way."
        breaks(state, "ADJUST", type="adjust", player=0, changes=[])

    def test_allowed_during_a_pending_decision(self):
        state = start(hands={0: ["knife"], 1: ["spoon"]})
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        follows(state, type="adjust", player=1, changes=[{"path": "players.1.cigarettes", "set": 2}])
        assert state.pending.kind == "extortion_answer" and state.players[1].cigarettes == 2

    def test_a_pile_count_correction_is_recorded(self):
        state = start()
        follows(state, type="adjust", player=0, changes=[{"path": "piles.knife", "set": 18}])
        assert state.piles["knife"] == 18 and state.corrections == {"knife": -2}

    def test_an_adjusted_tunnel_can_win(self):
        state = start()
        answer = follows(state, type="adjust", player=0, changes=[{"path": "players.1.tunnel", "set": 12}])
        assert state.winner == 1 and answer.winner == 1


class TestIdentify:
    def test_a_card_nobody_entered_can_be_named_later(self):
        """Cards drawn unentered may be named afterwards: the hand keeps its size, the deck is untouched."""
        state = start()
        follows(state, type="adjust", player=0, changes=[{"path": "players.0.hand", "identify": ["blade"]}])
        assert state.players[0].hand.known == {"blade": 1} and state.players[0].hand.unknown == 2
        assert state.deck == 68

    def test_naming_needs_an_unentered_card(self):
        state = start(hands={0: ["knife"]})
        breaks(state, "HAND-1", type="adjust", player=0, changes=[{"path": "players.0.hand", "identify": ["blade"]}])

    def test_naming_a_card_every_copy_of_which_is_seen_is_refused(self):
        state = start(hands={1: ["blade"] * 10})
        breaks(state, "SUP-1", type="adjust", player=0, changes=[{"path": "players.0.hand", "identify": ["blade"]}])


class TestRulesVersions:
    """What the engine judges more strictly later applies to new games only: a game keeps the rules
    it began with (`rules_version` in its configuration), so a stored game replays as it was played."""

    BLADE = [{"path": "players.0.hand", "add": ["blade"]}]

    def test_a_correction_adds_no_copy_the_box_has_no_unseen_copy_of(self):
        state = start(hands={1: ["blade"] * 10})  # the box holds 10 Blades: all in sight
        answer = breaks(state, "SUP-1", type="adjust", player=0, changes=self.BLADE)
        assert answer.violations[0].key == "v.all_copies_seen"
        breaks(state, "SUP-1", type="adjust", player=0, changes=[{"path": "discard", "add": ["blade"]}])

    def test_a_correction_adds_an_unseen_copy(self):
        state = start(hands={1: ["blade"] * 9})
        deck = state.deck
        follows(state, type="adjust", player=0, changes=self.BLADE)
        assert known(state, 0) == {"blade": 1} and state.deck == deck - 1
        breaks(state, "SUP-1", type="adjust", player=0, changes=[{"path": "discard", "add": ["blade"]}])
        follows(state, type="adjust", player=0, changes=[{"path": "players.0.hand", "add": ["unknown"]}])

    def test_a_game_of_the_first_rules_still_takes_it(self):
        state = start(hands={1: ["blade"] * 10}, rules_version=1)
        follows(state, type="adjust", player=0, changes=self.BLADE)
        assert known(state, 0) == {"blade": 1}

    def _won_during_a_combat(self, version: int) -> tuple[object, list[dict]]:
        """Carmen extorts Nicholas with her Knife; a correction then gives Nicholas the target."""
        state = start(hands={0: ["knife"], 1: ["spoon"]}, rules_version=version)
        assert state.piles["knife"] == 19
        follows(state, type="extort", player=0, target=1, tool="spoon", weapons=["knife"])
        assert state.combat is not None and state.combat.laid == [(0, "knife")]
        answer = follows(state, type="adjust", player=1, changes=[{"path": "players.1.tunnel", "set": 12}])
        assert state.winner == 1 and state.combat is None
        return state, said(answer)

    def test_a_win_during_a_combat_discards_the_weapons_laid(self):
        state, events = self._won_during_a_combat(RULES_VERSION)
        assert state.piles["knife"] == 20  # CMB-3: a Knife goes back to its pile
        assert [e["type"] for e in events][-2:] == ["discard", "win"]
        assert events[-2] == {"type": "discard", "player": None, "cards": ["knife"], "why": "combat"}

    def test_under_the_first_rules_the_weapons_laid_were_dropped(self):
        state, events = self._won_during_a_combat(1)
        assert state.piles["knife"] == 19 and "discard" not in [e["type"] for e in events]

    def test_a_game_keeps_its_version(self):
        assert start().config["rules_version"] == RULES_VERSION == 3
        assert start(rules_version=1).config["rules_version"] == 1

    @pytest.mark.parametrize("version", [0, RULES_VERSION + 1, "2", True, None, 1.0])
    def test_an_unknown_version_is_refused(self, version):
        with pytest.raises(ConfigError) as error:
            start(rules_version=version)
        assert error.value.key == "config.bad_rules_version"
        assert (
            error.value.message == f"rules_version must be a whole number from 1 to {RULES_VERSION} (the latest rules)."
        )


class TestRulings:
    """A forced action may carry the table's ruling: kept in its `forced` event, refused when it is
    not a short printable sentence or comes without `force`."""

    def test_the_ruling_travels_with_the_forced_event(self):
        state = start(hands={0: ["links", "pike"]})
        answer = play(state, type="craft", player=0, recipe="pickaxe", force=True, ruling="  we craft in the cell  ")
        assert said(answer)[0] == {
            "type": "forced",
            "player": 0,
            "rules": ["CRAFT-1"],
            "ruling": "we craft in the cell",
        }

    def test_a_forced_event_without_a_ruling_reads_as_before(self):
        from companion.rules import event_from_json

        old = event_from_json({"type": "forced", "player": 0, "rules": ["CRAFT-1"]})
        assert old.to_json() == {"type": "forced", "player": 0, "rules": ["CRAFT-1"]}

    @pytest.mark.parametrize(
        "ruling",
        ["", "   ", "x" * 201, "tab\there", "bell\x07", 42, ["a"], None],
        ids=["empty", "blank", "too-long", "tab", "control", "number", "list", "null"],
    )
    def test_a_ruling_that_is_not_a_short_sentence_is_refused(self, ruling):
        from companion.rules import MalformedAction, parse_action

        with pytest.raises(MalformedAction):
            parse_action({"type": "end_turn", "player": 0, "force": True, "ruling": ruling})

    def test_a_ruling_needs_force(self):
        from companion.rules import MalformedAction, parse_action

        with pytest.raises(MalformedAction, match="force"):
            parse_action({"type": "end_turn", "player": 0, "ruling": "why not"})

    def test_a_refusal_a_setting_governs_maps_to_that_house_rule(self):
        from companion.rules import build_ruleset, refusal_house_rules

        assert refusal_house_rules(["v.craft_once"]) == {"craft_once_per_turn": False}
        assert refusal_house_rules(["v.craft_once", "v.no_craft_here"]) is None  # CRAFT-1 has no setting
        assert refusal_house_rules([]) is None
        for key in ("v.craft_once", "v.neutral_move_required"):  # every mapping is a valid house rule
            build_ruleset("official", refusal_house_rules([key]))

    def test_the_house_rule_kept_makes_the_refused_action_legal(self):
        state = start(hands={0: ["links", "pike", "links", "pike"]}, ruleset="online-simplified")
        state.players[0].place = "cafeteria"
        assert play(state, type="craft", player=0, recipe="pickaxe").accepted
        again = play(state, type="craft", player=0, recipe="pickaxe")
        assert not again.accepted and [v.key for v in again.violations] == ["v.craft_once"]
        from companion.rules import refusal_house_rules

        house = refusal_house_rules([v.key for v in again.violations])
        later = start(hands={0: ["links", "pike", "links", "pike"]}, ruleset="online-simplified", house_rules=house)
        later.players[0].place = "cafeteria"
        assert play(later, type="craft", player=0, recipe="pickaxe").accepted
        assert play(later, type="craft", player=0, recipe="pickaxe").accepted
