"""A finished game as BG Stats takes it: its push link, and a file in its JSON import format.

BG Stats documents a push link for apps and websites ("Push plays to BG Stats from other apps or
websites", bgstatsapp.com/support): `https://app.bgstatsapp.com/createPlay.html?data=<data>` (or
the same with the `bgstats://` scheme), `<data>` a URL-encoded JSON object with `sourceName`,
`sourcePlayId`, `playDate` ("YYYY-MM-DD HH:MM:SS"), `durationMin`, `board`, `comments`, `game`
(`name`, `bggId`, `sourceGameId`, `highestWins`, `noPoints`) and `players` (`name`,
`sourcePlayerId`, `startPlayer`, `rank`, `score`, `role`, `winner`). BG Stats refuses a player
without `startPlayer`, so every player has one. The app matches games and players by the
source's ids (kept stable here: a player's is their name) and remembers the matches.

Where no BG Stats opens (a laptop), the same play goes in a file of BG Stats' JSON format (its
export, which it imports): `games`, `players`, `locations` and `plays`, each play naming its
game, its expansions (`expansionPlays`) and its players' scores (`playerScores`) by ids.

Tunnel points are the scores; the game's name, BoardGameGeek ids and expansions come from the
catalog (`box`), the modules played make the `board` (BG Stats' variant field). Nothing here
sends anything: the player's own device opens the link or takes the file.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from companion.i18n import name, render
from companion.rules import load_catalog
from storage import LogEntry, Store, Table

SOURCE_NAME = "Dig Your Way Out companion"  # part of BG Stats' remembered matches: never rename it
SOURCE_GAME_ID = "dig-your-way-out"
PUSH_ADDRESS = "https://app.bgstatsapp.com/createPlay.html"
PUSH_SCHEME_ADDRESS = "bgstats://app.bgstatsapp.com/createPlay.html"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
_IDS = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/dyo-companion/bgstats")  # the file's stable uuids


class NotFinished(ValueError):
    """Only a finished game is a play to log."""


@dataclass(frozen=True)
class Result:
    seat: int
    name: str
    score: int  # Tunnel points
    winner: bool
    rank: int
    start: bool  # held the first-player token
    team: str | None  # "A" / "B" in Team mode


@dataclass(frozen=True)
class Play:
    game_id: str
    game: str
    bgg_id: int | None
    expansions: tuple[tuple[str, str, int | None], ...]  # (catalog id, name, BoardGameGeek id)
    board: str  # the modules and ruleset played, in the viewer's language
    results: tuple[Result, ...]
    started: datetime
    minutes: int  # 0: not known (a game imported from a file)

    @property
    def teams(self) -> bool:
        return any(r.team for r in self.results)


def read_play(store: Store, game_id: str, lang: str = "en") -> Play:
    """The finished game `game_id` as a play (runs off the loop: it reads the store)."""
    return play_of(store.load(game_id), store.events(game_id), lang)


def play_of(table: Table, entries: Sequence[LogEntry], lang: str = "en") -> Play:
    state = table.game.state
    if state.winner is None:
        raise NotFinished(f"game {table.game_id} is not finished")
    box = load_catalog().box
    config = table.config
    modules = config.get("modules", {})
    in_play = {*modules.get("places", ()), *(["warden"] if modules.get("warden") else [])}
    expansions = tuple(
        (eid, spec["name"], spec.get("bgg_id"))
        for eid, spec in box["expansions"].items()
        if in_play & set(spec.get("contains", ()))
    )
    times = sorted(_utc(e.at) for e in entries) or [datetime.now(UTC)]
    seconds = (times[-1] - times[0]).total_seconds()
    return Play(
        game_id=table.game_id,
        game=box["name"],
        bgg_id=box.get("bgg_id"),
        expansions=expansions,
        board=_board(config, lang),
        results=_results(state, int(config.get("first_player", 0))),
        started=times[0],
        minutes=math.ceil(seconds / 60) if seconds > 0 else 0,
    )


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _results(state: Any, first: int) -> tuple[Result, ...]:
    """Each player's Tunnel points, whether they won (their team, in Team mode) and their rank:
    1 for the winners, then by Tunnel points (a team's together), equal points sharing a rank."""
    winner = state.winner

    def won(p: Any) -> bool:
        return bool(p.seat == winner if isinstance(winner, int) else p.team == winner)

    standing = {p.seat: (won(p), state.team_tunnel(p.team) if p.team else p.tunnel) for p in state.players}
    return tuple(
        Result(
            seat=p.seat,
            name=p.name,
            score=p.tunnel,
            winner=won(p),
            rank=1 + sum(1 for other in standing.values() if other > standing[p.seat]),
            start=p.seat == first,
            team=p.team.upper() if p.team else None,
        )
        for p in state.players
    )


def _board(config: dict[str, Any], lang: str) -> str:
    """The ruleset and modules played, as BG Stats' board/variant: "Official · Michel and Michelle · ..."."""
    modules = config.get("modules", {})
    parts = [render(f"ui.preset_{config.get('ruleset', 'official')}", None, lang)]
    if config.get("house_rules"):
        parts.append(render("bgstats.house_rules", None, lang))
    if modules.get("team"):
        parts.append(render("bgstats.team_mode", None, lang))
    if modules.get("neutrals"):
        parts.append(render(f"ui.neutrals_{modules['neutrals']}", None, lang))
    if modules.get("warden"):
        parts.append(render("bgstats.warden", None, lang))
    parts += [name("place", place, lang) for place in modules.get("places", ())]
    return " · ".join(parts)


# --- the push link ----------------------------------------------------------------------------


def push_data(play: Play, lang: str = "en") -> dict[str, Any]:
    """The play as the push link's JSON."""
    game: dict[str, Any] = {"name": play.game, "sourceGameId": SOURCE_GAME_ID, "highestWins": True, "noPoints": False}
    if play.bgg_id:
        game["bggId"] = play.bgg_id
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.game_id,
        "playDate": play.started.strftime(DATE_FORMAT),
        "board": play.board,
        "game": game,
        "players": [_pushed(r) for r in play.results],
    }
    if play.minutes:
        data["durationMin"] = play.minutes
    if play.expansions:
        data["comments"] = render("bgstats.expansions", {"names": [e[1] for e in play.expansions]}, lang)
    return data


