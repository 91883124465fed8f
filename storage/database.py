"""Where the games live and how a connection behaves: SQLite by default, PostgreSQL when hosted.

Choosing the database: `Store(url)`, else the `COMPANION_DATABASE_URL` environment variable
(any SQLAlchemy URL), else one SQLite file in the user's data directory as platformdirs names
it (`~/.local/share/dyo-companion/games.sqlite3` on Linux). A plain file path is taken as a
SQLite file. PostgreSQL is reached through psycopg 3 (the `postgres` extra), whichever way its
URL is written: `postgresql://` and `postgresql+psycopg2://` (the driver before it) are read as
`postgresql+psycopg://`, so one driver serves the store and the notifications between instances.

Durability. An action is acknowledged only when `submit` returns, and `submit` returns only
after COMMIT has returned. On SQLite the file is in WAL mode with `synchronous=FULL`: every
COMMIT fsyncs the write-ahead log before it returns, so an acknowledged action survives a
killed process *and* a power cut or OS crash. (`NORMAL` would survive a killed app but could
lose the last few commits on a power cut; the fsync costs well under a millisecond on an SSD,
so the table's word that "the action is saved" stays true.) PostgreSQL gives the same
guarantee with its default `synchronous_commit=on`.

Writers. A write transaction on SQLite starts with `BEGIN IMMEDIATE`: it takes the write lock
before reading the game's version, so two writers queue (up to the busy timeout) instead of
both reading version n and one failing on upgrade. On PostgreSQL the game row is read
`FOR UPDATE`. Either way the primary key (game_id, seq) of the log is the final race guard.
Readers never block writers (WAL; MVCC), and on PostgreSQL they read one snapshot
(REPEATABLE READ) so a list or a log is never half of two commits.

Errors. Whatever the driver says is turned into a `StorageError` with a sentence the user
can act on; nothing here ever deletes, truncates or rewrites a file it did not create.

The file is watched. A SQLite file deleted, moved or replaced while the app runs would go on
taking writes through the connections still open on it, and every one of them would be lost at
the next start. So the file's identity (device and inode) is noted when it is opened, and every
transaction compares the path's identity with it (one `stat`, about a microsecond): at the
start, and for a write before and after COMMIT. A difference is `DatabaseGone`: nothing more is
written or acknowledged. Connections are opened with `mode=rw`, so a missing file is never
created again behind the app's back. A path with no database (or an empty file) where games were
kept (files.py: the `.kept` marker) is refused at the start: `DatabaseMissing` says where it
looked and what to do.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import platformdirs
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import ArgumentError, DBAPIError, DisconnectionError, IntegrityError, NoSuchModuleError
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection, StaticPool

from .errors import (
    CorruptDatabase,
    DatabaseGone,
    DatabaseMissing,
    DatabaseProblem,
    DiskFull,
    ForeignDatabase,
    ReadOnly,
    StorageError,
    Unreachable,
)
from .files import is_kept, kept_path

ENV_URL = "COMPANION_DATABASE_URL"
APP_DIR = "dyo-companion"
DEFAULT_FILE = "games.sqlite3"
SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_S = 30.0
IDLE_PING_S = 10.0  # a PostgreSQL connection unused this long is checked before a transaction
NOTHING_WRITTEN = "nothing was written and your games are as they were"
POSTGRES_DRIVER = "psycopg"  # SQLAlchemy's dialect for psycopg 3
POSTGRES_SPELLINGS = ("postgresql", "postgresql+psycopg2")  # read as postgresql+psycopg
INSTALL_POSTGRES = "pip install 'psycopg[binary]' (or the postgres extra: pip install 'dyo-companion[postgres]')"
CHOOSE_ANOTHER = f"choose another database with --db or {ENV_URL}"


def default_path() -> Path:
    return Path(platformdirs.user_data_dir(APP_DIR, appauthor=False)) / DEFAULT_FILE


def resolve_url(url: str | None = None) -> URL:
    """The database to use: the argument, else $COMPANION_DATABASE_URL, else the default file."""
    text = url or os.environ.get(ENV_URL) or None
    if text is None:
        return make_url(f"sqlite:///{default_path()}")
    if "://" not in text:  # a path: a SQLite file
        return make_url(f"sqlite:///{Path(text).expanduser().absolute()}")
    try:
        return make_url(text)
    except ArgumentError:
        raise DatabaseProblem(
            f"{text!r} is not a database URL (expected e.g. sqlite:///games.sqlite3 or postgresql://user@host/dbname)"
        ) from None


def with_driver(url: URL) -> URL:
    """The URL SQLAlchemy opens: PostgreSQL's through psycopg 3 however it was written, others as given."""
    if url.drivername in POSTGRES_SPELLINGS:
        return url.set(drivername=f"postgresql+{POSTGRES_DRIVER}")
    return url


