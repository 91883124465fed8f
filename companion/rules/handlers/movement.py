"""Moving: Simple move with the die, Cautious move, and the choices they lead to (MOVE-1..3)."""

from __future__ import annotations

from .. import events as ev
from ..actions import CautiousMove, Choose, Move
from ..core import CHOICES, Ctx, applier, checker, choice, hard, violation
from ..errors import Violation
from ..ops import draw_search, gain_cigarettes, place_standee, return_token, take_from_pile
from ..state import GameState, Pending
from .common import checked, use_action

REROLL = "reroll"
# The rule a wrong answer to each kind of choice breaks.
CHOICE_RULES = {
    "destination": "MOVE-1",
    "kings_choice": "CMB-2",
    "michel_tool": "MICH-5",
    "neutral_destination": "MICH-2",
    "give_weapon": "BG",
}


def destinations_for(s: GameState, seat: int, face: int) -> tuple[str, ...]:
    """Where this die face lets the player go; Lucky Number's 6 opens every other Place."""
    p = s.players[seat]
    if p.ability == "lucky_number" and face == 6:
        return tuple(pid for pid in s.board.places if pid != p.place)
    return s.board.destinations(p.place, face)


def place_not_in_game(s: GameState, place: str) -> Violation:
    """DI-2 when a Dig In Place or Team mode covers it, DI-1 when its module is not played."""
    if s.team_mode and s.catalog.places[place].role == "cell_block":
        return hard("TEAM-2", "v.team_cell_blocks", place=place)
    if place in s.board.by_role:  # a base Place covered by its Dig In replacement
        return hard("DI-2", "v.place_replaced", place=place, to=s.board.by_role[place][0])
    return hard("DI-1", "v.place_not_in_game", place=place)


def check_destination(s: GameState, seat: int, to: str | None, out: list[Violation], rule: str) -> bool:
    if to is None:
        return True
    if to not in s.board.places:
        out.append(place_not_in_game(s, to))
        return False
    if to == s.players[seat].place:
        out.append(violation("MOVE-2", "v.cannot_stay", place=to))
        return False
    return True


@checker("move", price=1)
def check_move(s: GameState, a: Move, out: list[Violation]) -> None:
    p = s.players[a.player]
    if len(a.die) > 1 and not (len(a.die) == 2 and p.ability == "second_chance"):
        out.append(violation("GA", "v.too_many_dice", count=len(a.die)))
    if not check_destination(s, a.player, a.to, out, "MOVE-1") or not a.die or a.to is None:
        return
    if len(a.die) == 1 and p.ability == "second_chance" and a.to not in destinations_for(s, a.player, a.die[0]):
        return  # a rerolled move: the second die decides
    options = destinations_for(s, a.player, a.die[-1])
    if a.to not in options:
        rule = "OFF-1" if a.to == s.board.office else "MOVE-1"
        out.append(violation(rule, "v.die_does_not_reach", die=a.die[-1], to=a.to, places=list(options)))


@applier("move")
def apply_move(s: GameState, a: Move, ctx: Ctx) -> None:
    p = s.players[a.player]
    face = ctx.roll(a.player, "move")
    can_reroll = p.ability == "second_chance"
    if can_reroll and ctx.dice:  # the table supplied a second die: Second Chance was used
        ctx.emit(ev.Reroll(player=a.player, ability="second_chance"))
        face = ctx.roll(a.player, "move")
        can_reroll = False
    if a.force and a.to is not None and a.to not in destinations_for(s, a.player, face):
        roll_effects(s, ctx, a.player, face)
        finish_move(s, ctx, a.player, a.to)  # forced: the table says where the player went
        return
    resolve_roll(s, ctx, a.player, face, a.to, can_reroll)


def resolve_roll(s: GameState, ctx: Ctx, seat: int, face: int, to: str | None, can_reroll: bool) -> None:
    options = destinations_for(s, seat, face)
    if can_reroll and to not in options:
        s.pending = Pending("destination", seat, list(options) + [REROLL], die=face, effects=False)
        return
    roll_effects(s, ctx, seat, face)
    if to in options:
        finish_move(s, ctx, seat, to)
    elif len(options) == 1:
        finish_move(s, ctx, seat, options[0])
    else:
        s.pending = Pending("destination", seat, list(options), die=face, effects=True)


def roll_effects(s: GameState, ctx: Ctx, seat: int, face: int) -> None:
    """Gang abilities triggered by a Simple move's result (Lucky Number, the two Stashes)."""
    ability = s.players[seat].ability
    values = s.catalog.ability_values
    if ability == "lucky_number" and face == 5:
        take_from_pile(s, ctx, seat, "knife", values["lucky_number_knives"], "lucky_number")
    elif ability == "cigarettes_stash" and face % 2 == 0:
        gain_cigarettes(s, ctx, seat, values["cigarettes_stash"], "cigarettes_stash")
    elif ability == "item_stash" and face % 2 == 0:
        draw_search(s, ctx, seat, values["item_stash"], why="item_stash")


def finish_move(s: GameState, ctx: Ctx, seat: int, to: str, why: str = "move") -> None:
    place_standee(s, ctx, seat, to, why)
    if s.occasion is not None:  # OFF-3 Move: after a player's Move action, a Corruption token may move the Warden
        s.occasion.moved = seat


@choice("destination")
def choose_destination(s: GameState, a: Choose, ctx: Ctx) -> None:
    pending = s.pending
    assert pending is not None
    s.pending = None
    if a.option == REROLL:
        ctx.emit(ev.Reroll(player=a.player, ability="second_chance"))
        resolve_roll(s, ctx, a.player, ctx.roll(a.player, "move"), None, False)
        return
    if not pending.effects:
        roll_effects(s, ctx, a.player, checked(pending.die))
    finish_move(s, ctx, a.player, a.option)


@checker("choose")
def check_choose(s: GameState, a: Choose, out: list[Violation]) -> None:
    pending = s.pending
    assert pending is not None
    option = list(a.option) if isinstance(a.option, tuple) else a.option
    if option not in pending.options:
        rule = CHOICE_RULES.get(pending.kind, "TURN-5")
        out.append(hard(rule, "v.not_an_option", options=[str(o) for o in pending.options]))


@applier("choose")
def apply_choose(s: GameState, a: Choose, ctx: Ctx) -> None:
    assert s.pending is not None
    CHOICES[s.pending.kind](s, a, ctx)


@checker("cautious_move", floor=1)
def check_cautious_move(s: GameState, a: CautiousMove, out: list[Violation]) -> None:
    p = s.players[a.player]
    if a.planning and p.tokens.get("planning", 0) < 1:
        out.append(hard("GAMB-2", "v.no_token", token="planning"))
    cost = 1 if a.planning else 2
    if s.actions_left < cost:
        out.append(violation("MOVE-3", "v.no_actions_left", cost=cost, left=s.actions_left))
    check_destination(s, a.player, a.to, out, "MOVE-3")


@applier("cautious_move")
def apply_cautious_move(s: GameState, a: CautiousMove, ctx: Ctx) -> None:
    cost = 1 if a.planning else 2
    if a.planning:
        return_token(s, ctx, a.player, "planning", "cautious_move")
    use_action(s, cost)
    finish_move(s, ctx, a.player, a.to, "cautious_move")
