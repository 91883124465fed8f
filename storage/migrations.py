"""Schema versions and the forward migrations between them.

Each version is one frozen function of plain SQL that SQLite and PostgreSQL both accept; it is
never edited once released (a change is a new version). A new database runs every step from
version 1, so the path an old database takes is the path every database took.

- 1: the event-sourced core: games, seats, the append-only log, the schema marker.
- 2: statistics on the seats of finished games (back-filled by replaying their logs) and the
  snapshots cache.
- 3: playing from phones: each game's join-link secret, and the devices bound to its seats
  (only a hash of each device's token is stored).
- 4: the log keeps what happened: every game is checked as `games verify` checks it, replaying
  with the seed as the engine always did, then its actions are written in their resolved form
  (with the outcomes of their chance points) and its configuration with the setup's draws. A
  game that does not check out is left exactly as it was and recorded in `log_problems`.
- 5: secrets of the server itself (`server_secrets`; today the host key), so every instance
  serving one PostgreSQL database accepts the same host link.
- 6: resume points (`resume_points`, `resume_pages`): a long game opens from its state saved
  after some entry instead of replaying its whole log (resume.py). A cache: nothing is back-filled,
  each game gets one when it is next written or opened.

Opening a database: an empty one is created at the current version; a current one is used as
it is; an older one is first backed up (SQLite: a copy of the file next to it, made with
SQLite's backup API; PostgreSQL: a copy of each table in the same database) and then migrated
in one transaction, so a failure leaves it exactly as it was. A newer one, or one that belongs
to another program, is refused untouched.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, TextClause, bindparam, inspect, text
from sqlmodel.sql.sqltypes import UTCDateTime

from .database import CHOOSE_ANOTHER, Database
from .errors import ForeignDatabase, LogDiverged, NewerSchema
from .log import Entry, fold, stored_config
from .models import APP

CURRENT_VERSION = 6
OUR_TABLES = (
    "games",
    "seats",
    "events",
    "snapshots",
    "join_links",
    "devices",
    "log_problems",
    "server_secrets",
    "resume_points",
    "resume_pages",
)
_LOCK_KEY = 0x0D1C_0A1D  # PostgreSQL advisory lock: one migrating process at a time
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Prepared:
    """What opening did: the version found, the version now, and the backup made (if any)."""

    found: int
    version: int
    backup: str | None = None


def _stamp(statement: str) -> TextClause:
    """A statement whose :now is stored as the models store times (UTC, on SQLite as text)."""
    return text(statement).bindparams(bindparam("now", type_=UTCDateTime()))


def _now() -> datetime:
    return datetime.now(UTC)


def _v1(conn: Connection) -> None:
    for statement in (
        """CREATE TABLE companion_schema (
            id INTEGER NOT NULL PRIMARY KEY, app VARCHAR(40) NOT NULL, version INTEGER NOT NULL,
            updated TIMESTAMP WITH TIME ZONE NOT NULL)""",
        """CREATE TABLE games (
            id VARCHAR(36) NOT NULL PRIMARY KEY, created TIMESTAMP WITH TIME ZONE NOT NULL,
            updated TIMESTAMP WITH TIME ZONE NOT NULL, finished TIMESTAMP WITH TIME ZONE,
            status VARCHAR(16) NOT NULL, ruleset VARCHAR(40) NOT NULL, seed BIGINT NOT NULL,
            config TEXT NOT NULL, version INTEGER NOT NULL, winner VARCHAR(80))""",
        "CREATE INDEX games_by_status ON games (status, updated)",
        """CREATE TABLE seats (
            game_id VARCHAR(36) NOT NULL REFERENCES games (id), seat INTEGER NOT NULL, name VARCHAR(80) NOT NULL,
            colour VARCHAR(20), team VARCHAR(1), PRIMARY KEY (game_id, seat))""",
        """CREATE TABLE events (
            game_id VARCHAR(36) NOT NULL REFERENCES games (id), seq INTEGER NOT NULL, kind VARCHAR(8) NOT NULL,
            action TEXT NOT NULL, answer TEXT NOT NULL, target INTEGER, submitted_by VARCHAR(80),
            at TIMESTAMP WITH TIME ZONE NOT NULL, undone BOOLEAN NOT NULL, idempotency_key VARCHAR(200),
            PRIMARY KEY (game_id, seq))""",
        "CREATE UNIQUE INDEX events_by_key ON events (game_id, idempotency_key)",
    ):
        conn.execute(text(statement))
    conn.execute(
        _stamp("INSERT INTO companion_schema (id, app, version, updated) VALUES (1, :app, 0, :now)"),
        {"app": APP, "now": _now()},
    )


def _v2(conn: Connection) -> None:
    for column in (
        "won BOOLEAN NOT NULL DEFAULT FALSE",
        "tunnel INTEGER",
        "beatings_taken INTEGER",
        "beatings_given INTEGER",
        "extortions_won INTEGER",
        "extortions_lost INTEGER",
    ):
        conn.execute(text(f"ALTER TABLE seats ADD COLUMN {column}"))
    conn.execute(
        text("""CREATE TABLE snapshots (
        game_id VARCHAR(36) NOT NULL REFERENCES games (id), version INTEGER NOT NULL, step INTEGER NOT NULL,
        state TEXT NOT NULL, PRIMARY KEY (game_id, version))""")
    )
    _backfill_statistics(conn)


def _backfill_statistics(conn: Connection) -> None:
    """Version 2 keeps statistics on the seats of finished games: compute them from the logs."""
    from companion.rules import Game  # the engine is only needed to read old games

    from .statistics import seat_statistics

    finished = conn.execute(text("SELECT id, config FROM games WHERE status = 'finished'")).all()
    for game_id, config in finished:
        rows = conn.execute(
            text("SELECT seq, kind, target, action, answer FROM events WHERE game_id = :g ORDER BY seq"), {"g": game_id}
        ).all()
        answers = {seq: answer for seq, _, _, _, answer in rows}
        folded = fold(Entry(seq, kind, target, action) for seq, kind, target, action, _ in rows)
        try:
            game = Game.replay(stored_config(config), [json.loads(e.action) for e in folded.in_effect])
        except ValueError as error:
            raise LogDiverged(
                f"cannot upgrade: finished game {game_id} no longer replays with this version of the "
                f"rules engine ({error}); the database was not changed"
            ) from None
        for s in seat_statistics(game.state, (json.loads(answers[e.seq]) for e in folded.in_effect)):
            conn.execute(
                text(
                    "UPDATE seats SET won = :won, tunnel = :tunnel, beatings_taken = :bt, "
                    "beatings_given = :bg, extortions_won = :ew, extortions_lost = :el "
                    "WHERE game_id = :g AND seat = :seat"
                ),
                {
                    "won": s.won,
                    "tunnel": s.tunnel,
                    "bt": s.beatings_taken,
                    "bg": s.beatings_given,
                    "ew": s.extortions_won,
                    "el": s.extortions_lost,
                    "g": game_id,
                    "seat": s.seat,
                },
            )


def _v3(conn: Connection) -> None:
    for statement in (
        """CREATE TABLE join_links (
            game_id VARCHAR(36) NOT NULL PRIMARY KEY REFERENCES games (id), secret VARCHAR(64) NOT NULL,
            created TIMESTAMP WITH TIME ZONE NOT NULL, rotations INTEGER NOT NULL DEFAULT 0)""",
        """CREATE TABLE devices (
            id VARCHAR(16) NOT NULL PRIMARY KEY, game_id VARCHAR(36) NOT NULL REFERENCES games (id),
            token_hash VARCHAR(64) NOT NULL, seat INTEGER, label VARCHAR(80) NOT NULL,
            joined TIMESTAMP WITH TIME ZONE NOT NULL, seen TIMESTAMP WITH TIME ZONE NOT NULL)""",
        "CREATE UNIQUE INDEX devices_by_token ON devices (token_hash)",
        # NULL seats (spectators) never collide: both databases treat NULLs as distinct here.
        "CREATE UNIQUE INDEX devices_by_seat ON devices (game_id, seat)",
    ):
        conn.execute(text(statement))


def _v4(conn: Connection) -> None:
    conn.execute(
        text("""CREATE TABLE log_problems (
        game_id VARCHAR(36) NOT NULL PRIMARY KEY REFERENCES games (id), schema_version INTEGER NOT NULL,
        found TIMESTAMP WITH TIME ZONE NOT NULL, problem TEXT NOT NULL)""")
    )
    _resolve_logs(conn)


def _v5(conn: Connection) -> None:
    conn.execute(
        text("""CREATE TABLE server_secrets (
        name VARCHAR(40) NOT NULL PRIMARY KEY, secret VARCHAR(64) NOT NULL,
        created TIMESTAMP WITH TIME ZONE NOT NULL)""")
    )


def _v6(conn: Connection) -> None:
    for statement in (
        """CREATE TABLE resume_points (
            game_id VARCHAR(36) NOT NULL PRIMARY KEY REFERENCES games (id), version INTEGER NOT NULL,
            engine VARCHAR(80) NOT NULL, state TEXT NOT NULL)""",
        """CREATE TABLE resume_pages (
            game_id VARCHAR(36) NOT NULL REFERENCES games (id), page INTEGER NOT NULL, last_seq INTEGER NOT NULL,
            actions TEXT NOT NULL, PRIMARY KEY (game_id, page))""",
    ):
        conn.execute(text(statement))


def _resolve_logs(conn: Connection) -> None:
    """Version 4 keeps every outcome in the log: write them into the games that check out."""
    from .consistency import check_log, dump  # the engine is only needed to read old games

    for game_id, version, config in conn.execute(text("SELECT id, version, config FROM games ORDER BY id")).all():
        rows = conn.execute(
            text("SELECT seq, kind, target, action, answer, undone FROM events WHERE game_id = :g ORDER BY seq"),
            {"g": game_id},
        ).all()
        snapshots: dict[int, str] = dict(
            conn.execute(text("SELECT version, state FROM snapshots WHERE game_id = :g"), {"g": game_id}).all()
        )
        try:
            checked = check_log(version, config, rows, snapshots)
        except ValueError as error:  # a configuration the engine no longer accepts
            checked_problems = [f"it no longer replays: {getattr(error, 'message', error)}"]
        else:
            checked_problems = checked.problems
        if checked_problems:
            problem = "; ".join(checked_problems)
            _log.warning(
                "game %s: its log disagrees with a replay, so the upgrade left it as it was "
                "(dyo-companion games verify %s shows why): %s",
                game_id,
                game_id,
                problem,
            )
            conn.execute(
                _stamp("INSERT INTO log_problems (game_id, schema_version, found, problem) VALUES (:g, 4, :now, :p)"),
                {"g": game_id, "now": _now(), "p": problem},
            )
            continue
        if checked.config is not None:
            conn.execute(text("UPDATE games SET config = :c WHERE id = :g"), {"c": dump(checked.config), "g": game_id})
        for seq, action in checked.resolved.items():
            conn.execute(
                text("UPDATE events SET action = :a WHERE game_id = :g AND seq = :s"),
                {"a": action, "g": game_id, "s": seq},
            )


STEPS: dict[int, Callable[[Connection], None]] = {1: _v1, 2: _v2, 3: _v3, 4: _v4, 5: _v5, 6: _v6}
assert sorted(STEPS) == list(range(1, CURRENT_VERSION + 1))


def installed_version(conn: Connection, is_sqlite: bool) -> int:
    """The schema version of an opened database: 0 when it is empty (ours to create)."""
    tables = set(inspect(conn).get_table_names())
    if "companion_schema" not in tables:
        ours = sorted(tables & set(OUR_TABLES))
        if ours or (is_sqlite and tables):
            raise ForeignDatabase(
                f"this database belongs to another program (it has tables "
                f"{', '.join(sorted(tables)[:5])} but no companion_schema). It was not "
                f"changed; {CHOOSE_ANOTHER}"
            )
        return 0
    row = conn.execute(text("SELECT app, version FROM companion_schema WHERE id = 1")).first()
    if row is None or row[0] != APP:
        raise ForeignDatabase(
            f"this database's companion_schema names another program ({row[0] if row else 'none'}"
            f"). It was not changed; {CHOOSE_ANOTHER}"
        )
    return int(row[1])


def _refuse_newer(db: Database, version: int) -> None:
    if version > CURRENT_VERSION:
        raise NewerSchema(
            f"{db.label} was written by a newer version of the companion (schema {version}; this "
            f"version reads up to {CURRENT_VERSION}). It was not changed: update the app to open it",
            found=version,
            supported=CURRENT_VERSION,
        )


def prepare(db: Database, target: int = CURRENT_VERSION) -> Prepared:
    """Make the database ready at `target`: create, or back up and migrate, or refuse."""
    with db.transaction() as conn:  # the common case, without taking the write lock
        found = installed_version(conn, db.is_sqlite)
    _refuse_newer(db, found)
    if db.is_sqlite:
        db.use_wal()  # only now: the file is empty or ours
    if found >= target:
        return Prepared(found, found)
    with db.transaction(write=True) as conn:
        if not db.is_sqlite:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
        found = installed_version(conn, db.is_sqlite)  # another process may have migrated meanwhile
        _refuse_newer(db, found)
        if found >= target:
            return Prepared(found, found)
        backup = _backup(db, conn, found) if found else None
        for version in range(found + 1, target + 1):
            STEPS[version](conn)
            conn.execute(
                _stamp("UPDATE companion_schema SET version = :v, updated = :now WHERE id = 1"),
                {"v": version, "now": _now()},
            )
    return Prepared(found, target, backup)


def _backup(db: Database, conn: Connection, version: int) -> str:
    """Copy the data before changing its schema; refuse to migrate when the copy fails."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    if not db.is_sqlite:
        for table in inspect(conn).get_table_names():
            if table in OUR_TABLES or table == "companion_schema":
                conn.execute(text(f"CREATE TABLE backup_v{version}_{stamp}_{table} AS SELECT * FROM {table}"))
        return f"tables backup_v{version}_{stamp}_* in {db.label}"
    if db.path is None:  # an in-memory database has nothing to keep
        return "(in memory: no backup)"
    target = _free_name(db.path.with_name(f"{db.path.name}.v{version}-{stamp}.backup"))
    try:
        # A second connection reads the committed file while this transaction holds the write
        # lock (WAL lets it), so the copy is exactly what is about to be migrated.
        source = sqlite3.connect(db.path)
        try:
            copy = sqlite3.connect(target)
            try:
                source.backup(copy)
            finally:
                copy.close()
        finally:
            source.close()
    except (sqlite3.Error, OSError) as error:
        target.unlink(missing_ok=True)
        problem = db.explain(error)
        raise type(problem)(
            f"cannot back up {db.label} before upgrading its schema from version {version}: "
            f"{problem.message}. The database was not changed"
        ) from None
    return str(target)


def _free_name(path: Path) -> Path:
    candidate, n = path, 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.name}.{n}")
    return candidate
