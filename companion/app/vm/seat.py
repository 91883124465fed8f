"""What a phone or the table view shows of the game: rendered from the engine's projection.

What a viewer may know is the engine's decision (`companion.rules.views`: `view` for the state,
`redact_events` for what happened). This module only puts it in words: the "what just
happened" lines, in public words for what the viewer did not see ("Carmen gives a card to
Nicholas"), and a Spy's look for the spy alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.rules.hand import UNKNOWN
from companion.rules.views import redact_events

from .events import QUIET, Names, describe_event, why_suffix
from .text import Tr

SPECTATOR = -1  # a viewer that holds no seat (the table view, a spectator's phone)


def _hand_words(hand: Mapping[str, Any], tr: Tr) -> str:
    cards = [tr("ui.times", count=n, what=tr.name("card", c)) if n > 1 else tr.name("card", c)
             for c, n in sorted((hand.get("known") or {}).items())]
    if hand.get("unknown"):
        cards.append(tr("ui.unknown_cards", count=hand["unknown"]))
    return tr.join(cards) if cards else tr("ui.hand_empty")


def event_lines(events: Sequence[Mapping[str, Any]], player_names: Sequence[str], tr: Tr, viewer: int | None,
                limit: int = 8) -> list[str]:
    """The "what just happened" lines for `viewer`: public words for what they did not see."""
    names = Names(player_names, tr)
    lines = []
    for ev in redact_events(events, viewer):
        kind = ev.get("type")
        if kind in QUIET:
            continue
        if kind == "give" and ev.get("card") == UNKNOWN:
            lines.append(tr("join.event_give_hidden", player=names(ev.get("player")), receiver=names(ev.get("to")),
                            why=why_suffix(tr, ev.get("why"))))
            continue
        lines.append(describe_event(ev, names, tr))
        if kind == "spy" and ev.get("player") == viewer and isinstance(ev.get("hand"), Mapping):
            lines.append(tr("join.spy_result", player=names(ev.get("target")), cards=_hand_words(ev["hand"], tr)))
    return lines[-limit:]
