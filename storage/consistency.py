"""The consistency check of one stored game: `games verify`, and the upgrade that resolves old logs.

It replays every entry in order (undone actions included) and compares the engine's answer with
the recorded one. It also says what the log should keep: the setup's draws in the configuration
and every action in its resolved form (with the outcomes of its chance points), so the upgrade
writes exactly what a checked replay produced, and `verify` reports a log that still leaves an
outcome to the seed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.rules import Game

from .log import Entry, fold, stored_config


class Row(Protocol):
    """One log entry as the events table holds it."""

    seq: int
    kind: str
    target: int | None
    action: str
    answer: str
    undone: bool


@dataclass
class Checked:
    problems: list[str] = field(default_factory=list)
    config: dict[str, Any] | None = None  # the configuration with the setup's draws, when it lacked them
    resolved: dict[int, str] = field(default_factory=dict)  # action entry -> its resolved form, where it lacked it


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def outcome(answer: dict[str, Any]) -> dict[str, Any]:
    """What an answer decided, without its wording (messages may be re-translated)."""
    return {
        **{k: v for k, v in answer.items() if k != "violations"},
        "violations": [v.get("rule") for v in answer.get("violations", [])],
    }


def check_log(version: int, config: str, rows: Iterable[Row], snapshots: Mapping[int, str]) -> Checked:
    """Problems found by replaying the whole log, and the resolved forms it should keep.

    Entries are numbered 1..version, the undo/redo entries add up and agree with the `undone`
    flags, every action (undone ones included) and every redo gives its recorded answer again
    (the same dice and draws), and each cached snapshot equals the state the log gives there.
    """
    rows = list(rows)
    out = Checked()
    if [e.seq for e in rows] != list(range(1, version + 1)):
        out.problems.append(f"entries are not numbered 1..{version}")
    try:
        folded = fold(Entry(e.seq, e.kind, e.target, e.action) for e in rows)
    except ValueError as error:
        out.problems.append(f"the undo/redo entries do not add up: {error}")
        return out
    flagged = {e.seq for e in rows if e.kind == "action" and e.undone}
    if flagged != folded.undone:
        out.problems.append(f"undone flags {sorted(flagged)} differ from the undo/redo entries {sorted(folded.undone)}")
    try:
        config_read = stored_config(config)
        game = Game(config_read)
    except ValueError as error:  # ConfigError (the rules changed), or a damaged text
        out.problems.append(f"the configuration no longer starts a game: {getattr(error, 'message', error)}")
        return out
    if game.config != config_read:
        out.config = game.config
    actions = {e.seq: e.action for e in rows if e.kind == "action"}
    for e in rows:
        if e.kind == "undo":
            game.undo()
            replayed = {"accepted": True, "step": game.state.step, "undone": e.target}
        else:
            try:
                stored = json.loads(actions[e.target or e.seq])
                answer = game.submit(stored)
            except ValueError as error:  # MalformedAction (the rules changed), or a damaged text
                out.problems.append(
                    f"entry {e.seq} ({e.kind}) is no longer a well-formed action: {getattr(error, 'message', error)}"
                )
                break
            replayed = json.loads(dump(answer.to_json()))
            if (
                e.kind == "action"
                and answer.action is not None
                and list(answer.action.outcomes) != stored.get("outcomes", [])
            ):
                out.resolved[e.seq] = dump(answer.action.to_json())
        if outcome(replayed) != outcome(json.loads(e.answer)):
            out.problems.append(f"entry {e.seq} ({e.kind}) replays differently: recorded {e.answer}, now {replayed}")
            break
        if e.seq in snapshots and json.loads(dump(game.state.snapshot())) != json.loads(snapshots[e.seq]):
            out.problems.append(f"the snapshot at version {e.seq} differs from the replayed state")
    return out
