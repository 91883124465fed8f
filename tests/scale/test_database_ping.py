"""A PostgreSQL connection is pinged only after sitting idle, and one dropped meanwhile is replaced."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import create_engine, text

import storage.database
from storage.database import Database


def backend(db: Database) -> int:
    with db.transaction() as conn:
        return int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one())


def pings(db: Database, monkeypatch: Any) -> list[bool]:
    seen: list[bool] = []
    ping = db.engine.dialect.do_ping
    monkeypatch.setattr(db.engine.dialect, "do_ping", lambda conn: seen.append(True) or ping(conn))
    return seen


def test_a_busy_connection_is_not_pinged(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    db = Database(pg_url)
    try:
        seen = pings(db, monkeypatch)
        assert len({backend(db) for _ in range(5)}) == 1
        assert seen == []  # five transactions, five round trips saved
    finally:
        db.dispose()


def test_an_idle_connection_dropped_meanwhile_is_replaced(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    db = Database(pg_url)
    admin = create_engine(pg_url)
    try:
        seen = pings(db, monkeypatch)
        before = backend(db)
        with admin.begin() as conn:  # the server drops the pooled connection (a restart would too)
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": before})
        monkeypatch.setattr(storage.database, "IDLE_PING_S", 0.0)  # it has been idle long enough
        after = backend(db)
        assert seen and after != before
    finally:
        db.dispose()
        admin.dispose()
