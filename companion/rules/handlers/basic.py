"""Basic actions with cards: Search (SRCH-1) and Craft (CRAFT-1, BEAT-2, Triad, LAUN-2)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations

from .. import events as ev
from ..actions import Craft, Search
from ..catalog import Recipe
from ..core import Ctx, applier, checker, hand_card_problems, hard, unaccounted, violation
from ..errors import Violation
from ..ops import discard_cards, draw_search, return_token, take_from_pile
from ..state import GameState, Player
from .common import after_solitary, restricted


def search_count(s: GameState, p: Player) -> int:
    """SRCH-1 with Successful Search (+1) and the '-1' Trauma (PSY-3)."""
    n = s.board.search[p.place]
    if p.ability == "successful_search":
        n += s.catalog.ability_values["successful_search"]
    if p.trauma == "search_minus_one":
        n -= 1
    return max(0, n)


def check_entered_cards(s: GameState, cards: Iterable[str], out: list[Violation], rule: str) -> None:
    """Cards a player says they drew must be Search cards that may still be unseen (SUP-1)."""
    counts: dict[str, int] = {}
    for card in cards:
        if card == "unknown":
            continue
        if not s.catalog.is_search_card(card):
            out.append(hard(rule, "v.not_a_search_card", card=card))
            return
        counts[card] = counts.get(card, 0) + 1
    for card, n in counts.items():
        if unaccounted(s, card) < n:
            out.append(hard("SUP-1", "v.all_copies_seen", card=card))
            return


@checker("search", price=1)
def check_search(s: GameState, a: Search, out: list[Violation]) -> None:
    p = s.players[a.player]
    if s.flags.searched:
        out.append(violation("SRCH-1", "v.search_once"))
    restricted(s, p, "search", out, "SRCH-1")
    count = search_count(s, p)
    if a.from_discard:
        if p.ability != "recycling":
            out.append(violation("GA", "v.needs_ability", ability="recycling"))
        elif a.from_discard > min(count, len(s.discard)):
            out.append(hard("GA", "v.recycling_too_many", count=min(count, len(s.discard))))
    if a.cards is not None:
        if len(a.cards) > count - min(a.from_discard, count):
            out.append(hard("SRCH-1", "v.too_many_drawn", count=count, place=p.place))
        check_entered_cards(s, a.cards, out, "SRCH-1")


@applier("search")
def apply_search(s: GameState, a: Search, ctx: Ctx) -> None:
    p = s.players[a.player]
    s.flags.searched = True
    draw_search(s, ctx, a.player, search_count(s, p), a.cards or (), a.from_discard)


def craft_allowed_here(s: GameState, p: Player, recipe: Recipe, out: list[Violation]) -> None:
    """CRAFT-1 and the exceptions that lift it in a Cell Block (I Never Liked Rules; in Team mode
    the other team's, TEAM-6).

    An exception lifts the Place's rule, not SOL-1: from rules version 3 a turn begun in Solitary
    Confinement crafts there no more than anywhere else (version 2 and before let the exception
    pass it by, and their games replay so).
    """
    info = s.board.places[p.place]
    if info.role == "cell_block":
        if recipe.product in s.flags.cell_block_crafts or s.team_mode and info.team != p.team:
            if s.rules_version >= 3:
                after_solitary(s, p, "craft", out)
            return
        if s.team_mode:
            out.append(violation("TEAM-6", "v.no_craft_own_cell_block", place=p.place))
            return
    restricted(s, p, "craft", out, "CRAFT-1")


def craft_materials(s: GameState, p: Player, recipe: Recipe, bandages: int) -> list[str]:
    """The slots a craft must fill once Bandage tokens have replaced Links (LAUN-2)."""
    slots = list(recipe.materials)
    for _ in range(bandages):
        if "links" in slots:
            slots.remove("links")
    return slots


def fits(s: GameState, p: Player, slots: list[str], cards: list[str]) -> bool:
    """Can these cards fill these recipe slots, with the player's Triad substitutions?"""
    if len(slots) != len(cards):
        return False
    subs: dict[str, frozenset[str]] = {}
    if p.ability is not None and p.ability in s.catalog.substitutes:
        subs = dict(s.catalog.substitutes[p.ability])
    for order in permutations(cards):
        if all(c == m or c == "unknown" or c in subs.get(m, ()) for c, m in zip(order, slots, strict=True)):
            return True
    return False


@checker("craft", price=1)
def check_craft(s: GameState, a: Craft, out: list[Violation]) -> None:
    p = s.players[a.player]
    recipe = s.catalog.recipes[a.recipe]
    if s.ruleset.craft_once_per_turn and s.flags.crafted:
        out.append(violation("VAR-2", "v.craft_once"))
    craft_allowed_here(s, p, recipe, out)
    if p.beatings >= 1:
        out.append(violation("BEAT-2", "v.beaten_no_craft", beatings=p.beatings))
    if recipe.ability is not None and p.ability != recipe.ability:
        out.append(violation("GA", "v.recipe_needs_ability", recipe=a.recipe, ability=recipe.ability))
    if a.bandage:
        if p.tokens.get("bandage", 0) < a.bandage:
            out.append(hard("LAUN-2", "v.no_token", token="bandage"))
        elif a.bandage > recipe.materials.count("links"):
            out.append(violation("LAUN-2", "v.bandage_only_links", count=recipe.materials.count("links")))
    slots = craft_materials(s, p, recipe, a.bandage)
    cards = list(a.cards) if a.cards is not None else slots
    if not fits(s, p, slots, cards):
        out.append(violation("CRAFT-1", "v.recipe_materials", recipe=a.recipe, materials=slots))
    out += hand_card_problems(s, p, cards)
    if s.piles[recipe.product] <= 0:
        out.append(hard("SUP-2", "v.pile_empty", card=recipe.product))


@applier("craft")
def apply_craft(s: GameState, a: Craft, ctx: Ctx) -> None:
    p = s.players[a.player]
    recipe = s.catalog.recipes[a.recipe]
    s.flags.crafted = True
    for _ in range(min(a.bandage, p.tokens.get("bandage", 0))):
        return_token(s, ctx, a.player, "bandage", "craft")
    slots = craft_materials(s, p, recipe, a.bandage)
    discard_cards(s, ctx, a.player, list(a.cards) if a.cards is not None else slots, "craft")
    take_from_pile(s, ctx, a.player, recipe.product, recipe.count, "craft")
    ctx.emit(ev.Craft(player=a.player, recipe=a.recipe))
