"""Every finished game in one portable file, and that file read back as new games.

The file is the game file of PROTOCOL.md (what `export_game` writes and `import_game` reads) for
each finished game, in one JSON object, so any version of the app that reads a game file reads
each game of it:

    {"format": "dyo-companion finished games", "version": 1, "games": [{"config", "actions"}, ...]}

Importing is all or nothing: every game is replayed and stored as a new game; if one does not
replay, the ones stored before it are deleted again and the error names the game. A game the
database already has (the same configuration and actions, its seed included) is skipped, so a
backup imported twice, or into the database it came from, adds nothing twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .errors import BadGameFile
from .store import Store

ARCHIVE_FORMAT = "dyo-companion finished games"
ARCHIVE_VERSION = 1
MAX_GAMES = 10_000


@dataclass(frozen=True)
class Imported:
    """What an import did: the ids of the games it stored, and how many it found already here."""

    games: tuple[str, ...]
    skipped: int


def export_finished(store: Store) -> dict[str, Any]:
    """Every finished game, the earliest first, as one archive."""
    finished = sorted(store.list_games("finished"), key=lambda g: (g.finished or g.created, g.id))
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "games": [store.export_game(g.id) for g in finished],
    }


def is_archive(data: Any) -> bool:
    """Whether a file's JSON claims to be an archive (a single game file has no "format")."""
    return isinstance(data, dict) and data.get("format") == ARCHIVE_FORMAT


def import_archive(store: Store, data: Any) -> Imported:
    """Store every game of an archive as a new game (BadGameFile, and nothing stored, when the
    archive or any of its games is not one)."""
    games = _games_of(data)
    known = {_fingerprint(store.export_game(g.id)) for g in store.list_games()}
    stored: list[str] = []
    skipped = 0
    try:
        for number, game in enumerate(games, start=1):
            if _fingerprint(game) in known:
                skipped += 1
                continue
            try:
                stored.append(store.import_game(game))
            except BadGameFile as error:
                raise BadGameFile(f"game {number} of the archive: {error.message}") from None
            known.add(_fingerprint(game))
    except BaseException:
        for game_id in stored:  # all or nothing: the games stored before the bad one go again
            store.delete_game(game_id)
        raise
    return Imported(tuple(stored), skipped)


def _games_of(data: Any) -> list[Any]:
    if not is_archive(data):
        raise BadGameFile(f'an archive of finished games is a JSON object with "format": "{ARCHIVE_FORMAT}"')
    extra = sorted(set(data) - {"format", "version", "games"})
    if extra:
        raise BadGameFile(f"an archive has no field {extra[0]!r} (only format, version and games)")
    if data.get("version") != ARCHIVE_VERSION:
        raise BadGameFile(f"this app reads archives of version {ARCHIVE_VERSION}, not {data.get('version')!r}")
    games = data.get("games")
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise BadGameFile(f'"games" must be a list of at most {MAX_GAMES} game files')
    return games


def _fingerprint(game: Any) -> str:
    """A game file as one canonical text: two files of the same game give the same text."""
    return json.dumps(game, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
