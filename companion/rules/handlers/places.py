"""Place actions: Dig, Steal a Spoon, Sell, Buy, Heal (DIG-1, SPOON-1, SELL-1, BUY-1, HEAL-1)."""

from __future__ import annotations

from collections.abc import Sequence

from .. import events as ev
from ..actions import Buy, Dig, Heal, Sell, StealSpoon
from ..core import Ctx, applier, checker, hand_card_problems, hard, violation
from ..errors import Violation
from ..ops import (
    check_win,
    discard_cards,
    discard_trauma,
    gain_cigarettes,
    remove_beatings,
    return_token,
    take_from_pile,
)
from ..state import GameState, Player
from .common import place_action, trauma_forbids


def pile_has(s: GameState, card: str, n: int, out: list[Violation]) -> None:
    """SUP-2: nothing can be taken from an empty pile."""
    if s.piles[card] < n:
        out.append(hard("SUP-2", "v.pile_short", card=card, count=n, left=s.piles[card]))


@checker("dig", price=1)
def check_dig(s: GameState, a: Dig, out: list[Violation]) -> None:
    p = s.players[a.player]
    if place_action(s, p, "dig", "DIG-1", out) and s.team_mode and s.board.places[p.place].team != p.team:
        out.append(violation("TEAM-6", "v.dig_own_cell_block", place=p.place))
    if p.beatings >= 2:
        out.append(violation("BEAT-2", "v.beaten_no_dig", beatings=p.beatings))
    out += hand_card_problems(s, p, [a.tool])
    if a.die and not p.tokens.get("skill"):
        out.append(violation("WORK-3", "v.no_skill_roll"))


@applier("dig")
def apply_dig(s: GameState, a: Dig, ctx: Ctx) -> None:
    p = s.players[a.player]
    p.hand.remove(a.tool)
    p.dug.append(a.tool)
    points = s.catalog.tools[a.tool]
    p.tunnel += points
    ctx.emit(ev.Dig(player=a.player, tool=a.tool, points=points, tunnel=p.tunnel))
    if p.tokens.get("skill", 0) > 0:  # WORK-3: the next Dig while holding a Skill token
        if ctx.roll(a.player, "skill") >= 4:
            p.tokens["skill"] -= 1
            if not p.tokens["skill"]:
                del p.tokens["skill"]
            p.skills_on_tools += 1
            p.tunnel += 1
            ctx.emit(ev.Skill(player=a.player, points=1, tunnel=p.tunnel))
        else:
            return_token(s, ctx, a.player, "skill", "skill_failed")
    check_win(s, ctx)


@checker("steal_spoon", price=1)
def check_steal_spoon(s: GameState, a: StealSpoon, out: list[Violation]) -> None:
    p = s.players[a.player]
    place_action(s, p, "steal_spoon", "SPOON-1", out)
    pile_has(s, "spoon", 1, out)


@applier("steal_spoon")
def apply_steal_spoon(s: GameState, a: StealSpoon, ctx: Ctx) -> None:
    take_from_pile(s, ctx, a.player, "spoon", 1, "steal_spoon")


def sale_value(s: GameState, p: Player, cards: Sequence[str], printed: int | None) -> int:
    """Cigarettes for a sale: the printed total (official) or the preset's table (VAR-2), plus Negotiation."""
    table = s.ruleset.sell
    base = printed if printed is not None or table is None else sum(table.get(c, table["other"]) for c in cards)
    bonus = s.catalog.ability_values["negotiation"] if p.ability == "negotiation" else 0
    return (base or 0) + bonus * len(cards)


@checker("sell", price=1)
def check_sell(s: GameState, a: Sell, out: list[Violation]) -> None:
    p = s.players[a.player]
    place_action(s, p, "sell", "SELL-1", out)
    if not a.cards:
        out.append(violation("SELL-1", "v.sell_nothing"))
    table = s.ruleset.sell
    if table is None and a.cigarettes is None:
        out.append(hard("SELL-1", "v.sell_total_needed"))
    elif table is not None and a.cigarettes is not None:
        fixed = sum(table.get(c, table["other"]) for c in a.cards)
        if a.cigarettes != fixed:
            out.append(violation("VAR-2", "v.sell_fixed_price", total=fixed))
    out += hand_card_problems(s, p, a.cards)


@applier("sell")
def apply_sell(s: GameState, a: Sell, ctx: Ctx) -> None:
    p = s.players[a.player]
    discard_cards(s, ctx, a.player, a.cards, "sell")
    gain_cigarettes(s, ctx, a.player, sale_value(s, p, a.cards, a.cigarettes), "sell")


def buy_price(s: GameState, item: str) -> int:
    return max(0, s.ruleset.buy[item].price - s.flags.buy_discount)


def buys_anywhere(s: GameState, p: Player) -> bool:
    """I Know a Guy lets the player buy away from the Place that sells, but not from a cell or Solitary."""
    return s.flags.buy_anywhere and s.board.places[p.place].role not in ("cell_block", "solitary")


@checker("buy", price=1)
def check_buy(s: GameState, a: Buy, out: list[Violation]) -> None:
    p = s.players[a.player]
    if not buys_anywhere(s, p):
        place_action(s, p, "buy", "BUY-1", out)
    trauma_forbids(p, "no_buy", out)
    offer = s.ruleset.buy.get(a.item)
    if offer is None:
        out.append(hard("BUY-1", "v.unknown_item", item=a.item, items=list(s.ruleset.buy)))
        return
    price = buy_price(s, a.item)
    if p.cigarettes < price:
        out.append(hard("BUY-1", "v.not_enough_cigarettes", price=price, have=p.cigarettes, item=a.item))
    pile_has(s, offer.card, offer.count, out)


@applier("buy")
def apply_buy(s: GameState, a: Buy, ctx: Ctx) -> None:
    offer = s.ruleset.buy[a.item]
    gain_cigarettes(s, ctx, a.player, -buy_price(s, a.item), "buy")
    take_from_pile(s, ctx, a.player, offer.card, offer.count, "buy")


@checker("heal", price=1)
def check_heal(s: GameState, a: Heal, out: list[Violation]) -> None:
    p = s.players[a.player]
    if a.bandage:
        if p.tokens.get("bandage", 0) < 1:
            out.append(hard("LAUN-2", "v.no_token", token="bandage"))
    else:
        place_action(s, p, "heal", "HEAL-1", out)
    if a.trauma:
        if p.trauma is None:
            out.append(hard("PSY-2", "v.no_trauma"))
    elif p.beatings == 0:
        out.append(hard("HEAL-1", "v.nothing_to_heal"))


@applier("heal")
def apply_heal(s: GameState, a: Heal, ctx: Ctx) -> None:
    if a.bandage:
        return_token(s, ctx, a.player, "bandage", "heal")
    if a.trauma:
        discard_trauma(s, ctx, a.player, "heal")
    else:
        remove_beatings(s, ctx, a.player, 1, "heal")
