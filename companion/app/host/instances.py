"""How many instances may serve one database, and `--workers N`.

SQLite is one instance's store: its path is claimed (an advisory lock on `<db>.lock`, held for
the life of the server) and a second server on the same path stops with a sentence saying so. A PostgreSQL
database may be served by any number of instances, on one machine or several: their screens
hear each other through news.py, and they share the host key (kept in the database) so a host
link printed by one is good on every other.

`--workers N` starts N copies of this command, each a whole server (its own Flet sessions) on
the same port: the kernel spreads new connections over them (SO_REUSEPORT). Only PostgreSQL
can be shared so; a session that lands on another worker after a reconnect comes back to its
seat by the device token kept in its browser.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import Future
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # storage is imported once the server listens (launch.py)
    from storage import Store

WORKER_ENV = "COMPANION_WORKER"  # set in each worker: its number (0 announces the address)
HOST_SECRET = "host"
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


def worker_number() -> int | None:
    value = os.environ.get(WORKER_ENV)
    return int(value) if value is not None and value.isdigit() else None


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A listening socket that other workers bind too (the kernel balances new connections)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def without_workers(argv: list[str]) -> list[str]:
    """The command line a worker runs: this one without `--workers`."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--workers":
            skip = True
        elif not arg.startswith("--workers="):
            out.append(arg)
    return out


def run_workers(count: int, db_url: str | None, argv: list[str]) -> int:
    """Start `count` workers and wait for them; Ctrl+C or SIGTERM stops them all."""
    from storage.database import resolve_url

    try:
        backend = resolve_url(db_url).get_backend_name()
    except Exception as error:
        print(f"dyo-companion: {getattr(error, 'message', error)}", file=sys.stderr)
        return 2
    if backend != "postgresql":
        print(
            "dyo-companion: --workers needs a PostgreSQL database (--db postgresql+psycopg2://user@host/dbname): "
            "a SQLite file is served by one instance",
            file=sys.stderr,
        )
        return 2
    if not hasattr(socket, "SO_REUSEPORT"):
        print("dyo-companion: --workers needs SO_REUSEPORT (Linux, BSD, macOS)", file=sys.stderr)
        return 2
    command = [sys.executable, "-m", "companion", *without_workers(argv)]
    workers = [subprocess.Popen(command, env=dict(os.environ, **{WORKER_ENV: str(n)})) for n in range(count)]

    def stop(*_: Any) -> None:
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()

    signal.signal(signal.SIGTERM, stop)
    try:
        while True:
            codes = [worker.poll() for worker in workers]
            if all(code is not None for code in codes):
                break
            if any(code not in (None, 0) for code in codes):  # one could not start: the others go too
                stop()
            time.sleep(0.2)
    except KeyboardInterrupt:
        stop()
    for worker in workers:
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()
    return max((w.returncode for w in workers if w.returncode and w.returncode > 0), default=0)
