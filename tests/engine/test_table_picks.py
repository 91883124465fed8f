"""Cards the table drew at random from a real hand (`picks`): used before the app's chance at
every random pick, judged by the hand rules, replayed as stored, and asked for by `preview`."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import (
    Game,
    GameState,
    MalformedAction,
    PickAsk,
    invariant_problems,
    legal_actions,
    new_game,
    parse_action,
    preview,
    redact_events,
    step,
    view,
)
from companion.simulate import random_config

from support import breaks, follows, known, said, snapshot, start

CAFETERIA = {0: {"place": "cafeteria"}, 1: {"place": "cafeteria"}}


def lost_combat(defender_hand: list[str], **config) -> GameState:
    """Carmen (0) extorts Nicholas (1) for a Shovel he lacks; Nicholas must play a Weapon or give up."""
    fields = config.pop("player_fields", CAFETERIA)
    state = start(hands={0: ["knife"], 1: defender_hand}, player_fields=fields, **config)
    follows(state, type="extort", player=0, target=1, tool="shovel", weapons=["knife"])
    return state


def michel_loss(hand: list[str]) -> GameState:
    """Carmen walks into Michel's Showers, a Knife card shows a Shovel she lacks: combat."""
    state = start(hands={0: hand}, modules={"neutrals": 1}, player_fields={0: {"place": "infirmary"}})
    follows(state, type="move", player=0, die=[5], to="showers", michel_cards=["knife_shovel"])
    return state


def punished(hand: list[str]) -> GameState:
    """Carmen sold in the Warden's Gymnasium; Nicholas spent a Corruption token to punish her."""
    fields = {0: {"place": "gymnasium", "hand": hand + ["rare"]}, 1: {"tokens": {"corruption": 1}}}
    state = start(
        modules={"warden": True, "places": ["gymnasium"]}, start={"warden": "gymnasium"}, player_fields=fields
    )
    follows(state, type="sell", player=0, cards=["rare"], cigarettes=4)
    follows(state, type="corruption", player=1, effect="punishment")
    return state


def gave(answer) -> list[tuple[int, int, str]]:
    return [(e["player"], e["to"], e["card"]) for e in said(answer) if e["type"] == "give"]


def discarded(answer, why: str) -> list[str]:
    return [c for e in said(answer) if e["type"] == "discard" and e["why"] == why for c in e["cards"]]


def asked_until_none(state, raw: dict, answer, most: int = 200) -> tuple[list[str], list[PickAsk]]:
    """The app's loop: preview with the picks entered so far, ask, append, until nothing is asked."""
    picks: list[str] = []
    asks: list[PickAsk] = []
    for _ in range(most):
        seen = preview(state, parse_action({**raw, "picks": picks}))
        assert seen.accepted, picks
        if seen.pick is None:
            return picks, asks
        asks.append(seen.pick)
        picks.append(answer(seen.pick))
    raise AssertionError(f"still asking after {most} picks")


