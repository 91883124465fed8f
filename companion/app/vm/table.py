"""The table at a glance: the map of Places with every standee, the players, the piles.

Built from a `GameState` in one pass after every change; the views render it as they are told.
Seat-aware: `viewer` (None for the referee, a seat, or SPECTATOR) decides what private details
show; the state itself is the engine's projection for that viewer wherever hands are private.
On a `shared` screen each board offers "show my hand" (or "hide" for the hand shown).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import GameState

from .text import Tr

# Standee colours the setup offers (ids; the views map them to paints).
COLORS = ("red", "black", "yellow", "blue", "green", "orange", "purple", "white")


def seat_color(state_or_config: Any, seat: int) -> str:
    players = state_or_config.players if hasattr(state_or_config, "players") else state_or_config["players"]
    p = players[seat]
    return standee_color(p.color if hasattr(p, "color") else p.get("color"), seat)


def standee_color(color: str | None, seat: int) -> str:
    """A seat's standee colour: the one entered, else one by the seat's place at the table."""
    return color if color in COLORS else COLORS[seat % len(COLORS)]


@dataclass
class StandeeVM:
    kind: str  # "player", "neutral", "warden"
    ident: str  # seat number as text, neutral id, or "warden"
    label: str
    short: str
    color: str
    active: bool = False
    deciding: bool = False


@dataclass
class PlaceVM:
    ident: str
    name: str
    faces: list[int]
    search: int
    actions: list[str]  # Place action labels
    standees: list[StandeeVM] = field(default_factory=list)
    highlighted: bool = False
    here: bool = False  # the active player stands here
    warden: bool = False
    notes: list[str] = field(default_factory=list)  # restrictions worth a glance (no Craft...)

    @property
    def label(self) -> str:
        return self.name


@dataclass
class PlayerVM:
    seat: int
    name: str
    color: str
    place: str
    place_id: str
    tunnel: int
    target: int
    beatings: int
    max_beatings: int
    cigarettes: int
    hand_size: int
    hand_limit: int
    hand_known: list[tuple[str, int]]
    hand_unknown: int
    gang: str | None
    ability: str | None
    tokens: list[tuple[str, int]]
    trauma: str | None
    team: str | None
    dug: list[str]
    background: str  # "hidden", "revealed: ...", ...
    active: bool
    deciding: bool
    winner: bool
    hand_hidden: bool = False  # a phone's view of another seat: the hand's size, never its cards
    reveal: str | None = None  # a shared screen: "show" (this player may show their hand) or "hide"

    @property
    def progress(self) -> float:
        return 0.0 if self.target <= 0 else min(1.0, self.tunnel / self.target)


@dataclass
class PileVM:
    ident: str
    label: str
    count: int


@dataclass
class TeamVM:
    ident: str
    name: str
    tunnel: int
    target: int
    members: list[str]


@dataclass
class TableVM:
    turn: int
    round: int  # the round the turn belongs to (the engine's `round`): the table counts rounds
    active: int
    active_name: str
    active_color: str
    actions_left: int
    deciding: int | None
    deciding_name: str
    decision: str  # what the deciding player must do, in words ("" when it's a plain turn)
    target: int
    places: list[PlaceVM]
    players: list[PlayerVM]
    piles: list[PileVM]
    teams: list[TeamVM]
    winner: str | None
    headline: str  # "Carmen's turn: 2 actions left" or "Waiting for Carmen: cooperate or fight"


def names_of(state: GameState) -> list[str]:
    return [p.name for p in state.players]


def place_faces(state: GameState, place: str) -> list[int]:
    return sorted(face for face, named in state.board.faces.items() if place in named)


def build_table(
    state: GameState,
    tr: Tr,
    highlight: set[str] | frozenset[str] = frozenset(),
    viewer: int | None = None,
    shared: bool = False,
) -> TableVM:
    deciding = None if state.winner is not None else (state.pending.player if state.pending else state.active)
    target = state.target()
    winner = None
    if state.winner is not None:
        winner = tr(f"ui.team_{state.winner}") if isinstance(state.winner, str) else state.players[state.winner].name
    active = state.players[state.active]
    decision = ""
    if state.pending is not None:
        decision = tr.name("decision", state.pending.kind)
    return TableVM(
        turn=state.turn,
        round=state.round,
        active=state.active,
        active_name=active.name,
        active_color=seat_color(state, active.seat),
        actions_left=state.actions_left,
        deciding=deciding,
        deciding_name="" if deciding is None else state.players[deciding].name,
        decision=decision,
        target=target,
        places=_places(state, tr, highlight, _standees(state, tr, deciding)),
        players=[_player(state, p, tr, target, deciding, viewer, shared) for p in state.players],
        piles=_piles(state, tr),
        teams=_teams(state, tr, target),
        winner=winner,
        headline=_headline(state, tr, winner, decision),
    )


def _standees(state: GameState, tr: Tr, deciding: int | None) -> dict[str, list[StandeeVM]]:
    """Who stands where, by Place: the players in seat order, then the neutrals, then the Warden."""
    standees: dict[str, list[StandeeVM]] = {pid: [] for pid in state.board.places}
    for p in state.players:
        color = seat_color(state, p.seat)
        standees.setdefault(p.place, []).append(
            StandeeVM(
                "player",
                str(p.seat),
                p.name,
                _initials(p.name),
                color,
                active=p.seat == state.active and state.winner is None,
                deciding=p.seat == deciding,
            )
        )
    for neutral, place in state.neutrals.items():
        label = tr.name("neutral", neutral)
        standees.setdefault(place, []).append(StandeeVM("neutral", neutral, label, _initials(label), "neutral"))
    if state.warden is not None:
        label = tr("ui.warden")
        standees.setdefault(state.warden, []).append(StandeeVM("warden", "warden", label, "W", "warden"))
    return standees


def _places(
    state: GameState, tr: Tr, highlight: set[str] | frozenset[str], standees: dict[str, list[StandeeVM]]
) -> list[PlaceVM]:
    board = state.board
    active_place = state.players[state.active].place
    places = []
    for pid, info in board.places.items():
        notes = []
        if info.no_craft:
            notes.append(tr("ui.note_no_craft"))
        if info.one_action:
            notes.append(tr("ui.note_one_action"))
        if info.no_extort and not info.one_action:
            notes.append(tr("ui.note_no_extort"))
        if info.team is not None:
            notes.append(tr(f"ui.team_{info.team}"))
        places.append(
            PlaceVM(
                ident=pid,
                name=tr.name("place", pid),
                faces=place_faces(state, pid),
                search=board.search[pid],
                actions=[tr.name("action", a) for a in sorted(info.actions)],
                standees=standees.get(pid, []),
                highlighted=pid in highlight,
                here=pid == active_place and state.winner is None,
                warden=state.warden == pid,
                notes=notes,
            )
        )
    return places


def _piles(state: GameState, tr: Tr) -> list[PileVM]:
    """The board's piles, then the decks and discards, then the token supplies."""
    piles = [PileVM(card, tr.name("card", card), n) for card, n in state.piles.items()]
    piles.append(PileVM("deck", tr("ui.pile_deck"), state.deck))
    piles.append(PileVM("discard", tr("ui.pile_discard"), len(state.discard)))
    if state.neutral_names:
        piles.append(PileVM("michel_deck", tr("ui.pile_michel"), len(state.michel_deck)))
    for token, n in sorted(state.supplies.items()):
        piles.append(PileVM(f"token:{token}", tr.name("token", token), n))
    return piles


