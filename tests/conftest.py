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

# Long tests that need neither a browser nor PostgreSQL (over about ten seconds on a busy
# machine): a file, a test (every case of it) or one case, as pytest names them.
SLOW = {
    "engine/test_compiled.py",  # builds the compiled engine with mypyc and a C compiler
    "engine/test_listing.py::test_seeded_games_list_what_the_exhaustive_listing_lists",
    "engine/test_simulate.py::test_five_hundred_base_games_keep_every_invariant",
    "engine/test_simulate.py::test_five_hundred_games_of_random_module_combinations",
    "test_fuzz_input.py::test_mutated_files_through_the_checker",
    "test_fuzz_input.py::test_mutated_files_and_actions_through_the_store",
    "ui/test_sync_soak.py::test_the_soak_misses_nothing_and_times_the_servers_part",
    "ui/test_app_offline.py::test_the_setup_lays_out_in_every_mode",
    # The monkeys tapping through the screens, every seed.
    "ui/test_app_offline.py::test_random_taps_never_break_a_screen",
    "ui/test_join_rules.py::test_random_taps_on_every_phone_never_break_a_screen",
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
        test = getattr(item, "originalname", item.name)
        if {path, f"{path}::{test}", f"{path}::{item.name}"} & SLOW:
            item.add_marker(pytest.mark.slow)
