"""How many instances may serve one database, and `--workers N`.

SQLite is one instance's store: its file is claimed (an advisory lock held for the life of the
server) and a second server on the same file stops with a sentence saying so. A PostgreSQL
database may be served by any number of instances, on one machine or several: their screens
hear each other through news.py, and they share the host key (kept in the database) so a host
link printed by one is good on every other.

`--workers N` is uvicorn's own supervisor (`Supervisor`): the command binds the port, and N
worker processes, each a whole instance (its own Flet sessions, its own store connection),
accept on that one socket. A worker that dies, killed or crashed, is replaced and the others
keep serving; a session that lands on another worker after a reconnect comes back to its seat
by the device token kept in its browser. The supervisor gives up, and exits non-zero so that a
service manager restarts it, when workers cannot start: one says so (the database cannot be
used, its options are wrong), or several in a row die before serving. A worker is a new
interpreter that builds the app from the import string it is given (uvicorn's factory), so the
command hands it the parsed options in an environment variable (`WorkerOptions`), which it
checks. Only PostgreSQL can be shared so.
"""

from __future__ import annotations

import collections
import copy
import json
import logging
import os
import sys
import time
from concurrent.futures import Future
from dataclasses import asdict, dataclass
from socket import socket
from typing import IO, TYPE_CHECKING, Any

from uvicorn.config import LOGGING_CONFIG, STARTUP_FAILURE, Config
from uvicorn.supervisors.multiprocess import Multiprocess, Process

from .net import Network, networks
from .start import LOG_DATE_FORMAT, LOG_FORMAT

if TYPE_CHECKING:  # storage is imported once the server listens (launch.py)
    from storage import Store

HOST_SECRET = "host"
OPTIONS_ENV = "COMPANION_WORKER_OPTIONS"  # the parsed options, as JSON, for the workers to read
# How long the supervisor waits for a worker's answer to its ping (one that does not answer is
# hung, and replaced), and for a new worker to serve when it replaces them all (SIGHUP): a worker
# imports the whole app first, which takes seconds on a loaded machine (uvicorn's default: 5 s).
HEALTHCHECK_SECONDS = 30
FAILED_STARTS = 3  # workers in a row that die before serving: the next would too
RESTARTS_PER_MINUTE = 20  # deaths of serving workers; more is a crash loop, for the service manager to see
log = logging.getLogger(__name__)
_claims: list[IO[bytes]] = []  # the open files whose locks this process holds


class AlreadyServed(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def claim(store: Store) -> None:
    """Hold the SQLite file for this server; AlreadyServed when another server holds it."""
    db = store.db
    if not db.is_sqlite or db.path is None:
        return
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): SQLite's own locking still keeps the data safe
        return
    handle = open(db.path, "rb")  # noqa: SIM115 - held open while the server runs
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise AlreadyServed(
            f"another companion is already serving {db.label}. A SQLite file is served by one "
            "instance: open that one, or serve several instances from a PostgreSQL database "
            "(--db postgresql+psycopg2://user@host/dbname)"
        ) from None
    _claims.append(handle)


def shared_host_key(store: Store | Future[Store]) -> str | None:
    """The host key kept in a PostgreSQL database (every instance's), else None (this process's own)."""
    if isinstance(store, Future):
        store = store.result()
    db = getattr(store, "db", None)
    if db is None or db.is_sqlite:
        return None
    return store.devices.server_secret(HOST_SECRET)


class WorkerOptionsError(ValueError):
    pass


@dataclass(frozen=True)
class WorkerOptions:
    """What a worker needs of the command line, parsed and checked by the command."""

    hosts: tuple[str, ...]
    port: int
    db: str | None
    lan_url: str | None
    proxies: tuple[str, ...]  # as given; `networks` reads them

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @property
    def networks(self) -> tuple[Network, ...]:
        return networks(self.proxies)

    @classmethod
    def from_env(cls) -> WorkerOptions:
        """The options the command set for its workers; WorkerOptionsError says what is wrong."""
        text = os.environ.get(OPTIONS_ENV)
        if not text:
            raise WorkerOptionsError(f"${OPTIONS_ENV} is not set: a worker is started by `dyo-companion --workers N`")
        try:
            data = json.loads(text)
        except ValueError:
            raise WorkerOptionsError(f"${OPTIONS_ENV} is not JSON") from None
        if not isinstance(data, dict) or set(data) != set(cls.__dataclass_fields__):
            raise WorkerOptionsError(f"${OPTIONS_ENV} names other options than a worker takes")
        hosts, port, proxies = data["hosts"], data["port"], data["proxies"]
        if not (isinstance(hosts, list) and hosts and all(isinstance(h, str) and h for h in hosts)):
            raise WorkerOptionsError(f"${OPTIONS_ENV}: hosts must be a list of addresses")
        if not (isinstance(port, int) and not isinstance(port, bool) and 0 < port < 65536):
            raise WorkerOptionsError(f"${OPTIONS_ENV}: port must be a port number")
        if not (isinstance(proxies, list) and all(isinstance(p, str) for p in proxies)):
            raise WorkerOptionsError(f"${OPTIONS_ENV}: proxies must be a list of addresses or networks")
        for name in ("db", "lan_url"):
            if data[name] is not None and not isinstance(data[name], str):
                raise WorkerOptionsError(f"${OPTIONS_ENV}: {name} must be text or null")
        try:
            networks(proxies)
        except ValueError as error:
            raise WorkerOptionsError(f"${OPTIONS_ENV}: proxies: {error}") from None
        return cls(tuple(hosts), port, data["db"], data["lan_url"], tuple(proxies))