def _teams(state: GameState, tr: Tr, target: int) -> list[TeamVM]:
    if not state.team_mode:
        return []
    return [
        TeamVM(
            team,
            tr(f"ui.team_{team}"),
            state.team_tunnel(team),
            target,
            [p.name for p in state.players if p.team == team],
        )
        for team in ("a", "b")
    ]


def _headline(state: GameState, tr: Tr, winner: str | None, decision: str) -> str:
    """The winner, the decision awaited, or whose turn it is."""
    if winner is not None:
        return tr("ui.headline_winner", winner=winner)
    if state.pending is not None:
        return tr("ui.headline_waiting", player=state.players[state.pending.player].name, decision=decision)
    return tr("ui.headline_turn", player=state.players[state.active].name, count=state.actions_left)


def _initials(name: str) -> str:
    parts = [w for w in name.split() if w]
    if not parts:
        return "?"
    if len(parts) == 1:
        return parts[0][:2].upper() if len(parts[0]) > 1 else parts[0].upper()
    return (parts[0][0] + parts[1][0]).upper()


def _player(
    state: GameState, p: Any, tr: Tr, target: int, deciding: int | None, viewer: int | None, shared: bool
) -> PlayerVM:
    known = [(tr.name("card", c), n) for c, n in sorted(p.hand.known.items())]
    if p.revealed:
        background = tr("ui.background_revealed", background=tr.names("background", p.revealed))
    else:
        background = ""
    if p.has_background:
        held = tr("ui.background_hidden")
        if p.background is not None and (viewer is None or viewer == p.seat):
            held = tr("ui.background_known", background=tr.name("background", p.background))
        background = held if not background else tr.join([held, background])
    winner = state.winner == p.seat or (isinstance(state.winner, str) and state.winner == p.team)
    return PlayerVM(
        seat=p.seat,
        name=p.name,
        color=seat_color(state, p.seat),
        place=tr.name("place", p.place),
        place_id=p.place,
        tunnel=p.tunnel,
        target=target,
        beatings=p.beatings,
        max_beatings=state.ruleset.max_beatings,
        cigarettes=p.cigarettes,
        hand_size=p.hand.size(),
        hand_limit=state.hand_limit(p),
        hand_known=known,
        hand_unknown=p.hand.unknown,
        gang=tr.name("gang", p.gang) if p.gang else None,
        ability=tr.name("ability", p.ability) if p.ability else None,
        tokens=[(tr.name("token", t), n) for t, n in sorted(p.tokens.items()) if n],
        trauma=tr.name("trauma", p.trauma) if p.trauma else None,
        team=tr(f"ui.team_{p.team}") if p.team else None,
        dug=[tr.name("card", t) for t in p.dug],
        background=background,
        active=p.seat == state.active and state.winner is None,
        deciding=p.seat == deciding,
        winner=winner,
        hand_hidden=viewer is not None and viewer != p.seat,
        reveal=None if not shared else "hide" if viewer == p.seat else "show",
    )


@dataclass(frozen=True)
class ScoreVM:
    """One player in the score strip: what the table asks most often, at a glance."""

    seat: int
    name: str
    color: str
    tunnel: str  # "3/12", in the language's digits
    beatings: str
    hurt: bool  # at least one Beating
    cigarettes: str
    turn: bool  # whose turn (or decision) it is
    label: str  # the whole entry in words, for screen readers and the tap's name


def score_strip(table: TableVM, tr: Tr) -> list[ScoreVM]:
    """Each player's Tunnel points against the target, Beatings and cigarettes, and whose turn."""
    now = table.deciding if table.deciding is not None else table.active
    out = []
    for p in table.players:
        turn = p.seat == now and table.winner is None
        label = tr(
            "ui.score_label",
            player=p.name,
            tunnel=p.tunnel,
            target=p.target,
            beatings=p.beatings,
            cigarettes=p.cigarettes,
        )
        out.append(
            ScoreVM(
                p.seat,
                p.name,
                p.color,
                tr("ui.tunnel_short", tunnel=p.tunnel, target=p.target),
                tr.num(p.beatings),
                p.beatings > 0,
                tr.num(p.cigarettes),
                turn,
                tr("ui.score_label_turn", label=label) if turn else label,
            )
        )
    return out