class TestCombatLoss:
    """CMB-2: the winner takes a card at random from the loser."""

    def test_the_named_pick_is_the_card_that_moves(self):
        state = lost_combat(["rare", "links", "pike"])
        answer = follows(state, type="give_up", player=1, picks=["pike"])
        assert gave(answer) == [(1, 0, "pike")]
        assert known(state, 0) == {"pike": 1} and known(state, 1) == {"links": 1, "rare": 1}

    def test_unknown_moves_a_card_nobody_entered(self):
        state = lost_combat(["rare", "unknown"])
        follows(state, type="give_up", player=1, picks=["unknown"])
        assert state.players[0].hand.unknown == 1 and state.players[1].hand.to_json() == {
            "known": {"rare": 1},
            "unknown": 0,
        }

    def test_a_named_pick_an_unknown_card_stands_for_becomes_that_card(self):
        state = lost_combat(["unknown", "unknown"])
        follows(state, type="give_up", player=1, picks=["blade"])
        assert known(state, 0) == {"blade": 1}
        assert state.players[1].hand.to_json() == {"known": {}, "unknown": 1}

    @pytest.mark.parametrize("pick", ["blade", "unknown", "pickaxe"])
    def test_a_card_the_hand_cannot_hold_is_refused_and_changes_nothing(self, pick):
        state = lost_combat(["rare", "links"])
        answer = breaks(state, "HAND-1", type="give_up", player=1, picks=[pick])
        assert [v.key for v in answer.violations] == ["v.pick_impossible"]
        assert answer.violations[0].params == {"player": "Nicholas", "card": pick}

    def test_every_copy_seen_elsewhere_refuses_an_unknown_card_as_it(self):
        """SUP-1: the six Rare items lie in Yellow's hand, so no unknown card can be one."""
        state = lost_combat(["unknown"], player_fields={**CAFETERIA, 2: {"hand": ["rare"] * 6}})
        breaks(state, "HAND-1", type="give_up", player=1, picks=["rare"])
        follows(state, type="give_up", player=1, picks=["links"])

    def test_a_forced_action_cannot_force_an_impossible_pick(self):
        state = lost_combat(["rare"])
        breaks(state, "HAND-1", type="give_up", player=1, picks=["links"], force=True)

    def test_the_table_pick_does_not_move_the_generator(self):
        table, app = lost_combat(["rare", "links"]), lost_combat(["rare", "links"])
        position = table.rng.state
        follows(table, type="give_up", player=1, picks=["rare"])
        assert table.rng.state == position
        follows(app, type="give_up", player=1)
        assert app.rng.state != position

    def test_the_table_pick_stays_in_the_action_and_records_no_outcome(self):
        game = Game({"players": [{"name": "A", "hand": ["knife"]}, {"name": "B", "hand": ["rare", "links"]}]})
        extort = {"type": "extort", "player": 0, "target": 1, "tool": "shovel", "weapons": ["knife"]}
        assert game.submit(extort).accepted
        assert game.submit({"type": "give_up", "player": 1, "picks": ["links"]}).accepted
        assert game.log[-1].to_json() == {"type": "give_up", "player": 1, "picks": ["links"]}

    def test_picks_come_before_recorded_outcomes(self):
        state = lost_combat(["rare", "links"])
        answer = follows(state, type="give_up", player=1, picks=["links"], outcomes=[{"pick": "rare"}])
        assert gave(answer) == [(1, 0, "links")]
        assert {"type": "unused_outcomes", "outcomes": [{"pick": "rare"}]} in said(answer)

    def test_picks_the_action_does_not_need_are_ignored_like_unrevealed_michel_cards(self):
        state = lost_combat(["rare", "links"])
        answer = follows(state, type="give_up", player=1, picks=["links", "blade"])
        assert gave(answer) == [(1, 0, "links")] and answer.action.to_json()["picks"] == ["links", "blade"]

    def test_preview_asks_for_the_card_then_nothing(self):
        state = lost_combat(["rare", "links", "unknown"])
        ask = preview(state, parse_action({"type": "give_up", "player": 1})).pick
        assert ask is not None and (ask.seat, ask.taker, ask.why, ask.unknown) == (1, 0, "combat", True)
        assert {"rare", "links", "blade", "container", "heist"} <= set(ask.cards)
        assert ask.cards == tuple(sorted(ask.cards)) and "unknown" not in ask.cards
        assert preview(state, parse_action({"type": "give_up", "player": 1, "picks": ["rare"]})).pick is None

    def test_preview_of_a_known_hand_lists_its_cards_only(self):
        state = lost_combat(["rare", "links", "links"])
        ask = preview(state, parse_action({"type": "give_up", "player": 1})).pick
        assert ask == PickAsk(seat=1, taker=0, why="combat", cards=("links", "rare"), unknown=False)

    def test_preview_refuses_an_impossible_pick_and_asks_nothing(self):
        state = lost_combat(["rare"])
        seen = preview(state, parse_action({"type": "give_up", "player": 1, "picks": ["links"]}))
        assert not seen.accepted and seen.pick is None

    def test_a_tool_the_winner_asked_for_moves_without_a_pick(self):
        state = start(hands={0: ["knife"], 1: ["shovel", "rare"]}, player_fields=CAFETERIA)
        follows(state, type="extort", player=0, target=1, tool="shovel", weapons=["knife"])
        follows(state, type="fight", player=1)
        assert preview(state, parse_action({"type": "give_up", "player": 1})).pick is None


