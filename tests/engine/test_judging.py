"""legal_actions works out each card's unseen copies, and each hand's problems with some cards,
once per state (core.judging): the answers must be exactly those of checking every candidate
on its own."""

from __future__ import annotations

import dataclasses
import random

from companion import simulate
from companion.rules import check, legal_actions, new_game, step
from companion.rules.engine import FirstViolations, first_violation
from companion.rules.first_only import FIRST_ONLY
from companion.rules.options import action_options, candidates


def test_the_memo_never_changes_an_answer() -> None:
    sampled = []
    original = simulate.invariant_problems

    def sample(state):
        if rng.random() < 0.1:
            sampled.append(state.copy())
        return original(state)

    rng = random.Random(3)
    simulate.invariant_problems = sample
    try:
        for seed in (1, 2):
            config = simulate.random_config(random.Random(seed), None, seed, "any")
            simulate.play_game(config, random.Random(seed), simulate.Totals())
    finally:
        simulate.invariant_problems = original
    assert len(sampled) > 50
    for state in sampled:
        alone = [a for a in candidates(state) if not check(state, a)]
        assert legal_actions(state) == alone
        assert sorted(map(repr, (a for o in action_options(state) for a in o.legal))) == sorted(map(repr, alone))


def test_a_listings_judge_answers_as_first_violation_does() -> None:
    """`FirstViolations` judges once per player and class of types what precedes an action's
    own rules (game over, seat, whose decision, price): for every shape a menu shows, made by
    every seat, its answers are `first_violation`'s."""
    compared = refused_first = 0
    for seed in (6, 7):
        rng = random.Random(seed)
        state = new_game(simulate.random_config(random.Random(seed), 5, seed, "full"))
        for _ in range(120):
            if state.winner is not None:
                break
            judge = FirstViolations(state)
            for shape in candidates(state, every_type=True):
                for seat in range(len(state.players)):
                    a = dataclasses.replace(shape, player=seat)
                    expected = first_violation(state, a)
                    assert judge(a) == expected, a
                    compared += 1
                    refused_first += expected is not None and expected.rule in ("TURN-1", "TURN-4", "TURN-5")
            step(state, rng.choice(legal_actions(state)))
    assert compared > 5000 and refused_first > 1000, (compared, refused_first)
    assert len(FIRST_ONLY) == 0  # one list serves every judgement: no rule ever left an entry in it
