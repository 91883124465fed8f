"""What happened, as typed values: one frozen class per event type of the engine's answer.

The engine builds these where it emits an event; `to_json()` is the protocol's object (its
`type` first, then the fields in the order they are declared), and `event_from_json` reads
one back strictly (`record.py`), so a stored answer gives the same values as a fresh one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar, dataclass_transform

from .record import MalformedRecord, Record, frozen, omitted, plain, read

MalformedEvent = MalformedRecord


class Event(Record):
    """An event: a record whose JSON starts with its `type`."""

    __slots__ = ()
    TYPE: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, **Record.to_json(self)}

    @classmethod
    def from_json(cls: type[E], data: Mapping[str, Any]) -> E:
        return read(cls, data, also=frozenset({"type"}))


E = TypeVar("E", bound=Event)
EVENTS: dict[str, type[Event]] = {}  # event type -> its class


@dataclass_transform(kw_only_default=True, frozen_default=True)
def event(type_: str) -> Callable[[type[E]], type[E]]:
    """Declare an event type: a frozen, keyword-only dataclass, registered under its JSON `type`."""

    def declare(cls: type[E]) -> type[E]:
        cls.TYPE = type_
        made = dataclasses.dataclass(frozen=True, slots=True, eq=False, kw_only=True)(cls)
        EVENTS[type_] = made
        return made

    return declare


def event_from_json(data: Any) -> Event:
    """The typed event a JSON object stands for; anything the engine would not write is refused."""
    if isinstance(data, Event):
        return data
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise MalformedEvent(f"not an event: {data!r:.80}")
    cls = EVENTS.get(data["type"])
    if cls is None:
        raise MalformedEvent(f"unknown event type {data['type']!r}")
    return cls.from_json(data)


def events_from_json(data: Any) -> list[Event]:
    return [event_from_json(e) for e in data or ()]


# --- the events ---------------------------------------------------------------------------------
# Field order is JSON order. `player` is a seat; `why` names the rule, action or card that caused it.

Seat = int
Cards = tuple[str, ...]


@event("ability")
class Ability(Event):
    player: Seat
    ability: str


@event("action_card")
class ActionCard(Event):
    player: Seat
    card: str
    target: Seat | None


ADJUST_OPS = ("set", "add", "remove", "identify")


@event("adjust")
class Adjust(Event):
    """One edit of a correction: at `path`, one operation (`set`, `add`, ...) with its value."""

    path: str
    op: str
    value: Any  # `set`: a number, a Place or null; the others: a list of cards

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "path": self.path, self.op: plain(self.value)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Adjust:
        ops = [op for op in ADJUST_OPS if op in data]
        if not isinstance(data.get("path"), str) or len(ops) != 1 or set(data) != {"type", "path", ops[0]}:
            raise MalformedEvent(f"adjust: not one edit: {dict(data)!r:.80}")
        return cls(path=data["path"], op=ops[0], value=frozen(data[ops[0]]))


@event("adjusted")
class Adjusted(Event):
    player: Seat
    reason: str


@event("background")
class Background(Event):
    player: Seat
    background: str
    bonus: bool


@event("beating")
class Beating(Event):
    player: Seat
    count: int
    total: int
    why: str


@event("brawl")
class Brawl(Event):
    player: Seat
    place: str
    players: tuple[Seat, ...]


@event("camouflaged")
class Camouflaged(Event):
    neutral: str
    player: Seat


@event("cigarettes")
class Cigarettes(Event):
    player: Seat
    change: int
    total: int
    why: str


@event("combat")
class Combat(Event):
    attacker: Seat | None
    defender: Seat
    neutral: str | None


@event("combat_end")
class CombatEnd(Event):
    winner: Seat | None
    loser: Seat | None
    neutral: str | None = omitted()


@event("cooperate")
class Cooperate(Event):
    """A Tool handed over: `to` the extorting player, or to a `neutral`."""

    player: Seat
    to: Seat | None = omitted()
    neutral: str | None = omitted()
    tool: str | None


@event("corruption")
class Corruption(Event):
    player: Seat
    effect: str


@event("craft")
class Craft(Event):
    player: Seat
    recipe: str


@event("dig")
class Dig(Event):
    player: Seat
    tool: str
    points: int
    tunnel: int


@event("discard")
class Discard(Event):
    """Cards discarded by a player, or (`player` None) the Weapons laid in a combat."""

    player: Seat | None
    cards: Cards
    why: str


@event("draw")
class Draw(Event):
    player: Seat
    cards: Cards  # `unknown` for a card nobody entered; only the drawer sees the others
    why: str


@event("end_turn")
class EndTurn(Event):
    player: Seat


@event("exempt")
class Exempt(Event):
    player: Seat


@event("extort")
class Extort(Event):
    player: Seat
    target: Seat
    tool: str
    weapons: Cards


@event("forced")
class Forced(Event):
    player: Seat
    rules: tuple[str, ...]
    ruling: str | None = omitted()  # the table's reason, when it gave one


@event("give")
class Give(Event):
    player: Seat
    to: Seat
    card: str
    why: str


@event("give_up")
class GiveUp(Event):
    player: Seat


@event("heal")
class Heal(Event):
    player: Seat
    count: int
    total: int
    why: str


@event("join_gang")
class JoinGang(Event):
    player: Seat
    gang: str
    ability: str | None


@event("leave_gang")
class LeaveGang(Event):
    player: Seat
    gang: str | None
    ability: str | None
    why: str


@event("michel_card")
class MichelCard(Event):
    neutral: str
    player: Seat
    card: str
    source: str  # "table" or "app"


@event("michel_reshuffle")
class MichelReshuffle(Event):
    cards: int


@event("move")
class Move(Event):
    player: Seat
    to: str
    why: str
    from_: str


@event("must_cooperate")
class MustCooperate(Event):
    player: Seat
    tool: str


@event("neutral_calm")
class NeutralCalm(Event):
    neutral: str
    player: Seat
    place: str


@event("neutral_move")
class NeutralMove(Event):
    """A neutral's move: its own (`from_`), or sent by a card (`why`)."""

    neutral: str
    to: str
    why: str | None = omitted()
    from_: str | None = omitted()