class TestMichelLoss:
    """MICH-5: a player beaten by Michel without a shown Tool discards a card at random."""

    def test_the_named_pick_is_discarded(self):
        state = michel_loss(["rare", "links"])
        answer = follows(state, type="give_up", player=0, picks=["links"])
        assert discarded(answer, "michel") == ["links"] and known(state, 0) == {"rare": 1}
        assert state.discard == ["links"]

    def test_unknown_discards_a_card_nobody_entered(self):
        state = michel_loss(["rare", "unknown"])
        follows(state, type="give_up", player=0, picks=["unknown"])
        assert known(state, 0) == {"rare": 1} and state.players[0].hand.unknown == 0

    def test_an_impossible_pick_is_refused(self):
        state = michel_loss(["rare"])
        breaks(state, "HAND-1", type="give_up", player=0, picks=["unknown"])

    def test_preview_asks_for_a_discard(self):
        state = michel_loss(["rare", "links"])
        ask = preview(state, parse_action({"type": "give_up", "player": 0})).pick
        assert ask == PickAsk(seat=0, taker=None, why="michel", cards=("links", "rare"), unknown=False)
        assert preview(state, parse_action({"type": "give_up", "player": 0, "picks": ["rare"]})).pick is None


class TestPunishment:
    """OFF-3: half the hand, rounded up, discarded at random."""

    def test_the_named_picks_are_discarded_in_order(self):
        state = punished(["links", "pike", "container", "blade", "ring"])
        answer = follows(
            state, type="punishment_choice", player=1, choice="discard_half", picks=["ring", "pike", "links"]
        )
        assert discarded(answer, "punishment") == ["ring", "pike", "links"]
        assert known(state, 0) == {"blade": 1, "container": 1}

    def test_the_app_picks_once_the_table_picks_run_out(self):
        state = punished(["links", "pike", "container", "blade", "ring"])
        answer = follows(state, type="punishment_choice", player=1, choice="discard_half", picks=["ring"])
        assert discarded(answer, "punishment")[0] == "ring" and len(discarded(answer, "punishment")) == 3
        assert [next(iter(r)) for r in answer.action.outcomes] == ["pick", "pick"]

    def test_a_later_impossible_pick_refuses_the_whole_action(self):
        state = punished(["links", "pike", "container"])
        breaks(state, "HAND-1", type="punishment_choice", player=1, choice="discard_half", picks=["links", "links"])

    def test_preview_asks_one_card_at_a_time_until_half_is_named(self):
        state = punished(["links", "pike", "container", "blade", "unknown"])
        raw = {"type": "punishment_choice", "player": 1, "choice": "discard_half"}
        picks, asks = asked_until_none(state, raw, lambda ask: ask.cards[0])
        assert len(picks) == 3 and all((a.seat, a.taker, a.why) == (0, None, "punishment") for a in asks)
        assert asks[0].unknown and "links" in asks[0].cards
        answer = follows(state, **raw, picks=picks)
        assert discarded(answer, "punishment") == picks and answer.action.outcomes == ()


