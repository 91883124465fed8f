"""A hand as the app knows it: cards somebody entered, plus a count of cards nobody entered.

Board cards (Tools, Knives) are always known because they come from the board; an unknown card
is always a Search card. When an action needs a card nobody entered, an unknown card is taken
as that card (PROTOCOL.md, Hands).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

UNKNOWN = "unknown"


class Hand:
    __slots__ = ("known", "unknown")

    def __init__(self, known: dict[str, int] | None = None, unknown: int = 0) -> None:
        self.known: dict[str, int] = {k: v for k, v in (known or {}).items() if v > 0}
        self.unknown = unknown

    def copy(self) -> Hand:
        return Hand(dict(self.known), self.unknown)

    def size(self) -> int:
        return sum(self.known.values()) + self.unknown

    def count(self, card: str) -> int:
        return self.known.get(card, 0)

    def shortfall(self, cards: Iterable[str], is_search_card: Callable[[str], bool]) -> list[str]:
        """The cards of `cards` this hand cannot provide, even using its unknown cards."""
        return self.cover(cards, is_search_card)[0]

    def cover(self, cards: Iterable[str], is_search_card: Callable[[str], bool]) -> tuple[list[str], dict[str, int]]:
        """How this hand provides `cards`: those it cannot provide, even using its unknown cards,
        and how many of each card (in the order `cards` names them) its unknown cards stand for."""
        cards = list(cards)
        if len(cards) == 1:  # the common case, without counting
            card = cards[0]
            if card != UNKNOWN and self.known.get(card, 0):
                return [], {}
            if self.unknown and (card == UNKNOWN or is_search_card(card)):
                return [], {} if card == UNKNOWN else {card: 1}
            return cards, {}
        need: dict[str, int] = {}
        for card in cards:
            need[card] = need.get(card, 0) + 1
        spare = self.unknown
        missing: list[str] = []
        stood_for: dict[str, int] = {}
        for card in sorted(need):  # a fixed order decides which cards the unknown ones stand for
            extra = need[card] if card == UNKNOWN else need[card] - self.known.get(card, 0)
            if extra <= 0:
                continue
            if card == UNKNOWN or is_search_card(card):
                used = min(extra, spare)
                spare -= used
                extra -= used
                if used and card != UNKNOWN:
                    stood_for[card] = used
            missing.extend([card] * extra)
        return missing, {card: stood_for[card] for card in need if card in stood_for}

    def add(self, card: str, n: int = 1) -> None:
        if card == UNKNOWN:
            self.unknown += n
        else:
            self.known[card] = self.known.get(card, 0) + n

    def remove(self, card: str, n: int = 1) -> None:
        """Remove `n` of `card`, known copies first, then unknown cards taken as that card."""
        if card == UNKNOWN:
            self.unknown -= n
            return
        have = self.known.get(card, 0)
        from_known = min(have, n)
        if from_known:
            if have == from_known:
                del self.known[card]
            else:
                self.known[card] = have - from_known
        self.unknown -= n - from_known
        if self.unknown < 0:
            raise ValueError(f"hand has no {card} to remove")

    def entries(self) -> list[str]:
        """Every card of the hand, one entry per card, in a stable order (for random picks)."""
        out: list[str] = []
        for card in sorted(self.known):
            out.extend([card] * self.known[card])
        out.extend([UNKNOWN] * self.unknown)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"known": dict(sorted(self.known.items())), "unknown": self.unknown}

    def __repr__(self) -> str:
        return f"Hand({self.known!r}, unknown={self.unknown})"
