"""Property-based tests: random legal play, garbage input, replay and undo."""

from __future__ import annotations

import dataclasses
import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import (
    Game,
    MalformedAction,
    check,
    invariant_problems,
    legal_actions,
    new_game,
    parse_action,
    step,
)
from companion.rules.actions import ACTION_TYPES
from companion.simulate import random_config

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def snapshot(state) -> str:
    return json.dumps(state.snapshot(), sort_keys=True)


configs = st.builds(
    lambda seed, players, modules: random_config(random.Random(seed), players, seed, modules),
    st.integers(0, 2**40),
    st.integers(2, 6),
    st.sampled_from(["base", "any"]),
)


@SETTINGS
@given(config=configs, picks=st.lists(st.integers(0, 10**6), min_size=20, max_size=120))
def test_random_legal_play_keeps_the_invariants(config, picks):
    """Whatever legal action is chosen, it is accepted and every invariant still holds."""
    state = new_game(config)
    for pick in picks:
        if state.winner is not None:
            break
        legal = legal_actions(state)
        assert legal, f"nobody can act: {state.summary()}"
        action = legal[pick % len(legal)]
        answer = step(state, action)
        assert answer.accepted, (action, answer.to_json())
        assert invariant_problems(state) == []


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.sampled_from(
        [
            "knife",
            "blade",
            "unknown",
            "spoon",
            "cell_block",
            "library",
            "michel",
            "bikers",
            "master_key",
            "too_fast_for_you",
            "heist",
            "knife_spoon",
            "pickaxe",
            "reroll",
            "",
            "x" * 600,
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["path", "set", "add", "a"]), inner, max_size=3)
    ),
    max_leaves=8,
)
field_names = st.sampled_from(
    sorted({f.name for cls in ACTION_TYPES.values() for f in dataclasses.fields(cls)} | {"bogus"})
)
UNRENDERED = re.compile(r"\{[a-z_]+\}")
garbage_actions = st.builds(
    lambda kind, player, fields: {"player": player, **fields, "type": kind},
    st.sampled_from(sorted(ACTION_TYPES) + ["fly", ""]),
    st.integers(-1, 7),
    st.dictionaries(field_names, json_values, max_size=5),
)


@SETTINGS
@given(config=configs, garbage=st.lists(garbage_actions, min_size=1, max_size=30), seed=st.integers(0, 10**6))
def test_garbage_is_refused_cleanly(config, garbage, seed):
    """Garbage is a MalformedAction or a refused (or legal) action; a refusal changes nothing."""
    state = new_game(config)
    rng = random.Random(seed)
    for raw in garbage:
        for _ in range(rng.randint(0, 6)):  # move the game along between garbage actions
            legal = legal_actions(state)
            if state.winner is not None or not legal:
                break
            step(state, rng.choice(legal))
        try:
            action = parse_action(raw)
        except MalformedAction as error:
            assert error.message and not UNRENDERED.search(error.message)
            continue
        before = snapshot(state)
        answer = step(state, action)
        if not answer.accepted:
            assert snapshot(state) == before
            assert all(v.rule and v.message and not UNRENDERED.search(v.message) for v in answer.violations)
        assert invariant_problems(state) == []


@settings(max_examples=15, deadline=None)
@given(config=configs, picks=st.lists(st.integers(0, 10**6), min_size=10, max_size=80))
def test_replay_and_undo_are_exact(config, picks):
    """The same configuration and actions give the same state byte for byte; undo = replaying one fewer."""
    game = Game(config)
    snapshots = [snapshot(game.state)]
    for pick in picks:
        legal = legal_actions(game.state)
        if game.state.winner is not None or not legal:
            break
        assert game.submit(legal[pick % len(legal)]).accepted
        snapshots.append(snapshot(game.state))
    replayed = Game.replay(game.config, [a.to_json() for a in game.log])
    assert snapshot(replayed.state) == snapshots[-1]
    while game.log:
        game.undo()
        snapshots.pop()
        assert snapshot(game.state) == snapshots[-1]


@settings(max_examples=25, deadline=None)
@given(config=configs, picks=st.lists(st.integers(0, 10**6), min_size=5, max_size=60))
def test_legal_actions_pass_check(config, picks):
    """legal_actions and check share their judgement: every listed action has no violation."""
    state = new_game(config)
    for pick in picks:
        legal = legal_actions(state)
        if state.winner is not None or not legal:
            break
        for action in legal:
            assert check(state, action) == []
        step(state, legal[pick % len(legal)])


def test_action_json_round_trip():
    """Every action type serialises back to the JSON it was parsed from."""
    samples = [
        {"type": "move", "player": 0, "die": [3], "to": "infirmary"},
        {"type": "craft", "player": 1, "recipe": "knives", "cards": ["links", "blade"], "bandage": 1},
        {"type": "extort", "player": 2, "target": 0, "tool": "spoon", "weapons": ["knife"]},
        {"type": "reveal_background", "player": 0, "card": "get_out_of_here", "to": "showers"},
        {"type": "adjust", "player": 0, "changes": [{"path": "players.0.cigarettes", "set": 5}], "reason": "miscount"},
        {"type": "move_neutral", "player": 1, "neutral": "michel", "die": [5], "michel_cards": ["no_knife"]},
        {"type": "give_up", "player": 1, "picks": ["blade", "unknown"]},
    ]
    for raw in samples:
        assert parse_action(raw).to_json() == raw