class Database:
    """One database: its engine, its kind, and transactions with the locking described above."""

    def __init__(self, url: str | None = None, *, missing_ok: bool = False) -> None:
        """`missing_ok`: open (and create) the file even where games were kept (a restore does)."""
        given = resolve_url(url)
        self.url = with_driver(given)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self.path: Path | None = None
        self._identity: tuple[int, int] | None = None
        if self.is_sqlite:
            database = self.url.database or ""
            if database and database != ":memory:" and not database.startswith("file:"):
                self.path = Path(database)
                _check_sqlite_file(self.path, missing_ok)
        self.label = str(self.path) if self.path else given.render_as_string(hide_password=True)  # as written
        if self.path is not None:
            self._identity = self._created_file(self.path)
        try:
            self.engine = self._create_engine()
        except NoSuchModuleError:
            raise DatabaseProblem(
                f"no SQLAlchemy driver for {self.label}: install it (for PostgreSQL: {INSTALL_POSTGRES})"
            ) from None
        except ImportError as error:
            raise DatabaseProblem(
                f"the database driver for {self.label} is not installed ({error}); for PostgreSQL: {INSTALL_POSTGRES}"
            ) from None

    def _create_engine(self) -> Engine:
        if not self.is_sqlite:
            return _pinged_when_idle(create_engine(self.url))
        if self.path is None:
            engine = create_engine(
                self.url, poolclass=StaticPool, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_S}
            )
        else:  # the file exists (`_created_file`): a connection may open it, never create it anew
            uri = f"file:{quote(str(self.path))}?mode=rw"
            engine = create_engine(
                self.url,
                creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=BUSY_TIMEOUT_S),
            )

        @event.listens_for(engine, "connect")
        def on_connect(dbapi_connection: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
            # Per-connection settings only: WAL is a persistent property of the file, switched
            # on by `use_wal` once the file is known to be ours.
            dbapi_connection.isolation_level = None  # SQLAlchemy's "begin" hook below issues BEGIN
            dbapi_connection.execute("PRAGMA synchronous=FULL")
            dbapi_connection.execute("PRAGMA foreign_keys=ON")

        @event.listens_for(engine, "begin")
        def on_begin(connection: Connection) -> None:
            write = connection.get_execution_options().get("companion_write")
            connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine

    @contextmanager
    def transaction(self, *, write: bool = False, wait: bool = True) -> Iterator[Connection]:
        """One transaction. A write commits when the block ends; a read always rolls back.

        `IntegrityError` passes through (the store turns a lost race into `StaleState`); every
        other driver error becomes a `StorageError` naming the problem. `wait=False`: a write
        that would queue behind another fails at once instead (a cache the store may skip).
        """
        self.check_file()
        try:
            with self.engine.connect() as connection, self._patience(connection, wait):
                if write and self.is_sqlite:
                    connection.execution_options(companion_write=True)
                elif not write and not self.is_sqlite:
                    connection.execution_options(isolation_level="REPEATABLE READ")
                transaction = connection.begin()
                if not wait and not self.is_sqlite:
                    connection.exec_driver_sql("SET LOCAL lock_timeout = '100ms'")
                try:
                    yield connection
                    if write:
                        self.check_file()
                except BaseException:
                    transaction.rollback()
                    raise
                if write:
                    transaction.commit()
                    self.check_file(committed=True)
                else:
                    transaction.rollback()
        except (StorageError, IntegrityError):
            raise
        except DBAPIError as error:
            raise self.explain(error, write) from error
        except OSError as error:
            raise self.explain(error, write) from error

    @contextmanager
    def _patience(self, connection: Connection, wait: bool) -> Iterator[None]:
        """On SQLite without `wait`: no busy timeout for this connection while the block runs
        (set on the driver's connection, outside any transaction)."""
        if wait or not self.is_sqlite:
            yield
            return
        raw = connection.connection.driver_connection
        assert raw is not None
        raw.execute("PRAGMA busy_timeout = 0")
        try:
            yield
        finally:
            raw.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")

    def check_file(self, *, committed: bool = False) -> None:
        """DatabaseGone unless the path still names the SQLite file this store opened (module doc).

        `committed`: the check after a COMMIT, which then went into the file that was lost.
        """
        if self._identity is None or self.path is None:
            return
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            what = "was deleted or moved away"
        except OSError as error:
            raise self.explain(error) from error
        else:
            if (found.st_dev, found.st_ino) == self._identity:
                return
            what = "was replaced by another file"
        outcome = (
            "the last change went into the lost file and is not kept"
            if committed
            else "nothing more was written (the last change was not saved)"
        )
        raise DatabaseGone(
            f"the database {self.label} {what} while the app was running: {outcome}. Stop the app, put "
            f"the file back (or bring a backup back with: dyo-companion games restore BACKUP --db "
            f"{self.label}) and start the app again"
        )

    def _created_file(self, path: Path) -> tuple[int, int]:
        """The file's identity, once it exists (an empty file is an empty database)."""
        try:
            os.close(os.open(path, os.O_RDONLY | os.O_CREAT, 0o644))  # a read-only file opens too
            found = path.stat()
        except OSError as error:
            raise self.explain(error) from None
        return found.st_dev, found.st_ino

    def explain(self, error: BaseException, write: bool = True) -> StorageError:
        """A driver or OS error as a sentence the user can act on."""
        text = " ".join(str(getattr(error, "orig", None) or error).split())  # one line
        low = text.lower()
        after = f"; {NOTHING_WRITTEN}" if write else ""
        if (
            (isinstance(error, OSError) and error.errno == errno.ENOSPC)
            or "disk is full" in low
            or "no space left" in low
            or "could not extend file" in low
        ):
            return DiskFull(f"the disk holding {self.label} is full{after}. Free some space and try again")
        if (
            "readonly" in low
            or "read-only" in low
            or "read only" in low
            or (isinstance(error, OSError) and error.errno in (errno.EROFS, errno.EACCES, errno.EPERM))
        ):
            return ReadOnly(
                f"cannot write to {self.label}: it is read-only{after}. {CHOOSE_ANOTHER.capitalize()} "
                "or make it writable"
            )
        if "unable to open database file" in low:
            folder = self.path.parent if self.path else None
            if folder is not None and folder.exists() and not os.access(folder, os.W_OK):
                return ReadOnly(
                    f"cannot open {self.label}: its folder {folder} is read-only (the database needs "
                    f"to create its -wal and -shm files there){after}. {CHOOSE_ANOTHER.capitalize()}"
                )
            return DatabaseProblem(f"cannot open {self.label}{after}: {text}")
        if "not a database" in low or "malformed" in low or "encrypted" in low:
            return CorruptDatabase(
                f"{self.label} is damaged or is not a database ({text}). It was not changed; "
                f"restore a backup or {CHOOSE_ANOTHER}"
            )
        if "database is locked" in low or "database is busy" in low:
            return DatabaseProblem(
                f"{self.label} is busy: another program kept it locked for more than "
                f"{BUSY_TIMEOUT_S:.0f} s{after}. Try again"
            )
        if not self.is_sqlite and (
            "could not connect" in low
            or "connection refused" in low
            or "authentication failed" in low
            or "could not translate host" in low
            or "failed to resolve host" in low
            or "server closed the connection" in low
            or ("does not exist" in low and "database" in low)
        ):
            return Unreachable(f"cannot reach the database server {self.label}: {text}{after}")
        if "disk i/o error" in low or isinstance(error, OSError):
            return DatabaseProblem(f"input/output error on {self.label} ({text}){after}. Check the disk")
        return DatabaseProblem(f"database error on {self.label}: {text}{after}")

    def use_wal(self) -> None:
        """Put our SQLite file in WAL mode (persistent; a no-op when it already is)."""
        if self.path is None:
            return
        try:
            raw = self.engine.raw_connection()
            try:
                cursor = raw.cursor()
                if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    cursor.execute("PRAGMA journal_mode=WAL")
                cursor.close()
            finally:
                raw.close()
        except DBAPIError as error:
            raise self.explain(error) from error

    def dispose(self) -> None:
        self.engine.dispose()


def _pinged_when_idle(engine: Engine) -> Engine:
    """A pooled PostgreSQL connection idle for IDLE_PING_S is pinged before use, a busy one is not.

    A server restarted (or a connection dropped) while the pool held it shows on the next
    checkout, which the ping catches and the pool answers with a fresh connection. Pinging every
    checkout (`pool_pre_ping`) would cost a round trip per transaction, a third of a short read's.
    """

    @event.listens_for(engine, "checkin")
    def on_checkin(_dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry) -> None:
        record.info["returned"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def on_checkout(
        dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry, _proxy: PoolProxiedConnection
    ) -> None:
        if time.monotonic() - record.info.get("returned", time.monotonic()) < IDLE_PING_S:
            return
        try:
            alive = engine.dialect.do_ping(dbapi_connection)
        except Exception:
            alive = False
        if not alive:
            raise DisconnectionError("the connection dropped while the pool held it")

    return engine


def _check_sqlite_file(path: Path, missing_ok: bool = False) -> None:
    """Refuse, before SQLite touches it, a path that is not (and cannot become) our database file.

    A missing file is fine (it is created, with its folder) unless games were kept there; an
    empty file is an empty database (with the same exception); anything else must start with
    SQLite's magic header.
    """
    if path.is_dir():
        raise ForeignDatabase(f"{path} is a folder, not a database file; {CHOOSE_ANOTHER}")
    if not missing_ok and is_kept(path) and (not path.exists() or path.stat().st_size == 0):
        raise DatabaseMissing(
            f"no database at {path}, where games were kept ({kept_path(path)} says so): it was deleted "
            f"or moved, and nothing was created. Put it back, or start with --db naming where it is now, "
            f"or bring a backup back with: dyo-companion games restore BACKUP --db {path}. To start "
            f"with no games there, delete {kept_path(path)}"
        )
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            reason = "it is read-only" if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS) else error.strerror
            raise (ReadOnly if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS) else DatabaseProblem)(
                f"cannot create the folder {path.parent} for the database ({reason}); {CHOOSE_ANOTHER}"
            ) from None
        return
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise DatabaseProblem(f"cannot read {path}: {error.strerror}; {CHOOSE_ANOTHER}") from None
    if head and head != SQLITE_MAGIC:
        raise CorruptDatabase(
            f"{path} is not a SQLite database (or it is damaged). It was not changed; "
            f"restore a backup or {CHOOSE_ANOTHER}"
        )
