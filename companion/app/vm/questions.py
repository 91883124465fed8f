"""The questions a composer asks: their shape (`StepVM`, `ChoiceVM`), and the free inputs no
candidate list can hold (drawn cards, sale totals, Accessories, Weapons, recipe slots, dice),
each asked exactly as the engine states it needs them (`action_inputs`, `preview`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
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


def input_steps(c: Composer) -> list[StepVM]:
    """Inputs the candidates cannot list: drawn cards, sale totals, accessories, dice."""
    s, tr, kind = c.state, c.tr, c.kind
    p = s.players[c.seat]
    rest = c.remaining
    chosen: Any = rest[0] if rest else None  # its fields depend on its type: read by name
    steps: list[StepVM] = []
    needs = c.inputs(chosen) if chosen is not None else None
    if kind == "search" and needs is not None:
        n = needs.draws
        if n:
            steps.append(
                StepVM(
                    "cards",
                    "many",
                    tr("ui.ask_drawn_cards", count=n),
                    search_card_choices(c),
                    0,
                    n,
                    (),
                    optional=True,
                )
            )
    elif kind == "sell" and needs is not None and needs.hand_cards is not None:
        fewest, most = needs.hand_cards
        steps.append(StepVM("cards", "many", tr("ui.ask_sell_cards"), hand_choices(tr, p), fewest, most))
        if needs.printed_total is not None:
            steps.append(
                StepVM("cigarettes", "number", tr("ui.ask_printed_total"), low=0, high=99, default=needs.printed_total)
            )
    elif kind in ("join_gang", "change_style") and chosen is not None and needs is not None:
        required = needs.accessory_count
        prompt = tr("ui.ask_accessories", count=required, gang=tr.name("gang", chosen.gang))
        steps.append(
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
        )
        pile = s.gang_piles.get(chosen.gang, [])
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
    elif kind == "rehabilitate" and chosen is not None:
        steps.append(StepVM("card", "one", c.prompt("card"), background_choices(c), optional=True))
    elif kind == "extort" and chosen is not None and needs is not None:
        need = len(chosen.weapons)
        if len(needs.weapons) > 1:
            steps.append(
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
            )
    elif kind == "craft" and needs is not None:
        steps += material_steps(c, p, needs)
    elif kind == "end_turn" and needs is not None:
        over = needs.discard
        if over > 0:
            steps.append(
                StepVM(
                    "discard",
                    "many",
                    tr("ui.ask_discard", count=over),
                    hand_choices(tr, p),
                    over,
                    over,
                    exact=over,
                )
            )
    elif kind == "exchange" and needs is not None and needs.hand_cards is not None:
        fewest, most = needs.hand_cards
        steps.append(
            StepVM("cards", "many", tr("ui.ask_give_cards"), hand_choices(tr, p), fewest, most, (), optional=True)
        )
        if needs.cigarettes:
            steps.append(
                StepVM("cigarettes", "number", tr("ui.ask_give_cigarettes"), low=0, high=needs.cigarettes, default=0)
            )
    elif kind == "gang_ability" and needs is not None:
        if needs.hand_cards is not None:
            fewest, most = needs.hand_cards
            steps.append(
                StepVM("cards", "many", tr("ui.ask_exchange_cards", count=most), hand_choices(tr, p), fewest, most)
            )
        if needs.printed_total is not None:
            steps.append(
                StepVM("cigarettes", "number", tr("ui.ask_printed_total"), low=0, high=99, default=needs.printed_total)
            )
    elif kind == "play_action" and needs is not None and needs.draws:
        steps.append(
            StepVM(
                "cards",
                "many",
                tr("ui.ask_drawn_cards", count=needs.draws),
                search_card_choices(c),
                0,
                needs.draws,
                (),
                optional=True,
            )
        )
    if c.physical_dice:
        dice = c.dice_needed(chosen)
        if dice:
            faces = sorted(s.board.faces)
            steps.append(StepVM("die", "die", tr("ui.ask_die", count=dice), low=faces[0], high=faces[-1], exact=dice))
    return steps


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
