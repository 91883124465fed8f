"""The Dig In Places' own actions (LIB, WORK, GAMB, GYM, LAUN) and Team mode's Exchange (TEAM-4)."""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..actions import (
    Action,
    Bet,
    Brawl,
    BrawlResponse,
    DevelopSkills,
    Exchange,
    ImproveTool,
    Plan,
    Rehabilitate,
    Spy,
    StealBandage,
    Study,
    Workout,
)
from ..core import Ctx, applier, checker, hand_card_problems, hard, task, violation
from ..errors import Violation
from ..ops import add_beatings, discard_cards, gain_cigarettes, move_card, place_standee, take_from_pile, take_token
from ..state import GameState, Pending
from .combat import as_played, is_weapon
from .common import place_action, valid_seat
from .places import pile_has

# Place actions that only take a token from the Place's supply.
TOKEN_ACTIONS = {
    "study": ("spy", "LIB-2"),
    "develop_skills": ("skill", "WORK-2"),
    "plan": ("planning", "GAMB-2"),
    "workout": ("bodybuilding", "GYM-2"),
    "steal_bandage": ("bandage", "LAUN-2"),
}
IMPROVE = {"pickaxe": ("shovel", 1), "shovel": ("pickaxe", 2)}  # WORK-1: discarded Tool -> what you take
BET_AMOUNTS = range(1, 4)
BET_NUMBERS = range(2, 7)
BRAWL_SOLITARY_AT_MOST = 2


@checker(*TOKEN_ACTIONS, price=1)
def check_token_action(
    s: GameState, a: Study | DevelopSkills | Plan | Workout | StealBandage, out: list[Violation]
) -> None:
    token, rule = TOKEN_ACTIONS[a.TYPE]
    place_action(s, s.players[a.player], a.TYPE, rule, out)
    if s.supplies.get(token, 0) < 1:
        out.append(hard("SUP-6", "v.supply_empty", token=token))


@applier(*TOKEN_ACTIONS)
def apply_token_action(s: GameState, a: Action, ctx: Ctx) -> None:
    take_token(s, ctx, a.player, TOKEN_ACTIONS[a.TYPE][0], a.TYPE)


@checker("rehabilitate", price=1)
def check_rehabilitate(s: GameState, a: Rehabilitate, out: list[Violation]) -> None:
    p = s.players[a.player]
    place_action(s, p, "rehabilitate", "LIB-1", out)
    if s.background_deck < 1:
        out.append(hard("LIB-1", "v.background_deck_empty"))
    if a.card is not None:
        taken = any(a.card in q.revealed or q.background == a.card for q in s.players)
        if taken or a.card in s.background_discard:
            out.append(hard("BG", "v.bg_gone", background=a.card))


@applier("rehabilitate")
def apply_rehabilitate(s: GameState, a: Rehabilitate, ctx: Ctx) -> None:
    """LIB-1: the held Background (used or not) is discarded, a new one drawn."""
    p = s.players[a.player]
    if p.has_background:
        s.background_discard.append(p.background or "unknown")
    s.background_deck -= 1
    p.has_background = True
    p.background = a.card
    ctx.emit(ev.Rehabilitate(player=a.player))


@checker("spy")
def check_spy(s: GameState, a: Spy, out: list[Violation]) -> None:
    """LIB-3: during your own turn, anywhere, free."""
    p = s.players[a.player]
    if p.tokens.get("spy", 0) < 1:
        out.append(hard("LIB-3", "v.no_token", token="spy"))
    if valid_seat(s, a.target, out, "LIB-3") and a.target == a.player:
        out.append(violation("LIB-3", "v.target_self"))


@applier("spy")
def apply_spy(s: GameState, a: Spy, ctx: Ctx) -> None:
    from ..ops import return_token

    return_token(s, ctx, a.player, "spy", "spy")
    ctx.emit(ev.Spy(player=a.player, target=a.target, hand=s.players[a.target].hand.to_json()))  # seen by the spy


@checker("improve_tool", price=1)
def check_improve_tool(s: GameState, a: ImproveTool, out: list[Violation]) -> None:
    p = s.players[a.player]
    place_action(s, p, "improve_tool", "WORK-1", out)
    if a.tool not in IMPROVE:
        out.append(hard("WORK-1", "v.improve_which", tool=a.tool))
        return
    out += hand_card_problems(s, p, [a.tool])
    product, count = IMPROVE[a.tool]
    pile_has(s, product, count, out)


@applier("improve_tool")
def apply_improve_tool(s: GameState, a: ImproveTool, ctx: Ctx) -> None:
    discard_cards(s, ctx, a.player, [a.tool], "improve_tool")
    product, count = IMPROVE[a.tool]
    take_from_pile(s, ctx, a.player, product, count, "improve_tool")