@event("offence")
class Offence(Event):
    player: Seat
    action: str
    place: str


@event("punishment")
class Punishment(Event):
    player: Seat
    choice: str
    chooser: Seat


@event("rehabilitate")
class Rehabilitate(Event):
    player: Seat


@event("report")
class Report(Event):
    player: Seat
    offender: Seat
    action: str


@event("reroll")
class Reroll(Event):
    player: Seat
    ability: str


@event("reshuffle")
class Reshuffle(Event):
    cards: int


@event("roll")
class Roll(Event):
    player: Seat | str  # a seat, or the neutral whose move it is
    die: int
    source: str  # "table" or "app"
    why: str


@event("skill")
class Skill(Event):
    player: Seat
    points: int
    tunnel: int


@event("skip_neutral")
class SkipNeutral(Event):
    player: Seat


@event("spy")
class Spy(Event):
    player: Seat
    target: Seat
    hand: Mapping[str, Any] | None  # the target's hand as the app knows it (None: not seen)


@event("take")
class Take(Event):
    player: Seat
    card: str
    count: int
    why: str


@event("token")
class Token(Event):
    player: Seat
    token: str
    change: int
    why: str


@event("trauma")
class Trauma(Event):
    player: Seat
    trauma: str | None
    change: int
    why: str


@event("turn")
class Turn(Event):
    player: Seat
    turn: int
    actions: int


@event("turn_ended")
class TurnEnded(Event):
    player: Seat
    why: str


@event("unused_dice")
class UnusedDice(Event):
    die: tuple[int, ...]


@event("unused_outcomes")
class UnusedOutcomes(Event):
    outcomes: tuple[Mapping[str, Any], ...]


@event("warden_move")
class WardenMove(Event):
    to: str
    why: str
    player: Seat | None = omitted()


@event("weapon")
class Weapon(Event):
    player: Seat
    card: str


@event("win")
class Win(Event):
    winner: Seat | str  # a seat, or a team in Team mode
    target: int
