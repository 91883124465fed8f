"""Replaying a finished game entry by entry: the board as it stood after each log entry.

The log is the truth here as everywhere: each state comes from the stored entries as they were
recorded (every action resolved, with the outcomes of its dice and draws), applied in order to
the stored configuration; an undo entry brings back the state before the action it takes back,
and a redo entry applies that action again. Nothing is asked of the seed, and each action's
events must come out as the log recorded them, or the replay says where it parts from the log.

The states are computed once per game version, forward, as far as a step asks, and kept in a
small in-process cache: stepping back and forth through a 400-entry game costs one engine step
per entry not yet seen, never a replay from the start.

What the screen shows is the engine's view for one viewer (`companion.rules.views`): `None`
shows everything (the referee's console), `SPECTATOR` the public table.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.rules import Game, GameState, parse_action, view

from .log import log_view
from .seat import SPECTATOR
from .table import TableVM, build_table
from .text import Tr

if TYPE_CHECKING:  # plain data from engine state: the store (and SQLAlchemy) is the caller's
    from storage import Store

CACHE_GAMES = 4  # replays kept in memory (a replay holds one state per entry)


class ReplayProblem(Exception):
    """The stored log cannot be followed (an engine that changed since the game was played)."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq
        self.message = message


@dataclass(frozen=True)
class ReplayEntry:
    """One log entry as the replay reads it."""

    seq: int
    kind: str  # "action" | "undo" | "redo"
    action: dict[str, Any]
    answer: dict[str, Any]
    target: int | None = None
    undone: bool = False


def entries_of(log: Sequence[Any]) -> list[ReplayEntry]:
    """The store's log entries (objects or mappings) as plain replay entries, oldest first."""

    def get(e: Any, name: str, default: Any = None) -> Any:
        return e.get(name, default) if isinstance(e, dict) else getattr(e, name, default)

    out = []
    for e in log:
        action = get(e, "action") or {}
        answer = get(e, "answer") or {}
        out.append(
            ReplayEntry(
                int(get(e, "seq", 0)),
                str(get(e, "kind", "action")),
                json.loads(action) if isinstance(action, str) else dict(action),
                json.loads(answer) if isinstance(answer, str) else dict(answer),
                get(e, "target"),
                bool(get(e, "undone", False)),
            )
        )
    return sorted(out, key=lambda e: e.seq)


class Replay:
    """The states after each entry of one game's log, computed forward on demand.

    `state(0)` is the table as set up; `state(n)` the table after the n-th entry.
    """

    def __init__(self, config: dict[str, Any], entries: Sequence[ReplayEntry]) -> None:
        self.entries = list(entries)
        self._game = Game(config)
        self._states: list[GameState] = [self._game.state.copy()]
        self._stack: list[tuple[Any, GameState]] = []  # actions in effect, with the state before each
        self._redo: list[Any] = []  # the actions undone, the next to redo last
        self._lock = threading.Lock()
        self.problem: ReplayProblem | None = None

    @property
    def total(self) -> int:
        return len(self.entries)

    def state(self, n: int) -> GameState:
        """The table after entry `n` (clamped to 0..total); ReplayProblem where the log parts."""
        n = max(0, min(n, self.total))
        with self._lock:
            while len(self._states) <= n:
                if self.problem is not None:
                    raise self.problem
                try:
                    self._apply(self.entries[len(self._states) - 1])
                except ReplayProblem as problem:
                    self.problem = problem
                    raise
                self._states.append(self._game.state.copy())
            return self._states[n]

    def _apply(self, entry: ReplayEntry) -> None:
        game = self._game
        if entry.kind == "undo":
            if not self._stack:
                raise ReplayProblem(entry.seq, f"entry {entry.seq} undoes an action that is not in effect")
            action, before = self._stack.pop()
            self._redo.append(action)
            game.log.pop()
            game.state = before.copy()
            return
        if entry.kind == "redo":
            if not self._redo:
                raise ReplayProblem(entry.seq, f"entry {entry.seq} redoes nothing")
            self._submit(entry.seq, self._redo.pop(), entry.answer.get("events"))
            return
        if entry.kind != "action":
            raise ReplayProblem(entry.seq, f"entry {entry.seq} is of an unknown kind {entry.kind!r}")
        self._redo.clear()
        self._submit(entry.seq, parse_action(entry.action, game.state.catalog), entry.answer.get("events"))

    def _submit(self, seq: int, action: Any, recorded: Any) -> None:
        game = self._game
        before = self._states[-1]  # the state kept for the entry before: never changed
        answer = game.submit(action)
        if not answer.accepted:
            raise ReplayProblem(
                seq, f"entry {seq} is no longer accepted: " + "; ".join(v.message for v in answer.violations)
            )
        if recorded is not None and json.loads(json.dumps(answer.to_json().get("events", []))) != recorded:
            raise ReplayProblem(seq, f"entry {seq} no longer happens as the log recorded it")
        self._stack.append((game.log[-1], before))


