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
from .pending import hand_words
from .text import Tr

SPECTATOR = -1  # a viewer that holds no seat (the table view, a spectator's phone)


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
            cards = hand_words(ev["hand"].get("known") or {}, ev["hand"].get("unknown") or 0, tr)
            lines.append(tr("join.spy_result", player=names(ev.get("target")),
                            cards=tr.join(cards) if cards else tr("ui.hand_empty")))
    return lines[-limit:]
