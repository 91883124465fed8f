"""Rulesets: the numbers of the game (VAR-1..3).

A ruleset is a preset from the catalog (`official`, `online-simplified`) with a table's house
rules laid over it. Every number the engine uses comes from here, so a house rule is a value,
never a code change, and it is saved with the game's configuration.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .catalog import Catalog, load_catalog
from .errors import ConfigError
from .shape import is_id, is_int

PRESETS = ("official", "online-simplified")
PUNISHMENT_CHOOSERS = ("spender", "victim")


@dataclass(frozen=True)
class BuyOffer:
    price: int
    card: str
    count: int


@dataclass(frozen=True, eq=False)  # hashed by identity (its mappings are read-only views)
class Ruleset:
    preset: str
    targets: Mapping[int, int]
    team_target: int | None
    starting_hand: int
    hand_limit: int
    trauma_hand_limit: int
    actions_per_turn: int
    solitary_actions: int
    starting_cigarettes: int
    max_beatings: int
    craft_once_per_turn: bool
    team_mode: bool
    buy: Mapping[str, BuyOffer]
    sell: Mapping[str, int] | None  # None: the printed value (official); else a fixed table (VAR-2)
    bribe_cost: int
    neutral_start: str
    neutral_move_optional: bool
    neutral_destination: str  # "ask" the mover, or "random" (fully automatic)
    michel_deck: Mapping[str, int]
    team_die_faces: Mapping[int, tuple[str, ...]]  # Place ids or base Place names, per face
    search: Mapping[str, int]  # Search value overrides per Place id
    punishment_choice: str  # who picks the Punishment (OFF-3): the "spender" of the token or the "victim"

    def target(self, players: int, team: bool = False) -> int:
        if team and self.team_target is not None:
            return self.team_target
        return self.targets[players]

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "targets": {str(k): v for k, v in self.targets.items()},
            "team_target": self.team_target,
            "starting_hand": self.starting_hand,
            "hand_limit": self.hand_limit,
            "trauma_hand_limit": self.trauma_hand_limit,
            "actions_per_turn": self.actions_per_turn,
            "solitary_actions": self.solitary_actions,
            "starting_cigarettes": self.starting_cigarettes,
            "max_beatings": self.max_beatings,
            "craft_once_per_turn": self.craft_once_per_turn,
            "team_mode": self.team_mode,
            "buy": {k: {"price": o.price, "card": o.card, "count": o.count} for k, o in self.buy.items()},
            "sell": dict(self.sell) if self.sell is not None else None,
            "bribe_cost": self.bribe_cost,
            "neutral_start": self.neutral_start,
            "neutral_move_optional": self.neutral_move_optional,
            "neutral_destination": self.neutral_destination,
            "michel_deck": dict(self.michel_deck),
            "team_die_faces": {str(k): list(v) for k, v in self.team_die_faces.items()},
            "search": dict(self.search),
            "punishment_choice": self.punishment_choice,
        }


HOUSE_RULE_KEYS = frozenset(Ruleset.__dataclass_fields__) - {"preset"}


def _preset_values(name: str, catalog: Catalog) -> dict[str, Any]:
    spec = catalog.presets.get(name)
    if spec is None:
        raise ConfigError("VAR-1", "config.unknown_ruleset", ruleset=name, presets=", ".join(PRESETS))
    base = _preset_values(spec["base"], catalog) if "base" in spec else {}
    return {**base, **{k: v for k, v in spec.items() if not k.startswith("_") and k != "base"}}


def _int(value: Any, what: str, low: int = 0, high: int = 1000) -> int:
    if not is_int(value) or not low <= value <= high:
        raise ConfigError("VAR-3", "config.house_rule_number", house_rule=what, low=low, high=high)
    return value


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError("VAR-3", "config.house_rule_shape", house_rule=what)
    return value


def _player_count(key: Any) -> int:
    """A `targets` key: a player count as JSON writes it ("4"), or an int from Python; else -1."""
    if is_int(key):
        return key
    return int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else -1


def _die_faces(value: Any, catalog: Catalog) -> Mapping[int, tuple[str, ...]]:
    if (
        not isinstance(value, Mapping)
        or sorted(str(k) for k in value) != [str(f) for f in range(1, 7)]
        or any(
            not isinstance(v, list) or len(v) < 2 or not all(is_id(p, catalog.places) for p in v)
            for v in value.values()
        )
    ):
        raise ConfigError("VAR-3", "config.house_rule_shape", house_rule="team_die_faces")
    return MappingProxyType({int(k): tuple(v) for k, v in value.items()})


def build_ruleset(preset: str, house_rules: Mapping[str, Any] | None = None, catalog: Catalog | None = None) -> Ruleset:
    """Lay house rules over a preset, validating every value (ConfigError on a bad one)."""
    catalog = catalog or load_catalog()
    values = _preset_values(preset, catalog)
    for key, value in (house_rules or {}).items():
        if key not in HOUSE_RULE_KEYS:
            raise ConfigError("VAR-3", "config.unknown_house_rule", house_rule=key)
        values[key] = value
    targets = values["targets"]
    if not isinstance(targets, Mapping):
        raise ConfigError("VAR-3", "config.house_rule_shape", house_rule="targets")
    targets = {
        _int(_player_count(k), "targets (player count)", 2, 6): _int(v, "targets", 1, 100) for k, v in targets.items()
    }
    missing = [n for n in range(2, 7) if n not in targets]
    if missing:
        raise ConfigError("VAR-3", "config.house_rule_target_missing", players=missing[0])
    buy = values["buy"]
    if not isinstance(buy, Mapping):
        raise ConfigError("VAR-3", "config.house_rule_shape", house_rule="buy")
    offers: dict[str, BuyOffer] = {}
    for item, offer in buy.items():
        if not isinstance(offer, Mapping) or not is_id(offer.get("card"), catalog.board_piles):
            raise ConfigError("VAR-3", "config.house_rule_shape", house_rule=f"buy.{item}")
        offers[item] = BuyOffer(
            _int(offer.get("price"), f"buy.{item}.price", 0, 100),
            offer["card"],
            _int(offer.get("count", 1), f"buy.{item}.count", 1, 20),
        )
    sell = values["sell"]
    if sell is not None and (not isinstance(sell, Mapping) or "other" not in sell):
        raise ConfigError("VAR-3", "config.house_rule_shape", house_rule="sell")
    michel_deck = values["michel_deck"]
    if (
        not isinstance(michel_deck, Mapping)
        or any(k not in catalog.michel_cards for k in michel_deck)
        or sum(_int(n, "michel_deck", 0, 100) for n in michel_deck.values()) == 0
    ):
        raise ConfigError("MICH-7", "config.house_rule_shape", house_rule="michel_deck")
    if not is_id(values["neutral_start"], catalog.places):
        raise ConfigError("VAR-3", "config.house_rule_shape", house_rule="neutral_start")
    if not is_id(values["neutral_destination"], ("ask", "random")):
        raise ConfigError("VAR-3", "config.house_rule_shape", house_rule="neutral_destination")
    if values["punishment_choice"] not in PUNISHMENT_CHOOSERS:
        raise ConfigError("VAR-3", "config.house_rule_shape", house_rule="punishment_choice")
    search = values["search"]
    if not isinstance(search, Mapping) or any(p not in catalog.places for p in search):
        raise ConfigError("VAR-3", "config.house_rule_shape", house_rule="search")
    team_target = values["team_target"]
    return Ruleset(
        preset=preset,
        targets=MappingProxyType(targets),
        team_target=None if team_target is None else _int(team_target, "team_target", 1, 100),
        starting_hand=_int(values["starting_hand"], "starting_hand", 0, 20),
        hand_limit=_int(values["hand_limit"], "hand_limit", 0, 100),
        trauma_hand_limit=_int(values["trauma_hand_limit"], "trauma_hand_limit", 0, 100),
        actions_per_turn=_int(values["actions_per_turn"], "actions_per_turn", 1, 10),
        solitary_actions=_int(values["solitary_actions"], "solitary_actions", 0, 10),
        starting_cigarettes=_int(values["starting_cigarettes"], "starting_cigarettes", 0, 1000),
        max_beatings=_int(values["max_beatings"], "max_beatings", 1, 10),
        craft_once_per_turn=_flag(values["craft_once_per_turn"], "craft_once_per_turn"),
        team_mode=_flag(values["team_mode"], "team_mode"),
        buy=MappingProxyType(offers),
        sell=None if sell is None else MappingProxyType({k: _int(v, f"sell.{k}", 0, 100) for k, v in sell.items()}),
        bribe_cost=_int(values["bribe_cost"], "bribe_cost", 0, 100),
        neutral_start=values["neutral_start"],
        neutral_move_optional=_flag(values["neutral_move_optional"], "neutral_move_optional"),
        neutral_destination=values["neutral_destination"],
        michel_deck=MappingProxyType(dict(michel_deck)),
        team_die_faces=_die_faces(values["team_die_faces"], catalog),
        search=MappingProxyType({p: _int(v, f"search.{p}", 0, 10) for p, v in search.items()}),
        punishment_choice=values["punishment_choice"],
    )


def refusal_house_rules(keys: Iterable[str], catalog: Catalog | None = None) -> dict[str, Any] | None:
    """The house rules under which every refusal in `keys` (violation keys) is legal, where the
    ruleset has a setting for each (the catalog's `refusal_house_rules`); None when one has none.
    A table that overrules such a refusal may keep its ruling for the next games."""
    cat = catalog or load_catalog()
    out: dict[str, Any] = {}
    for key in dict.fromkeys(keys):
        rules = cat.refusal_house_rules.get(key)
        if rules is None:
            return None
        out.update(rules)
    return out or None
