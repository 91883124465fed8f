"""The game configuration of PROTOCOL.md: validated once, before a game starts.

An impossible configuration raises ConfigError naming the rule it breaks (SET-1 for the player
count, TEAM-1 for uneven teams, TEAM-7 for the Gambling Cells in Team mode, DI-1 for an unknown
Place, ...). The normalised form is what a game stores and replays from.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from .catalog import Catalog, load_catalog
from .errors import ConfigError
from .ruleset import Ruleset, build_ruleset
from .shape import is_id, is_int, misshapen

PLAYER_START_FIELDS = (
    "place",
    "hand",
    "cigarettes",
    "beatings",
    "tunnel",
    "gang",
    "ability",
    "tokens",
    "background",
    "trauma",
    "dug",
    "color",
)
START_FIELDS = ("warden", "neutrals", "discard", "gang_piles", "michel_deck", "trauma_stack")
MAX_NAME = 40
# The rules a game is judged by, fixed when it is created and kept in its configuration: replay
# judges every entry of a stored game again, so a rule judged more strictly later applies to new
# games only, and a stored game replays exactly as it was played. A configuration without one is
# a new game's: the latest.
#   1: the rules as first released.
#   2: a correction adds no copy of a card that the box has no unseen copy of (SUP-1), and a win
#      during a combat discards the Weapons laid in it (CMB-3) instead of dropping them.
#   3: a turn begun in Solitary Confinement crafts nowhere, not even where an exception lifts the
#      Cell Block's rule ("I Never Liked Rules.", the other team's Cell Block): SOL-1 binds the
#      whole turn. A neutral that "Get Out of Here!" moves ends a move: it extorts every player at
#      its destination, not only those the card brought (MICH-3). The bonus of "This Is My Turf."
#      sends every other standee in the Cell Block to Solitary, the neutrals' and the Warden's
#      too, as "Get Out of Here!" moves them (a neutral sent there extorts the players there).
RULES_VERSION = 3


@dataclass(frozen=True)
class GameConfig:
    players: tuple[Mapping[str, Any], ...]
    ruleset: Ruleset
    neutrals: int
    team: bool
    warden: bool
    places: tuple[str, ...]
    teams: Mapping[str, tuple[int, ...]] | None
    seed: int
    first_player: int
    start: Mapping[str, Any]
    normalised: Mapping[str, Any]


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(None, "config.not_object", what=what)
    return value


def _known_keys(obj: Mapping[str, Any], allowed: Collection[str], what: str) -> None:
    extra = sorted(set(obj) - set(allowed))
    if extra:
        raise ConfigError(None, "config.unknown_key", key=extra[0], what=what)


def parse_config(data: Any, catalog: Catalog | None = None) -> GameConfig:
    """The configuration checked and normalised; its shape first, so the rest reads sane JSON."""
    cat = catalog or load_catalog()
    odd = misshapen(data, "config")
    if odd is not None:
        raise ConfigError(None, odd.key, **odd.params)
    data = _object(data, "config")
    _known_keys(
        data,
        ("players", "ruleset", "house_rules", "modules", "teams", "seed", "first_player", "start", "rules_version"),
        "config",
    )
    entries = _players(data.get("players"))

    preset = data.get("ruleset", "official")
    if not isinstance(preset, str):
        raise ConfigError("VAR-1", "config.unknown_ruleset", ruleset=str(preset), presets="official, online-simplified")
    house_rules = _object(data.get("house_rules", {}), "house_rules")
    ruleset = build_ruleset(preset, house_rules, cat)
    neutrals, team, warden, places = _modules(_object(data.get("modules", {}), "modules"), cat)
    teams = _team_mode(data.get("teams"), team, ruleset, preset, len(entries), places)

    seed = data.get("seed", 0)
    if not is_int(seed) or not 0 <= seed < 2**63:
        raise ConfigError(None, "config.bad_seed")
    first = data.get("first_player", 0)
    if not is_int(first) or not 0 <= first < len(entries):
        raise ConfigError("SET-2", "config.bad_first_player", count=len(entries))
    start = _object(data.get("start", {}), "start")
    _known_keys(start, START_FIELDS, "start")
    version = data.get("rules_version", RULES_VERSION)
    if not is_int(version) or not 1 <= version <= RULES_VERSION:
        raise ConfigError(None, "config.bad_rules_version", latest=RULES_VERSION)

    normalised = deepcopy(
        {
            "players": entries,
            "ruleset": preset,
            "house_rules": dict(house_rules),
            "modules": {"neutrals": neutrals, "team": team, "warden": warden, "places": list(places)},
            "teams": None if teams is None else {k: list(v) for k, v in teams.items()},
            "seed": seed,
            "first_player": first,
            "start": dict(start),
            "rules_version": version,
        }
    )  # a copy: the caller's dict may change later, the game's configuration may not
    return GameConfig(tuple(entries), ruleset, neutrals, team, warden, places, teams, seed, first, start, normalised)


def _players(players: Any) -> list[dict[str, Any]]:
    """The seats: two to six, each with a name of its own (stripped; `Player N` when none is given)."""
    if not isinstance(players, list) or not 2 <= len(players) <= 6:
        raise ConfigError("SET-1", "config.player_count", count=len(players) if isinstance(players, list) else 0)
    entries: list[dict[str, Any]] = []
    names: set[str] = set()
    for seat, entry in enumerate(players):
        entry = _object(entry, f"players[{seat}]")
        _known_keys(entry, ("name",) + PLAYER_START_FIELDS, f"players[{seat}]")
        name = entry.get("name", f"Player {seat + 1}")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise ConfigError("SET-1", "config.bad_name", seat=seat, max=MAX_NAME)
        if name.strip().casefold() in names:
            raise ConfigError("SET-1", "config.duplicate_name", name=name)
        names.add(name.strip().casefold())
        entries.append({**entry, "name": name.strip()})
    return entries


def _modules(modules: Mapping[str, Any], cat: Catalog) -> tuple[int, bool, bool, tuple[str, ...]]:
    """The modules in play: the neutrals, Team mode, the Warden and the Dig In Places (in the
    catalog's order, whatever order they were given in)."""
    _known_keys(modules, ("neutrals", "team", "warden", "places"), "modules")
    neutrals = modules.get("neutrals", 0)
    if not is_int(neutrals) or neutrals not in (0, 1, 2):
        raise ConfigError("MICH-1", "config.neutral_count", count=str(neutrals))
    team = modules.get("team", False)
    warden = modules.get("warden", False)
    if not isinstance(team, bool) or not isinstance(warden, bool):
        raise ConfigError(None, "config.not_bool", what="modules.team / modules.warden")
    places = modules.get("places", [])
    if not isinstance(places, list):
        raise ConfigError("DI-1", "config.bad_places")
    for place in places:
        if not is_id(place, cat.dig_in_places):
            raise ConfigError("DI-1", "config.unknown_place", place=str(place), places=", ".join(cat.dig_in_places))
    if len(set(places)) != len(places):
        raise ConfigError("DI-1", "config.duplicate_place")
    return neutrals, team, warden, tuple(p for p in cat.dig_in_places if p in places)  # a stable order


def _team_mode(
    value: Any, team: bool, ruleset: Ruleset, preset: str, count: int, places: tuple[str, ...]
) -> Mapping[str, tuple[int, ...]] | None:
    """The teams in Team mode (None without it), once the preset, the player count and the
    Places allow it."""
    if not team:
        if value is not None:
            raise ConfigError("TEAM-1", "config.teams_without_team_mode")
        return None
    if not ruleset.team_mode:
        raise ConfigError("VAR-2", "config.team_not_in_preset", ruleset=preset)
    if count not in (4, 6):
        raise ConfigError("TEAM-1", "config.team_player_count", count=count)
    if "gambling_cells" in places:
        raise ConfigError("TEAM-7", "config.team_gambling_cells")
    return _teams(value, count)


def _teams(value: Any, count: int) -> Mapping[str, tuple[int, ...]]:
    if value is None:  # default: alternate seats, so teammates never sit side by side
        return {"a": tuple(range(0, count, 2)), "b": tuple(range(1, count, 2))}
    value = _object(value, "teams")
    if sorted(value) != ["a", "b"] or not all(isinstance(v, list) for v in value.values()):
        raise ConfigError("TEAM-1", "config.teams_shape")
    a, b = value["a"], value["b"]
    seats = sorted(a + b) if all(is_int(s) for s in a + b) else None
    if seats != list(range(count)) or len(a) != len(b):
        raise ConfigError("TEAM-1", "config.teams_uneven", count=count)
    return {"a": tuple(a), "b": tuple(b)}
