"""Fixtures: every behavioural storage test runs on SQLite and, when configured, on PostgreSQL."""

import os
import sys
import uuid
from pathlib import Path

import pytest

# tests/ is on sys.path (tests/conftest.py), so this folder would shadow the real `storage`
# package as a namespace package under a bare `pytest`: put the project root first.
ROOT = str(Path(__file__).resolve().parents[2])
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

PG_ENV = "COMPANION_TEST_POSTGRES_URL"
PG_SKIP = (
    f"{PG_ENV} is not set: set it to a PostgreSQL URL (e.g. postgresql://postgres@127.0.0.1:54329/"
    "postgres, as ./tests/run does) to run the storage tests against PostgreSQL too"
)


class PostgresSchemas:
    """Each test gets an empty schema of the test server, found through search_path, dropped afterwards."""

    def __init__(self, base: str) -> None:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            pytest.fail(
                "the PostgreSQL tests need the psycopg driver: pip install 'psycopg[binary]' "
                "(or pip install -e '.[test]')"
            )
        from sqlalchemy import create_engine
        from sqlalchemy.engine import make_url

        self.base = make_url(base)
        self.admin = create_engine(self.base, isolation_level="AUTOCOMMIT")
        self.schemas: list[str] = []

    def fresh(self) -> str:
        from sqlalchemy import text

        schema = f"t_{uuid.uuid4().hex[:12]}"
        with self.admin.connect() as conn:
            conn.execute(text(f"CREATE SCHEMA {schema}"))
        self.schemas.append(schema)
        url = self.base.update_query_dict({"options": f"-csearch_path={schema}"})
        return url.render_as_string(hide_password=False)

    def drop(self) -> None:
        from sqlalchemy import text

        with self.admin.connect() as conn:
            for schema in self.schemas:
                conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        self.admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request) -> str:
    if request.param == "postgresql" and not os.environ.get(PG_ENV):
        pytest.skip(PG_SKIP)
    return request.param


@pytest.fixture
def make_url(backend, tmp_path):
    """A factory of URLs of new, empty databases of the backend under test."""
    if backend == "sqlite":
        counter = iter(range(10**6))
        yield lambda: f"sqlite:///{tmp_path / f'games{next(counter)}.sqlite3'}"
        return
    schemas = PostgresSchemas(os.environ[PG_ENV])
    try:
        yield schemas.fresh
    finally:
        schemas.drop()


@pytest.fixture
def db_url(make_url) -> str:
    return make_url()


@pytest.fixture
def store(db_url):
    from storage import Store

    opened = Store(db_url)
    try:
        yield opened
    finally:
        opened.close()
