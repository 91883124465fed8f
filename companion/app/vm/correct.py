"""Corrections: when the app disagrees with the box, the box wins and the table fixes the app.

A `Draft` collects the edits the table makes on the correction screen: new values for numbers
and places (`values`, by the protocol's state paths, e.g. `players.1.cigarettes`) and hand edits
in the order they were made (`hand`). `correction` turns it into one `adjust` action, with only
the values that really change; the engine judges it like any other action (`check`), so an
impossible correction is explained, with its rule, before anything is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import GameState, check, parse_action

from .actions import ReasonVM, reasons
from .events import Names, path_text, value_text
from .table import names_of
from .text import Tr

HAND_OPS = ("add", "remove", "identify")


@dataclass
class Draft:
    seat: int = 0  # whose board the screen shows
    values: dict[str, Any] = field(default_factory=dict)  # path -> new value
    hand: list[tuple[int, str, str]] = field(default_factory=list)  # (seat, op, card), in order
    hand_op: str = "add"
    reason: str = ""


def current(state: GameState, path: str) -> Any:
    """The value at one of the protocol's state paths, as the app holds it now."""
    parts = path.split(".")
    if parts[0] == "players":
        p = state.players[int(parts[1])]
        if parts[2] == "tokens":
            return p.tokens.get(parts[3], 0)
        return getattr(p, parts[2])
    if parts[0] == "piles":
        return state.piles[parts[1]]
    if parts[0] == "supplies":
        return state.supplies[parts[1]]
    if parts[0] == "neutrals":
        return state.neutrals[parts[1]]
    return getattr(state, path)


def value(state: GameState, draft: Draft, path: str) -> Any:
    """What the screen shows for `path`: the draft's value, else the current one."""
    return draft.values[path] if path in draft.values else current(state, path)


def changes(state: GameState, draft: Draft) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"path": path, "set": new} for path, new in draft.values.items() if new != current(state, path)
    ]
    out += [{"path": f"players.{seat}.hand", op: [card]} for seat, op, card in draft.hand]
    return out


def correction(state: GameState, draft: Draft) -> dict[str, Any] | None:
    """The `adjust` action of the draft (entered by whoever's turn it is), or None if nothing changes."""
    edits = changes(state, draft)
    if not edits:
        return None
    action: dict[str, Any] = {"type": "adjust", "player": state.active, "changes": edits}
    if draft.reason.strip():
        action["reason"] = draft.reason.strip()[:200]
    return action


def problems(state: GameState, draft: Draft, tr: Tr) -> list[ReasonVM]:
    """Why the engine would refuse the draft (empty when it can be recorded)."""
    action = correction(state, draft)
    if action is None:
        return []
    return reasons(check(state, parse_action(action, state.catalog)), tr)


def card_choices(state: GameState, op: str, seat: int) -> list[str]:
    """The cards a hand edit may name: removing offers what the hand is known to hold."""
    order = state.catalog.card_order
    if op == "remove":
        known = state.players[seat].hand.known
        return [c for c in order if known.get(c)] + sorted(c for c in known if c not in order)
    if op == "identify":
        return [c for c in order if state.catalog.is_search_card(c)]
    return list(order)


def summary(state: GameState, draft: Draft, tr: Tr) -> list[str]:
    """The draft's edits in words, for the table to read before recording them."""
    return [change_text(state, change, tr) for change in changes(state, draft)]


def change_text(state: GameState, change: dict[str, Any], tr: Tr) -> str:
    """One edit in words: "Ana · Cigarettes: from 3 to 5", "Ana · Hand: + Knife"."""
    path = str(change.get("path"))
    op = next((o for o in ("set", *HAND_OPS) if o in change), "set")
    new = change.get(op)
    what = path_text(path, Names(names_of(state), tr), tr)
    if op == "set":
        return tr("correct.set", what=what, old=value_text(current(state, path), tr), new=value_text(new, tr))
    cards = tr.join(tr.name("card", str(c)) for c in (new if isinstance(new, list) else [new]))
    return tr(f"correct.hand_{op}", what=what, cards=cards)
