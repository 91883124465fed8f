"""Undo and redo: when to ask before going back or forth.

Undoing your own last step is a quick fix; undoing a die roll or a card draw (chance already
seen by everyone) or another player's action is a table decision, so the app asks first and
says why. Redo asks the same of the action it would put back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules import GameState
from storage.log import Entry, fold

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
    live = [e for e in entries if _get(e, "kind", "action") == "action" and not _get(e, "undone", False)]
    if not live:
        return UndoVM(False, can_redo, None, "")
    confirm, last = _crossing(live[-1], state, tr)
    return UndoVM(True, can_redo, confirm, last)


def redo_view(entries: Sequence[Any], state: GameState, tr: Tr) -> UndoVM:
    """What redo would put back (the action most recently undone), and whether to ask first:
    putting back a roll or another player's action is as much a table decision as taking it back."""
    folded = fold(Entry(_get(e, "seq"), _get(e, "kind", "action"), _get(e, "target"), "") for e in entries)
    if not folded.redo:
        return UndoVM(bool(folded.in_effect), False, None, "")
    target = folded.redo[-1]
    entry = next(e for e in entries if _get(e, "seq") == target)
    confirm, last = _crossing(entry, state, tr)
    return UndoVM(bool(folded.in_effect), True, confirm, last)


def _crossing(entry: Any, state: GameState, tr: Tr) -> tuple[str | None, str]:
    """Why going back or forth over `entry` needs the table's word (None: it does not), and the
    action in words."""
    from .events import Names, describe_action

    action = _get(entry, "action") or {}
    names = Names([p.name for p in state.players], tr)
    events = answer_events(_get(entry, "answer"))
    deciding = state.pending.player if state.pending is not None else state.active
    reasons = []
    if any(e.TYPE in CHANCE for e in events) or action.get("die"):
        reasons.append(tr("ui.undo_crosses_roll"))
    player = action.get("player")
    if isinstance(player, int) and player != deciding:
        reasons.append(tr("ui.undo_other_player", player=names(player)))
    return (" ".join(reasons) if reasons else None), describe_action(action, names, tr)  # whole sentences