@checker("bet", price=1)
def check_bet(s: GameState, a: Bet, out: list[Violation]) -> None:
    p = s.players[a.player]
    place_action(s, p, "bet", "GAMB-1", out)
    if a.amount not in BET_AMOUNTS or a.number not in BET_NUMBERS:
        out.append(hard("GAMB-1", "v.bet_range"))
    elif p.cigarettes < a.amount:
        out.append(hard("GAMB-1", "v.not_enough_cigarettes", price=a.amount, have=p.cigarettes, item="bet"))
    if len(a.die) > 1:
        out.append(violation("GAMB-1", "v.too_many_dice", count=len(a.die)))


@applier("bet")
def apply_bet(s: GameState, a: Bet, ctx: Ctx) -> None:
    """GAMB-1: a result at least the number pays the bet times the number; else the bet is lost."""
    gain_cigarettes(s, ctx, a.player, -a.amount, "bet")
    if ctx.roll(a.player, "bet") >= a.number:
        gain_cigarettes(s, ctx, a.player, a.amount * a.number, "bet_won")


@checker("brawl", price=1)
def check_brawl(s: GameState, a: Brawl, out: list[Violation]) -> None:
    p = s.players[a.player]
    place_action(s, p, "brawl", "GYM-1", out)
    if not is_weapon(s, a.weapon):
        out.append(violation("GYM-1", "v.not_a_weapon", card=a.weapon))
    out += hand_card_problems(s, p, [as_played(a.weapon)])


@applier("brawl")
def apply_brawl(s: GameState, a: Brawl, ctx: Ctx) -> None:
    """GYM-1: every other player here, in turn, discards a Weapon or takes a Beating; then rolls."""
    discard_cards(s, ctx, a.player, [as_played(a.weapon)], "brawl")
    place = s.players[a.player].place
    n = len(s.players)
    others = sorted(
        (q.seat for q in s.players if q.place == place and q.seat != a.player), key=lambda seat: (seat - a.player) % n
    )
    ctx.emit(ev.Brawl(player=a.player, place=place, players=tuple(others)))
    s.agenda[0:0] = [{"do": "brawl_ask", "seat": seat} for seat in others] + [{"do": "brawl_rolls", "seats": []}]


@task("brawl_ask")
def brawl_ask(s: GameState, item: dict[str, Any], ctx: Ctx) -> None:
    s.pending = Pending("brawl_response", item["seat"], ["weapon", "beating"])


@checker("brawl_response")
def check_brawl_response(s: GameState, a: BrawlResponse, out: list[Violation]) -> None:
    if a.discard is None:
        return
    if not is_weapon(s, a.discard):
        out.append(violation("GYM-1", "v.not_a_weapon", card=a.discard))
    out += hand_card_problems(s, s.players[a.player], [as_played(a.discard)])


@applier("brawl_response")
def apply_brawl_response(s: GameState, a: BrawlResponse, ctx: Ctx) -> None:
    s.pending = None
    if a.discard is None:
        add_beatings(s, ctx, a.player, 1, "brawl")
        return
    discard_cards(s, ctx, a.player, [as_played(a.discard)], "brawl")
    rolls = next(t for t in s.agenda if t["do"] == "brawl_rolls")
    rolls["seats"].append(a.player)


@task("brawl_rolls")
def brawl_rolls(s: GameState, item: dict[str, Any], ctx: Ctx) -> None:
    for seat in item["seats"]:
        if ctx.roll(seat, "brawl") <= BRAWL_SOLITARY_AT_MOST:
            place_standee(s, ctx, seat, s.board.solitary, "brawl")


@checker("exchange", price=1)
def check_exchange(s: GameState, a: Exchange, out: list[Violation]) -> None:
    p = s.players[a.player]
    if not s.team_mode:
        out.append(hard("TEAM-4", "v.no_team_mode"))
        return
    if not valid_seat(s, a.to, out, "TEAM-4"):
        return
    mate = s.players[a.to]
    if mate.seat == p.seat or mate.team != p.team:
        out.append(violation("TEAM-4", "v.not_teammate", target=mate.name))
    elif mate.place != p.place:
        out.append(violation("TEAM-4", "v.target_not_here", target=mate.name, place=p.place))
    if not a.cards and not a.cigarettes:
        out.append(violation("TEAM-4", "v.exchange_nothing"))
    if a.cigarettes > p.cigarettes:
        out.append(hard("TEAM-4", "v.not_enough_cigarettes", price=a.cigarettes, have=p.cigarettes, item="exchange"))
    out += hand_card_problems(s, p, a.cards or ())


@applier("exchange")
def apply_exchange(s: GameState, a: Exchange, ctx: Ctx) -> None:
    for card in a.cards or ():
        move_card(s, ctx, a.player, a.to, card, "exchange")
    if a.cigarettes:
        gain_cigarettes(s, ctx, a.player, -a.cigarettes, "exchange")
        gain_cigarettes(s, ctx, a.to, a.cigarettes, "exchange")
