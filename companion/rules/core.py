"""The engine's plumbing: rule registries, the effect context, and small shared helpers.

Each action type registers a `check` (read-only: returns violations) and an `apply` (mutates
the state, emitting events through a `Ctx`). Work that must wait for a decision is put on the
state's agenda as data (`{"do": "next_turn"}`) and run by registered tasks once the decision
is answered, so a state can always be copied, compared and replayed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from typing import Any, TypeVar, cast

from . import events as ev
from .actions import Action
from .chance import Chance
from .errors import Violation
from .hand import UNKNOWN
from .state import GameState, Player

T = TypeVar("T")
CheckFn = Callable[[GameState, Any, list[Violation]], None]
ApplyFn = Callable[[GameState, Any, "Ctx"], None]
TaskFn = Callable[[GameState, dict[str, Any], "Ctx"], None]

CHECKS: dict[str, CheckFn] = {}
# The actions of the turn an action type always takes (TURN-1): its checker declares it, the
# engine charges it (`engine`) and a listing skips the types a turn can no longer pay for.
PRICES: dict[str, int] = {}
# The least a type whose price varies with its shape takes (a Cautious move: 1 or 2); its own
# check asks for the rest. Only a listing reads it, to skip the types a turn cannot pay for.
FLOORS: dict[str, int] = {}
APPLIES: dict[str, ApplyFn] = {}
TASKS: dict[str, TaskFn] = {}
CHOICES: dict[str, ApplyFn] = {}  # pending kind -> what a `choose` answer does


def checker(*types: str, price: int = 0, floor: int = 0) -> Callable[[CheckFn], CheckFn]:
    """Register the check of these action types; `price`: the actions of the turn each takes;
    `floor`: the least a type takes whose check charges its own price (see `FLOORS`)."""

    def register(fn: CheckFn) -> CheckFn:
        for t in types:
            CHECKS[t] = fn
            if price:
                PRICES[t] = price
            if floor:
                FLOORS[t] = floor
        return fn

    return register


def applier(*types: str) -> Callable[[ApplyFn], ApplyFn]:
    def register(fn: ApplyFn) -> ApplyFn:
        for t in types:
            APPLIES[t] = fn
        return fn

    return register


def task(name: str) -> Callable[[TaskFn], TaskFn]:
    def register(fn: TaskFn) -> TaskFn:
        TASKS[name] = fn
        return fn

    return register


def choice(kind: str) -> Callable[[ApplyFn], ApplyFn]:
    def register(fn: ApplyFn) -> ApplyFn:
        CHOICES[kind] = fn
        return fn

    return register


def violation(rule: str, key: str, /, **params: Any) -> Violation:
    return Violation(rule, key, params)


def hard(rule: str, key: str, /, **params: Any) -> Violation:
    """A violation `force` cannot override: the app could not represent the result."""
    return Violation(rule, key, params, forceable=False)


@dataclasses.dataclass(frozen=True, slots=True)
class PickAsk:
    """A random card the app had to pick itself: what a table holding the real hand is asked.

    `cards` lists, sorted, every card id the pick may name: the hand's known cards and, when it
    holds cards nobody entered, every card one of them may be (SUP-1: an unseen copy is left).
    """

    seat: int  # whose hand the card comes from
    taker: int | None  # who receives it; None when it is discarded
    why: str  # the cause, as the events name it (`combat`, `michel`, `punishment`, ...)
    cards: tuple[str, ...]
    unknown: bool  # the hand holds cards nobody entered: "not entered" is an answer


class Unseen(Exception):
    """A card drawn from a face-down pile of a viewer's state (`view`), which holds the pile's
    size but not its cards: what the step did before that draw is all such a state can tell
    (`preview`). A game's own state never raises it: its piles hold every card. `asked`: the
    first random card the app picked from a hand before that draw, if it picked one."""

    def __init__(self, pile: str, events: list[ev.Event], asked: PickAsk | None = None) -> None:
        super().__init__(pile)
        self.pile = pile
        self.events = list(events)
        self.asked = asked
        self.drawn_for: tuple[str, int] | None = None  # a Michel card: (the neutral, the seat it extorts)


class Ctx:
    """What one step may use and what it produces: chance outcomes and events.

    The one place that hands out chance. Dice, Michel cards and cards picked from hands that
    the table supplied with the action are used first, in order; then the outcomes recorded with
    the action (a replay reads back what happened); after them the game's seeded source decides.
    Every outcome is an event, and the app's own outcomes make the resolved action (`resolved`)
    that the log keeps.
    """

    __slots__ = ("state", "events", "dice", "picks", "asked", "action", "arrivals", "chance")

    def __init__(self, state: GameState, action: Action | None = None) -> None:
        self.state = state
        self.action = action
        self.events: list[ev.Event] = []
        self.dice = list(action.die) if action is not None else []
        self.picks = list(action.picks) if action is not None else []  # see `picks.pick_card`
        self.asked: PickAsk | None = None  # the first random card the app picked itself
        self.arrivals: list[tuple[str, int]] = []  # (neutral, seat): extortions to schedule (MICH-3)
        self.chance = Chance(state.rng, action.outcomes if action is not None else ())

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)

    def roll(self, who: int | str, why: str) -> int:
        if self.dice:
            value, source = self.dice.pop(0), "table"
        else:
            value, source = self.chance.die(), "app"
        self.emit(ev.Roll(player=who, die=value, source=source, why=why))
        return value

    def choose(self, kind: str, options: Sequence[str]) -> str:
        """One of `options` at random: `pick` for a card of a hand, `to` for a destination.
        A card of a hand is asked through `picks.pick_card`, which uses the table's picks first."""
        return self.chance.choose(kind, options)

    def take(self, pile: str, cards: list[str], top_last: bool = False) -> str:
        """The top card of a pile whose order the app decided (a Gang pile, the Trauma stack,
        the Michel deck); `Unseen` when the state holds only the pile's count (a `view`)."""
        card = self.chance.take(pile, cards, top_last)
        if card == UNKNOWN:
            raise Unseen(pile, self.events, self.asked)
        return card

    def next_michel_card(self) -> tuple[str, str]:
        """The table's drawn cards first (they serve every extortion of the move), then the app's deck."""
        if self.state.michel_queue:
            return self.state.michel_queue.pop(0), "table"
        s = self.state
        if not s.michel_deck:
            s.michel_deck, s.michel_discard = s.michel_discard, []
            self.chance.shuffle("michel", s.michel_deck, top_last=True)
            self.emit(ev.MichelReshuffle(cards=len(s.michel_deck)))
        card = self.take("michel", s.michel_deck, top_last=True)
        s.michel_discard.append(card)
        return card, "app"

    def resolved(self) -> Action | None:
        """The action with the outcomes of this step filled in: what a log keeps and replays."""
        a = self.action
        if a is None or list(a.outcomes) == self.chance.used:
            return a
        return dataclasses.replace(a, outcomes=tuple(self.chance.used))

    def schedule_first(self, *tasks: dict[str, Any]) -> None:
        """Run these before anything already waiting on the agenda."""
        self.state.agenda[0:0] = list(tasks)

    def schedule_arrivals(self) -> None:
        """MICH-3: neutrals extort the players who arrived in their Place, clockwise from the active player."""
        if not self.arrivals:
            return
        n = len(self.state.players)
        active = self.state.active
        order = sorted(self.arrivals, key=lambda a: ((a[1] - active) % n, self.state.neutral_names.index(a[0])))
        self.arrivals = []
        self.schedule_first(*({"do": "neutral_extort", "neutral": nt, "seat": seat} for nt, seat in order))


