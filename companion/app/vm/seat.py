"""What a phone or the table view shows of the game: rendered from the engine's projection.

What a viewer may know is the engine's decision (`companion.rules.views`: `view` for the state,
`redact_events` for what happened). This module only puts it in words: the "what just
happened" lines, in public words for what the viewer did not see ("Carmen gives a card to
Nicholas"), and a Spy's look for the spy alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.rules import UNKNOWN, Event, redact_events
from companion.rules import events as ev

from .events import QUIET, Names, describe_event, why_suffix
from .pending import hand_words
from .text import Tr

SPECTATOR = -1  # a viewer that holds no seat (the table view, a spectator's phone)


def event_lines(
    events: Sequence[Event | Mapping[str, Any]], player_names: Sequence[str], tr: Tr, viewer: int | None, limit: int = 8
) -> list[str]:
    """The "what just happened" lines for `viewer`: public words for what they did not see."""
    names = Names(player_names, tr)
    lines = []
    for event in redact_events(events, viewer):
        if event.TYPE not in QUIET:
            lines += seen_lines(event, names, tr, viewer)
    return lines[-limit:]


def seen_lines(event: Event, names: Names, tr: Tr, viewer: int | None) -> list[str]:
    """One event already redacted for `viewer`, in words: a hidden card handed over reads as "a
    card", and a Spy's look adds the hand to the spy's own lines."""
    if isinstance(event, ev.Give) and event.card == UNKNOWN:
        return [
            tr(
                "join.event_give_hidden",
                player=names(event.player),
                receiver=names(event.to),
                why=why_suffix(tr, event.why),
            )
        ]
    lines = [describe_event(event, names, tr)]
    if isinstance(event, ev.Spy) and event.player == viewer and isinstance(event.hand, Mapping):
        cards = hand_words(event.hand.get("known") or {}, event.hand.get("unknown") or 0, tr)
        lines.append(
            tr("join.spy_result", player=names(event.target), cards=tr.join(cards) if cards else tr("ui.hand_empty"))
        )
    return lines
