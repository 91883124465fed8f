"""What one seat may know: the single projection every phone's screen is built from.

`view_for(state, seat)` is the game state as that seat knows it (`seat=None`: as the whole
table knows it, for the shared table view and spectators). Other players' hands keep their
size but none of their cards; a hidden Background somebody entered stays with its owner;
another player's decision keeps its kind and who decides, but not the options that name their
cards (the King's Choice, a Weapon to give, a Tool to discard); the random source, the Michel
deck's order and the Trauma stack's order (the future) are never in a view. Every view model
of a phone's screen is built from this copy, so nothing private can reach the controls sent to
that phone by accident.

What just happened is redacted the same way: `redact_events` keeps cards drawn, taken at random
or handed over only for the seats that saw them (the player who drew; the two seats of a steal,
an exchange or the King's Choice), and `event_lines` says the rest in public words ("Carmen
gives a card to Nicholas").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.rules import GameState
from companion.rules.hand import UNKNOWN, Hand
from companion.rules.rng import Rng
from companion.rules.state import Pending

from .events import QUIET, Names, describe_event, why_suffix
from .text import Tr

SPECTATOR = -1  # a viewer that holds no seat (the table view, a spectator's phone)

# Decisions whose options are the decider's (or a loser's) cards.
CARD_OPTIONS = frozenset({"kings_choice", "give_weapon", "michel_tool"})
# Gives everybody sees: the extorted player hands over the Tool that was named aloud.
PUBLIC_GIVES = frozenset({"cooperate"})


def _seat(viewer: int | None) -> int | None:
    return None if viewer is None or viewer < 0 else viewer


def visible_hands(state: GameState, viewer: int | None) -> set[int]:
    """The hands `viewer` may see: their own, plus the extorter's while Spying lets them look."""
    seat = _seat(viewer)
    if seat is None:
        return set()
    out = {seat}
    pend = state.pending
    if pend is not None and pend.player == seat and pend.kind == "extortion_answer":
        whose = pend.data.get("show_hand_of")
        if isinstance(whose, int):
            out.add(whose)
    return out


def view_for(state: GameState, viewer: int | None) -> GameState:
    """A copy of `state` holding only what `viewer` (a seat, or None/SPECTATOR) may know."""
    view = state.copy()
    seat = _seat(viewer)
    shown = visible_hands(state, seat)
    for p in view.players:
        if p.seat not in shown:
            p.hand = Hand({}, p.hand.size())
        if p.seat != seat:
            p.background = None
    pend = state.pending
    if pend is not None and pend.player != seat and pend.kind in CARD_OPTIONS:
        view.pending = Pending(pend.kind, pend.player, [], dict(pend.data))
    view.rng = Rng(0)  # the seed decides every future die: no screen needs it
    view.michel_deck = sorted(view.michel_deck)  # how many, not in which order
    view.michel_queue = []
    view.trauma_stack = sorted(view.trauma_stack)
    start = {k: v for k, v in state.config.get("start", {}).items() if k not in ("michel_deck", "trauma_stack")}
    view.config = {**state.config, "start": start}  # the setup's draws name the cards to come
    return view


# --- the log --------------------------------------------------------------------------------

def _hand_path_seat(path: Any) -> int | None:
    """`players.2.hand` / `players.2.background` -> 2: a correction to something private."""
    parts = str(path).split(".")
    if len(parts) >= 3 and parts[0] == "players" and parts[2] in ("hand", "background") and parts[1].isdigit():
        return int(parts[1])
    return None


def redact_event(event: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    """One engine event as `viewer` may read it."""
    seat = _seat(viewer)
    ev = dict(event)
    kind = ev.get("type")
    if kind == "draw" and ev.get("player") != seat:
        ev["cards"] = [UNKNOWN] * len(ev.get("cards") or [])
    elif kind == "give" and ev.get("why") not in PUBLIC_GIVES and seat not in (ev.get("player"), ev.get("to")):
        ev["card"] = UNKNOWN
    elif kind == "adjust":
        owner = _hand_path_seat(ev.get("path"))
        if owner is not None and owner != seat:
            for op in ("set", "add", "remove"):
                if isinstance(ev.get(op), list):
                    ev[op] = [UNKNOWN] * len(ev[op])
                elif op in ev:
                    ev[op] = UNKNOWN
    return ev


def redact_events(events: Iterable[Mapping[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    return [redact_event(ev, viewer) for ev in events]


def event_lines(events: Sequence[Mapping[str, Any]], player_names: Sequence[str], tr: Tr, viewer: int | None,
                limit: int = 8) -> list[str]:
    """The "what just happened" lines for `viewer`: public words for what they did not see."""
    names = Names(player_names, tr)
    lines = []
    for ev in redact_events(events, viewer):
        if ev.get("type") in QUIET:
            continue
        if ev.get("type") == "give" and ev.get("card") == UNKNOWN:
            lines.append(tr("join.event_give_hidden", player=names(ev.get("player")), receiver=names(ev.get("to")),
                            why=why_suffix(tr, ev.get("why"))))
        else:
            lines.append(describe_event(ev, names, tr))
    return lines[-limit:]
