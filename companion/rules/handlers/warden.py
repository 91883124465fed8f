"""The Warden and her Office (WARD, OFF): offences, reports, Corruption, Attract, Bribe.

An offence is a legal action of the illegal list performed in the Warden's Place (WARD-2). It
opens a report window that the next action closes (WARD-3). Corruption tokens react to the last
finished action, its "occasion" (OFF-3): each effect once per occasion, first claim first.
"""

from __future__ import annotations

from .. import events as ev
from ..actions import CHOICES, AttractWarden, Bribe, Corruption, PunishmentChoice, Report
from ..core import Ctx, applier, checker, hard, violation
from ..errors import Violation
from ..offence import Offence
from ..ops import add_beatings, discard_random, gain_cigarettes, place_standee, return_token, take_token
from ..state import GameState, Pending
from .common import checked, place_action
from .movement import place_not_in_game


def note_offence(s: GameState, ctx: Ctx, seat: int, action: str, place: str) -> None:
    """WARD-2: a legal illegal-list action in the Warden's Place opens a report window."""
    if s.warden is None or place != s.warden or action not in s.catalog.warden_illegal_actions:
        return
    s.offence = Offence(rule="WARD-2", action=action, place=place, offender=seat)
    ctx.emit(ev.Offence(player=seat, action=action, place=place))


def needs_warden(s: GameState, out: list[Violation], rule: str) -> bool:
    if s.warden is None:
        out.append(hard(rule, "v.no_warden"))
        return False
    return True


@checker("attract_warden", price=1)
def check_attract(s: GameState, a: AttractWarden, out: list[Violation]) -> None:
    if needs_warden(s, out, "WARD-6") and s.warden == s.players[a.player].place:
        out.append(violation("WARD-6", "v.warden_already_here"))


@applier("attract_warden")
def apply_attract(s: GameState, a: AttractWarden, ctx: Ctx) -> None:
    s.warden = s.players[a.player].place
    ctx.emit(ev.WardenMove(to=s.warden, why="attract_warden", player=a.player))


@checker("bribe", price=1)
def check_bribe(s: GameState, a: Bribe, out: list[Violation]) -> None:
    p = s.players[a.player]
    place_action(s, p, "bribe", "OFF-2", out)
    cost = s.ruleset.bribe_cost
    if p.cigarettes < cost:
        out.append(hard("OFF-2", "v.not_enough_cigarettes", price=cost, have=p.cigarettes, item="bribe"))
    if s.supplies.get("corruption", 0) < 1:
        out.append(hard("SUP-6", "v.supply_empty", token="corruption"))


@applier("bribe")
def apply_bribe(s: GameState, a: Bribe, ctx: Ctx) -> None:
    gain_cigarettes(s, ctx, a.player, -s.ruleset.bribe_cost, "bribe")
    take_token(s, ctx, a.player, "corruption", "bribe")


@checker("report")
def check_report(s: GameState, a: Report, out: list[Violation]) -> None:
    if s.offence is None:
        out.append(hard("WARD-3", "v.no_offence"))
    elif s.offence.offender == a.player:
        out.append(hard("WARD-3", "v.report_self"))
    elif s.pending is not None:
        out.append(
            hard("TURN-5", "v.decision_pending", player=s.players[s.pending.player].name, decision=s.pending.kind)
        )


@applier("report")
def apply_report(s: GameState, a: Report, ctx: Ctx) -> None:
    """WARD-3/4: the offender goes to Solitary (the Ward when used); they keep what they gained."""
    offence = s.offence
    s.offence = None
    assert offence is not None  # check_report
    offender = offence.offender
    ctx.emit(ev.Report(player=a.player, offender=offender, action=offence.action))
    place_standee(s, ctx, offender, s.board.solitary, "report")
    if offender == s.active:
        from .turns import end_turn_now

        end_turn_now(s, ctx, "report")


@checker("corruption")
def check_corruption(s: GameState, a: Corruption, out: list[Violation]) -> None:
    p = s.players[a.player]
    if not needs_warden(s, out, "OFF-3"):
        return
    if p.tokens.get("corruption", 0) < 1:
        out.append(hard("OFF-3", "v.no_token", token="corruption"))
        return
    occasion = s.occasion
    if occasion is not None and a.effect in occasion.used:
        out.append(hard("OFF-3", "v.effect_used", effect=a.effect))
        return
    if a.effect == "freepass":
        if s.offence is None or s.offence.offender != a.player:
            out.append(hard("OFF-3", "v.freepass_no_offence"))
    elif s.pending is not None:
        out.append(
            hard("TURN-5", "v.decision_pending", player=s.players[s.pending.player].name, decision=s.pending.kind)
        )
    elif a.effect == "punishment":
        if occasion is None or s.players[occasion.player].place != s.warden and occasion.place != s.warden:
            out.append(hard("OFF-3", "v.punish_no_occasion"))
        elif a.target is not None and a.target != occasion.player:
            out.append(hard("OFF-3", "v.punish_wrong_target", player=s.players[occasion.player].name))
    elif a.effect == "move":
        if occasion is None or occasion.moved is None:
            out.append(hard("OFF-3", "v.move_no_occasion"))
        elif a.to is None:
            out.append(hard("OFF-3", "v.destination_needed"))
        elif a.to not in s.board.places:
            out.append(place_not_in_game(s, a.to))


@applier("corruption")
def apply_corruption(s: GameState, a: Corruption, ctx: Ctx) -> None:
    return_token(s, ctx, a.player, "corruption", a.effect)
    if s.occasion is not None:
        s.occasion.used.append(a.effect)
    ctx.emit(ev.Corruption(player=a.player, effect=a.effect))
    if a.effect == "freepass":
        s.offence = None
    elif a.effect == "punishment":
        assert s.occasion is not None  # check_corruption
        victim = s.occasion.player
        chooser = victim if s.ruleset.punishment_choice == "victim" else a.player
        s.pending = Pending("punishment_choice", chooser, list(CHOICES), by=a.player, target=victim)
    else:
        s.warden = to = checked(a.to)
        ctx.emit(ev.WardenMove(to=to, why="corruption", player=a.player))


@checker("punishment_choice")
def check_punishment_choice(s: GameState, a: PunishmentChoice, out: list[Violation]) -> None:
    return None


@applier("punishment_choice")
def apply_punishment_choice(s: GameState, a: PunishmentChoice, ctx: Ctx) -> None:
    """OFF-3: the victim suffers the Punishment that whoever the ruleset names has chosen."""
    victim = checked(checked(s.pending).target)
    s.pending = None
    ctx.emit(ev.Punishment(player=victim, choice=a.choice, chooser=a.player))
    p = s.players[victim]
    if a.choice == "beating":
        add_beatings(s, ctx, victim, 1, "punishment")
    elif a.choice == "discard_half":
        discard_random(s, ctx, victim, (p.hand.size() + 1) // 2, "punishment")
    else:
        gain_cigarettes(s, ctx, victim, -p.cigarettes, "punishment")
