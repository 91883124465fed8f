"""End to end: the real `dyo-companion` process is stopped mid-game and started again; the
browser comes back to the same screen (the pending decision included), and play goes on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from playwright.async_api import async_playwright

from .conftest import make_store
from drivers.browser import (
    PHONE,
    click_id,
    drive,
    enable_semantics,
    free_port,
    ident,
    launch_browser,
    open_page,
    pictured_on_failure,
    screen_text,
    serving,
    shot,
    wait_text,
)

ROUND = [
    {"type": "move", "player": 0, "die": [1]},
    {"type": "steal_spoon", "player": 0},
    {"type": "end_turn", "player": 0},
    {"type": "cautious_move", "player": 1, "to": "recreational_area"},
    {"type": "end_turn", "player": 1},
    {"type": "move", "player": 2, "die": [1]},
    {"type": "extort", "player": 2, "target": 0, "tool": "spoon", "weapons": ["knife"]},
]


def start_server(port: int, db: str, settings: Path) -> subprocess.Popen:
    env = dict(os.environ, COMPANION_SETTINGS=str(settings), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "--no-browser", "--port", str(port), "--db", db],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    return serving(proc, f"http://127.0.0.1:{port}/api/health", "the server")


def stop_server(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def stable_screen(page) -> list[str]:
    """What the table says (status, decision, answers, players), without transient lines."""
    text = await screen_text(page)
    keep = ("Waiting for", "extorts Carmen", "Fight", "Give the Spoon", "Round ", "Laid to intimidate")
    return sorted({line.strip() for line in text.splitlines() if any(k in line for k in keep)})


def test_restart_mid_game_resumes_the_same_screen(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = make_store(tmp_path)
    game_id = store.create_game(
        {
            "players": [
                {"name": "Carmen"},
                {"name": "Nicholas"},
                {"name": "Yellow", "hand": ["knife", "knife", "unknown"]},
            ],
            "seed": 9,
        }
    )
    for action in ROUND:
        version = store.load(game_id).version
        assert store.submit(game_id, action, base_version=version).answer.accepted
    store.close() if hasattr(store, "close") else None
    port = free_port()
    settings = tmp_path / "settings.json"
    proc = start_server(port, db, settings)
    try:

        async def run() -> None:
            async with async_playwright() as p:
                browser = await launch_browser(p)
                page = await open_page(browser, f"http://127.0.0.1:{port}/game/{game_id}", PHONE)
                async with pictured_on_failure(page, "restart-phone"):
                    await wait_text(page, "Yellow extorts Carmen for the Spoon", 30000)
                    before = await stable_screen(page)
                    await shot(page, "restart-phone-before")
                    nonlocal proc
                    stop_server(proc)
                    proc = start_server(port, db, settings)
                    # The page reconnects by itself; a reload must land on the same screen as well.
                    await page.reload()
                    await enable_semantics(page)
                    await wait_text(page, "Yellow extorts Carmen for the Spoon", 30000)
                    after = await stable_screen(page)
                    await shot(page, "restart-phone-after")
                    assert after == before, (before, after)
                    await click_id(page, "answer-fight")
                    await wait_text(page, "Carmen, defend yourself against Yellow")
                    assert await ident(page, "answer-weapon-blade-0").count()
                await browser.close()

        drive(run())
    finally:
        stop_server(proc)
