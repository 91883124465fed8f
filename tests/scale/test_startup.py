"""The command starts once, and listens before it imports the app (companion/app/entry/web.py):
what answers HTTP is built from light modules, the rest once the server listens."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from concurrent.futures import Future
from pathlib import Path

import httpx
import pytest

from companion.bench.startup import imports

from drivers.browser import free_port
from drivers.wire import WireClient

HEAVY = ("storage", "sqlalchemy", "companion.rules", "companion.app.services.shared", "companion.app.ui.shell")


def test_the_command_imports_the_app_once(tmp_path: Path) -> None:
    """It decides its allocator before importing the app: two interpreters, one import of Flet."""
    assert imports(tmp_path) == (2, 1)


def test_what_answers_http_is_built_from_light_modules(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from concurrent.futures import Future\n"
        "from companion.app.entry.web import TableApp\n"
        "TableApp().web(Future(), None, ())\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, COMPANION_SETTINGS=str(tmp_path / "settings.json")),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_session_that_comes_before_the_app_is_built_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The browser's first session may come before the services are built: it waits for them,
    and the server answers meanwhile."""
    import uvicorn

    from companion.app.entry.web import TableApp
    from storage import Store

    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "settings.json"))
    opening: Future[Store] = Future()
    app = TableApp().web(opening, None, ())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app.asgi, host="127.0.0.1", port=port, log_level="warning"))
    serving = threading.Thread(target=server.run, daemon=True)
    serving.start()

    async def run() -> tuple[str | None, int, str | None]:
        while not server.started:
            await asyncio.sleep(0.05)
        async with WireClient(f"ws://127.0.0.1:{port}/ws") as browser:
            await browser.register("/")
            early = await browser.wait_for("home-new", timeout=2)
            async with httpx.AsyncClient() as http:
                health = (await http.get(f"http://127.0.0.1:{port}/api/health", timeout=10)).status_code
            app.start()
            opening.set_result(Store(url=f"sqlite:///{tmp_path / 'games.sqlite3'}"))
            return early, health, await browser.wait_for("home-new", timeout=60)

    try:
        early, health, shown = asyncio.run(run())
    finally:
        server.should_exit = True
        serving.join(timeout=30)
        if opening.done():
            opening.result().close()
    assert early is None and health == 200 and shown == "home-new"
