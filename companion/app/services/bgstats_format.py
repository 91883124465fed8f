"""What BG Stats takes, written down as checks: the push link's JSON (as its support page
documents it) and its JSON file format (as its own export writes it). `link_problems` and
`file_problems` say what a play does wrong (an empty list: nothing); the app serves nothing they
find a problem in, and the tests hold every play the app makes to them.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qs, urlsplit

DATE = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")
PUSH_HOSTS = {("https", "app.bgstatsapp.com"), ("bgstats", "app.bgstatsapp.com")}
PUSH_PATH = "/createPlay.html"

Check = Callable[[Any], bool]
Spec = tuple[Mapping[str, Any], Mapping[str, Any]]  # (required fields, optional fields): a check or a type each


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _name(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _whole(low: int) -> Check:
    return lambda value: isinstance(value, int) and not isinstance(value, bool) and value >= low


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _date(value: Any) -> bool:
    return isinstance(value, str) and DATE.match(value) is not None


def _uuid(value: Any) -> bool:
    try:
        return isinstance(value, str) and str(uuid.UUID(value)) == value
    except ValueError:
        return False


def _list(value: Any) -> bool:
    return isinstance(value, list)


# The push link's JSON: required fields, then the optional ones.
PUSH: Spec = (
    {"sourceName": _name, "sourcePlayId": _name, "playDate": _date, "game": dict, "players": _list},
    {"durationMin": _whole(0), "board": _text, "comments": _text, "location": _text},
)
PUSH_GAME: Spec = (
    {"name": _name, "sourceGameId": _name, "highestWins": _flag, "noPoints": _flag},
    {"bggId": _whole(1)},
)
PUSH_PLAYER: Spec = (
    {"name": _name, "sourcePlayerId": _name, "startPlayer": _flag, "winner": _flag},
    {"rank": _whole(1), "score": _number, "role": _text, "team": _text},
)
# The file: the parts BG Stats' JSON format holds, then each entry's fields.
FILE: Spec = ({"games": _list, "players": _list, "locations": _list, "plays": _list}, {"tags": _list, "groups": _list})
FILE_GAME: Spec = (
    {
        "id": _whole(1),
        "uuid": _uuid,
        "name": _name,
        "bggId": _whole(0),
        "highestWins": _flag,
        "noPoints": _flag,
        "isBaseGame": lambda v: v in (0, 1) and not isinstance(v, bool),
        "isExpansion": lambda v: v in (0, 1) and not isinstance(v, bool),
        "modificationDate": _date,
    },
    {"bggName": _text, "usesTeams": _flag, "cooperative": _flag},
)
FILE_PLAYER: Spec = (
    {"id": _whole(1), "uuid": _uuid, "name": _name, "isAnonymous": _flag, "modificationDate": _date},
    {},
)
FILE_PLAY: Spec = (
    {
        "uuid": _uuid,
        "gameRefId": _whole(1),
        "playDate": _date,
        "durationMin": _whole(0),
        "usesTeams": _flag,
        "expansionPlays": _list,
        "playerScores": _list,
    },
    {
        "entryDate": _date,
        "modificationDate": _date,
        "manualWinner": _flag,
        "ignored": _flag,
        "rounds": _whole(0),
        "bggId": _whole(0),
        "board": _text,
        "comments": _text,
        "locationRefId": _whole(0),
    },
)
FILE_SCORE: Spec = (
    {
        "playerRefId": _whole(1),
        "score": lambda v: isinstance(v, str) and re.fullmatch(r"-?\d+(\.\d+)?", v) is not None,
        "winner": _flag,
        "rank": _whole(1),
        "seatOrder": _whole(1),
        "startPlayer": _flag,
    },
    {"newPlayer": _flag, "team": _text, "role": _text},
)
FILE_EXPANSION: Spec = ({"gameRefId": _whole(1), "bggId": _whole(0)}, {})


def _shape(value: Any, spec: Spec, where: str) -> list[str]:
    """Problems of one object against (required fields, optional fields): a field missing, of
    the wrong kind, or unknown to the format."""
    if not isinstance(value, dict):
        return [f"{where} is not an object"]
    required, optional = spec
    problems = [f"{where}.{key} is missing" for key in required if key not in value]
    for key, field in value.items():
        check = required.get(key, optional.get(key))
        if check is None:
            problems.append(f"{where}.{key} is not a field of the format")
        elif not (isinstance(field, check) if isinstance(check, type) else check(field)):
            problems.append(f"{where}.{key} has a wrong value: {field!r}")
    return problems


def push_problems(data: Any) -> list[str]:
    """What the push link's JSON does wrong."""
    problems = _shape(data, PUSH, "play")
    if problems:
        return problems
    problems += _shape(data["game"], PUSH_GAME, "play.game")
    if not data["players"]:
        problems.append("play.players is empty")
    for i, player in enumerate(data["players"]):
        problems += _shape(player, PUSH_PLAYER, f"play.players[{i}]")
    return problems


def link_problems(link: str) -> list[str]:
    """What a push link does wrong: its address, then the JSON it carries."""
    parts = urlsplit(link)
    if (parts.scheme, parts.netloc) not in PUSH_HOSTS or parts.path != PUSH_PATH:
        return [f"{parts.scheme}://{parts.netloc}{parts.path} is not BG Stats' push address"]
    data = parse_qs(parts.query).get("data")
    if not data or len(data) != 1:
        return ["the link carries no single data parameter"]
    try:
        return push_problems(json.loads(data[0]))
    except ValueError:
        return ["the data parameter is not JSON"]


def file_problems(data: Any) -> list[str]:
    """What a file in BG Stats' JSON format does wrong: each part's entries, then whether every
    reference names an entry (a play's game a base game, its expansions expansions)."""
    problems = _shape(data, FILE, "file")
    if problems:
        return problems
    for part, spec in (("games", FILE_GAME), ("players", FILE_PLAYER), ("plays", FILE_PLAY)):
        for i, entry in enumerate(data[part]):
            problems += _shape(entry, spec, f"{part}[{i}]")
    if problems:
        return problems
    games = {g["id"]: g for g in data["games"]}
    players = {p["id"] for p in data["players"]}
    if len(games) != len(data["games"]) or len(players) != len(data["players"]):
        problems.append("two entries share an id")
    for i, play in enumerate(data["plays"]):
        problems += _play_references(play, games, players, f"plays[{i}]")
    return problems


def _play_references(play: dict[str, Any], games: dict[int, Any], players: set[int], where: str) -> list[str]:
    problems = []
    if games.get(play["gameRefId"], {}).get("isBaseGame") != 1:
        problems.append(f"{where}.gameRefId names no base game")
    for j, expansion in enumerate(play["expansionPlays"]):
        problems += _shape(expansion, FILE_EXPANSION, f"{where}.expansionPlays[{j}]")
        named = expansion.get("gameRefId") if isinstance(expansion, dict) else None
        if not isinstance(named, int) or games.get(named, {}).get("isExpansion") != 1:
            problems.append(f"{where}.expansionPlays[{j}] names no expansion")
    if not play["playerScores"]:
        problems.append(f"{where}.playerScores is empty")
    for j, score in enumerate(play["playerScores"]):
        problems += _shape(score, FILE_SCORE, f"{where}.playerScores[{j}]")
        if isinstance(score, dict) and score.get("playerRefId") not in players:
            problems.append(f"{where}.playerScores[{j}] names no player")
    return problems
