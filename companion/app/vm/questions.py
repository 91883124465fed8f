"""The questions a composer asks: their shape (`StepVM`, `ChoiceVM`), and the free inputs no
candidate list can hold (drawn cards, sale totals, Accessories, Weapons, recipe slots, dice),
each asked exactly as the engine states it needs them (`action_inputs`, `preview`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.rules import Action, GameState, Inputs, check, parse_action

from .reasons import ReasonVM, reasons
from .text import Tr


class Composer(Protocol):
    """What the questions read of the action being composed (composer.py is the one)."""

    state: GameState
    seat: int
    kind: str
    tr: Tr
    physical_dice: bool
    answers: dict[str, Any]

    @property
    def remaining(self) -> list[Action]: ...

    def inputs(self, chosen: Action) -> Inputs: ...

    def dice_needed(self, chosen: Action | None) -> int: ...

    def prompt(self, name: str) -> str: ...


@dataclass
class ChoiceVM:
    value: Any
    label: str
    enabled: bool = True
    reasons: list[ReasonVM] = field(default_factory=list)
    detail: str = ""
    limit: int | None = None  # "many" steps: at most this many copies of this card


@dataclass
class StepVM:
    """One question: pick one of `choices` ("one"), several cards ("many"), a number, or a die face."""

    field: str
    kind: str  # "one", "many", "number", "die"
    prompt: str
    choices: list[ChoiceVM] = dataclasses.field(default_factory=list)  # `field` here is the attribute above
    low: int = 0
    high: int = 0
    default: Any = None
    optional: bool = False
    exact: int | None = None  # "many": exactly this many
    quick: tuple[int, ...] = ()  # "number": the values offered as one tap each (any other is typed)
    then: StepVM | None = None  # "many": the number asked right after, answered with it (a sale's total)


QUICK_NUMBERS = 6  # one-tap values of a number step: a printed total of 1 to 6, say; any other is typed


def input_steps(c: Composer) -> list[StepVM]:
    """Inputs the candidates cannot list: drawn cards, sale totals, accessories, dice."""
    rest = c.remaining
    chosen: Any = rest[0] if rest else None  # its fields depend on its type: read by name
    needs = c.inputs(chosen) if chosen is not None else None
    asks = _ASKS.get(c.kind)
    steps = asks(c, chosen, needs) if asks is not None else []
    if c.physical_dice:
        dice = c.dice_needed(chosen)
        if dice:
            faces = sorted(c.state.board.faces)
            steps.append(StepVM("die", "die", c.tr("ui.ask_die", count=dice), low=faces[0], high=faces[-1], exact=dice))
    return joined(steps)


def joined(steps: list[StepVM]) -> list[StepVM]:
    """Cards followed by a number (a sale and its printed total) are asked on one panel: the
    cards step carries the number (`then`), so one tap on a total records both."""
    out = list(steps)
    for i in range(len(out) - 1):
        if out[i].kind == "many" and out[i + 1].kind == "number":
            out[i] = dataclasses.replace(out[i], then=out[i + 1])
    return out


def quick_numbers(low: int, high: int, first: int | None = None) -> tuple[int, ...]:
    """The few values a number step offers as one tap each, from `first` (default `low`)."""
    start = low if first is None else max(low, first)
    return tuple(range(start, min(high, start + QUICK_NUMBERS - 1) + 1))


# The free inputs of each kind of action: (the composer, the candidate chosen or None, its inputs
# or None) to the steps that ask them, before the dice any kind may ask.
Asks = Callable[[Composer, Any, Inputs | None], list[StepVM]]


def _drawn_steps(c: Composer, chosen: Any, needs: Inputs | None) -> list[StepVM]:
    """Search, an Action card that draws: the cards drawn, which the table may leave unentered."""
    if needs is None or not needs.draws:
        return []
    n = needs.draws
    return [
        StepVM("cards", "many", c.tr("ui.ask_drawn_cards", count=n), search_card_choices(c), 0, n, (), optional=True)
    ]


def _printed_total(tr: Tr, needs: Inputs) -> list[StepVM]:
    """The cigarettes printed on the cards given up, when the engine needs their total."""
    if needs.printed_total is None:
        return []
    return [
        StepVM(
            "cigarettes",
            "number",
            tr("ui.ask_printed_total"),
            low=0,
            high=99,
            default=needs.printed_total,
            quick=quick_numbers(0, 99, first=1),
        )
    ]


def _sell_steps(c: Composer, chosen: Any, needs: Inputs | None) -> list[StepVM]:
    if needs is None or needs.hand_cards is None:
        return []
    fewest, most = needs.hand_cards
    p = c.state.players[c.seat]
    offered = tuple(chosen.cards) if chosen is not None else ()  # the engine's one candidate: already chosen
    steps = [StepVM("cards", "many", c.tr("ui.ask_sell_cards"), hand_choices(c.tr, p), fewest, most, offered)]
    return steps + _printed_total(c.tr, needs)


def _gang_steps(c: Composer, chosen: Any, needs: Inputs | None) -> list[StepVM]:
    """Joining a Gang or changing style: the Accessories given, then the Gang card taken."""
    if chosen is None or needs is None:
        return []
    tr, p = c.tr, c.state.players[c.seat]
    required = needs.accessory_count
    prompt = tr("ui.ask_accessories", count=required, gang=tr.name("gang", chosen.gang))
    steps = [
        StepVM(
            "cards",
            "many",
            prompt,
            accessory_choices(tr, p, needs.accessories),
            required,
            required,
            tuple(chosen.cards),
            exact=required,
        )
    ]
    pile = c.state.gang_piles.get(chosen.gang, [])
    if len(pile) > 1:  # the card taken, named in one step or left unentered
        steps.append(
            StepVM(
                "card",
                "one",
                tr("ui.ask_gang_card"),
                [ChoiceVM(a, tr.name("ability", a)) for a in pile],
                default=pile[0],
                optional=True,
            )
        )
    return steps


def _rehabilitate_steps(c: Composer, chosen: Any, needs: Inputs | None) -> list[StepVM]:
    if chosen is None:
        return []
    return [StepVM("card", "one", c.prompt("card"), background_choices(c), optional=True)]


def _extort_steps(c: Composer, chosen: Any, needs: Inputs | None) -> list[StepVM]:
    """The Weapons laid, when the extorter holds more than one kind."""
    if chosen is None or needs is None or len(needs.weapons) <= 1:
        return []
    tr, p = c.tr, c.state.players[c.seat]
    need = len(chosen.weapons)
    return [
        StepVM(
            "weapons",
            "many",
            tr("ui.ask_weapons", count=need),
            [ChoiceVM(w, card_label(tr, p, w), limit=most) for w, most in needs.weapons],
            need,
            need,
            tuple(chosen.weapons),
            exact=need,
        )
    ]


def _craft_steps(c: Composer, chosen: Any, needs: Inputs | None) -> list[StepVM]:
    if needs is None:
        return []
    return material_steps(c, c.state.players[c.seat], needs)


def _end_turn_steps(c: Composer, chosen: Any, needs: Inputs | None) -> list[StepVM]:
    """The cards over the hand limit, discarded."""
    if needs is None or needs.discard <= 0:
        return []
    over = needs.discard
    hand = hand_choices(c.tr, c.state.players[c.seat])
    return [StepVM("discard", "many", c.tr("ui.ask_discard", count=over), hand, over, over, exact=over)]


def _exchange_steps(c: Composer, chosen: Any, needs: Inputs | None) -> list[StepVM]:
    """Team mode: the cards and cigarettes given to a teammate, none of them required."""
    if needs is None or needs.hand_cards is None:
        return []
    tr, p = c.tr, c.state.players[c.seat]
    fewest, most = needs.hand_cards
    steps = [StepVM("cards", "many", tr("ui.ask_give_cards"), hand_choices(tr, p), fewest, most, (), optional=True)]
    if needs.cigarettes:
        steps.append(
            StepVM(
                "cigarettes",
                "number",
                tr("ui.ask_give_cigarettes"),
                low=0,
                high=needs.cigarettes,
                default=0,
                quick=quick_numbers(0, needs.cigarettes),
            )
        )
    return steps


def _gang_ability_steps(c: Composer, chosen: Any, needs: Inputs | None) -> list[StepVM]:
    """The cards a Gang card exchanges, and their printed total when it pays for them."""
    if needs is None:
        return []
    steps: list[StepVM] = []
    if needs.hand_cards is not None:
        fewest, most = needs.hand_cards
        hand = hand_choices(c.tr, c.state.players[c.seat])
        steps.append(StepVM("cards", "many", c.tr("ui.ask_exchange_cards", count=most), hand, fewest, most))
    return steps + _printed_total(c.tr, needs)


_ASKS: dict[str, Asks] = {
    "search": _drawn_steps,
    "sell": _sell_steps,
    "join_gang": _gang_steps,
    "change_style": _gang_steps,
    "rehabilitate": _rehabilitate_steps,
    "extort": _extort_steps,
    "craft": _craft_steps,
    "end_turn": _end_turn_steps,
    "exchange": _exchange_steps,
    "gang_ability": _gang_ability_steps,
    "play_action": _drawn_steps,
}


def material_steps(c: Composer, p: Any, needs: Inputs) -> list[StepVM]:
    """Triad substitutions: ask which card fills a slot only when the player holds an alternative."""
    steps = []
    for i, (slot, options) in enumerate(needs.materials):
        if len(options) > 1:
            steps.append(
                StepVM(
                    f"material_{i}",
                    "one",
                    c.tr("ui.ask_material", card=c.tr.name("card", slot)),
                    [ChoiceVM(card, card_label(c.tr, p, card)) for card in options],
                    default=slot,
                )
            )
        else:
            c.answers.setdefault(f"material_{i}", slot)
    return steps


def card_label(tr: Tr, p: Any, card: str) -> str:
    """A card's name, marked when the player would use a card nobody entered for it."""
    label = tr.name("card", card)
    if not p.hand.count(card) and p.hand.unknown and card != "unknown":
        return tr("ui.card_from_unknown", card=label)
    return label


