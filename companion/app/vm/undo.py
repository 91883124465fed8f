"""Undo and redo: when to ask before going back.

Undoing your own last step is a quick fix; undoing a die roll or a card draw (chance already
seen by everyone) or another player's action is a table decision, so the app asks first and
says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules import GameState

from .log import _get, answer_events
from .text import Tr

CHANCE = {"roll", "michel_card"}  # chance the app drew and everyone saw


@dataclass
class UndoVM:
    can_undo: bool
    can_redo: bool
    confirm: str | None  # why the table should confirm undoing, or None
    last: str  # what undo would take back, in words


def undo_view(entries: Sequence[Any], state: GameState, tr: Tr, can_redo: bool) -> UndoVM:
    from .events import Names, describe_action
    live = [e for e in entries if _get(e, "kind", "action") == "action" and not _get(e, "undone", False)]
    if not live:
        return UndoVM(False, can_redo, None, "")
    last = live[-1]
    action = _get(last, "action") or {}
    names = Names([p.name for p in state.players], tr)
    described = describe_action(action, names, tr)
    events = answer_events(_get(last, "answer"))
    deciding = state.pending.player if state.pending is not None else state.active
    reasons = []
    if any(e.TYPE in CHANCE for e in events) or action.get("die"):
        reasons.append(tr("ui.undo_crosses_roll"))
    player = action.get("player")
    if isinstance(player, int) and player != deciding:
        reasons.append(tr("ui.undo_other_player", player=names(player)))
    return UndoVM(True, can_redo, tr.join(reasons) if reasons else None, described)
