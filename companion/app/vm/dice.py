"""Chance from the box: die pads for a table that rolls a real die (one tap records a whole
move), the Michel cards a table that draws the real ones says came up, and the cards it draws
at random from a real hand (`TableChance` says which of these the table does itself).

Each face of the die is shown with the Places it leads to, as the engine answers it (the move
option's `faces`, `neutral_destinations`); a Place tapped records the move with that face and
that destination. A face with one way to go (or a neutral whose destination the table leaves
to chance) is one button.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import (
    UNKNOWN,
    GameState,
    MichelDraw,
    PickAsk,
    Preview,
    neutral_destinations,
    next_michel_draw,
    parse_action,
    preview,
)

from .text import Tr


@dataclass(frozen=True)
class TableChance:
    """What the table takes from the real box instead of the app (the host's settings)."""

    dice: bool = False  # it rolls its die and enters the face
    michel: bool = False  # it draws the Michel cards and says which came up
    cards: bool = False  # it draws the random cards from real hands and says which


@dataclass(frozen=True)
class TargetVM:
    label: str  # the Place's name (or the face's Places, when chance picks among them)
    action: dict[str, Any]  # what the tap records
    ident: str  # for tests: pad-<who>-<face>-<place or "any">


@dataclass(frozen=True)
class FaceVM:
    face: int
    targets: tuple[TargetVM, ...]


@dataclass(frozen=True)
class PadVM:
    who: str  # "move", or the neutral's id
    title: str
    faces: tuple[FaceVM, ...] = field(default_factory=tuple)


def move_pad(state: GameState, seat: int, tr: Tr, table: dict[int, tuple[str, ...]]) -> PadVM:
    """A Simple move: the face the table rolled and the Place the player goes to, in one tap;
    `table` is the engine's die table for the move (each face and its Places)."""
    faces = []
    for face, places in table.items():
        targets = tuple(
            TargetVM(
                tr.name("place", place),
                {"type": "move", "player": seat, "die": [face], "to": place},
                f"pad-move-{face}-{place}",
            )
            for place in places
        )
        faces.append(FaceVM(face, targets))
    return PadVM("move", tr("ui.pad_move"), tuple(faces))


def neutral_pads(state: GameState, seat: int, tr: Tr) -> list[PadVM]:
    """After a turn: which neutral moves, the face, and the destination when it is the table's
    choice, in one tap (with destinations left to chance, the face alone)."""
    chosen = state.ruleset.neutral_destination == "ask"
    pads = []
    for neutral in state.neutral_names:
        name = tr.name("neutral", neutral)
        faces = []
        for face, options in neutral_destinations(state, neutral).items():
            base = {"type": "move_neutral", "player": seat, "neutral": neutral, "die": [face]}
            if chosen or len(options) == 1:
                targets = tuple(
                    TargetVM(tr.name("place", place), dict(base, to=place), f"pad-{neutral}-{face}-{place}")
                    for place in options
                )
            else:
                targets = (
                    TargetVM(
                        tr("ui.pad_by_chance", places=tr.join(tr.name("place", p) for p in options)),
                        base,
                        f"pad-{neutral}-{face}-any",
                    ),
                )
            faces.append(FaceVM(face, targets))
        pads.append(
            PadVM(
                neutral,
                tr("ui.pad_neutral", neutral=name, place=tr.name("place", state.neutrals[neutral])),
                tuple(faces),
            )
        )
    return pads


@dataclass(frozen=True)
class MichelAskVM:
    """Which Michel card the table drew, for an action that draws one more."""

    action: dict[str, Any]
    drawn: tuple[str, ...]  # entered so far
    cards: tuple[tuple[str, str], ...]  # (card kind, name): the deck's kinds, in the catalog's order
    prompt: str
    title: str = ""  # whom the card is for: "Michel extorts Carla: ..."


def dry_run(state: GameState, action: dict[str, Any]) -> Preview | None:
    """The engine's dry run of recording `action` (None when it is malformed: its refusal is the
    engine's to give when it is recorded)."""
    try:
        parsed = parse_action(action, state.catalog)
    except Exception:
        return None
    return preview(state, parsed)


def michel_draws(state: GameState, action: dict[str, Any]) -> int:
    """How many Michel cards recording `action` would draw from the deck beyond those it lists
    (the engine's dry run). A card's face can call for another (no Knife, with a second neutral
    waiting), so a table drawing real cards enters them one at a time, asking again after each."""
    dry = dry_run(state, action)
    return 0 if dry is None else dry.michel_draws


def next_draw(state: GameState, action: dict[str, Any]) -> MichelDraw | None:
    """The engine's word on the next Michel card `action` draws from the deck: the neutral, whom
    it extorts, and the table at that moment (None: malformed, or it draws none)."""
    try:
        parsed = parse_action(action, state.catalog)
    except Exception:
        return None
    return next_michel_draw(state, parsed)


def michel_ask(
    state: GameState, action: dict[str, Any], drawn: list[str], tr: Tr, draw: MichelDraw | None = None
) -> MichelAskVM:
    """The question for the next card: whom the neutral extorts with it (`draw`, the engine's
    `next_michel_draw`), which card it is, and those entered for the action so far."""
    cards = tuple((card, tr.name("michel_card", card)) for card in state.catalog.michel_cards)
    so_far = ", ".join(tr.name("michel_card", card) for card in drawn)
    prompt = tr("ui.michel_ask_next", number=len(drawn) + 1, drawn=so_far) if drawn else ""
    title = (
        tr("ui.michel_ask_for", neutral=draw.neutral, player=state.players[draw.seat].name)
        if draw is not None
        else tr("ui.michel_ask_title")
    )
    return MichelAskVM(action, tuple(drawn), cards, prompt, title)


@dataclass(frozen=True)
class CardAskVM:
    """Which card the table drew at random from a real hand, for an action that takes one more."""

    title: str
    cards: tuple[tuple[str, str], ...]  # (card id, or "unknown" for one never entered; its name)
    prompt: str  # the cards entered so far for this action, if any


def card_ask(state: GameState, ask: PickAsk, drawn: list[str], tr: Tr) -> CardAskVM:
    """The question for `ask` (the engine's: whose hand, who takes it, which cards it may be)."""
    names = [p.name for p in state.players]
    if ask.taker is None:
        title = tr("ui.card_ask_discard", player=names[ask.seat])
    else:
        title = tr("ui.card_ask_take", player=names[ask.seat], taker=names[ask.taker])
    cards = tuple((card, tr.name("card", card)) for card in ask.cards)
    if ask.unknown:
        cards += ((UNKNOWN, tr("ui.card_ask_unknown")),)
    so_far = tr.join(tr("ui.card_ask_unknown") if c == UNKNOWN else tr.name("card", c) for c in drawn)
    return CardAskVM(title, cards, tr("ui.card_ask_so_far", cards=so_far) if drawn else "")
