"""PostgreSQL LISTEN/NOTIFY between the instances serving one database (news.py says what travels).

Each instance keeps one listening connection (psycopg 3, its store's driver too), on a thread of
its own that waits in the connection's `notifies()`, and one connection to send on, used by a
sending thread in the order the news was queued. The channel is named after the schema the store
uses, so two companions sharing a server but not a schema never hear each other. Each
notification names the instance that sent it; an instance ignores its own (its screens heard the
news from Flet's pubsub already). A lost listening connection is opened again, with a growing
pause, and every game shown here is then read again (`News.catch_up`): news missed meanwhile is
never lost for good, only late.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import URL

from storage import Store

from .news import News

if TYPE_CHECKING:  # psycopg is imported only where PostgreSQL is used
    from psycopg import Connection

    PgConnection = Connection[tuple[Any, ...]]

log = logging.getLogger(__name__)
PAYLOAD_MAX = 7900  # PostgreSQL refuses payloads from 8000 bytes
RETRY_MAX_S = 10.0
WAKE_S = 1.0  # how often the listening thread looks up from the connection to see if it should stop


def dsn_of(url: URL) -> str:
    """The libpq address of a SQLAlchemy URL (its driver name dropped, the password kept)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def channel_of(schema: str) -> str:
    """The channel of one schema's companion: a plain identifier PostgreSQL accepts unquoted."""
    clean = re.sub(r"[^a-z0-9_]", "_", (schema or "public").lower())
    return f"dyo_news_{clean}"[:63]


class PostgresCarrier:
    """`news`'s way to the other instances, over psycopg 3 connections to `dsn` (libpq's address)."""

    def __init__(self, news: News, dsn: str) -> None:
        import psycopg

        self._connect: Callable[[], PgConnection] = lambda: psycopg.connect(dsn, autocommit=True)
        self.news = news
        self.origin = uuid.uuid4().hex[:12]
        self._send_lock = threading.Lock()
        self._sender: PgConnection | None = None
        self._stop = threading.Event()
        self._listening = threading.Event()
        self.channel = ""
        self.listener_pid = 0  # the listening connection's server process (a test cuts it)
        self._open_sender()  # the first connection fails loudly: a wrong address is the operator's to fix
        self._outbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._sending = threading.Thread(target=self._send_all, name="news-sender", daemon=True)
        self._sending.start()
        self._thread = threading.Thread(target=self._listen, name="news-listener", daemon=True)
        self._thread.start()

    def wait_listening(self, timeout: float = 10.0) -> bool:
        return self._listening.wait(timeout)

    def _open(self) -> PgConnection:
        conn = self._connect()  # in autocommit: a LISTEN or a NOTIFY takes effect at once
        row = conn.execute("SELECT current_schema()").fetchone()
        assert row is not None  # a query of one value answers one row
        self.channel = channel_of(row[0])
        return conn

    def _open_sender(self) -> None:
        self._sender = self._open()

    # --- sending -------------------------------------------------------------------------------

    def send(self, topic: str, message: dict[str, Any]) -> None:
        """Queue the news for the sending thread: a NOTIFY is a round trip to the database, which
        the event loop every screen shares never waits for. One thread keeps the order sent."""
        payload = json.dumps({"o": self.origin, "t": topic, "m": message}, separators=(",", ":"))
        if len(payload.encode("utf-8")) > PAYLOAD_MAX:
            payload = json.dumps(
                {"o": self.origin, "t": topic, "m": {k: v for k, v in message.items() if k != "devices"}}
            )
        self._outbox.put(payload)

    def _send_all(self) -> None:
        while (payload := self._outbox.get()) is not None:
            try:
                self._notify(payload)
            except Exception:  # their screens catch up on their next read
                log.warning("cannot tell the other instances the news", exc_info=True)

    def _notify(self, payload: str) -> None:
        with self._send_lock:
            for attempt in (1, 2):  # a connection the server closed is opened again, once
                try:
                    if self._sender is None or self._sender.closed:
                        self._open_sender()
                    assert self._sender is not None  # opened just above if it was not
                    self._sender.execute("SELECT pg_notify(%s, %s)", (self.channel, payload))
                    return
                except Exception:
                    self._drop_sender()
                    if attempt == 2:
                        raise

    def _drop_sender(self) -> None:
        try:
            if self._sender is not None:
                self._sender.close()
        except Exception:
            pass
        self._sender = None

    # --- listening -----------------------------------------------------------------------------

    def _listen(self) -> None:
        from psycopg import sql

        listen = sql.SQL("LISTEN {}")
        pause = 0.2
        first = True
        while not self._stop.is_set():
            try:
                conn = self._open()
            except Exception:
                log.warning("cannot open the news connection; retrying in %.1f s", pause)
                self._stop.wait(pause)
                pause = min(RETRY_MAX_S, pause * 2)
                continue
            try:
                conn.execute(listen.format(sql.Identifier(self.channel)))
                self.listener_pid = conn.info.backend_pid
                self._listening.set()
                if not first:
                    self.news.catch_up()
                first, pause = False, 0.2
                self._pump(conn)
            except Exception:
                if not self._stop.is_set():
                    log.warning("the news connection was lost; opening it again", exc_info=True)
            finally:
                self._listening.clear()
                try:
                    conn.close()
                except Exception:
                    pass

    def _pump(self, conn: PgConnection) -> None:
        """Hand on each notification as it arrives; a lost connection raises out of `notifies`."""
        while not self._stop.is_set():
            for note in conn.notifies(timeout=WAKE_S):
                self._handle(note.payload)

    def _handle(self, payload: str) -> None:
        try:
            data = json.loads(payload)
        except ValueError:
            return
        if not isinstance(data, dict) or data.get("o") == self.origin:
            return
        topic, message = data.get("t"), data.get("m")
        if isinstance(topic, str) and isinstance(message, dict):
            try:
                self.news.deliver(topic, message, str(data.get("o") or ""))
            except Exception:
                log.warning("cannot hand on the news of %s", topic, exc_info=True)

    def close(self) -> None:
        self._outbox.put(None)  # what was queued before is still sent
        self._sending.join(timeout=3)
        self._stop.set()
        self._thread.join(timeout=3)
        with self._send_lock:
            self._drop_sender()


def start(news: News, store: Store) -> None:
    """Give `news` its carrier when the store is PostgreSQL (SQLite: one instance, none needed)."""
    db = getattr(store, "db", None)
    if db is None or db.is_sqlite or news.carrier is not None:
        return
    carrier = PostgresCarrier(news, dsn_of(db.url))
    carrier.wait_listening()
    news.carrier = carrier
