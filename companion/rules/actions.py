"""Actions: one small frozen value per PROTOCOL.md action type, parsed strictly from JSON.

Parsing only checks shape, types and vocabulary (is `to` a Place id at all? is `die` a list of
1..6?), after `shape.misshapen` has refused what no action holds (deep nesting, huge numbers...).
Whether the action is legal in the current state is `check`'s job; a malformed action raises
`MalformedAction` and never reaches the rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, dataclass_transform

from .catalog import Catalog, load_catalog
from .chance import parse_outcomes
from .errors import MalformedAction
from .shape import is_clean_text, is_int, misshapen

ACTION_TYPES: dict[str, type[Action]] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    TYPE: ClassVar[str] = ""
    KINDS: ClassVar[Mapping[str, str]] = {}  # field -> kind, where the field's name is not enough

    player: int
    die: tuple[int, ...] = ()  # dice the table rolled (else the app rolls)
    michel_cards: tuple[str, ...] = ()  # Michel cards the table drew (else the app draws)
    picks: tuple[str, ...] = ()  # cards the table drew at random from hands (else the app picks)
    outcomes: tuple[Mapping[str, Any], ...] = ()  # what the app decided by chance (see chance.py)
    force: bool = False  # apply even if illegal; the violations are kept as overridden
    ruling: str = ""  # why the table forced it ("we play that a Blade counts here"); only with force

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name != "player" and value == f.default:
                continue
            out[f.name] = _to_json(value)
        return out


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _to_json(v) for k, v in value.items()}
    return value


AnAction = TypeVar("AnAction", bound=Action)


def action(cls: type[AnAction]) -> type[AnAction]:
    ACTION_TYPES[cls.TYPE] = cls
    return cls


@dataclass_transform(frozen_default=True, kw_only_default=True)
def _act(type_name: str, /, **fields: Any) -> Callable[[type[AnAction]], type[AnAction]]:
    """Register a frozen action class for `type_name` (a dataclass to type checkers too)."""

    def wrap(cls: type[AnAction]) -> type[AnAction]:
        cls.TYPE = type_name
        return action(dataclass(frozen=True, slots=True, kw_only=True)(cls))

    return wrap


@_act("search")
class Search(Action):
    cards: tuple[str, ...] | None = None
    from_discard: int = 0  # Recycling: cards taken from the top of the discard pile


@_act("move")
class Move(Action):
    to: str | None = None


@_act("choose")
class Choose(Action):
    option: Any


@_act("cautious_move")
class CautiousMove(Action):
    to: str
    planning: bool = False


@_act("craft")
class Craft(Action):
    recipe: str
    cards: tuple[str, ...] | None = None
    bandage: int = 0  # Bandage tokens discarded instead of Links (LAUN-2)


@_act("join_gang")
class JoinGang(Action):
    KINDS = {"card": "ability"}
    gang: str
    cards: tuple[str, ...]
    card: str | None = None


@_act("change_style")
class ChangeStyle(Action):
    KINDS = {"card": "ability"}
    gang: str
    cards: tuple[str, ...]
    card: str | None = None


@_act("play_action")
class PlayAction(Action):
    KINDS = {"card": "action_card"}
    card: str
    target: int | None = None
    cards: tuple[str, ...] | None = None  # cards drawn, when the card draws
    changes: tuple[Mapping[str, Any], ...] = ()  # the effect of an Action card the app does not know


@_act("extort")
class Extort(Action):
    target: int
    tool: str
    weapons: tuple[str, ...]


@_act("cooperate")
class Cooperate(Action):
    tool: str | None = None  # which Tool, when a Michel card shows two


@_act("fight")
class Fight(Action):
    pass


@_act("weapon")
class Weapon(Action):
    card: str


@_act("give_up")
class GiveUp(Action):
    pass


@_act("bodybuilding")
class Bodybuilding(Action):
    """Discard a Bodybuilding token instead of playing a Weapon (GYM-2)."""


@_act("dig")
class Dig(Action):
    tool: str


@_act("steal_spoon")
class StealSpoon(Action):
    pass


@_act("sell")
class Sell(Action):
    cards: tuple[str, ...]
    cigarettes: int | None = None  # the printed total


@_act("buy")
class Buy(Action):
    item: str


@_act("heal")
class Heal(Action):
    KINDS = {"bandage": "bool"}
    bandage: bool = False
    trauma: bool = False  # discard the Trauma instead of a Beating (PSY-2)


@_act("reveal_background")
class RevealBackground(Action):
    KINDS = {"card": "background", "own_to": "place"}
    card: str
    target: int | None = None
    targets: tuple[int, ...] | None = None
    to: str | None = None
    own_to: str | None = None
    cards: tuple[str, ...] | None = None
    discard: tuple[str, ...] | None = None
    trauma: bool = False


@_act("gang_ability")
class GangAbility(Action):
    ability: str
    to: str | None = None
    cards: tuple[str, ...] | None = None
    cigarettes: int | None = None


@_act("end_turn")
class EndTurn(Action):
    discard: tuple[str, ...] | None = None


@_act("move_neutral")
class MoveNeutral(Action):
    neutral: str
    to: str | None = None


@_act("skip_neutral")
class SkipNeutral(Action):
    pass


@_act("exchange")
class Exchange(Action):
    KINDS = {"to": "seat"}
    to: int
    cards: tuple[str, ...] | None = None
    cigarettes: int = 0


@_act("attract_warden")
class AttractWarden(Action):
    pass


@_act("bribe")
class Bribe(Action):
    pass


@_act("study")
class Study(Action):
    pass


@_act("develop_skills")
class DevelopSkills(Action):
    pass


@_act("plan")
class Plan(Action):
    pass


@_act("workout")
class Workout(Action):
    pass


@_act("steal_bandage")
class StealBandage(Action):
    pass


@_act("rehabilitate")
class Rehabilitate(Action):
    KINDS = {"card": "background"}
    card: str | None = None


@_act("spy")
class Spy(Action):
    target: int


@_act("improve_tool")
class ImproveTool(Action):
    tool: str


@_act("bet")
class Bet(Action):
    amount: int
    number: int


@_act("brawl")
class Brawl(Action):
    weapon: str


@_act("brawl_response")
class BrawlResponse(Action):
    KINDS = {"discard": "card"}
    discard: str | None = None


@_act("report")
class Report(Action):
    pass


@_act("corruption")
class Corruption(Action):
    effect: str
    target: int | None = None
    to: str | None = None


@_act("punishment_choice")
class PunishmentChoice(Action):
    choice: str


@_act("adjust")
class Adjust(Action):
    changes: tuple[Mapping[str, Any], ...]
    reason: str = ""


# --- parsing -------------------------------------------------------------------------------

FIELD_KINDS = {
    "player": "seat",
    "target": "seat",
    "targets": "seats",
    "die": "dice",
    "michel_cards": "michel_cards",
    "picks": "cards",  # a card id of the catalog, or "unknown" (a card nobody entered)
    "outcomes": "outcomes",
    "force": "bool",
    "ruling": "ruling",
    "cards": "cards",
    "card": "card",
    "weapons": "cards",
    "discard": "cards",
    "weapon": "card",
    "to": "place",
    "tool": "tool",
    "gang": "gang",
    "ability": "ability",
    "recipe": "recipe",
    "neutral": "neutral",
    "item": "name",
    "effect": "effect",
    "choice": "choice",
    "option": "any",
    "changes": "changes",
    "reason": "text",
    "from_discard": "count",
    "bandage": "count_or_bool",
    "cigarettes": "count",
    "amount": "int",
    "number": "int",
    "planning": "bool",
    "trauma": "bool",
}
EFFECTS = ("freepass", "punishment", "move")
CHOICES = ("beating", "discard_half", "lose_cigarettes")
MAX_LIST = 100
RULING_MAX = 200  # characters of a table's ruling: a sentence, not a rulebook
MAX_OUTCOMES = 1000  # one action can lead to many extortions, each drawing Michel cards


def _one_of(value: Any, allowed: Container[str], what: str, field: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise MalformedAction("malformed.unknown_id", field=field, what=what, value=_short(value))
    return value


def _is_option_part(value: Any) -> bool:
    return isinstance(value, str) or is_int(value)


def _is_edit_value(value: Any) -> bool:
    """What one edit of `changes` may carry: a path, a number, a flag, nothing, or a list of ids."""
    if isinstance(value, list):
        return all(isinstance(v, str) for v in value)
    return value is None or isinstance(value, (str, bool)) or is_int(value)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_LIST:
        raise MalformedAction("malformed.not_list", field=field)
    return value


def _parse_text(kind: str, field: str, value: Any) -> str:
    if kind == "ruling":  # a sentence the table wrote: trimmed, printable, short
        if not is_clean_text(value, RULING_MAX) or not value.strip():
            raise MalformedAction("malformed.bad_ruling", field=field, limit=RULING_MAX)
        return value.strip()
    if not isinstance(value, str) or len(value) > 500:
        raise MalformedAction("malformed.not_text", field=field)
    return value


def _parse_field(kind: str, field: str, value: Any, cat: Catalog, optional: bool) -> Any:
    if value is None and optional:
        return None
    if kind == "count_or_bool":
        return int(value) if isinstance(value, bool) else _parse_field("count", field, value, cat, False)
    if kind in ("seat", "int", "count"):
        if not is_int(value) or (kind != "int" and value < 0) or abs(value) > 10**6:
            raise MalformedAction("malformed.not_number", field=field)
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise MalformedAction("malformed.not_bool", field=field)
        return value
    if kind == "seats":
        return tuple(_parse_field("seat", field, v, cat, False) for v in _list(value, field))
    if kind == "dice":
        dice = _list(value, field)
        if not all(is_int(d) and 1 <= d <= 6 for d in dice):
            raise MalformedAction("malformed.bad_die", field=field)
        return tuple(dice)
    if kind == "cards":
        return tuple(_one_of(c, cat.all_cards, "card", field) for c in _list(value, field))
    if kind == "michel_cards":
        return tuple(_one_of(c, cat.michel_cards, "michel_card", field) for c in _list(value, field))
    if kind == "outcomes":
        return parse_outcomes(value, cat, MAX_OUTCOMES)
    if kind == "changes":
        changes = _list(value, field)
        if not all(isinstance(c, dict) and all(_is_edit_value(v) for v in c.values()) for c in changes):
            raise MalformedAction("malformed.bad_changes")
        return tuple(changes)
    if kind == "any":
        if isinstance(value, list) and all(_is_option_part(v) for v in value):
            return tuple(value)
        if not _is_option_part(value):
            raise MalformedAction("malformed.bad_option")
        return value
    if kind in ("ruling", "text", "name"):
        return _parse_text(kind, field, value)
    vocab = {
        "card": cat.all_cards,
        "place": cat.places,
        "tool": cat.tools,
        "gang": cat.gangs,
        "ability": cat.ability_gang,
        "recipe": cat.recipes,
        "neutral": cat.neutrals,
        "background": cat.backgrounds,
        "action_card": cat.action_cards,
        "effect": EFFECTS,
        "choice": CHOICES,
    }[kind]
    return _one_of(value, vocab, kind, field)


def parse_action(data: Any, catalog: Catalog | None = None) -> Action:
    """Build an Action from its JSON object, or raise MalformedAction saying what is wrong."""
    cat = catalog or load_catalog()
    odd = misshapen(data, "action")
    if odd is not None:
        raise MalformedAction(odd.key, **odd.params)
    if not isinstance(data, dict):
        raise MalformedAction("malformed.not_object")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedAction("malformed.unknown_type", value=_short(kind))
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields) - {"type"})
    if unknown:
        raise MalformedAction("malformed.unknown_field", field=unknown[0], action=kind)
    values: dict[str, Any] = {}
    for name, f in fields.items():
        required = f.default is dataclasses.MISSING
        if name not in data:
            if required:
                raise MalformedAction("malformed.missing_field", field=name, action=kind)
            continue
        field_kind = cls.KINDS.get(name) or FIELD_KINDS[name]
        optional = not required and f.default is None
        values[name] = _parse_field(field_kind, name, data[name], cat, optional)
    if values.get("ruling") and not values.get("force"):
        raise MalformedAction("malformed.ruling_without_force")
    return cls(**values)
