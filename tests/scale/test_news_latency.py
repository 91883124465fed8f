"""`bench storage`'s news between two instances on PostgreSQL (companion/bench/postgres.py): every
action written on one is heard, then read, on the other, and the figures say so."""

from __future__ import annotations

from companion.bench.postgres import news_rows


def test_every_action_written_on_one_instance_is_read_on_the_other(pg_url: str) -> None:
    notified, read = news_rows(pg_url, samples=25)
    assert "pg_notify" in notified[0] and notified[1].startswith("p50 ")
    assert read[1].startswith("p50 ") and "lost" not in read[1], read
