"""`dyo-companion games backup FILE` and `games restore FILE`: every game, whole, while the app runs.

A backup is SQLite's online backup (`sqlite3.Connection.backup`) of the live database in one
step: one read transaction, so the copy is the database as one commit left it, while the
server's writers go on (WAL lets a reader and writers run together). Copying the file itself
is no backup: the latest commits live in the `-wal` file beside it. The copy is written beside
its target, checked (`PRAGMA quick_check`), switched to a plain journal (one self-contained
file), synced and only then renamed into place: a failed backup leaves no half file.

A restore brings a backup back whole, page for page: the logs with their undo and redo entries,
the games' ids, the join links and the phones bound to seats, the server's host key. It goes
only into a database that holds no game; with `replace` it replaces the games there, after
copying them aside (`<db>.before-restore-<time>.backup`). It refuses while a server serves the
target (the path's lock, files.py), and a backup of an older schema is migrated as any old
database is when the store opens it.

PostgreSQL has its own tools, which the messages and docs/storage.md name (pg_dump, pg_restore).
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from .database import SQLITE_MAGIC, Database
from .errors import BackupRefused, StorageError
from .files import Held, hold_lock
from .migrations import CURRENT_VERSION, installed_version
from .models import APP

PG_RECIPE = (
    "for PostgreSQL use its own tools (docs/storage.md): pg_dump --format=custom --file=games.dump "
    "DBNAME to back up, and pg_restore --dbname=DBNAME games.dump into an empty database to restore"
)


@dataclass(frozen=True)
class Copied:
    """What a backup or a restore copied, and where the replaced games went (restore --replace)."""

    path: Path
    games: int
    entries: int
    aside: Path | None = None


def backup(db: Database, target: Path) -> Copied:
    """Write a consistent copy of every game of `db` to `target` (replacing an older backup there)."""
    if db.path is None:
        raise BackupRefused(f"{db.label} is not a SQLite file: {PG_RECIPE}")
    target = target.expanduser().absolute()
    _refuse_as_target(target, db.path)
    db.check_file()
    temp = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.part")
    counted = _copy_to_disk(db, temp, "write the backup", target)
    try:
        os.replace(temp, target)
        _sync(target.parent)
    except OSError as error:
        temp.unlink(missing_ok=True)
        raise _cannot("write the backup", target, error) from None
    return Copied(target, *counted)


def restore(source: Path, url: str | None, *, replace: bool = False) -> Copied:
    """Bring the backup `source` back into the database `url` (module doc: when it refuses)."""
    source = source.expanduser().absolute()
    games, entries = _read_backup(source)
    db = Database(url, missing_ok=True)
    try:
        if db.path is None:
            raise BackupRefused(f"{db.label} is not a SQLite file: {PG_RECIPE}")
        if db.path.exists() and source.exists() and db.path.samefile(source):
            raise BackupRefused(f"{source} is the database itself: name a backup file to restore from")
        try:
            lock = hold_lock(db.path)
        except Held:
            raise BackupRefused(
                f"a companion is serving {db.label}: stop it, then restore (nothing was changed)"
            ) from None
        try:
            aside = _make_room(db, replace)
            copy = sqlite3.connect(f"file:{quote(str(source))}?mode=ro", uri=True)
            try:
                with _driver(db) as target:
                    copy.backup(target)
            finally:
                copy.close()
        except sqlite3.Error as error:
            raise db.explain(error) from None
        finally:
            if lock is not None:
                lock.close()
    finally:
        db.dispose()
    return Copied(db.path, games, entries, aside)


def _make_room(db: Database, replace: bool) -> Path | None:
    """Refuse a target that holds games (unless `replace`: then copy them aside first)."""
    assert db.path is not None
    with db.transaction() as conn:
        version = installed_version(conn, True)
        held = conn.exec_driver_sql("SELECT count(*) FROM games").scalar_one() if version else 0
    if not held:
        return None
    if not replace:
        raise BackupRefused(
            f"{db.label} holds {held} game(s): a backup is restored only into a database with no games. "
            "Restore into another file with --db, or add --replace to replace them (they are copied aside first)"
        )
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = db.path.with_name(f"{db.path.name}.before-restore-{stamp}.backup")
    _copy_to_disk(db, aside, "copy aside the games it replaces to", aside)
    return aside


@contextmanager
def _driver(db: Database) -> Iterator[sqlite3.Connection]:
    """One of the store's own SQLite connections (opened as the store opens them), for the backup API."""
    pooled = db.engine.raw_connection()
    try:
        driver = pooled.driver_connection
        if not isinstance(driver, sqlite3.Connection):
            raise BackupRefused(f"{db.label} is not a SQLite file: {PG_RECIPE}")
        yield driver
    finally:
        pooled.close()


def _copy_to_disk(db: Database, path: Path, what: str, named: Path) -> tuple[int, int]:
    """Copy every game of `db` into a new single file at `path`, flushed to the disk, in one step
    (one read transaction: one consistent state); its games and log entries, checked. When it
    fails, nothing is left at `path`, and the error names `named` and `what` was being done."""
    try:
        with _driver(db) as source:
            copy = sqlite3.connect(path)
            try:
                source.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # no -wal beside it: the file is the whole copy
                counted = _counted(copy, path)
            finally:
                copy.close()
        _sync(path)
    except (sqlite3.Error, OSError) as error:
        path.unlink(missing_ok=True)
        raise _cannot(what, named, error) from None
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return counted


def _counted(conn: sqlite3.Connection, path: Path) -> tuple[int, int]:
    problem = conn.execute("PRAGMA quick_check").fetchone()[0]
    if problem != "ok":
        raise BackupRefused(f"{path} is damaged ({problem}); nothing was changed")
    games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    entries = conn.execute("SELECT count(*) FROM events").fetchone()[0]
    return int(games), int(entries)


def _read_backup(path: Path) -> tuple[int, int]:
    """A backup of ours, of a schema this version reads: its games and log entries, else BackupRefused."""
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise BackupRefused(f"cannot read {path}: {error.strerror or error}; nothing was changed") from None
    if head != SQLITE_MAGIC:
        raise BackupRefused(f"{path} is not a backup of the companion (not a SQLite file); nothing was changed")
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
        try:
            found = conn.execute("SELECT app, version FROM companion_schema WHERE id = 1").fetchone()
            if found is None or found[0] != APP:
                raise BackupRefused(f"{path} is not a backup of the companion; nothing was changed")
            if found[1] > CURRENT_VERSION:
                raise BackupRefused(
                    f"{path} was written by a newer version of the companion (schema {found[1]}; this version "
                    f"reads up to {CURRENT_VERSION}): update the app to restore it; nothing was changed"
                )
            return _counted(conn, path)
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise BackupRefused(f"{path} cannot be read as a backup ({error}); nothing was changed") from None


def _refuse_as_target(target: Path, database: Path) -> None:
    if target.is_dir():
        raise BackupRefused(f"{target} is a folder: name the backup file to write")
    if not target.exists():
        return
    if database.exists() and target.samefile(database):
        raise BackupRefused(f"{target} is the database itself: name another file for the backup")
    with target.open("rb") as file:
        head = file.read(len(SQLITE_MAGIC))
    if head and head != SQLITE_MAGIC:
        raise BackupRefused(f"{target} exists and is not a backup: it was left as it is; name another file")


def _sync(path: Path) -> None:
    """Flush a file (or a folder's entries) to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _cannot(what: str, path: Path, error: BaseException) -> StorageError:
    reason = getattr(error, "strerror", None) or str(error)
    return StorageError(f"cannot {what} {path}: {reason}; nothing was changed")
