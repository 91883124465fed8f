"""What one candidate action still needs from the table, beyond the fields `check` judges.

A candidate names its destination, Tool, target, bet...; the table may still have to say which
cards it drew, which Accessories it discards, which die faces came up, or which card fills a
recipe slot. The engine answers those questions here, from the same rules that judge the
action, so an app renders the answers and types none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import actions as A
from .engine import check
from .handlers.basic import craft_materials, search_count
from .handlers.gangs import accessories_required
from .handlers.movement import destinations_for
from .handlers.neutrals import neutral_options
from .handlers.places import buy_price
from .state import GameState, Player

NO_ACTIONS_LEFT = "v.no_actions_left"
WEAPON_SEARCH_CARD = "blade"  # the Weapon a card nobody entered may be (the Search deck's only one)


@dataclass(frozen=True)
class Inputs:
    """The free inputs of one candidate: none of them is a field `check` can list candidates for."""

    cost: int  # actions of the turn it takes (0: a free action)
    draws: int = 0  # Search cards the table may enter as drawn (a Search, a drawing Action card)
    accessories: tuple[str, ...] = ()  # the Accessories a Gang takes (Join Gang, Change style)
    accessory_count: int = 0  # how many of them are discarded
    # With a substituting ability (the Triad), each recipe slot and the held cards that may fill it.
    materials: tuple[tuple[str, tuple[str, ...]], ...] = ()
    hand_cards: tuple[int, int] | None = None  # (fewest, most) cards of the hand it sells, gives or trades
    printed_total: int | None = None  # the sale total the table reads off the cards (default), else None
    cigarettes: int = 0  # at most this many cigarettes may go with it (an Exchange)
    discard: int = 0  # cards to discard (ending a turn over the hand limit)
    weapons: tuple[tuple[str, int], ...] = ()  # each Weapon it may lay, and the most copies the hand holds
    price: int | None = None  # the cigarettes a Buy costs now (a Background's discount taken off)


def weapon_types(s: GameState, p: Player) -> list[str]:
    """The Weapons a player may lay: those entered, and a Blade when a card nobody entered may be one."""
    known = [c for c in sorted(p.hand.known) if c in s.catalog.weapons]
    if p.hand.unknown and WEAPON_SEARCH_CARD not in known:
        known.append(WEAPON_SEARCH_CARD)
    return known


def action_cost(s: GameState, a: A.Action) -> int:
    """The actions of the turn `a` takes: the price its own check asks of a turn with none left.

    The check charges the price (the one its type declares, a Cautious move's two), so asking it
    is the one way the answer cannot drift from the rule. The state is restored before returning.
    """
    left = s.actions_left
    s.actions_left = 0
    try:
        found = check(s, a)
    finally:
        s.actions_left = left
    return max((int(v.params.get("cost", 1)) for v in found if v.key == NO_ACTIONS_LEFT), default=0)


def action_inputs(s: GameState, a: A.Action) -> Inputs:
    """Everything the table may still enter for `a`, with the values the rules allow."""
    p = s.players[a.player]
    cost = action_cost(s, a)
    if isinstance(a, A.Search):
        return Inputs(cost, draws=search_count(s, p))
    if isinstance(a, A.PlayAction):
        info = s.catalog.action_cards.get(a.card, {})
        return Inputs(cost, draws=int(info["count"]) if info.get("effect") == "draw" else 0)
    if isinstance(a, A.JoinGang | A.ChangeStyle):
        gang = s.catalog.gangs[a.gang]
        return Inputs(
            cost,
            accessories=tuple(sorted(gang.accessories)),
            accessory_count=accessories_required(s.catalog, a.TYPE, a.gang),
        )
    if isinstance(a, A.Craft) and s.catalog.substitutes.get(p.ability or ""):
        subs = s.catalog.substitutes[p.ability or ""]
        slots = craft_materials(s, p, s.catalog.recipes[a.recipe], a.bandage)
        return Inputs(
            cost,
            materials=tuple(
                (slot, (slot, *sorted(c for c in subs.get(slot, ()) if p.hand.count(c)))) for slot in slots
            ),
        )
    if isinstance(a, A.Buy):
        return Inputs(cost, price=buy_price(s, a.item) if a.item in s.ruleset.buy else None)
    if isinstance(a, A.Sell):
        return Inputs(cost, hand_cards=(1, p.hand.size()), printed_total=a.cigarettes)
    if isinstance(a, A.GangAbility):
        if a.ability == "equivalent_exchange":  # GA: 1 to the ability's value of cards, traded for as many
            return Inputs(cost, hand_cards=(1, s.catalog.ability_values[a.ability]))
        return Inputs(cost, printed_total=a.cigarettes)
    if isinstance(a, A.Exchange):
        return Inputs(cost, hand_cards=(0, p.hand.size()), cigarettes=p.cigarettes)
    if isinstance(a, A.EndTurn):
        return Inputs(cost, discard=max(0, p.hand.size() - s.hand_limit(p)))
    if isinstance(a, A.Extort):
        return Inputs(
            cost,
            weapons=tuple(
                (w, p.hand.count(w) + (p.hand.unknown if w == WEAPON_SEARCH_CARD else 0)) for w in weapon_types(s, p)
            ),
        )
    return Inputs(cost)


def die_destinations(s: GameState, seat: int) -> dict[int, tuple[str, ...]]:
    """A Simple move: each face of the die and the Places it lets the player reach."""
    return {face: destinations_for(s, seat, face) for face in sorted(s.board.faces)}


def neutral_destinations(s: GameState, neutral: str) -> dict[int, tuple[str, ...]]:
    """A neutral's move after a turn: each face of the die and the Places it may lead the neutral to."""
    return {face: neutral_options(s, neutral, face) for face in sorted(s.board.faces)}
