"""A browser that stops answering fails its test in bounded time, and only that failure runs the
browser test once more (no browser needed: the waits are given pages that never answer)."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from drivers.browser import BrowserStuck, drive, evaluate

TESTS = Path(__file__).resolve().parents[1]


class HungPage:
    """A page whose renderer never answers, after it crashed or not."""

    def __init__(self, crashed: bool) -> None:
        self.console_lines = ["crash: the page's renderer crashed"] if crashed else []

    async def evaluate(self, script: str, arg: object = None) -> None:
        await asyncio.sleep(60)


def test_a_session_that_does_not_end_fails_as_stuck_at_its_step() -> None:
    async def session() -> None:
        await asyncio.sleep(60)  # the stuck step

    with pytest.raises(BrowserStuck, match="did not end within 0 s") as failure:
        drive(session(), limit=0.2)
    assert isinstance(failure.value.__cause__, TimeoutError)


@pytest.mark.parametrize("crashed,why", [(True, "its renderer crashed"), (False, "its renderer is stuck")])
def test_a_page_that_does_not_answer_fails_as_stuck_and_says_why(crashed: bool, why: str) -> None:
    with pytest.raises(BrowserStuck, match=why):
        asyncio.run(evaluate(HungPage(crashed), "1 + 1", timeout=0.1))


def test_only_a_stuck_browser_runs_a_browser_test_again(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text("from ui.conftest import pytest_collection_modifyitems  # noqa: F401\n")
    (tmp_path / "test_e2e_fake.py").write_text(
        textwrap.dedent(
            """
            from pathlib import Path

            from drivers.browser import BrowserStuck

            def test_the_browser_got_stuck_once():
                first = Path(__file__).with_name("ran-once")
                if not first.exists():
                    first.touch()
                    raise BrowserStuck("the page did not answer within 30 s")

            def test_the_app_is_wrong():
                raise AssertionError("the screen says the wrong thing")
            """
        )
    )
    path = os.pathsep.join([str(TESTS), str(TESTS.parent), os.environ.get("PYTHONPATH", "")])
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:flet", str(tmp_path)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=120,
    )
    summary = run.stdout.strip().splitlines()[-1]
    counts = dict((word, int(n)) for n, word in re.findall(r"(\d+) (\w+)", summary))
    assert counts == {"failed": 1, "passed": 1, "rerun": 1}, run.stdout + run.stderr


class SlowText:
    """A page whose text never comes, and whose renderer answers or not."""

    def __init__(self, hung: bool) -> None:
        self.hung = hung
        self.console_lines: list[str] = []

    async def wait_for_function(self, script: str, arg: object = None, timeout: float = 0) -> None:
        from playwright.async_api import TimeoutError as WaitTimeout

        raise WaitTimeout(f"Timeout {timeout}ms exceeded.")

    async def evaluate(self, script: str, arg: object = None) -> str:
        if self.hung:
            await asyncio.sleep(60)
        return "Nicholas rolls"


def test_a_text_that_never_comes_is_stuck_only_when_the_renderer_is(monkeypatch: pytest.MonkeyPatch) -> None:
    from drivers import browser

    monkeypatch.setattr(browser, "FRAME_S", 0.1)
    with pytest.raises(BrowserStuck, match="its renderer is stuck"):
        asyncio.run(browser.wait_text(SlowText(hung=True), "Carmen rolls", 10))
    # The page draws: the text is really not there, and the failure says what is.
    with pytest.raises(
        AssertionError, match="'Carmen rolls' never showed .*the screen showed: Nicholas rolls"
    ) as failure:
        asyncio.run(browser.wait_text(SlowText(hung=False), "Carmen rolls", 10))
    assert not isinstance(failure.value, BrowserStuck)
