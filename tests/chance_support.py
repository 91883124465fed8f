"""Shared by the tests of recorded outcomes: random games with app chance, and another generator."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.rules import GameState
from companion.rules.compiled import is_compiled
from companion.rules.rng import _MASK, Rng
from companion.simulate import random_actions, random_config

# Random games covering every module and every kind of chance point (with this seed list).
GAMES = [("base", 21), ("full", 22), ("any", 23), ("any", 24), ("full", 25), ("any", 26)]


def other_next64(self: Rng) -> int:
    """Another generator (a 64-bit LCG with an output mix): the same interface, other numbers."""
    self.state = (self.state * 6364136223846793005 + 1442695040888963407) & _MASK
    z = self.state
    return (z ^ (z >> 29)) & _MASK


def use_other_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """Swap the engine's generator for `other_next64` for the rest of the test. The compiled
    engine (companion/rules/compiled.py) calls its generator past any patch: skipped there."""
    if is_compiled():
        pytest.skip("swaps the engine's generator, which the compiled engine calls past any patch")
    monkeypatch.setattr(Rng, "next64", other_next64)


def simulated(modules: str, seed: int, count: int = 300) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A random game with app-rolled dice and app-drawn cards: its configuration and actions as submitted.

    In `any` games a neutral's destination is random too (house rule `neutral_destination`).
    """
    cfg = random_config(random.Random(seed), None, seed, modules)
    if modules == "any":
        cfg["house_rules"] = {"neutral_destination": "random"}
    return cfg, random_actions(cfg, seed, count)[0]


def without_rng(state: GameState) -> dict[str, Any]:
    """The full state but the generator's position (another generator stands elsewhere)."""
    return {k: v for k, v in state.snapshot().items() if k != "rng"}
