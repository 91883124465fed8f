"""Chance outcomes as the log keeps them: what the app decided, never the numbers behind it.

A stored game is the record of a real evening, so each outcome the app produces (a die, a card
picked at random from a hand, a random destination, a deck's shuffled order, the card taken
from the top of a pile whose order the app decided) is written into the action that caused it
as a small record, and read back on replay. The seeded generator decides only what has no
record yet. Records (the action field `outcomes`, consumed in order per kind):

    {"die": 4}                                    a die the app rolled
    {"pick": "blade"}                             a card picked at random from a hand
    {"to": "showers"}                             a random destination
    {"order": ["no_knife", ...], "deck": "michel"}  a deck shuffled into this order, first drawn first
    {"card": "fury", "pile": "bikers"}            the card the app took from a pile (Gang, Trauma, Michel)

The generator still moves exactly as it did without records, so an old log (no records)
replays as it always did and a resolved one leaves the generator where the live game left it.
What the table rolled or drew itself (the action fields `die`, `michel_cards`, `picks`) is used
before any record and is never one (`core.Ctx`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .catalog import Catalog
from .errors import MalformedAction
from .rng import Rng

KINDS = ("die", "pick", "to", "order", "card")
_SECOND = {"order": "deck", "card": "pile"}  # the record's other key: which deck or pile


class OutcomeMismatch(ValueError):
    """A recorded outcome this state cannot have (a card not in that hand, a wrong deck order)."""


def _queue(record: Mapping[str, Any]) -> str:
    """The queue a record belongs to: its kind, and for decks and piles which one."""
    kind = next(k for k in KINDS if k in record)
    second = _SECOND.get(kind)
    return kind if second is None else f"{kind}:{record[second]}"


def parse_outcomes(value: Any, cat: Catalog, most: int) -> tuple[dict[str, Any], ...]:
    """The `outcomes` field of an action: a list of records of the documented shapes, nothing else."""
    if not isinstance(value, list) or len(value) > most:
        raise MalformedAction("malformed.not_list", field="outcomes")
    piles = {
        **{g: frozenset(c.abilities) for g, c in cat.gangs.items()},
        "trauma": frozenset(cat.traumas),
        "michel": frozenset(cat.michel_cards),
    }
    return tuple(_record(r, cat, piles) for r in value)


def _record(record: Any, cat: Catalog, piles: Mapping[str, frozenset[str]]) -> dict[str, Any]:
    kinds = [k for k in KINDS if isinstance(record, dict) and k in record]
    if len(kinds) != 1:
        raise MalformedAction("malformed.bad_outcome", value=repr(record)[:60])
    kind = kinds[0]
    keys = {kind, _SECOND.get(kind, kind)}
    value, second = record[kind], record.get(_SECOND.get(kind, ""))
    valid = set(record) == keys and (
        (kind == "die" and isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6)
        or (kind == "pick" and isinstance(value, str) and value in cat.all_cards)
        or (kind == "to" and isinstance(value, str) and value in cat.places)
        or (
            kind == "order"
            and second == "michel"
            and isinstance(value, list)
            and all(isinstance(c, str) and c in cat.michel_cards for c in value)
        )
        or (kind == "card" and isinstance(second, str) and isinstance(value, str) and value in piles.get(second, ()))
    )
    if not valid:
        raise MalformedAction("malformed.bad_outcome", value=repr(record)[:60])
    return {k: (list(v) if isinstance(v, list) else v) for k, v in record.items()}


def arranged(rng: Rng, items: Iterable[str], recorded: Sequence[str] | None, top_last: bool = False) -> list[str]:
    """A shuffled copy of `items` (top first, or top last), or the recorded order (first drawn first)."""
    out = list(items)
    rng.shuffle(out)  # moves the generator as it always did, even when the order is recorded
    if recorded is None:
        return out
    if Counter(recorded) != Counter(out):
        raise OutcomeMismatch(f"the recorded order {list(recorded)} is not an order of {sorted(out)}")
    return list(reversed(recorded)) if top_last else list(recorded)


def drawing_order(cards: Sequence[str], top_last: bool = False) -> list[str]:
    """A pile as the log writes it: first drawn first."""
    return list(reversed(cards)) if top_last else list(cards)


class Chance:
    """One step's chance: recorded outcomes first (per kind, in order), then the seeded generator.

    Every outcome used, recorded or new, is collected in the order it happened: that list is the
    action's resolved `outcomes`.
    """

    __slots__ = ("rng", "queues", "used")

    def __init__(self, rng: Rng, recorded: Iterable[Mapping[str, Any]] = ()) -> None:
        self.rng = rng
        self.queues: dict[str, list[Mapping[str, Any]]] = {}
        for record in recorded:
            self.queues.setdefault(_queue(record), []).append(record)
        self.used: list[dict[str, Any]] = []

    def _recorded(self, key: str) -> Mapping[str, Any] | None:
        queue = self.queues.get(key)
        return queue.pop(0) if queue else None

    def die(self) -> int:
        value = self.rng.d6()
        recorded = self._recorded("die")
        if recorded is not None:
            value = recorded["die"]
        self.used.append({"die": value})
        return value

    def choose(self, kind: str, options: Sequence[str]) -> str:
        """One of `options` at random (`pick`: a card of a hand; `to`: a destination)."""
        value = options[self.rng.below(len(options))]
        recorded = self._recorded(kind)
        if recorded is not None:
            value = recorded[kind]
            if value not in options:
                raise OutcomeMismatch(f"the recorded {kind} {value!r} is not one of {sorted(set(options))}")
        self.used.append({kind: value})
        return value

    def shuffle(self, deck: str, cards: list[str], top_last: bool = False) -> None:
        """Shuffle `cards` in place into a new order, or into the recorded one."""
        recorded = self._recorded(f"order:{deck}")
        cards[:] = arranged(self.rng, cards, None if recorded is None else recorded["order"], top_last)
        self.used.append({"order": drawing_order(cards, top_last), "deck": deck})

    def take(self, pile: str, cards: list[str], top_last: bool = False) -> str:
        """The card taken from the top of a pile whose order the app decided, or the recorded card."""
        recorded = self._recorded(f"card:{pile}")
        if recorded is None:
            card = cards.pop() if top_last else cards.pop(0)
        else:
            card = recorded["card"]
            if card not in cards:
                raise OutcomeMismatch(f"the recorded card {card!r} is not in the {pile} pile")
            order = drawing_order(cards, top_last)
            order.remove(card)
            cards[:] = drawing_order(order, top_last)
        self.used.append({"card": card, "pile": pile})
        return card

    def leftover(self) -> list[Mapping[str, Any]]:
        """Recorded outcomes no chance point asked for."""
        return [r for queue in self.queues.values() for r in queue]