def hand_choices(tr: Tr, p: Any) -> list[ChoiceVM]:
    out = [ChoiceVM(c, tr.name("card", c), detail=tr.num(n), limit=n) for c, n in sorted(p.hand.known.items())]
    if p.hand.unknown:
        out.append(ChoiceVM("unknown", tr.name("card", "unknown"), detail=tr.num(p.hand.unknown), limit=p.hand.unknown))
    return out


def accessory_choices(tr: Tr, p: Any, allowed: Iterable[str]) -> list[ChoiceVM]:
    return [
        ChoiceVM(card, card_label(tr, p, card), bool(p.hand.count(card) or p.hand.unknown), limit=1)
        for card in sorted(allowed)
    ]


def background_choices(c: Composer) -> list[ChoiceVM]:
    """The Backgrounds the new card may be: those the engine accepts (none already seen)."""
    out = []
    for card in c.state.catalog.backgrounds:
        refused = check(
            c.state,
            parse_action({"type": "rehabilitate", "player": c.seat, "card": card}, c.state.catalog),
        )
        out.append(ChoiceVM(card, c.tr.name("background", card), not refused, reasons(refused, c.tr)))
    return out


def search_card_choices(c: Composer) -> list[ChoiceVM]:
    cat = c.state.catalog
    return [ChoiceVM(card, c.tr.name("card", card)) for card in cat.card_order if cat.is_search_card(card)]
