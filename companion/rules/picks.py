"""Cards drawn at random from a hand: the table's draws first, then the app's chance.

At a real table a random card is drawn from a real hand: the combat winner takes one (CMB-2),
a player beaten by Michel discards one (MICH-5), a Punishment discards half a hand (OFF-3),
some Backgrounds and Action cards steal them. A table that draws from the real hand enters what
it drew as the action's `picks`, in the order the rules take them, as it enters the dice it
rolled (`die`); each is a card id, or `unknown` for a card nobody entered. Only when they run out
does the app pick, with its seeded chance, and record its pick (`outcomes`). A table pick does
not move the generator, as a table die does not.

A pick is judged by the hand rules (PROTOCOL.md, Hands; SUP-1): the hand must hold the card
known, or hold a card nobody entered that may be it. Where the pick comes from is known only
once the action's effects reach it, so the engine judges the table's picks by a dry run of the
action (`engine`), and a pick the hand cannot be refuses the action with HAND-1.
"""

from __future__ import annotations

from .core import Ctx, PickAsk, face_up_cards, hard, unaccounted
from .errors import Violation
from .hand import UNKNOWN
from .state import GameState


class ImpossiblePick(Exception):
    """A table pick the hand cannot be: the dry run that judges the picks stops on it."""

    def __init__(self, problem: Violation) -> None:
        super().__init__(problem.key)
        self.problem = problem


def may_name(s: GameState, seat: int) -> tuple[tuple[str, ...], bool]:
    """The cards a random pick from this hand may be, sorted, and whether it may be unentered.

    A card nobody entered is a Search card with an unseen copy. On a viewer's state (`view`) the
    hands it may not see hold only such cards, yet they may hide Tools and Knives too: a board
    card that no visible place accounts for may be one of them (on a game's own state, every
    board card off the board is known, so none is left over).
    """
    hand = s.players[seat].hand
    names = set(hand.known)
    if hand.unknown:
        cat = s.catalog
        names.update(card for card in cat.search_cards if unaccounted(s, card) > 0)
        names.update(card for card in cat.board_piles if _board_unseen(s, card) > 0)
    return tuple(sorted(names)), hand.unknown > 0


def _board_unseen(s: GameState, card: str) -> int:
    """Copies of a Tool or Knife that are neither on the board nor in sight (a known hand, a
    dug Tunnel, a combat): none in a game's own state, those of hidden hands in a `view`."""
    total = s.catalog.board_piles[card] + s.corrections.get(card, 0)
    held = sum(p.hand.known.get(card, 0) + p.dug.count(card) for p in s.players)
    return total - s.piles.get(card, 0) - held - face_up_cards(s).get(card, 0)


def pick_problem(s: GameState, seat: int, card: str) -> Violation | None:
    """HAND-1 for a card the table says it drew from `seat`'s hand, or None when it may be so."""
    hand = s.players[seat].hand
    if card != UNKNOWN and hand.known.get(card, 0):
        return None  # the common case: a card somebody entered
    names, unknown = may_name(s, seat)
    if (card == UNKNOWN and unknown) or (card != UNKNOWN and card in names):
        return None
    return hard("HAND-1", "v.pick_impossible", player=s.players[seat].name, card=card)


def pick_card(s: GameState, ctx: Ctx, seat: int, taker: int | None, why: str) -> str | None:
    """The card a random pick takes from `seat`'s hand (None when it is empty): the table's next
    pick, else the app's. The first pick the app makes itself is kept (`Ctx.asked`) for
    `preview`, which tells the app what to ask the table for next."""
    hand = s.players[seat].hand
    if not hand.size():
        return None
    if ctx.picks:
        card = ctx.picks.pop(0)
        problem = pick_problem(s, seat, card)
        if problem is not None:
            raise ImpossiblePick(problem)
        return card
    if ctx.asked is None:
        cards, unknown = may_name(s, seat)
        ctx.asked = PickAsk(seat=seat, taker=taker, why=why, cards=cards, unknown=unknown)
    return ctx.choose("pick", hand.entries())
