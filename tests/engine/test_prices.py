"""An action type's price is declared once, with its check (`core.checker(price=...)`): `check`
charges it (TURN-1), `apply` takes it, and a listing does not build the types a turn cannot pay."""

from __future__ import annotations

import random

from companion import simulate
from companion.rules import check, legal_actions, new_game, step
from companion.rules.core import PRICES
from companion.rules.options import candidates


def _sampled_turns() -> list:
    """Turns of random games (every module), in the middle of play."""
    sampled = []
    for seed in (4, 5):
        state = new_game(simulate.random_config(random.Random(seed), 6, seed, "full"))
        rng = random.Random(seed)
        for _ in range(250):
            if state.winner is not None:
                break
            if state.pending is None:
                sampled.append(state.copy())
            step(state, rng.choice(legal_actions(state)))
    assert len(sampled) > 40
    return sampled


def test_every_priced_shape_needs_its_price_and_takes_it() -> None:
    taken = set()
    for state in _sampled_turns():
        for a in candidates(state, every_type=True):
            price = PRICES.get(a.TYPE)
            if not price:
                continue
            left = state.actions_left
            state.actions_left = price - 1
            refusal = [v for v in check(state, a) if v.rule == "TURN-1"]
            state.actions_left = left
            assert [v.params["cost"] for v in refusal] == [price], a
            if left >= price and not check(state, a):
                after = state.copy()
                step(after, a)
                if after.active == state.active and after.turn == state.turn:
                    assert after.actions_left <= left - price, a  # an effect may end the turn's actions too
                    if after.actions_left == left - price:
                        taken.add(a.TYPE)
    assert len(taken) >= 8, taken  # the test saw the price taken by many types, not one


def test_a_listing_builds_no_type_the_turn_cannot_pay_for() -> None:
    seen = 0
    for state in _sampled_turns():
        listed = {a.TYPE for a in candidates(state)}
        too_dear = {kind for kind, price in PRICES.items() if price > state.actions_left}
        assert not listed & too_dear
        if too_dear:
            seen += 1
            # The menu (every type) still shows them, to say why they are not possible.
            assert {a.TYPE for a in candidates(state, every_type=True)} & too_dear
    assert seen > 10
