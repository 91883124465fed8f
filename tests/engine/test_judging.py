"""legal_actions works out each card's unseen copies, and each hand's problems with some cards,
once per state (core.judging): the answers must be exactly those of checking every candidate
on its own."""

from __future__ import annotations

import random

from companion import simulate
from companion.rules import check, legal_actions
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
