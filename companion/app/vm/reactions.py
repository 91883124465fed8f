"""Out-of-turn reactions: the Warden's report window, Corruption tokens, combat Backgrounds.

Any seat may hold one of these at any moment, so they are listed per seat, apart from the
deciding player's own menu. A Warden offence gets its own model: the alert names the offender,
the action, the Place and the rule, and carries the Report, Freepass and Punishment buttons
that are legal right now.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from companion.rules import GameState, actions, legal_reactions

from .pending import AnswerVM
from .table import seat_color
from .text import Tr


@dataclass
class OffenceVM:
    offender: int
    offender_name: str
    color: str
    action: str
    place: str
    rule: str
    message: str
    help: str  # what the table may do about it, and when
    reports: list[AnswerVM] = field(default_factory=list)
    freepass: AnswerVM | None = None
    punishments: list[AnswerVM] = field(default_factory=list)


@dataclass
class MoveWardenVM:
    seat: int
    label: str
    places: list[tuple[str, str]]  # (place id, name)
    template: dict[str, Any]


@dataclass
class ReactionsVM:
    offence: OffenceVM | None = None
    others: list[AnswerVM] = field(default_factory=list)
    move_warden: list[MoveWardenVM] = field(default_factory=list)
    # Backgrounds a player may reveal now, by seat (the app rarely knows which one they hold).
    backgrounds: dict[int, list[AnswerVM]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return self.offence is None and not self.others and not self.move_warden and not self.backgrounds


def _offence_help(state: GameState, tr: Tr) -> str:
    """A decision waits (the combat an extortion started): the engine takes no report until it is
    made (TURN-5), so the alert says when the report may come rather than "now"."""
    pend = state.pending
    if pend is None:
        return tr("ui.offence_help")
    return tr("ui.offence_help_after", player=state.players[pend.player].name)


def reactions_view(state: GameState, tr: Tr, seats: Collection[int] | None = None) -> ReactionsVM:
    """The reactions open now; `seats` limits the buttons to those seats (a phone: its own)."""
    out = ReactionsVM()
    if state.winner is not None:
        return out
    offence = state.offence
    if offence is not None:
        who = offence.offender
        out.offence = OffenceVM(
            offender=who,
            offender_name=state.players[who].name,
            color=seat_color(state, who),
            action=tr.name("action", offence.action),
            place=tr.name("place", offence.place),
            rule=offence.rule,
            message=tr(
                "ui.offence_message",
                player=state.players[who].name,
                action_label=tr.name("action", offence.action),
                place=offence.place,
            ),
            help=_offence_help(state, tr),
        )
    for p in state.players:
        if seats is not None and p.seat not in seats:
            continue
        moves: list[str] = []
        for a in legal_reactions(state, p.seat):
            data = a.to_json()
            if isinstance(a, actions.Report) and out.offence is not None:
                out.offence.reports.append(AnswerVM(tr("ui.react.report", player=p.name), data, p.seat, "danger"))
            elif isinstance(a, actions.Corruption) and a.effect == "freepass" and out.offence is not None:
                out.offence.freepass = AnswerVM(tr("ui.react.freepass", player=p.name), data, p.seat)
            elif isinstance(a, actions.Corruption) and a.effect == "punishment":
                target = state.players[a.target].name if a.target is not None else ""
                answer = AnswerVM(tr("ui.react.punishment", player=p.name, target=target), data, p.seat, "danger")
                if out.offence is not None:
                    out.offence.punishments.append(answer)
                else:
                    out.others.append(answer)
            elif isinstance(a, actions.Corruption) and a.effect == "move" and a.to is not None:
                moves.append(a.to)
            elif isinstance(a, actions.RevealBackground):
                label = tr("ui.react.background", player=p.name, background=tr.name("background", a.card))
                out.backgrounds.setdefault(p.seat, []).append(AnswerVM(label, data, p.seat))
        if moves:
            out.move_warden.append(
                MoveWardenVM(
                    p.seat,
                    tr("ui.react.move_warden", player=p.name),
                    [(m, tr.name("place", m)) for m in moves if m != state.warden],
                    {"type": "corruption", "player": p.seat, "effect": "move"},
                )
            )
    return out