class TestBackgroundsAndActionCards:
    def test_nobody_walks_away_from_me_steals_the_named_card(self):
        state = start(hands={2: ["rare", "links"]}, player_fields={0: {"gang": "cartel"}})
        raw = {"type": "reveal_background", "player": 0, "card": "nobody_walks_away_from_me", "target": 2}
        ask = preview(state, parse_action(raw)).pick
        assert ask == PickAsk(seat=2, taker=0, why="nobody_walks_away_from_me", cards=("links", "rare"), unknown=False)
        answer = follows(state, **raw, picks=["links"])
        assert gave(answer) == [(2, 0, "links")] and known(state, 2) == {"rare": 1}

    def test_nobody_walks_away_from_me_refuses_a_card_the_target_lacks(self):
        state = start(hands={2: ["rare"]}, player_fields={0: {"gang": "cartel"}})
        breaks(
            state,
            "HAND-1",
            type="reveal_background",
            player=0,
            card="nobody_walks_away_from_me",
            target=2,
            picks=["links"],
        )

    def test_you_shouldnt_look_away_takes_the_picks_in_the_order_of_the_targets(self):
        state = start(hands={0: [], 1: ["rare", "unknown"], 2: ["links"]})
        raw = {"type": "reveal_background", "player": 0, "card": "you_shouldnt_look_away", "targets": [2, 1]}
        picks, asks = asked_until_none(state, raw, lambda ask: "unknown" if ask.unknown else ask.cards[0])
        assert picks == ["links", "unknown"] and [a.seat for a in asks] == [2, 1]
        follows(state, **raw, picks=picks)
        assert known(state, 0) == {"links": 1} and state.players[0].hand.unknown == 1
        assert known(state, 1) == {"rare": 1}

    def test_you_shouldnt_look_away_refuses_a_second_card_the_hand_no_longer_has(self):
        state = start(hands={1: ["rare", "links"]})
        raw = {"type": "reveal_background", "player": 0, "card": "you_shouldnt_look_away", "targets": [1, 1]}
        breaks(state, "HAND-1", **raw, picks=["rare", "rare"])

    def test_an_empty_hand_asks_for_nothing(self):
        """A steal from an empty hand takes no card, so it takes no pick either."""
        state = start(hands={1: ["rare"]})
        raw = {"type": "reveal_background", "player": 0, "card": "you_shouldnt_look_away", "targets": [1, 1]}
        assert asked_until_none(state, raw, lambda ask: ask.cards[0])[0] == ["rare"]

    def test_heist_steals_the_named_card(self):
        state = start(hands={0: ["heist"], 1: ["rare", "links"]})
        answer = follows(state, type="play_action", player=0, card="heist", target=1, picks=["rare"])
        assert gave(answer) == [(1, 0, "rare")] and known(state, 1) == {"links": 1}


class TestViews:
    def test_a_phone_is_asked_for_what_its_view_leaves_possible(self):
        """Nicholas's hand is hidden from Carmen's phone: it may hold any card nobody else shows,
        the Pickaxe he took from the board included; the game itself accepts the real one."""
        state = start(hands={1: ["pickaxe", "rare"]}, player_fields={0: {"gang": "cartel"}})
        raw = {"type": "reveal_background", "player": 0, "card": "nobody_walks_away_from_me", "target": 1}
        ask = preview(view(state, 0), parse_action(raw)).pick
        assert ask is not None and (ask.seat, ask.taker, ask.unknown) == (1, 0, True)
        assert {"pickaxe", "rare", "blade"} <= set(ask.cards) and "spoon" not in ask.cards
        assert preview(view(state, 0), parse_action({**raw, "picks": ["pickaxe"]})).pick is None
        follows(state, **raw, picks=["pickaxe"])
        assert known(state, 0) == {"pickaxe": 1}

    def test_the_stolen_card_reads_as_hidden_to_the_other_seats(self):
        state = lost_combat(["rare", "links"], players=3)
        answer = follows(state, type="give_up", player=1, picks=["links"])
        give = next(e for e in answer.events if e.TYPE == "give")
        seen = [redact_events([give], seat)[0].card for seat in (0, 1, 2, None)]
        assert seen == ["links", "links", "unknown", "unknown"]

    def test_a_table_pick_tells_each_viewer_what_the_same_app_pick_tells(self):
        """The events are the same whoever drew the card, so every projection of them is too."""
        table, app = lost_combat(["rare", "links"]), lost_combat(["rare", "links"])
        drawn = follows(table, type="give_up", player=1, picks=["links"]).events
        picked = follows(app, type="give_up", player=1, outcomes=[{"pick": "links"}]).events
        for seat in (0, 1, 2, None):
            assert [e.to_json() for e in redact_events(drawn, seat)] == [
                e.to_json() for e in redact_events(picked, seat)
            ]

    def test_a_random_discard_lies_face_up_for_everyone(self):
        state = michel_loss(["rare", "links"])
        answer = follows(state, type="give_up", player=0, picks=["links"])
        shown = [e for e in redact_events(answer.events, None) if e.TYPE == "discard" and e.why == "michel"]
        assert [e.cards for e in shown] == [("links",)]


