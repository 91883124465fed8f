"""What one viewer may know: the projection every screen but the referee's console is built from.

`view(state, seat)` is the state as a seat knows it; `seat=None` is the public table (the
shared table view and any spectator know the same). It is built as an allow-list: a fresh
state into which only what the viewer may know is copied (their own hand and hidden
Background, every public count and Place, the face-up piles and revealed cards, and the
extorter's hand while Spying shows it to them); everything else is a placeholder or left out.
A field added to the state later is therefore private until it is copied in here.

`redact_events(events, seat)` does the same for what happened: each event type names the
fields anyone may read and the fields only its witnesses saw (the drawer, the two seats of a
hand-to-hand card, the spy); a field or an event type not named here is left blank.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from copy import deepcopy
from typing import Any

from . import events as ev
from .hand import UNKNOWN, Hand
from .record import fields_of, json_name
from .rng import Rng
from .state import Combat, GameState, Pending, Player, TurnFlags

# Decisions whose options anyone may read; the others list the decider's (or a loser's) cards.
PUBLIC_OPTIONS = frozenset(
    {
        "destination",
        "neutral_destination",
        "extortion_answer",
        "michel_answer",
        "combat",
        "neutral_move",
        "brawl_response",
        "punishment_choice",
        "hand_limit",
    }
)
# What a decision's facts may tell everyone (the Tools a player holds against Michel stay theirs).
PUBLIC_PENDING_FIELDS = frozenset(
    {
        "attacker",
        "defender",
        "neutral",
        "tool",
        "by",
        "target",
        "die",
        "effects",
        "from_seat",
        "to",
        "weapons_played",
        "card",
        "show_hand_of",
        "discard",
        "limit",
    }
)
PUBLIC_CONFIG = ("ruleset", "modules", "teams", "first_player", "house_rules", "rules_version")
PUBLIC_PLAYER_CONFIG = ("name", "color")


def _seat(viewer: int | None) -> int | None:
    return viewer if isinstance(viewer, int) and not isinstance(viewer, bool) and viewer >= 0 else None


def visible_hands(state: GameState, viewer: int | None) -> set[int]:
    """The hands `viewer` may see: their own, plus the extorter's while Spying lets them look."""
    seat = _seat(viewer)
    if seat is None:
        return set()
    out = {seat}
    pend = state.pending
    if pend is not None and pend.player == seat and pend.show_hand_of is not None:  # Spying
        out.add(pend.show_hand_of)
    return out


def view(state: GameState, viewer: int | None) -> GameState:
    """A new state holding only what `viewer` (a seat, or None for the public table) may know.

    It can be judged (`check`, `legal_actions`) like the real one, and previewed (`preview`)
    up to the first card drawn from a face-down pile; it is never applied.
    """
    seat = _seat(viewer)
    shown = visible_hands(state, seat)
    return GameState(
        catalog=state.catalog,
        ruleset=state.ruleset,
        board=state.board,
        config=_config(state.config),
        players=[_player(p, p.seat in shown, p.seat == seat) for p in state.players],
        rng=Rng(0),  # the seed decides every future die and draw
        team_mode=state.team_mode,
        warden_module=state.warden_module,
        neutral_names=state.neutral_names,
        turn=state.turn,
        active=state.active,
        actions_left=state.actions_left,
        flags=_flags(state.flags),
        piles=dict(state.piles),
        deck=state.deck,
        discard=list(state.discard),
        gang_piles={g: pile[:1] + sorted(pile[1:]) for g, pile in state.gang_piles.items()},  # the top is face up
        background_deck=state.background_deck,
        background_discard=[UNKNOWN] * len(state.background_discard),  # discarded unrevealed
        neutrals=dict(state.neutrals),
        michel_deck=[UNKNOWN] * len(state.michel_deck),
        michel_discard=list(state.michel_discard),
        warden=state.warden,
        supplies=dict(state.supplies),
        trauma_stack=[UNKNOWN] * len(state.trauma_stack),  # face down
        pending=_pending(state.pending, seat),
        combat=_combat(state.combat),
        # What happens once the decision is answered: seats, neutrals and counts the table saw
        # come about (who is asked next in a Brawl, who rolls, whom a neutral extorts), no card.
        agenda=deepcopy(state.agenda),
        offence=state.offence,  # frozen: the offence is announced to the table
        occasion=None if state.occasion is None else state.occasion.copy(),
        defeats=[_defeat(d, seat) for d in state.defeats],
        winner=state.winner,
        step=state.step,
        corrections=dict(state.corrections),
    )


