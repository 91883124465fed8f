"""Moving Michel and Michelle after each turn (MICH-2, MICH-3)."""

from __future__ import annotations

from .. import events as ev
from ..actions import Choose, MoveNeutral, SkipNeutral
from ..core import Ctx, applier, checker, choice, hard, violation
from ..errors import Violation
from ..state import GameState, Pending
from .common import checked


def neutral_options(s: GameState, neutral: str, face: int) -> tuple[str, ...]:
    """A neutral follows the Simple move rules; it never walks into the Warden's Office."""
    return s.board.destinations(s.neutrals[neutral], face, office_allowed=False)


@checker("move_neutral")
def check_move_neutral(s: GameState, a: MoveNeutral, out: list[Violation]) -> None:
    if a.neutral not in s.neutral_names:
        out.append(hard("MICH-2", "v.no_such_neutral", neutral=a.neutral))
        return
    if len(a.die) > 1:
        out.append(violation("MICH-2", "v.too_many_dice", count=len(a.die)))
    if a.to is not None and a.die:
        options = neutral_options(s, a.neutral, a.die[0])
        if a.to not in options:
            out.append(violation("MICH-2", "v.die_does_not_reach", die=a.die[0], to=a.to, places=list(options)))


@applier("move_neutral")
def apply_move_neutral(s: GameState, a: MoveNeutral, ctx: Ctx) -> None:
    s.pending = None
    face = ctx.roll(a.player, "neutral")
    options = neutral_options(s, a.neutral, face)
    if a.to in options or (a.force and a.to is not None):
        neutral_arrives(s, ctx, a.neutral, a.to)
    elif len(options) == 1:
        neutral_arrives(s, ctx, a.neutral, options[0])
    elif s.ruleset.neutral_destination == "random":
        neutral_arrives(s, ctx, a.neutral, ctx.choose("to", options))
    else:
        s.pending = Pending("neutral_destination", a.player, list(options), neutral=a.neutral, die=face)


@choice("neutral_destination")
def choose_neutral_destination(s: GameState, a: Choose, ctx: Ctx) -> None:
    neutral = checked(checked(s.pending).neutral)
    s.pending = None
    neutral_arrives(s, ctx, neutral, a.option)


def neutral_arrives(s: GameState, ctx: Ctx, neutral: str, place: str) -> None:
    """MICH-3: a neutral that ends a move extorts every player there, clockwise from the active player."""
    origin = s.neutrals[neutral]
    s.neutrals[neutral] = place
    ctx.emit(ev.NeutralMove(neutral=neutral, to=place, from_=origin))
    n = len(s.players)
    victims = sorted((p.seat for p in s.players if p.place == place), key=lambda seat: (seat - s.active) % n)
    ctx.schedule_first(*({"do": "neutral_extort", "neutral": neutral, "seat": seat} for seat in victims))


@checker("skip_neutral")
def check_skip_neutral(s: GameState, a: SkipNeutral, out: list[Violation]) -> None:
    if "skip" not in checked(s.pending).options:
        out.append(violation("MICH-2", "v.neutral_move_required"))


@applier("skip_neutral")
def apply_skip_neutral(s: GameState, a: SkipNeutral, ctx: Ctx) -> None:
    s.pending = None
    ctx.emit(ev.SkipNeutral(player=a.player))
