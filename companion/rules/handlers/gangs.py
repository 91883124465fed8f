"""Gangs: joining one (GANG-1/2, LAUN-1) and the abilities used as an action (GA)."""

from __future__ import annotations

from .. import events as ev
from ..actions import ChangeStyle, GangAbility, JoinGang
from ..catalog import Catalog
from ..core import Ctx, applier, checker, hand_card_problems, hard, violation
from ..errors import Violation
from ..ops import discard_cards, draw_search, gain_cigarettes, leave_gang, place_standee
from ..state import GameState
from .basic import check_entered_cards
from .common import checked, place_action, restricted, trauma_forbids
from .movement import check_destination
from .places import sale_value

# LAUN-1: Changing style in the Laundry takes one Accessory fewer than joining (never none).
FEWER_ACCESSORIES = {"join_gang": 0, "change_style": 1}


def accessories_required(cat: Catalog, kind: str, gang_id: str) -> int:
    """How many of the Gang's Accessories joining it (`join_gang`) or changing style to it takes."""
    return max(1, cat.gangs[gang_id].required - FEWER_ACCESSORIES[kind])


def check_join(s: GameState, a: JoinGang | ChangeStyle, out: list[Violation]) -> None:
    p = s.players[a.player]
    gang = s.catalog.gangs[a.gang]
    restricted(s, p, "join_gang", out, "GANG-1")
    trauma_forbids(p, "no_join_gang", out)
    pile = s.gang_piles[a.gang]
    if not pile:
        out.append(hard("GANG-2", "v.gang_pile_empty", gang=a.gang))
    elif a.card is not None and a.card not in pile:
        out.append(hard("SUP-3", "v.not_in_gang_pile", ability=a.card, gang=a.gang))
    required = accessories_required(s.catalog, a.TYPE, a.gang)
    wrong = [c for c in a.cards if c not in gang.accessories]
    if wrong:
        out.append(
            violation("GANG-1", "v.gang_wrong_accessory", card=wrong[0], gang=a.gang, cards=sorted(gang.accessories))
        )
    elif len(set(a.cards)) != len(a.cards):
        out.append(violation("GANG-1", "v.gang_duplicate_accessory"))
    elif len(a.cards) != required:
        out.append(violation("GANG-1", "v.gang_accessory_count", gang=a.gang, count=required))
    out += hand_card_problems(s, p, a.cards)


def see_top(pile: list[str], card: str) -> None:
    """The table named the card it took: that is the face-up top card it saw (GANG-1, SUP-3).

    The app shuffled its copy of the pile itself and the box's pile was shuffled by hand, so
    below the top the app's order is a guess; the physical pile wins and the app's order is
    corrected (the named card goes on top, the others keep their order).
    """
    pile.remove(card)
    pile.insert(0, card)


def apply_join(s: GameState, a: JoinGang | ChangeStyle, ctx: Ctx) -> None:
    p = s.players[a.player]
    discard_cards(s, ctx, a.player, a.cards, "join_gang")
    leave_gang(s, ctx, a.player, "join_gang")
    pile = s.gang_piles[a.gang]
    if a.card is not None:
        see_top(pile, a.card)
        card = pile.pop(0)
    else:
        card = ctx.take(a.gang, pile)
    p.gang, p.ability = a.gang, card
    ctx.emit(ev.JoinGang(player=a.player, gang=a.gang, ability=card))


@checker("join_gang", price=1)
def check_join_gang(s: GameState, a: JoinGang, out: list[Violation]) -> None:
    check_join(s, a, out)


@checker("change_style", price=1)
def check_change_style(s: GameState, a: ChangeStyle, out: list[Violation]) -> None:
    place_action(s, s.players[a.player], "change_style", "LAUN-1", out)
    check_join(s, a, out)


applier("join_gang", "change_style")(apply_join)


@checker("gang_ability", price=1)
def check_gang_ability(s: GameState, a: GangAbility, out: list[Violation]) -> None:
    p = s.players[a.player]
    if p.ability != a.ability:
        out.append(hard("GA", "v.needs_ability", ability=a.ability))
        return
    if a.ability not in s.catalog.abilities_as_action:
        out.append(hard("TURN-2", "v.ability_passive", ability=a.ability))
        return
    value = s.catalog.ability_values.get(a.ability, 0)
    if a.ability in ("master_key", "not_so_free_pass"):
        if a.to is None:
            out.append(hard("GA", "v.destination_needed"))
        elif (
            check_destination(s, a.player, a.to, out, "GA")
            and a.ability == "master_key"
            and a.to not in s.board.adjacent[p.place]
        ):
            out.append(violation("ADJ-1", "v.not_adjacent", place=p.place, to=a.to))
        if a.ability == "not_so_free_pass" and p.cigarettes < value:
            out.append(hard("GA", "v.not_enough_cigarettes", price=value, have=p.cigarettes, item="not_so_free_pass"))
    elif a.ability == "group_deal":
        if a.cards is not None:
            if len(a.cards) > value:
                out.append(hard("GA", "v.too_many_drawn", count=value, place=p.place))
            check_entered_cards(s, a.cards, out, "GA")
        if s.ruleset.sell is None and a.cigarettes is None:
            out.append(hard("GA", "v.sell_total_needed"))
    elif a.ability == "equivalent_exchange":
        cards = a.cards or ()
        if not 1 <= len(cards) <= value:
            out.append(violation("GA", "v.exchange_count", count=value))
        out += hand_card_problems(s, p, cards)


@applier("gang_ability")
def apply_gang_ability(s: GameState, a: GangAbility, ctx: Ctx) -> None:
    p = s.players[a.player]
    value = s.catalog.ability_values.get(a.ability, 0)
    ctx.emit(ev.Ability(player=a.player, ability=a.ability))
    if a.ability == "master_key":
        place_standee(s, ctx, a.player, checked(a.to), "master_key")
    elif a.ability == "not_so_free_pass":
        gain_cigarettes(s, ctx, a.player, -value, "not_so_free_pass")
        place_standee(s, ctx, a.player, checked(a.to), "not_so_free_pass")
    elif a.ability == "group_deal":
        drawn = draw_search(s, ctx, a.player, value, a.cards or (), why="group_deal")
        discard_cards(s, ctx, a.player, drawn, "group_deal")
        gain_cigarettes(s, ctx, a.player, sale_value(s, p, drawn, a.cigarettes), "group_deal")
    elif a.ability == "equivalent_exchange":
        cards = a.cards or ()
        discard_cards(s, ctx, a.player, cards, "equivalent_exchange")
        draw_search(s, ctx, a.player, len(cards), why="equivalent_exchange")
