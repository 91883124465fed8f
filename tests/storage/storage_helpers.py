"""Shared by the storage tests (and their child processes): games played by the engine itself."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable
from typing import Any

from companion.rules import GameState, new_game, parse_action, step
from companion.rules.events import Roll
from companion.simulate import RandomTable, random_actions

NAMES = ["Carmen", "Nicholas", "Yellow", "Dana", "Eli", "Farah"]
COLOURS = ["red", "blue", "yellow", "green", "purple", "white"]


def config(players: int = 3, seed: int = 7, **extra: Any) -> dict[str, Any]:
    """A base game with Michel & Michelle (where the rules allow them), named and coloured seats."""
    out: dict[str, Any] = {
        "players": [{"name": NAMES[i], "color": COLOURS[i]} for i in range(players)],
        "seed": seed,
        "modules": {"neutrals": 2 if players <= 4 else 0},
    }
    out.update(extra)
    return out


def snap(state: GameState) -> str:
    """The full state as text, for byte-for-byte comparisons."""
    return json.dumps(state.snapshot(), sort_keys=True)


def digest(state: GameState) -> str:
    return hashlib.sha256(snap(state).encode()).hexdigest()[:16]


def next_action(state: GameState, rng: random.Random) -> dict[str, Any] | None:
    """An action the engine accepts now (tried on a copy), chosen like a hurried table would."""
    table = RandomTable(rng, state)
    for candidate in table.choices(state):
        if step(state.copy(), candidate).accepted:
            return candidate.to_json()
    return None


def play(cfg: dict[str, Any], count: int, seed: int = 1) -> list[dict[str, Any]]:
    """Up to `count` accepted actions of a random game (fewer if it is won first)."""
    return random_actions(cfg, seed, count)[0]


def short_finished_game(
    seed: int, players: int = 3, most: int = 400, **extra: Any
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A whole game that ends within `most` actions: the table starts it with Tunnel head starts."""
    for attempt in range(seed * 1000, seed * 1000 + 1000):
        rng = random.Random(attempt)
        cfg = config(players, seed=attempt, first_player=rng.randrange(players), **extra)
        target = new_game(cfg).target()
        team = cfg.get("modules", {}).get("team")
        for entry in cfg["players"]:
            entry["tunnel"] = (
                rng.randint(0, (target - 2) // (players // 2)) if team else rng.randint(target - 4, target - 1)
            )
        actions = play(cfg, most + 1, seed=attempt)
        state = new_game(cfg)
        for action in actions:
            step(state, parse_action(action))
        if state.winner is not None:
            return cfg, actions
    raise AssertionError(f"no short game found from seed {seed}")


def find_roll(cfg: dict[str, Any], actions: list[dict[str, Any]]) -> int:
    """The index of the first action whose answer rolled a die with the app's seeded source."""
    state = new_game(cfg)
    for index, action in enumerate(actions):
        answer = step(state, parse_action(action))
        if any(isinstance(e, Roll) and e.source == "app" for e in answer.events):
            return index
    raise AssertionError("no die was rolled in these actions")


def unresolved(actions: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Actions as they were submitted: the log keeps them with the outcomes they led to."""
    return [{k: v for k, v in a.items() if k != "outcomes"} for a in actions]
