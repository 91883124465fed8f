"""One table's game as a screen holds it: the store, the game id, the version on screen.

Every write goes through here with the version the players were looking at (`base_version`),
so two devices (or a double tap) can never apply an action to a state nobody saw: a stale
write reloads and reports it instead. Outcomes are plain data the screens render.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.rules import Event, GameState, MalformedAction, Offence, events_from_json
from storage import NothingToRedo, NothingToUndo, StaleState, StorageError


@dataclass
class Outcome:
    """What one tap did: accepted (with the engine's events), refused (with violations), or nothing."""

    accepted: bool = False
    violations: list[Any] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    offence: Offence | None = None
    winner: Any = None
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
        self._message = data.get("message", "")

    @property
    def message(self) -> str:
        return self._message


def _answer_parts(answer: Any) -> tuple[bool, list[Any], list[Event], Offence | None, Any]:
    if isinstance(answer, dict):
        offence = answer.get("offence")
        return (bool(answer.get("accepted")), [_V(v) for v in answer.get("violations", [])],
                events_from_json(answer.get("events")), None if offence is None else Offence.from_json(offence),
                answer.get("winner"))
    return (answer.accepted, list(answer.violations), list(answer.events), answer.offence, answer.winner)


class TableSession:
    def __init__(self, store: Any, game_id: str, *, by: str | None = None) -> None:
        self.store = store
        self.game_id = game_id
        self.by = by
        self.table = store.load(game_id)
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

    def submit(self, action: dict[str, Any], base_version: int | None = None) -> Outcome:
        """Record `action`, made on `base_version` (the version the players saw; default: the
        one loaded here)."""
        base = self.version if base_version is None else base_version
        try:
            sub = self.store.submit(self.game_id, action, base_version=base, submitted_by=self.by,
                                    key=self.key_for(action, base))
        except StaleState:
            self.reload()
            self.last = Outcome(stale=True, action=action)
            return self.last
        except MalformedAction as error:
            self.last = Outcome(error=error.message, action=action)
            return self.last
        except StorageError as error:
            self.last = Outcome(error=getattr(error, "message", str(error)), action=action)
            return self.last
        accepted, violations, events, offence, winner = _answer_parts(sub.answer)
        table = getattr(sub, "table", None)
        if table is not None:
            self.table = table
        elif accepted:
            self.reload()
        self.last = Outcome(accepted, violations, events, offence, winner, action=action)
        if accepted:
            self._changed()
        return self.last

    def key_for(self, action: dict[str, Any], base_version: int) -> str:
        """The idempotency key of one submission (a phone's makes a retried tap harmless: join/sync.py)."""
        return uuid.uuid4().hex

    def undo(self) -> Outcome:
        return self._rewind(self.store.undo)

    def redo(self) -> Outcome:
        return self._rewind(self.store.redo)

    def _rewind(self, fn: Callable[..., Any]) -> Outcome:
        try:
            self.table = fn(self.game_id, base_version=self.version, by=self.by)
        except StaleState:
            self.reload()
            return Outcome(stale=True)
        except (NothingToUndo, NothingToRedo) as error:
            return Outcome(error=getattr(error, "message", str(error)))
        except StorageError as error:
            return Outcome(error=getattr(error, "message", str(error)))
        self.last = Outcome(accepted=True)
        self._changed()
        return self.last

    def events(self) -> list[Any]:
        return list(self.store.events(self.game_id))

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()


def new_key() -> str:
    return uuid.uuid4().hex
