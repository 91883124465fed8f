"""Fixtures: a throwaway schema of the test PostgreSQL server for each test (several instances share it)."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

# tests/ is on sys.path (tests/conftest.py), where tests/storage would shadow the real package.
ROOT = str(Path(__file__).resolve().parents[2])
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

PG_ENV = "COMPANION_TEST_POSTGRES_URL"


@pytest.fixture
def pg_url() -> Iterator[str]:
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.fail(
            f"the scale tests need PostgreSQL: install it (apt-get install postgresql) and set {PG_ENV} "
            "to a server's URL, e.g. postgresql://postgres@127.0.0.1:54329/postgres (./tests/run "
            "starts one)"
        )
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.fail("the scale tests need the psycopg driver: pip install -e '.[test]'")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    url = make_url(base)
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    schema = f"s_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        admin.dispose()