def worker_logging(level: str) -> dict[str, Any]:
    """The logging set-up of each worker, as uvicorn applies it there: its own loggers' as ever,
    and the command's (companion/cli.py) for every other, at the command's level."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["line"] = {"format": LOG_FORMAT, "datefmt": LOG_DATE_FORMAT}
    config["handlers"]["line"] = {"class": "logging.StreamHandler", "formatter": "line", "stream": "ext://sys.stderr"}
    config["root"] = {"level": level, "handlers": ["line"]}
    return config


def workers_refused(db_url: str | None) -> str | None:
    """Why `--workers` cannot serve this database (None: it can): only PostgreSQL is shared."""
    from storage.database import resolve_url

    try:
        backend = resolve_url(db_url).get_backend_name()
    except Exception as error:  # a URL that is no URL: the store's own sentence
        return f"dyo-companion: {getattr(error, 'message', error)}"
    if backend != "postgresql":
        return (
            "dyo-companion: --workers needs a PostgreSQL database (--db postgresql+psycopg2://user@host/dbname): "
            "a SQLite file is served by one instance"
        )
    return None


class Supervisor(Multiprocess):
    """uvicorn's supervisor of `config.workers` workers on `sockets`, which replaces a worker that
    dies; made to give up, and say why, when workers cannot start (`gave_up` then says so)."""

    def __init__(self, config: Config, sockets: list[socket]) -> None:
        super().__init__(config, sockets)
        self.gave_up: str | None = None
        self._served: set[int | None] = set()  # the workers (by pid) that have served
        self._failed_starts = 0
        self._deaths: collections.deque[float] = collections.deque(maxlen=RESTARTS_PER_MINUTE)

    def keep_subprocess_alive(self) -> None:
        for index, process in enumerate(self.processes):
            if self.should_exit.is_set() or self.signal_queue:  # stopping: let the workers go
                return
            if self._alive(process):
                continue
            process.kill()  # hung (no answer), or already gone
            process.join()
            reason = self._why_give_up(process)
            if reason is not None:
                self.give_up(reason)
                return
            log.warning("worker %s stopped (exit code %s): starting another", process.pid, process.exitcode)
            replacement = Process(self.config, self.sockets)
            replacement.start()
            self.processes[index] = replacement

    def _alive(self, process: Process) -> bool:
        if process.pid not in self._served and process.is_ready(timeout=1):
            self._served.add(process.pid)
            self._failed_starts = 0
            return True
        return process.is_alive(timeout=self.config.timeout_worker_healthcheck)

    def _why_give_up(self, process: Process) -> str | None:
        code = process.exitcode
        if code == STARTUP_FAILURE:  # it said why (its options, the database): every other would too
            return f"a worker could not start (exit code {code})"
        if process.pid not in self._served:
            self._failed_starts += 1
            if self._failed_starts >= FAILED_STARTS:
                return f"{self._failed_starts} workers in a row stopped before serving (the last: exit code {code})"
        now = time.monotonic()
        self._deaths.append(now)
        if len(self._deaths) == RESTARTS_PER_MINUTE and now - self._deaths[0] < 60:
            return f"{RESTARTS_PER_MINUTE} workers stopped within a minute"
        return None

    def give_up(self, reason: str) -> None:
        """Stop every worker; the command then exits non-zero (a service manager restarts it)."""
        self.gave_up = reason
        print(f"dyo-companion: {reason}; stopping every worker", file=sys.stderr, flush=True)
        self.should_exit.set()