class TestReplay:
    def test_a_game_with_table_picks_replays_to_the_same_state(self):
        cfg = {
            "players": [{"name": "A", "hand": ["knife", "knife"]}, {"name": "B", "hand": ["rare", "links", "unknown"]}],
            "seed": 9,
        }
        game = Game(cfg)
        for raw in (
            {"type": "extort", "player": 0, "target": 1, "tool": "shovel", "weapons": ["knife"]},
            {"type": "give_up", "player": 1, "picks": ["blade"]},
            {"type": "move", "player": 0, "die": [4], "to": "cafeteria"},
        ):
            assert game.submit(raw).accepted, raw
        stored = json.dumps(game.to_json(), sort_keys=True)
        again = Game.replay(game.config, json.loads(stored)["actions"])
        assert snapshot(again.state) == snapshot(game.state)
        assert json.dumps(again.to_json(), sort_keys=True) == stored


class TestParsing:
    @pytest.mark.parametrize(
        "picks, key",
        [
            ("blade", "malformed.not_list"),
            ({"blade": 1}, "malformed.not_list"),
            (["blade"] * 101, "malformed.not_list"),
            ([3], "malformed.unknown_id"),
            ([None], "malformed.unknown_id"),
            (["blade", ["rare"]], "malformed.unknown_id"),
            (["sword"], "malformed.unknown_id"),
            (["no_knife"], "malformed.unknown_id"),
        ],
    )
    def test_malformed_picks_are_refused_at_the_boundary(self, picks, key):
        with pytest.raises(MalformedAction) as error:
            parse_action({"type": "give_up", "player": 1, "picks": picks})
        assert error.value.key == key and error.value.params["field"] == "picks"

    def test_card_ids_and_unknown_are_accepted_and_written_back(self):
        raw = {"type": "give_up", "player": 1, "picks": ["blade", "unknown", "pickaxe", "heist"]}
        assert parse_action(raw).picks == ("blade", "unknown", "pickaxe", "heist")
        assert parse_action(raw).to_json() == raw


# --- every app pick replaced by a table pick -------------------------------------------------

configs = st.builds(
    lambda seed, players, modules: random_config(random.Random(seed), players, seed, modules),
    st.integers(0, 2**40),
    st.integers(2, 6),
    st.sampled_from(["base", "full", "any"]),
)


def table_answer(rng: random.Random):
    """A table that draws a real card: one of those the ask allows, or an unentered one."""

    def answer(ask: PickAsk) -> str:
        return rng.choice(list(ask.cards) + (["unknown"] if ask.unknown else []))

    return answer


def play_with_table_picks(config: dict, choices: list[int], rng: random.Random) -> int:
    """Random legal play where the table names every card drawn at random, among those preview
    allows; every action is accepted and leaves a consistent game. Returns how many were asked."""
    state = new_game(config)
    answer = table_answer(rng)
    asked = 0
    for choice in choices:
        if state.winner is not None:
            break
        legal = legal_actions(state)
        raw = legal[choice % len(legal)].to_json()
        picks, asks = asked_until_none(state, raw, answer)
        asked += len(asks)
        result = step(state, parse_action({**raw, "picks": picks}))
        assert result.accepted, (raw, picks, result.to_json())
        assert not any("pick" in record for record in result.action.outcomes)
        assert invariant_problems(state) == []
    return asked


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, choices=st.lists(st.integers(0, 10**6), min_size=20, max_size=120), seed=st.integers(0, 10**6))
def test_table_picks_from_the_ask_always_keep_the_game_consistent(config, choices, seed):
    play_with_table_picks(config, choices, random.Random(seed))


def test_random_play_does_ask_for_table_picks():
    """The property above is not empty: such games do draw cards at random from hands."""
    rng = random.Random(5)
    asked = sum(
        play_with_table_picks(random_config(random.Random(seed), None, seed, "any"), list(range(seed, seed + 120)), rng)
        for seed in range(10)
    )
    assert asked > 0