def seat_name(state: GameState, seat: int | None) -> str:
    return "-" if seat is None or not 0 <= seat < len(state.players) else state.players[seat].name


def hand_card_problems(state: GameState, p: Player, cards: Iterable[str]) -> list[Violation]:
    """HAND-1 and SUP-1 for cards a player is about to use from hand.

    A card nobody entered may stand for any Search card, unless every copy of that card is
    already seen elsewhere (SUP-1). A listing asks this of the same cards for many shapes (a
    Weapon for each Tool and target): within `judging`, each answer is worked out once.
    """
    cards = tuple(cards)
    if len(cards) == 1 and cards[0] != "unknown" and p.hand.known.get(cards[0], 0):
        return []  # the common case: one card somebody entered
    return _judged(state, (p.seat, cards), _hand_card_problems, state, p, cards)


def _hand_card_problems(state: GameState, p: Player, cards: tuple[str, ...]) -> list[Violation]:
    missing, from_unknown = p.hand.cover(cards, state.catalog.is_search_card)
    if missing:
        return [hard("HAND-1", "v.hand_missing", card=missing[0], player=p.name)]
    for card, n in from_unknown.items():
        if unaccounted(state, card) < n:
            return [hard("SUP-1", "v.all_copies_seen", card=card)]
    return []


