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
from typing import Any

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


def test_the_rest_of_the_app_is_built_once_the_first_request_is_answered() -> None:
    """The server answers the browser's first request before the app's build takes the interpreter
    (host/launch.py's `FirstAnswer`); a lifespan or a socket does not count."""
    from companion.app.host.launch import FirstAnswer

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"a", "more_body": True})
            await send({"type": "http.response.body", "body": b"b"})

    gate = FirstAnswer(app)

    async def run() -> list[bool]:
        seen = [gate.answered.is_set()]
        await gate({"type": "lifespan"}, None, None)
        seen.append(gate.answered.is_set())
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=gate), base_url="http://test") as client:
            assert (await client.get("/")).text == "ab"
        seen.append(gate.answered.is_set())
        return seen

    assert asyncio.run(run()) == [False, False, True]