def _config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The table's setup without the seed or anyone's starting cards."""
    out = {k: config[k] for k in PUBLIC_CONFIG if k in config}
    out["players"] = [{k: entry[k] for k in PUBLIC_PLAYER_CONFIG if k in entry} for entry in config.get("players", [])]
    return out


def _player(p: Player, hand_shown: bool, own: bool) -> Player:
    hand = p.hand.copy() if hand_shown else Hand({}, p.hand.size())
    return Player(
        seat=p.seat,
        name=p.name,
        place=p.place,
        hand=hand,
        team=p.team,
        color=p.color,
        cigarettes=p.cigarettes,
        beatings=p.beatings,
        tunnel=p.tunnel,
        dug=list(p.dug),
        skills_on_tools=p.skills_on_tools,
        gang=p.gang,
        ability=p.ability,
        background=p.background if own or not p.has_background else None,
        has_background=p.has_background,
        revealed=list(p.revealed),
        tokens=dict(p.tokens),
        trauma=p.trauma,
        camouflaged=p.camouflaged,
    )


def _flags(f: TurnFlags) -> TurnFlags:
    return TurnFlags(
        searched=f.searched,
        extorted=f.extorted,
        crafted=f.crafted,
        started_in_solitary=f.started_in_solitary,
        buy_anywhere=f.buy_anywhere,
        buy_discount=f.buy_discount,
        cell_block_crafts=f.cell_block_crafts,
        must_cooperate=f.must_cooperate,
    )


def _pending(pend: Pending | None, seat: int | None) -> Pending | None:
    if pend is None:
        return None
    if pend.player == seat:
        return pend.copy()
    options = list(pend.options) if pend.kind in PUBLIC_OPTIONS else []
    public = {name: value for name, value in pend.details().items() if name in PUBLIC_PENDING_FIELDS}
    return Pending(pend.kind, pend.player, options, **public)


def _combat(c: Combat | None) -> Combat | None:
    """A combat is played in the open: the Weapons laid face up, who plays next, who helped."""
    if c is None:
        return None
    return Combat(
        attacker=c.attacker,
        defender=c.defender,
        tool=c.tool,
        neutral=c.neutral,
        first_card=c.first_card,
        laid=list(c.laid),
        to_play=c.to_play,
        started=c.started,
        improvised=list(c.improvised),
        knife_bonus=list(c.knife_bonus),
        helpers=list(c.helpers),
    )


def _defeat(d: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """A lost combat: the card it cost is known to the two players (or lies face up after Michel)."""
    saw = d["neutral"] is not None or seat in (d["loser"], d["winner"])
    card = d["card"] if saw or d["card"] is None else UNKNOWN
    return {
        "loser": d["loser"],
        "winner": d["winner"],
        "neutral": d["neutral"],
        "beatings": d["beatings"],
        "card": card,
    }


# --- events ---------------------------------------------------------------------------------

F = frozenset
# Per event type: the fields anyone may read (as the JSON names them).
PUBLIC_EVENT_FIELDS: dict[str, frozenset[str]] = {
    "ability": F({"player", "ability"}),
    "action_card": F({"player", "card", "target"}),
    "adjust": F({"path", "op", "value"}),
    "adjusted": F({"player", "reason"}),
    "background": F({"player", "background", "bonus"}),
    "beating": F({"player", "count", "total", "why"}),
    "brawl": F({"player", "place", "players"}),
    "camouflaged": F({"neutral", "player"}),
    "cigarettes": F({"player", "change", "total", "why"}),
    "combat": F({"attacker", "defender", "neutral"}),
    "combat_end": F({"winner", "loser", "neutral"}),
    "cooperate": F({"player", "to", "neutral", "tool"}),
    "corruption": F({"player", "effect"}),
    "craft": F({"player", "recipe"}),
    "dig": F({"player", "tool", "points", "tunnel"}),
    "discard": F({"player", "cards", "why"}),
    "draw": F({"player", "cards", "why"}),
    "end_turn": F({"player"}),
    "exempt": F({"player"}),
    "extort": F({"player", "target", "tool", "weapons"}),
    "forced": F({"player", "rules", "ruling"}),
    "give": F({"player", "to", "card", "why"}),
    "give_up": F({"player"}),
    "heal": F({"player", "count", "total", "why"}),
    "join_gang": F({"player", "gang", "ability"}),
    "leave_gang": F({"player", "gang", "ability", "why"}),
    "michel_card": F({"neutral", "player", "card", "source"}),
    "michel_reshuffle": F({"cards"}),
    "move": F({"player", "to", "why", "from"}),
    "must_cooperate": F({"player", "tool"}),
    "neutral_calm": F({"neutral", "player", "place"}),
    "neutral_move": F({"neutral", "to", "why", "from"}),
    "offence": F({"player", "action", "place"}),
    "punishment": F({"player", "choice", "chooser"}),
    "rehabilitate": F({"player"}),
    "report": F({"player", "offender", "action"}),
    "reroll": F({"player", "ability"}),
    "reshuffle": F({"cards"}),
    "roll": F({"player", "die", "source", "why"}),
    "skill": F({"player", "points", "tunnel"}),
    "skip_neutral": F({"player"}),
    "spy": F({"player", "target", "hand"}),
    "take": F({"player", "card", "count", "why"}),
    "token": F({"player", "token", "change", "why"}),
    "trauma": F({"player", "trauma", "change", "why"}),
    "turn": F({"player", "turn", "actions"}),
    "turn_ended": F({"player", "why"}),
    "unused_dice": F({"die"}),
    "warden_move": F({"player", "to", "why"}),
    "weapon": F({"player", "card"}),
    "win": F({"winner", "target"}),
}
# Gives everybody sees: the extorted player hands over the Tool that was named aloud.
PUBLIC_GIVES = frozenset({"cooperate"})
Witnesses = Callable[[Any], set[int | None] | None]


def _adjusted_seat(event: ev.Adjust) -> int | None:
    """`players.2.hand` / `players.2.background` -> 2: a correction to something private."""
    parts = event.path.split(".")
    if len(parts) >= 3 and parts[0] == "players" and parts[2] in ("hand", "background") and parts[1].isdigit():
        return int(parts[1])
    return None


def _drawer(event: ev.Draw) -> set[int | None]:
    return {event.player}


def _hand_to_hand(event: ev.Give) -> set[int | None] | None:
    return None if event.why in PUBLIC_GIVES else {event.player, event.to}


def _spy_and_target(event: ev.Spy) -> set[int | None]:
    return {event.player, event.target}


def _corrected(event: ev.Adjust) -> set[int | None] | None:
    seat = _adjusted_seat(event)
    return None if seat is None else {seat}


# Per event type: (fields only some seats saw, who saw them; None: everybody this time).
WITNESSED: dict[str, tuple[frozenset[str], Witnesses]] = {
    "draw": (F({"cards"}), _drawer),
    "give": (F({"card"}), _hand_to_hand),
    "spy": (F({"hand"}), _spy_and_target),
    "adjust": (F({"value"}), _corrected),
}


def _hidden(value: Any) -> Any:
    """A private value as an outsider sees it: how many cards, not which."""
    if isinstance(value, tuple):
        return (UNKNOWN,) * len(value)
    return None if isinstance(value, Mapping) else UNKNOWN


def _blank(value: Any) -> Any:
    """A field nobody may read: nothing in its place (no cards, no value)."""
    return () if isinstance(value, tuple) else None


def redact_event(event: ev.Event | Mapping[str, Any], viewer: int | None) -> ev.Event:
    """One engine event as `viewer` may read it: the same type, with every field the lists above do
    not give this viewer replaced (an unlisted field is blank, a private one a placeholder)."""
    event = ev.event_from_json(event)
    public = PUBLIC_EVENT_FIELDS.get(event.TYPE, frozenset())
    private, witnesses = WITNESSED.get(event.TYPE, (frozenset(), None))
    saw = witnesses(event) if witnesses is not None else None
    outsider = saw is not None and _seat(viewer) not in saw
    changes: dict[str, Any] = {}
    for f in fields_of(type(event)):
        name = json_name(f.name)
        value = getattr(event, f.name)
        if name not in public:
            changes[f.name] = _blank(value)
        elif outsider and name in private:
            changes[f.name] = _hidden(value)
    return dataclasses.replace(event, **changes) if changes else event


def redact_events(events: Iterable[ev.Event | Mapping[str, Any]], viewer: int | None) -> list[ev.Event]:
    return [redact_event(e, viewer) for e in events]
