"""PostgreSQL for the benchmarks: the server they are given, throwaway schemas on it, and the news
between two instances measured without a browser or a proxy.

The server is the one named by COMPANION_BENCH_POSTGRES_URL (else the tests' or the app's URL,
when it is a PostgreSQL one). Each figure gets a schema of its own, dropped afterwards, so a
benchmark leaves the server as it found it and never reads another's rows.
"""

from __future__ import annotations

import os
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from companion.app.services.news import News, game_topic
from companion.app.services.notify import PostgresCarrier, dsn_of
from companion.bench import percentile
from companion.simulate import random_actions, random_config
from storage import Store

URL_VARIABLES = ("COMPANION_BENCH_POSTGRES_URL", "COMPANION_TEST_POSTGRES_URL", "COMPANION_DATABASE_URL")
NEWS_SAMPLES = 400
NEWS_GAP_S = 0.01  # between two samples: one notification in flight at a time
NEWS_WAIT_S = 5.0  # a notification not heard by then is counted lost


def database_url() -> str | None:
    """The PostgreSQL server to measure on, if one is named."""
    for name in URL_VARIABLES:
        value = os.environ.get(name, "")
        if value.startswith("postgresql"):
            return value
    return None


@contextmanager
def throwaway_schemas(base: str) -> Iterator[Callable[[], str]]:
    """A maker of URLs, each of a new empty schema of `base`'s database (found through
    search_path); every schema made is dropped when the block ends."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    url = make_url(base)
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    made: list[str] = []

    def fresh() -> str:
        schema = f"bench_{uuid.uuid4().hex[:10]}"
        with admin.connect() as conn:
            conn.execute(text(f"CREATE SCHEMA {schema}"))
        made.append(schema)
        return url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)

    try:
        yield fresh
    finally:
        with admin.connect() as conn:
            for schema in made:
                conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        admin.dispose()


class Heard(News):
    """One instance's news that times what reaches it: the notification, and the news read."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.notified: dict[int, float] = {}  # version -> when the listener handed it on
        self.read: dict[int, float] = {}  # version -> when its entry was read and handed to screens
        self.arrived = threading.Condition()

    def _listened(self, topic: str) -> bool:
        return True  # a screen of every game is open here

    def deliver(self, topic: str, message: dict[str, Any], origin: str = "") -> None:
        self.notified[int(message.get("version", -1))] = time.perf_counter()
        super().deliver(topic, message, origin)

    def deliver_read(self, topic: str, message: dict[str, Any]) -> None:
        with self.arrived:
            self.read[int(message["version"])] = time.perf_counter()
            self.arrived.notify_all()

    def wait(self, version: int) -> bool:
        with self.arrived:
            return self.arrived.wait_for(lambda: version in self.read, NEWS_WAIT_S)


def _ms(since: dict[int, float], until: dict[int, float]) -> list[float]:
    return [(until[v] - since[v]) * 1e3 for v in since if v in until]


def _spread(samples: list[float]) -> str:
    if not samples:
        return "no samples"
    return f"p50 {percentile(samples, 50):.1f} ms, p95 {percentile(samples, 95):.1f} ms, max {max(samples):.1f} ms"


def news_rows(url: str, samples: int = NEWS_SAMPLES) -> list[tuple[str, str, str]]:
    """Two instances' stores and news on one schema: one writes an action and announces it, as an
    instance announces its own; the other hears the notification, reads the entry, and has the
    news for its screens. Timed from the write acknowledged, one action at a time."""
    seed = 7
    config = random_config(random.Random(seed), 4, seed, "base")
    actions, _ = random_actions(config, seed, samples)
    writer, reader = Store(url), Store(url)
    here, there = News(writer), Heard(reader)
    carriers = [PostgresCarrier(news, dsn_of(store.db.url)) for news, store in ((here, writer), (there, reader))]
    written: dict[int, float] = {}
    try:
        for carrier in carriers:
            carrier.wait_listening()
        game_id = writer.create_game(config)
        version = 0
        for action in actions:
            version = writer.submit(game_id, action, base_version=version).version
            written[version] = time.perf_counter()
            carriers[0].send(game_topic(game_id), {"version": version})
            there.wait(version)
            time.sleep(NEWS_GAP_S)
    finally:
        for carrier in carriers:
            carrier.close()
        writer.close()
        reader.close()
    lost = len(written) - len(there.read)
    return [
        (
            f"PostgreSQL: a notification from one instance to another (action written, pg_notify to the "
            f"listener's callback; {len(written)} actions, one at a time)",
            _spread(_ms(written, there.notified)),
            "-",
        ),
        (
            "PostgreSQL: ... to the news read on the other instance (the new entry read from the store, "
            "ready for its screens)",
            _spread(_ms(written, there.read)) + (f", {lost} lost" if lost else ""),
            "-",
        ),
    ]