@dataclass
class ReplayStepVM:
    """What the replay screen shows at one step."""

    step: int  # 0: the table as set up; n: after the n-th entry
    total: int
    heading: str  # "Entry 5 of 42"
    title: str  # the entry in words ("Carmen: Dig"), or the set-up
    lines: list[str] = field(default_factory=list)  # its events in words
    table: TableVM | None = None
    undone: bool = False  # an action later taken back
    kind: str = "start"  # "start", or the entry's kind
    problem: str | None = None  # where the replay parts from the log
    hands: bool = False  # every hand shown (the referee's view), else the public table's

    @property
    def first(self) -> bool:
        return self.step <= 0

    @property
    def last(self) -> bool:
        return self.step >= self.total


def clamp_step(raw: Any, total: int) -> int:
    """A step from a URL: a number in 0..total; anything else is the last step."""
    try:
        n = int(raw)
    except (TypeError, ValueError):
        return total
    return max(0, min(n, total))


def replay_step(replay: Replay, step: int, tr: Tr, *, hands: bool = False) -> ReplayStepVM:
    """Step `step` of `replay` for the public table (`hands` False) or with every hand."""
    total = replay.total
    step = max(0, min(step, total))
    viewer = None if hands else SPECTATOR
    heading = tr("ui.replay_entry", step=step, total=total) if step else tr("ui.replay_start", total=total)
    try:
        state = replay.state(step)
    except ReplayProblem as problem:
        return ReplayStepVM(
            step, total, heading, "", problem=tr("ui.replay_problem", problem=problem.message), hands=hands
        )
    shown = state if hands else view(state, None)
    table = build_table(shown, tr, viewer=viewer)
    names = [p.name for p in state.players]
    if step == 0:
        return ReplayStepVM(0, total, heading, tr("ui.replay_setup"), [], table, hands=hands)
    entry = replay.entries[step - 1]
    pair = [entry]
    if entry.kind in ("undo", "redo") and entry.target is not None:  # its line names the action it concerns
        pair = [e for e in replay.entries if e.seq == entry.target][:1] + pair
    line = log_view([_as_log(e) for e in pair], names, tr, newest_first=False, viewer=viewer)[-1]
    return ReplayStepVM(step, total, heading, line.title, line.lines, table, entry.undone, entry.kind, hands=hands)


def _as_log(e: ReplayEntry) -> dict[str, Any]:
    return {
        "seq": e.seq,
        "kind": e.kind,
        "action": e.action,
        "answer": e.answer,
        "target": e.target,
        "undone": e.undone,
    }


class ReplayCache:
    """Replays of recently opened games, by (game, version): a later version is another replay."""

    def __init__(self, size: int = CACHE_GAMES) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], Replay] = OrderedDict()
        self._lock = threading.Lock()

    def cached(self, store: Store, game_id: str, version: int) -> Replay | None:
        """The replay of this version if it was read already (no store call)."""
        key = (id(store), game_id, version)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def get(self, store: Store, game_id: str, version: int) -> Replay:
        """The replay of this version, reading the log if it was not read already."""
        found = self.cached(store, game_id, version)
        if found is not None:
            return found
        key = (id(store), game_id, version)
        replay = Replay(store.export_game(game_id)["config"], entries_of(store.events(game_id)))
        with self._lock:
            self._items[key] = replay
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return replay


REPLAYS = ReplayCache()
