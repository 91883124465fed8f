"""What the store hands back: a game as it stands, a submission's result, the log's entries,
the listing's games. Plain frozen records: the caller owns them, and changing one changes
nothing stored."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from companion.rules import Answer, Game, Offence, Violation, events_from_json


@dataclass(frozen=True)
class Table:
    """A game as it stands: its version (the concurrency token) and the engine's replayed game.

    `game` is the caller's own copy: changing it changes nothing stored.
    """

    game_id: str
    version: int  # log entries so far (actions, undos, redos); pass it back as `base_version`
    game: Game
    config: dict[str, Any]
    status: str  # "active" | "finished"
    can_undo: bool
    can_redo: bool

    @property
    def steps(self) -> int:
        """Actions in effect (the engine's step count)."""
        return len(self.game.log)

    def copy(self) -> Table:
        """Another owner's copy (one read shared by several screens gives each its own)."""
        return replace(self, game=self.game.copy(), config=copy.deepcopy(self.config))


@dataclass(frozen=True)
class Submission:
    answer: Answer
    version: int  # the game's version after this submission
    table: Table
    duplicate: bool = False  # the key was applied before: `answer` is the stored one, nothing was applied


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    colour: str | None
    team: str | None


@dataclass(frozen=True)
class GameInfo:
    id: str
    created: datetime
    updated: datetime
    finished: datetime | None
    status: str
    players: tuple[str, ...]
    winner: str | None  # a player's name, or a team id ("a" / "b") in Team mode
    version: int
    ruleset: str
    seats: tuple[Seat, ...] = ()
    winners: tuple[str, ...] = ()  # the names of the winning seats (the whole team in Team mode)


@dataclass(frozen=True)
class LogEntry:
    seq: int
    action: dict[str, Any]  # the action; for undo/redo entries {"type": "undo"|"redo", "target": seq}
    answer: dict[str, Any]  # the engine's answer (events: dice, draws, ...); for undo {"undone": seq, ...}
    submitted_by: str | None
    at: datetime
    undone: bool  # an action entry that is not in effect (undone and not redone)
    kind: str = "action"  # "action" | "undo" | "redo"
    target: int | None = None  # for undo/redo: the action entry they concern


def answer_from_json(data: dict[str, Any]) -> Answer:
    """The engine's Answer rebuilt from its stored JSON (a duplicate submission's result), its
    events and offence read back into the engine's typed values."""
    violations = data.get("violations", [])
    offence = data.get("offence")
    return Answer(
        step=data["step"],
        accepted=data["accepted"],
        violations=[Violation(v["rule"], v["key"], v.get("params", {})) for v in violations],
        forced=any(v.get("overridden") for v in violations),
        offence=None if offence is None else Offence.from_json(offence),
        events=events_from_json(data.get("events", [])),
        pending=data.get("pending"),
        winner=data.get("winner"),
    )
