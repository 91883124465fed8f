"""The game's content (cards, Places, recipes, prices, decks) loaded once from catalog.json.

Everything a table might want to correct lives in the JSON file, not in code: the engine only
reads these structures. Entries whose key starts with "_" are notes for humans.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .compiled import SOURCES

CATALOG_FILE = SOURCES / "catalog.json"

PLACE_FLAGS = ("no_craft", "no_extort", "no_search", "no_join_gang", "one_action", "solitary", "office")


@dataclass(frozen=True, slots=True)
class PlaceInfo:
    """One Place of the catalog; a Dig In or Team Place inherits what it does not say (DI-3)."""

    id: str
    role: str  # the base Place it stands for: rules naming that Place apply to it (DI-2)
    search: int
    faces: tuple[int, ...]
    actions: frozenset[str]
    tokens: tuple[str, ...] = ()
    team: str | None = None
    no_craft: bool = False
    no_extort: bool = False
    no_search: bool = False
    no_join_gang: bool = False
    one_action: bool = False
    solitary: bool = False
    office: bool = False


@dataclass(frozen=True, slots=True)
class Recipe:
    id: str
    materials: tuple[str, ...]
    product: str
    count: int
    ability: str | None = None


@dataclass(frozen=True, slots=True)
class Gang:
    id: str
    accessories: frozenset[str]
    required: int
    abilities: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MichelCard:
    id: str
    knife: bool
    tools: tuple[str, ...]


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one catalog per process
class Catalog:
    tools: Mapping[str, int]
    weapons: frozenset[str]
    accessories: frozenset[str]
    search_deck: Mapping[str, int]
    board_piles: Mapping[str, int]
    background_deck_size: int
    places: Mapping[str, PlaceInfo]
    dig_in_places: tuple[str, ...]
    die_faces: Mapping[int, tuple[str, ...]]
    office_beside: Mapping[str, str]
    warden_start: Mapping[str, str]  # the role of the Place the Warden starts in (WARD-1, TEAM-7)
    recipes: Mapping[str, Recipe]
    substitutes: Mapping[str, Mapping[str, frozenset[str]]]
    gangs: Mapping[str, Gang]
    ability_gang: Mapping[str, str]
    abilities_as_action: frozenset[str]
    ability_values: Mapping[str, int]
    backgrounds: Mapping[str, Mapping[str, Any]]
    action_cards: Mapping[str, Mapping[str, Any]]
    michel_cards: Mapping[str, MichelCard]
    neutrals: tuple[str, ...]
    tokens: Mapping[str, Mapping[str, Any]]
    traumas: tuple[str, ...]
    hand_limit_traumas: frozenset[str]  # PSY-3: those that hold a hand to the ruleset's `trauma_hand_limit`
    warden_illegal_actions: frozenset[str]
    presets: Mapping[str, Mapping[str, Any]]
    setup: Mapping[str, Any]  # what the table lays out that no rule above says (setup_checklist)
    box: Mapping[str, Any]  # the game's and its expansions' names and BoardGameGeek ids
    # A refusal the table overrules -> the house rules under which it is legal (where one exists).
    refusal_house_rules: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    # Derived vocabularies, used to validate incoming actions.
    search_cards: frozenset[str] = field(default=frozenset())
    board_cards: frozenset[str] = field(default=frozenset())
    all_cards: frozenset[str] = field(default=frozenset())

    def is_search_card(self, card: str) -> bool:
        """Search-deck cards (named Action cards included) are the only ones a hand can hold unseen."""
        return card in self.search_cards

    @property
    def card_order(self) -> tuple[str, ...]:
        """Every card a hand can hold, in the catalog's order: the board's Tools and Knives, the
        Search deck's cards, then the named Action cards (one order for every list a screen shows)."""
        return tuple(self.board_piles) + tuple(c for c in self.search_deck if c != "action") + tuple(self.action_cards)


def _public(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if not k.startswith("_")}


def _places(raw: Mapping[str, Any]) -> dict[str, PlaceInfo]:
    places: dict[str, PlaceInfo] = {}
    for place_id, spec in _public(raw).items():
        base = _public(raw[spec["replaces"]]) if "replaces" in spec else {}
        merged = {**base, **_public(spec)}
        merged.pop("replaces", None)
        places[place_id] = PlaceInfo(
            id=place_id,
            role=spec.get("replaces", place_id),
            search=merged.get("search", 0),
            faces=tuple(merged.get("faces", ())),
            actions=frozenset(merged.get("actions", ())),
            tokens=tuple(merged.get("tokens", ())),
            team=merged.get("team"),
            **{flag: bool(merged.get(flag, False)) for flag in PLACE_FLAGS},
        )
    return places


@cache
def load_catalog(path: Path = CATALOG_FILE) -> Catalog:
    raw = json.loads(path.read_text(encoding="utf-8"))
    gangs = {
        gid: Gang(gid, frozenset(g["accessories"]), g["required"], tuple(g["abilities"]))
        for gid, g in raw["gangs"].items()
    }
    action_cards = _public(raw["action_cards"])
    search_cards = frozenset(raw["search_deck"]) | frozenset(action_cards)
    board_cards = frozenset(raw["board_piles"])
    return Catalog(
        tools=MappingProxyType(raw["tools"]),
        weapons=frozenset(raw["weapons"]),
        accessories=frozenset(raw["accessories"]),
        search_deck=MappingProxyType(raw["search_deck"]),
        board_piles=MappingProxyType(raw["board_piles"]),
        background_deck_size=raw["background_deck_size"],
        places=MappingProxyType(_places(raw["places"])),
        dig_in_places=tuple(raw["dig_in_places"]),
        die_faces=MappingProxyType({int(k): tuple(v) for k, v in raw["die_faces"].items()}),
        office_beside=MappingProxyType(raw["office_beside"]),
        warden_start=MappingProxyType(raw["warden_start"]),
        recipes=MappingProxyType(
            {
                rid: Recipe(rid, tuple(r["materials"]), r["product"], r["count"], r.get("ability"))
                for rid, r in raw["recipes"].items()
            }
        ),
        substitutes=MappingProxyType(
            {
                ability: {slot: frozenset(cards) for slot, cards in subs.items()}
                for ability, subs in raw["substitutes"].items()
            }
        ),
        gangs=MappingProxyType(gangs),
        ability_gang=MappingProxyType({a: g.id for g in gangs.values() for a in g.abilities}),
        abilities_as_action=frozenset(raw["abilities_as_action"]),
        ability_values=MappingProxyType(raw["ability_values"]),
        backgrounds=MappingProxyType(raw["backgrounds"]),
        action_cards=MappingProxyType(action_cards),
        michel_cards=MappingProxyType(
            {cid: MichelCard(cid, c["knife"], tuple(c["tools"])) for cid, c in raw["michel_cards"].items()}
        ),
        neutrals=tuple(raw["neutrals"]),
        tokens=MappingProxyType(raw["tokens"]),
        traumas=tuple(raw["traumas"]),
        hand_limit_traumas=frozenset(raw["hand_limit_traumas"]),
        warden_illegal_actions=frozenset(raw["warden_illegal_actions"]),
        presets=MappingProxyType(raw["presets"]),
        setup=MappingProxyType(_public(raw["setup"])),
        box=MappingProxyType(_public(raw["box"])),
        refusal_house_rules=MappingProxyType(
            {k: MappingProxyType(rules) for k, rules in raw["refusal_house_rules"].items() if not k.startswith("_")}
        ),
        search_cards=search_cards,
        board_cards=board_cards,
        all_cards=search_cards | board_cards | {"unknown"},
    )
