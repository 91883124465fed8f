"""Turn flow: ending a turn, the hand limit, end-of-turn abilities, the next turn (TURN-1..3)."""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..actions import EndTurn
from ..core import Ctx, applier, checker, hand_card_problems, task, violation
from ..errors import Violation
from ..ops import discard_cards, gain_cigarettes
from ..state import GameState, Pending, TurnFlags


def start_turn(s: GameState, ctx: Ctx, seat: int) -> None:
    p = s.players[seat]
    s.turn += 1
    s.active = seat
    s.flags = TurnFlags(started_in_solitary=s.board.places[p.place].one_action)
    s.actions_left = s.ruleset.solitary_actions if s.flags.started_in_solitary else s.ruleset.actions_per_turn
    p.camouflaged = False  # Camouflage lasts until the player's next turn
    ctx.emit(ev.Turn(player=seat, turn=s.turn, actions=s.actions_left))


def finish_turn(s: GameState, ctx: Ctx, seat: int, hand_checked: bool) -> None:
    """What happens after a turn's last action, in order (TURN-3, Collect, MICH-2)."""
    steps = [] if hand_checked else [{"do": "hand_limit", "seat": seat}]
    steps += [{"do": "turn_end_abilities", "seat": seat}, {"do": "neutral_phase", "seat": seat}, {"do": "next_turn"}]
    s.agenda.extend(steps)


def end_turn_now(s: GameState, ctx: Ctx, why: str) -> None:
    """The active player is sent away: the turn ends at once (WARD-3, Action cards)."""
    s.actions_left = 0
    s.pending = None
    s.combat = None
    s.agenda = [t for t in s.agenda if t["do"] == "neutral_extort"]
    ctx.emit(ev.TurnEnded(player=s.active, why=why))
    finish_turn(s, ctx, s.active, hand_checked=False)


@checker("end_turn")
def check_end_turn(s: GameState, a: EndTurn, out: list[Violation]) -> None:
    p = s.players[a.player]
    discard = list(a.discard or ())
    over = p.hand.size() - s.hand_limit(p)
    if discard:
        out += hand_card_problems(s, p, discard)
    if over > 0 and len(discard) != over:
        out.append(violation("TURN-3", "v.hand_over_limit", size=p.hand.size(), limit=s.hand_limit(p), over=over))
    elif over <= 0 and discard:
        out.append(violation("TURN-3", "v.discard_not_needed", limit=s.hand_limit(p)))


@applier("end_turn")
def apply_end_turn(s: GameState, a: EndTurn, ctx: Ctx) -> None:
    if a.discard:
        discard_cards(s, ctx, a.player, a.discard, "hand_limit")
    if s.pending is not None and s.pending.kind == "hand_limit":
        s.pending = None
        return
    ctx.emit(ev.EndTurn(player=a.player))
    finish_turn(s, ctx, a.player, hand_checked=True)


@task("hand_limit")
def hand_limit(s: GameState, item: dict[str, Any], ctx: Ctx) -> None:
    p = s.players[item["seat"]]
    over = p.hand.size() - s.hand_limit(p)
    if over > 0:
        s.pending = Pending("hand_limit", p.seat, [], discard=over, limit=s.hand_limit(p))


@task("turn_end_abilities")
def turn_end_abilities(s: GameState, item: dict[str, Any], ctx: Ctx) -> None:
    p = s.players[item["seat"]]
    if p.ability == "collect":
        values = s.catalog.ability_values
        gain_cigarettes(s, ctx, p.seat, values["collect"] if p.cigarettes else values["collect_when_broke"], "collect")


@task("neutral_phase")
def neutral_phase(s: GameState, item: dict[str, Any], ctx: Ctx) -> None:
    """MICH-2: after each turn, that player may move one neutral."""
    if not s.neutral_names:
        return
    options: list[str] = list(s.neutral_names)
    if s.ruleset.neutral_move_optional:
        options.append("skip")
    s.pending = Pending("neutral_move", item["seat"], options)


@task("next_turn")
def next_turn(s: GameState, item: dict[str, Any], ctx: Ctx) -> None:
    start_turn(s, ctx, (s.active + 1) % len(s.players))
