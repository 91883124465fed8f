"""A screen the whole table looks at: what it may show, and one hand shown on request.

On a shared screen the boards, the log and "what just happened" are built from the engine's
public view (`view(state, None)`, `redact_events(events, None)`), so no card in a hand and no
drawn card reaches the controls. A player who needs their cards taps "show my hand": their board
(and a decision that lists their cards) is then built from the engine's view for their seat,
until the next recorded action or `REVEAL_SECONDS`, whichever comes first.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from companion.rules import GameState, redact_events, view

from .pending import PendingVM, pending_view
from .seat import SPECTATOR
from .table import TableVM, build_table
from .text import Tr

REVEAL_SECONDS = 10.0


def is_shared(mode: str, joined_devices: int) -> bool:
    """Whether this screen is the table's: chosen, or by default while no phone has joined."""
    return mode == "shared" or (mode == "auto" and joined_devices == 0)


class HandReveal:
    """Which one hand a shared screen shows now; it hides again after the next recorded action
    (the game's version moves) or after `REVEAL_SECONDS` (the clock is injected for tests)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._seat: int | None = None
        self._version = -1
        self._until = 0.0

    def show(self, seat: int, version: int) -> None:
        self._seat, self._version, self._until = seat, version, self.clock() + REVEAL_SECONDS

    def hide(self) -> None:
        self._seat = None

    def seat(self, version: int) -> int | None:
        """The seat whose hand shows at `version` now, or None."""
        if self._seat is not None and (version != self._version or self.clock() >= self._until):
            self._seat = None
        return self._seat

    def left(self) -> float:
        """Seconds until the hand hides by itself (0 when none shows)."""
        return max(0.0, self._until - self.clock()) if self._seat is not None else 0.0


def shared_table(state: GameState, tr: Tr, highlight: set[str] | frozenset[str], shown: int | None) -> TableVM:
    """The boards from the public view; the `shown` seat's board from that seat's own view."""
    table = build_table(view(state, None), tr, highlight, viewer=SPECTATOR)
    players = []
    for p in table.players:
        if p.seat == shown:
            p = build_table(view(state, shown), tr, highlight, viewer=shown).players[shown]
        players.append(dataclasses.replace(p, reveal="hide" if p.seat == shown else "show"))
    table.players = players
    return table


@dataclasses.dataclass
class SharedPendingVM:
    """A decision as a shared screen shows it; `locked` is the seat whose reveal opens its answers."""

    pending: PendingVM
    locked: int | None = None


def _own_parts(vm: PendingVM) -> tuple:
    """What a decision offers its own seat: its answers, the cards to pick, a hand it shows."""
    return [(a.label, a.seat) for a in vm.answers], None if vm.pick is None else vm.pick.cards, vm.show_hand


def shared_pending(state: GameState, tr: Tr, physical: bool, shown: int | None) -> SharedPendingVM | None:
    """The decision: the deciding seat's answers when the engine's public view would show the
    same ones, else behind that seat's "show my hand" (a teammate's Weapons behind their own)."""
    public = pending_view(view(state, None), tr, physical)
    if public is None:
        return None
    decider = public.seat
    own = pending_view(view(state, decider), tr, physical)
    if own is None:  # cannot happen: the same decision, seen by its own seat
        return SharedPendingVM(public)
    helpers = [] if shown is None or shown == decider else \
        (pending_view(view(state, shown), tr, physical) or own).helpers
    helpers = [a for a in helpers if a.seat == shown]
    if shown == decider or _own_parts(own) == _own_parts(public):
        return SharedPendingVM(dataclasses.replace(own, helpers=helpers))
    hidden = dataclasses.replace(public, answers=[], helpers=helpers, pick=None, show_hand=None, pads=[])
    return SharedPendingVM(hidden, locked=decider)


def public_log_entries(entries: Sequence[Any]) -> list[dict[str, Any]]:
    """Log entries as the public table may read them: each action named by who and what kind
    (its details are told by its events), the events redacted by the engine."""
    out = []
    for entry in entries:
        get = entry.get if isinstance(entry, dict) else (lambda k, d=None, e=entry: getattr(e, k, d))
        action = get("action") or {}
        if isinstance(action, str):
            import json
            action = json.loads(action)
        answer = get("answer")
        events = (answer.get("events") if isinstance(answer, dict) else getattr(answer, "events", None)) or []
        out.append({"seq": get("seq", 0), "kind": get("kind", "action"), "at": get("at"), "target": get("target"),
                    "undone": get("undone", False),
                    "action": {k: action[k] for k in ("type", "player", "target", "force") if k in action},
                    "answer": {"events": redact_events(events, None)}})
    return out