def _pushed(r: Result) -> dict[str, Any]:
    player: dict[str, Any] = {
        "name": r.name,
        "sourcePlayerId": player_id(r.name),
        "startPlayer": r.start,
        "rank": r.rank,
        "score": r.score,
        "role": "",
        "winner": r.winner,
    }
    if r.team:
        player["team"] = r.team
    return player


def push_link(play: Play, lang: str = "en", *, scheme: bool = False) -> str:
    """The link that opens BG Stats' import with this play (`scheme`: the bgstats:// form)."""
    data = json.dumps(push_data(play, lang), ensure_ascii=False, separators=(",", ":"))
    return f"{PUSH_SCHEME_ADDRESS if scheme else PUSH_ADDRESS}?data={quote(data, safe='')}"


def player_id(player: str) -> str:
    """A player's id for BG Stats' matches: their name, as this table writes it at every game."""
    return "player:" + player.strip().casefold()


# --- the file -----------------------------------------------------------------------------------


def play_file(play: Play) -> dict[str, Any]:
    """The play in BG Stats' JSON format: the game and its expansions, the players, the play."""
    stamp = play.started.strftime(DATE_FORMAT)
    games = [_game_entry(1, play.game, play.bgg_id, base=True, teams=play.teams, stamp=stamp)]
    games += [
        _game_entry(i, ename, bgg, base=False, teams=play.teams, stamp=stamp)
        for i, (_, ename, bgg) in enumerate(play.expansions, start=2)
    ]
    players = [
        {
            "id": i,
            "uuid": _uuid("player", player_id(r.name)),
            "name": r.name,
            "isAnonymous": False,
            "modificationDate": stamp,
        }
        for i, r in enumerate(play.results, start=1)
    ]
    scores = [
        {
            "playerRefId": i,
            "score": str(r.score),
            "winner": r.winner,
            "rank": r.rank,
            "seatOrder": r.seat + 1,
            "startPlayer": r.start,
            "newPlayer": False,
            "team": r.team or "",
            "role": "",
        }
        for i, r in enumerate(play.results, start=1)
    ]
    entry = {
        "uuid": _uuid("play", play.game_id),
        "gameRefId": 1,
        "playDate": stamp,
        "entryDate": stamp,
        "modificationDate": stamp,
        "durationMin": play.minutes,
        "usesTeams": play.teams,
        "manualWinner": False,
        "ignored": False,
        "rounds": 0,
        "bggId": 0,
        "board": play.board,
        "expansionPlays": [{"gameRefId": g["id"], "bggId": g["bggId"]} for g in games[1:]],
        "playerScores": scores,
    }
    return {"games": games, "players": players, "locations": [], "plays": [entry], "tags": [], "groups": []}


def file_name(play: Play) -> str:
    return f"bgstats-{SOURCE_GAME_ID}-{play.started.strftime('%Y%m%d-%H%M')}.json"


def _game_entry(ref: int, title: str, bgg: int | None, *, base: bool, teams: bool, stamp: str) -> dict[str, Any]:
    return {
        "id": ref,
        "uuid": _uuid("game", title),
        "name": title,
        "bggName": title,
        "bggId": bgg or 0,
        "highestWins": True,
        "noPoints": False,
        "usesTeams": teams,
        "cooperative": False,
        "isBaseGame": int(base),
        "isExpansion": int(not base),
        "modificationDate": stamp,
    }


def _uuid(kind: str, key: str) -> str:
    """The same game, player or play always gets the same uuid: an import again updates it."""
    return str(uuid.uuid5(_IDS, f"{kind}:{key}"))
