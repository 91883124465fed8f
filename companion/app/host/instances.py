"""How many instances may serve one database, and `--workers N`.

SQLite is one instance's store: its path is claimed (an advisory lock on `<db>.lock`, held for
the life of the server) and a second server on the same path stops with a sentence saying so. A PostgreSQL
database may be served by any number of instances, on one machine or several: their screens
hear each other through news.py, and they share the host key (kept in the database) so a host
link printed by one is good on every other.

`--workers N` serves N such instances on one port under uvicorn's supervisor (workers.py). A
worker is a new interpreter that builds the app from the import string it is given (uvicorn's
factory), so the command hands it the parsed options in an environment variable
(`WorkerOptions`), which it checks. Only PostgreSQL can be shared so (`workers_refused`).
"""

from __future__ import annotations

import json
import os
from concurrent.futures import Future
from dataclasses import asdict, dataclass
from typing import IO, TYPE_CHECKING

from .net import Network, networks

if TYPE_CHECKING:  # storage is imported once the server listens (launch.py)
    from storage import Store

HOST_SECRET = "host"
OPTIONS_ENV = "COMPANION_WORKER_OPTIONS"  # the parsed options, as JSON, for the workers to read
_claims: list[IO[bytes]] = []  # the open files whose locks this process holds


class AlreadyServed(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def claim(store: Store) -> None:
    """Hold the SQLite file's path for this server; AlreadyServed when another server holds it.

    The lock is on `<db>.lock` beside the database (storage/files.py), not on the database file:
    it stays with the path when the file is deleted or replaced under the server.
    """
    db = store.db
    if not db.is_sqlite or db.path is None:
        return
    from storage.files import Held, hold_lock

    try:
        handle = hold_lock(db.path)
    except Held:
        raise AlreadyServed(
            f"another companion is already serving {db.label}. A SQLite file is served by one "
            "instance: open that one, or serve several instances from a PostgreSQL database "
            "(--db postgresql+psycopg2://user@host/dbname)"
        ) from None
    if handle is not None:
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


def workers_refused(db_url: str | None) -> str | None:
    """Why `--workers` cannot serve this database (None: it can): only PostgreSQL is shared."""
    from storage.database import resolve_url

    try:
        backend = resolve_url(db_url).get_backend_name()
    except Exception as error:  # a URL that is no URL: the store's own sentence
        return f"dyo-companion: {getattr(error, 'message', error)}"
    if backend != "postgresql":
        return (
            "dyo-companion: --workers needs a PostgreSQL database (--db postgresql://user@host/dbname): "
            "a SQLite file is served by one instance"
        )
    return None