def card_kind(state: GameState, card: str) -> str:
    """The composition entry a Search card counts under (named Action cards are 'action')."""
    return "action" if card in state.catalog.action_cards else card


# While a batch of read-only checks judges one state (legal_actions), what many checks ask of it
# (a card's unseen copies, whether a hand holds some cards) is worked out once: `check` never
# changes the state it judges. Keys: ("unseen", a card's kind); ("seen",): the cards in sight;
# (a seat, cards): hand problems.
_JUDGING: ContextVar[tuple[GameState, dict[object, Any]] | None] = ContextVar("judging", default=None)


class judging:  # noqa: N801 (used as `with judging(state):`, like a function)
    """Within the block, read-only checks of `state` share what they work out (see `_judged`).

    A class, not a generator-based context manager: a listing enters one per step.
    """

    __slots__ = ("state", "token")

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __enter__(self) -> None:
        self.token = _JUDGING.set((self.state, {}))

    def __exit__(self, *_: object) -> None:
        _JUDGING.reset(self.token)


def _judged(state: GameState, key: object, work: Callable[..., T], *args: object) -> T:
    """`work(*args)`, worked out once per key while `state` is being judged (`judging`)."""
    known = _memo_of(state)
    if known is None:
        return work(*args)
    found = known.get(key, _NOT_YET)
    if found is _NOT_YET:
        found = known[key] = work(*args)
    return cast(T, found)


def _memo_of(state: GameState) -> dict[object, Any] | None:
    """What the checks of `state` worked out so far, while it is being judged (`judging`)."""
    memo = _JUDGING.get()
    return None if memo is None or memo[0] is not state else memo[1]


_NOT_YET = object()


def unaccounted(state: GameState, card: str) -> int:
    """How many copies of a Search card nobody has seen: they may be in the deck or an unknown hand.

    Named Action cards count together, as the deck's composition does (`card_kind`).
    """
    kind = card_kind(state, card)
    return _judged(state, ("unseen", kind), _count_unseen, state, kind)


def _count_unseen(state: GameState, kind: str) -> int:
    cat = state.catalog
    names = cat.action_cards if kind == "action" else (kind,)
    total = cat.search_deck.get(kind, 0) + state.corrections.get(kind, 0)
    if _memo_of(state) is not None:  # a listing asks of many cards: every card in sight is counted once
        seen = _judged(state, ("seen",), _seen_cards, state)
        return total - sum(seen.get(name, 0) for name in names)
    laid = [c for _, c in state.combat.laid] if state.combat is not None else ()
    for name in names:
        total -= state.discard.count(name) + laid.count(name)
        for p in state.players:
            total -= p.hand.known.get(name, 0)
    return total


def _seen_cards(state: GameState) -> dict[str, int]:
    """How many copies of each card are in sight: face up (`face_up_cards`) or entered in a hand."""
    seen = face_up_cards(state)
    for p in state.players:
        for card, n in p.hand.known.items():
            seen[card] = seen.get(card, 0) + n
    return seen


def face_up_cards(state: GameState) -> dict[str, int]:
    """How many copies of each card lie face up: in the discard pile and laid in a combat."""
    seen: dict[str, int] = {}
    for card in state.discard:
        seen[card] = seen.get(card, 0) + 1
    if state.combat is not None:
        for _, card in state.combat.laid:
            seen[card] = seen.get(card, 0) + 1
    return seen


def weapon_like(state: GameState, card: str) -> bool:
    return card in state.catalog.weapons or card == "unknown"
