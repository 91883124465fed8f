"""`dyo-companion games list|export|import|verify|delete|backup|restore|export-all|import-all`: the
stored games from the command line.

The arguments are declared in `companion/cli.py` (so `check` never pays for importing the
database layer); this module runs them. Every failure is one line on standard error: exit 1
for a database problem or an unknown game, 2 for a file that cannot be read or imported and
for a backup or restore refused as asked (backups.py says when).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from companion.gamefile import TooLarge, read_bounded
from companion.rules import BadJson, decode_json

from .backups import PG_RECIPE, Copied, backup, restore
from .database import resolve_url
from .errors import BackupRefused, BadGameFile, GameNotFound, StorageError
from .store import GameInfo, Store

EXIT_STORAGE = 1
EXIT_BAD_FILE = 2


def run_games(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        if args.games_command in ("backup", "restore"):
            return _backups(args, out)
        with Store(getattr(args, "db", None)) as store:
            if args.games_command == "list":
                return _list(store, args.status, args.json, out)
            if args.games_command == "export":
                return _export(store, _game_id(store, args.id), args.file, out)
            if args.games_command == "import":
                print(store.import_game(_read_file(args.file)), file=out)
                return 0
            if args.games_command == "verify":
                problems = store.verify(_game_id(store, args.id))
                for problem in problems:
                    print(problem, file=out)
                print("consistent" if not problems else f"{len(problems)} problem(s)", file=out)
                return 0 if not problems else EXIT_STORAGE
            if args.games_command in ("export-all", "import-all"):
                return _archive(store, args, out)
            if args.games_command == "delete":  # the whole id: a start of it could name the wrong game
                store.delete_game(args.id)
                print(f"deleted {args.id}", file=out)
                return 0
    except (BadGameFile, BackupRefused) as error:
        _one_line(error, err)
        return EXIT_BAD_FILE
    except StorageError as error:
        _one_line(error, err)
        return EXIT_STORAGE
    raise AssertionError(f"unknown games command {args.games_command!r}")


def _archive(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """Every finished game to one file, or such a file back as new games (storage/archive.py)."""
    from .archive import export_finished, import_archive

    if args.games_command == "export-all":
        return _write_out(json.dumps(export_finished(store), ensure_ascii=False, indent=2) + "\n", args.file, out)
    done = import_archive(store, _read_file(args.file))
    for game_id in done.games:
        print(game_id, file=out)
    print(f"{len(done.games)} game(s) imported, {done.skipped} already here", file=out)
    return 0


def _backups(args: argparse.Namespace, out: TextIO) -> int:
    """`games backup FILE` and `games restore FILE [--replace]` (SQLite; PostgreSQL: its own tools)."""
    url = getattr(args, "db", None)
    if resolve_url(url).get_backend_name() != "sqlite":
        raise BackupRefused(f"the database is not a SQLite file: {PG_RECIPE}")
    if args.games_command == "restore":  # into a database that may be gone: it makes it anew
        return _restore(Path(args.file), url, args.replace, out)
    with Store(url) as store:
        done = backup(store.db, Path(args.file))
        print(f"backed up {_counted(done)} of {store.location} to {done.path}", file=out)
    return 0


def _restore(path: Path, url: str | None, replace: bool, out: TextIO) -> int:
    done = restore(path, url, replace=replace)
    with Store(url) as store:  # an older backup is migrated here, as any old database
        games = len(store.list_games())
    aside = f" (the games it held were copied first to {done.aside})" if done.aside else ""
    print(f"restored {_counted(done)} from {path} into {done.path}{aside}", file=out)
    return 0 if games == done.games else EXIT_STORAGE


def _counted(done: Copied) -> str:
    return f"{done.games} game{'s' if done.games != 1 else ''} ({done.entries} log entries)"


def _one_line(error: StorageError, err: TextIO) -> None:
    print("error: " + " ".join(error.message.splitlines()), file=err)


def _game_id(store: Store, given: str) -> str:
    """A full id, or a prefix of exactly one game's id (as `games list` prints them)."""
    ids = [g.id for g in store.list_games()]
    if given in ids:
        return given
    matches = [i for i in ids if i.startswith(given)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise StorageError(f"{given!r} is the start of {len(matches)} game ids; give more of it")
    raise GameNotFound(given)


def _list(store: Store, status: str | None, as_json: bool, out: TextIO) -> int:
    games = store.list_games(status)
    if as_json:
        json.dump([_info_json(g) for g in games], out, ensure_ascii=False, indent=2)
        out.write("\n")
        return 0
    if not games:
        print(f"no games in {store.location}", file=out)
        return 0
    rows = [("ID", "STATUS", "VERSION", "CREATED (UTC)", "PLAYERS", "WINNER")]
    rows += [
        (g.id, g.status, str(g.version), g.created.strftime("%Y-%m-%d %H:%M"), ", ".join(g.players), g.winner or "-")
        for g in games
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=False)) + "  " + r[-1], file=out)
    return 0


def _info_json(g: GameInfo) -> dict[str, Any]:
    return {
        "id": g.id,
        "status": g.status,
        "version": g.version,
        "ruleset": g.ruleset,
        "created": g.created.isoformat(),
        "updated": g.updated.isoformat(),
        "finished": g.finished.isoformat() if g.finished else None,
        "players": list(g.players),
        "winner": g.winner,
    }


def _export(store: Store, game_id: str, path: str | None, out: TextIO) -> int:
    return _write_out(json.dumps(store.export_game(game_id), ensure_ascii=False, indent=2) + "\n", path, out)


def _write_out(text: str, path: str | None, out: TextIO) -> int:
    """`text` to standard output, or whole to a file."""
    if path is None or path == "-":
        out.write(text)
        return 0
    _write_whole(Path(path), text)
    return 0


def _write_whole(path: Path, text: str) -> None:
    """Write the file completely or not at all: a full disk never leaves half a file behind."""
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent or ".", prefix=f".{path.name}.", delete=False
        ) as temp:
            try:
                temp.write(text)
                temp.flush()
                os.fsync(temp.fileno())
            except BaseException:
                os.unlink(temp.name)
                raise
        os.replace(temp.name, path)
    except OSError as error:
        raise StorageError(f"cannot write {path}: {error.strerror or error}") from None


def _read_file(path: str) -> Any:
    """The JSON of a game file (the store then checks its shape and replays it)."""
    try:
        raw = read_bounded(path, sys.stdin.buffer)
    except TooLarge as error:
        raise BadGameFile(
            f"{path} is larger than {error.megabytes} MB, the most a game file may be; nothing was imported"
        ) from None
    except OSError as error:
        raise BadGameFile(f"cannot read {path}: {error.strerror or error}") from None
    try:
        return decode_json(raw)
    except BadJson as error:
        raise BadGameFile(f"{path} is not valid JSON: {error.message}") from None
