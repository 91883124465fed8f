"""One table's game as a screen holds it: the store, the game id, the version on screen.

Every write goes through here with the version the players were looking at (`base_version`),
so two devices (or a double tap) can never apply an action to a state nobody saw: a stale
write reloads and reports it instead. Outcomes are plain data the screens render.

Screens await `record`, `rewind`, `refresh` and `read_events`: their store part runs off the
event loop, in order per game (offloop.py), and only the answer is taken in on the loop. The
plain methods (`submit`, `undo`...) do the same on the calling thread, for tools and tests.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.rules import Answer, Event, GameState, MalformedAction, Offence, events_from_json
from storage import LogEntry, NothingToRedo, NothingToUndo, StaleState, StorageError, Store, Table

from . import offloop

# What a store call answered, read off the loop: ("answer", the engine's answer, table or None),
# ("stale", None, the table as it now stands), ("error", the store's words, None).
Written = tuple[str, Any, Table | None]


@dataclass
class Outcome:
    """What one tap did: accepted (with the engine's events), refused (with violations), or nothing."""

    accepted: bool = False
    violations: list[Any] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    offence: Offence | None = None
    winner: int | str | None = None  # a seat, or a team in Team mode
    stale: bool = False  # somebody else changed the game first: the screen was reloaded
    error: str | None = None  # a storage problem, as the store words it
    action: dict[str, Any] | None = None


class _V:
    """A violation read back from JSON (the store may hand back the engine answer as a dict)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.rule = data.get("rule", "")
        self.key = data.get("key", "")
        self.params = data.get("params") or {}
        self.forceable = data.get("forceable", not data.get("hard", False))
        self._message: str = data.get("message", "")

    @property
    def message(self) -> str:
        return self._message


def _answer_parts(
    answer: Answer | dict[str, Any],
) -> tuple[bool, list[Any], list[Event], Offence | None, int | str | None]:
    if isinstance(answer, dict):
        offence = answer.get("offence")
        return (
            bool(answer.get("accepted")),
            [_V(v) for v in answer.get("violations", [])],
            events_from_json(answer.get("events")),
            None if offence is None else Offence.from_json(offence),
            answer.get("winner"),
        )
    return (answer.accepted, list(answer.violations), list(answer.events), answer.offence, answer.winner)


class Teller(Protocol):
    """Who hears of a session's writes once the store has taken them (tables.py's GameTeller)."""

    def changed(self, version: int, events: Sequence[Event], table: Any) -> None: ...


class TableSession:
    def __init__(
        self,
        store: Store,
        game_id: str,
        *,
        by: str | None = None,
        table: Table | None = None,
        teller: Teller | None = None,
    ) -> None:
        """`table`: the game as already read off the loop (opening.py); None reads it here.
        `teller`: told of every write taken (None: nobody else is told, as in a script)."""
        self.store = store
        self.game_id = game_id
        self.by = by
        self.teller = teller
        self.table = store.load(game_id) if table is None else table
        self.listeners: list[Callable[[], None]] = []
        self.last: Outcome | None = None

    @property
    def state(self) -> GameState:
        return self.table.game.state

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def config(self) -> dict[str, Any]:
        return self.table.config

    @property
    def can_undo(self) -> bool:
        return bool(getattr(self.table, "can_undo", self.state.step > 0))

    @property
    def can_redo(self) -> bool:
        return bool(getattr(self.table, "can_redo", False))

    def reload(self) -> None:
        self.table = self.store.load(self.game_id)

    def refresh_if_behind(self, version: int) -> bool:
        """Another screen wrote `version`: reload if this one is older."""
        if version > self.version:
            self.reload()
            return True
        return False

    async def refresh(self, version: int) -> bool:
        """`refresh_if_behind`, with the replay off the loop."""
        before = self.version
        if version <= before:
            return False
        await self.reread()
        return self.version > before  # False: another refresh took the news in meanwhile

    async def reread(self) -> None:
        """`reload`, with the replay off the loop."""
        self._adopt((await offloop.read(self.game_id, self.store.load, self.game_id)).copy())

    def take_news(self, table: Table) -> bool:
        """Another screen of this process recorded `table` and handed it over with its news: the
        same table a reread would give, without the store and the thread hop (each screen keeps
        its own copy). False: this screen had it already."""
        before = self.version
        if table.version > before:
            self._adopt(table.copy())
        return self.version > before

    def _adopt(self, table: Table | None) -> None:
        """Take in a table read off the loop, unless a newer one arrived meanwhile (versions only grow)."""
        if table is not None and table.version >= self.version:
            self.table = table

    def guard(self, action: dict[str, Any]) -> None:
        """Refuse a write this session may not make, before the store records it (a phone: services/sync.py)."""

    def guard_rewind(self, which: str) -> None:
        """Refuse an undo or redo this session may not make."""

    def submit(self, action: dict[str, Any], base_version: int | None = None) -> Outcome:
        """Record `action`, made on `base_version` (the version the players saw; default: the
        one loaded here)."""
        base = self.version if base_version is None else base_version
        return self._recorded(action, self._write(action, base, self.key_for(action, base)))

    async def record(self, action: dict[str, Any], base_version: int | None = None) -> Outcome:
        """`submit`, with the store's part off the loop."""
        base = self.version if base_version is None else base_version
        key = self.key_for(action, base)
        return self._recorded(action, await offloop.run(self.game_id, self._write, action, base, key))

    def _write(self, action: dict[str, Any], base: int, key: str) -> Written:
        """The store's part of a submission (on any thread): it touches nothing of the session.
        The guard is part of it, as a phone's asks the store whether the seat is still its own."""
        self.guard(action)
        try:
            sub = self.store.submit(self.game_id, action, base_version=base, submitted_by=self.by, key=key)
        except StaleState:
            return "stale", None, self.store.load(self.game_id)
        except MalformedAction as error:
            return "error", error.message, None
        except StorageError as error:
            return "error", getattr(error, "message", str(error)), None
        table = getattr(sub, "table", None)
        if table is None and _answer_parts(sub.answer)[0]:
            table = self.store.load(self.game_id)
        return "answer", sub.answer, table

    def _recorded(self, action: dict[str, Any], written: Written) -> Outcome:
        kind, answer, table = written
        self._adopt(table)
        if kind == "stale":
            self.last = Outcome(stale=True, action=action)
        elif kind == "error":
            self.last = Outcome(error=answer, action=action)
        else:
            accepted, violations, events, offence, winner = _answer_parts(answer)
            self.last = Outcome(accepted, violations, events, offence, winner, action=action)
            if accepted:
                self._changed(events)
        return self.last

    def key_for(self, action: dict[str, Any], base_version: int) -> str:
        """The idempotency key of one submission (a phone's makes a retried tap harmless: services/sync.py)."""
        return uuid.uuid4().hex

    def undo(self) -> Outcome:
        self.guard_rewind("undo")
        return self._rewound(self._rewind("undo", self.version))

    def redo(self) -> Outcome:
        self.guard_rewind("redo")
        return self._rewound(self._rewind("redo", self.version))

    async def rewind(self, which: str) -> Outcome:
        """`undo` or `redo` (`which`), with the store's part off the loop."""
        self.guard_rewind(which)
        return self._rewound(await offloop.run(self.game_id, self._rewind, which, self.version))

    def _rewind(self, which: str, base: int) -> Written:
        fn = self.store.undo if which == "undo" else self.store.redo
        try:
            return "answer", None, fn(self.game_id, base_version=base, by=self.by)
        except StaleState:
            return "stale", None, self.store.load(self.game_id)
        except (NothingToUndo, NothingToRedo, StorageError) as error:
            return "error", getattr(error, "message", str(error)), None

    def _rewound(self, written: Written) -> Outcome:
        kind, problem, table = written
        self._adopt(table)
        if kind == "stale":
            return Outcome(stale=True)
        if kind == "error":
            return Outcome(error=problem)
        self.last = Outcome(accepted=True)
        self._changed([])
        return self.last

    def events(self) -> list[LogEntry]:
        return list(self.store.events(self.game_id))

    async def read_events(self) -> list[LogEntry]:
        """`events`, read off the loop."""
        return await offloop.run(self.game_id, self.events)

    def _changed(self, events: Sequence[Event]) -> None:
        """A write was taken: the game's other screens are told, then this one's listeners."""
        if self.teller is not None:
            self.teller.changed(self.version, events, self.table)
        for listener in list(self.listeners):
            listener()


def new_key() -> str:
    return uuid.uuid4().hex
