"""Helpers for rule tests: build a game, submit actions, assert a rule is broken or followed.

`breaks` also asserts that a refused action left the whole state untouched, so every breaking
test checks "illegal actions never change state".
"""

from __future__ import annotations

import json
from typing import Any

from companion.rules import Answer, GameState, new_game, parse_action, step

NAMES = ["Carmen", "Nicholas", "Yellow", "Dana", "Eli", "Farah"]
RULE_TESTS: dict[str, type] = {}


def rule_test(rule: str):
    """Register a test class as the breaking and following tests of one rule id."""

    def register(cls: type) -> type:
        assert rule not in RULE_TESTS, f"two test classes for {rule}"
        assert hasattr(cls, "test_breaks") and hasattr(cls, "test_follows"), f"{cls.__name__} needs both tests"
        RULE_TESTS[rule] = cls
        return cls

    return register


def start(players: int = 3, *, hands: dict[int, list[str]] | None = None, seed: int = 1, **config: Any) -> GameState:
    """A game of `players` seats; `hands` gives some players a known starting hand; `config`
    keys (modules, ruleset, house_rules, teams, start, first_player) are passed through, and
    `player_fields={seat: {...}}` adds starting-state fields to a seat."""
    fields = config.pop("player_fields", {})
    entries = []
    for seat in range(players):
        entry: dict[str, Any] = {"name": NAMES[seat]}
        if hands and seat in hands:
            entry["hand"] = hands[seat]
        entry.update(fields.get(seat, {}))
        entries.append(entry)
    return new_game({"players": entries, "seed": seed, **config})


def snapshot(state: GameState) -> str:
    return json.dumps(state.snapshot(), sort_keys=True)


def play(state: GameState, **action: Any) -> Answer:
    """Submit one action given as keyword fields (`type=...` included)."""
    return step(state, parse_action(action))


def rules_of(answer: Answer) -> list[str]:
    return [v.rule for v in answer.violations]


def breaks(state: GameState, rule: str, **action: Any) -> Answer:
    """The action is refused, cites `rule`, has a plain message, and changes nothing."""
    before = snapshot(state)
    answer = play(state, **action)
    assert not answer.accepted, f"expected a refusal citing {rule}, got {answer.to_json()}"
    assert rule in rules_of(answer), f"expected {rule}, got {rules_of(answer)}: {answer.to_json()}"
    for v in answer.violations:
        assert v.message and "{" not in v.message, f"unrendered message {v.message!r}"
    assert snapshot(state) == before, "a refused action changed the state"
    return answer


def follows(state: GameState, **action: Any) -> Answer:
    """The action is accepted with no violation."""
    answer = play(state, **action)
    assert answer.accepted and not answer.violations, f"expected acceptance, got {answer.to_json()}"
    return answer


def said(answer: Answer) -> list[dict[str, Any]]:
    """An answer's events as the protocol writes them (what a rule test compares against)."""
    return [e.to_json() for e in answer.events]


def player(state: GameState, seat: int):
    return state.players[seat]


def known(state: GameState, seat: int) -> dict[str, int]:
    return dict(state.players[seat].hand.known)
