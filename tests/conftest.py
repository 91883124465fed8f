"""Markers given by what a test needs, so `pytest -m "not (browser or postgres or scale or slow)"`
(`./tests/run --quick`) runs the quick part without chromium, PostgreSQL or nginx.

- browser: drives Debian's chromium (the end-to-end tests, or a module that launches it);
- postgres: needs the server named by COMPANION_TEST_POSTGRES_URL;
- scale: tests/scale (several servers, workers, nginx);
- slow: over about twenty seconds on its own (SLOW below, by test id or by file).
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

TESTS = Path(__file__).resolve().parent

# Long tests that need neither a browser nor PostgreSQL: a file (every test in it) or one test's id.
SLOW = {
    "engine/test_compiled.py",  # builds the compiled engine with mypyc and a C compiler
}


def _relative(item: pytest.Item) -> str:
    try:
        return item.path.relative_to(TESTS).as_posix()
    except ValueError:
        return item.path.as_posix()


def _launches_a_browser(item: pytest.Item) -> bool:
    module = getattr(item, "module", None)
    names = vars(module) if module is not None else {}
    return item.path.name.startswith("test_e2e_") or "launch_browser" in names or "async_playwright" in names


def _needs_postgres(item: pytest.Item) -> bool:
    if "pg_url" in getattr(item, "fixturenames", ()):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("backend") == "postgresql"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = _relative(item)
        if _launches_a_browser(item):
            item.add_marker(pytest.mark.browser)
        if _needs_postgres(item):
            item.add_marker(pytest.mark.postgres)
        if path.startswith("scale/"):
            item.add_marker(pytest.mark.scale)
        if path in SLOW or f"{path}::{item.name}" in SLOW:
            item.add_marker(pytest.mark.slow)
