"""The log screen: every recorded action and what it caused, in plain language, newest first.

Undone actions stay visible (struck through), so a table can see what was taken back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.rules import Event, events_from_json, redact_events

from .events import LOG_QUIET, QUIET, Names, describe_action, describe_event
from .seat import seen_lines
from .text import Tr


@dataclass
class LogLineVM:
    seq: int
    title: str
    lines: list[str] = field(default_factory=list)
    undone: bool = False
    when: str = ""
    player: int | None = None
    kind: str = "action"  # "action", or an "undo"/"redo" entry


def _get(entry: Any, name: str, default: Any = None) -> Any:
    return entry.get(name, default) if isinstance(entry, dict) else getattr(entry, name, default)


def _local(at: Any) -> Any:
    """A stored (UTC) time on this machine's clock."""
    return at.astimezone() if getattr(at, "tzinfo", None) is not None else at


def answer_events(answer: Any) -> list[Event]:
    """An answer's events as the engine's values, whether the answer is fresh or stored JSON."""
    if answer is None:
        return []
    if isinstance(answer, dict):
        return events_from_json(answer.get("events"))
    return list(getattr(answer, "events", []) or [])


def log_view(
    entries: Sequence[Any],
    player_names: Sequence[str],
    tr: Tr,
    *,
    newest_first: bool = True,
    include_quiet: bool = False,
    viewer: int | None = None,
) -> list[LogLineVM]:
    """The log's lines. `viewer` None is the referee's console (everything); a seat, or
    `SPECTATOR` for a shared or public screen, reads each event through the engine's projection."""
    names = Names(player_names, tr)
    out = []
    described: dict[int, str] = {}
    for entry in entries:
        action = _get(entry, "action") or {}
        if isinstance(action, str):
            import json

            action = json.loads(action)
        kind = _get(entry, "kind", "action")
        seq = int(_get(entry, "seq", 0) or 0)
        at = _get(entry, "at")
        when = tr.digits(_local(at).strftime("%H:%M")) if hasattr(at, "strftime") else ""
        if kind in ("undo", "redo"):  # a correction entry: it names the action it takes back or restores
            target = described.get(int(_get(entry, "target", 0) or action.get("target") or 0), "")
            out.append(LogLineVM(seq, tr(f"ui.log_{kind}", what=target), [], False, when, None, kind))
            continue
        described[seq] = describe_action(action, names, tr)
        events = answer_events(_get(entry, "answer"))
        shown = [e for e in events if include_quiet or e.TYPE not in LOG_QUIET]
        if viewer is None:
            lines = [describe_event(e, names, tr) for e in shown]
        else:
            lines = [line for e in redact_events(shown, viewer) for line in seen_lines(e, names, tr, viewer)]
        out.append(
            LogLineVM(seq, described[seq], lines, bool(_get(entry, "undone", False)), when, action.get("player"))
        )
    return list(reversed(out)) if newest_first else out


def recent_lines(events: Sequence[Event], player_names: Sequence[str], tr: Tr, limit: int = 8) -> list[str]:
    """The last answer's events for the "what just happened" strip (the host's screen: everything)."""
    names = Names(player_names, tr)
    lines = [describe_event(e, names, tr) for e in events if e.TYPE not in QUIET]
    return lines[-limit:]
