"""End to end: the packaged app's entry (main.py → companion.app.entry.packaged) in its own process.

A packaged build runs main.py as `__main__` with `FLET_APP_STORAGE_DATA` naming the app's data
folder; here Flet serves the same process in web mode (`FLET_FORCE_WEB_SERVER`) and chromium
stands in for the Flutter client. A game is set up and a turn played; the process is stopped and
started again and the game resumes where it stood; the database and the settings are in the
data folder and nowhere else (HOME and the XDG folders point at a folder that must stay free of
them); and the app offers no join QR code, as no phone could reach a packaged app.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from playwright.async_api import async_playwright

from .test_e2e_example_round import fill_name
from .test_e2e_restart import stop_server
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
    require_chromium,
    serving,
    shot,
    wait_text,
)

ROOT = Path(__file__).resolve().parents[2]
OURS = ("games.sqlite3", "settings.json", "dyo-companion")  # what the app writes, by name


def native_env(data: Path, home: Path, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "XDG_", "FLET_"))}
    env.update(
        FLET_APP_STORAGE_DATA=str(data),
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_STATE_HOME=str(home / "state"),
        FLET_FORCE_WEB_SERVER="1",
        FLET_SERVER_IP="127.0.0.1",
        FLET_SERVER_PORT=str(port),
        FLET_WEB_NO_CDN="1",
        PYTHONUNBUFFERED="1",
    )
    return env


def start_native(env: dict[str, str], port: int) -> subprocess.Popen:
    """`python main.py` from the repository root, as the packaged app's host runs the entry."""
    proc = subprocess.Popen(
        [sys.executable, "main.py"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    return serving(proc, f"http://127.0.0.1:{port}/", "main.py")


def our_files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if any(n in p.name for n in OURS))


def stored_state(data: Path):
    from storage import Store

    store = Store(url=f"sqlite:///{data / 'games.sqlite3'}")
    games = store.list_games("active")
    assert len(games) == 1, f"expected the one game set up, found {len(games)}"
    return games[0].id, store.load(games[0].id).game.state


def test_packaged_entry_keeps_its_game_in_the_data_folder(tmp_path: Path) -> None:
    require_chromium()
    data, home = tmp_path / "app-data", tmp_path / "home"
    home.mkdir()
    port = free_port()
    env = native_env(data, home, port)
    proc = start_native(env, port)
    try:

        async def run() -> None:
            nonlocal proc
            async with async_playwright() as p:
                browser = await launch_browser(p)
                page = await open_page(browser, f"http://127.0.0.1:{port}/", PHONE)
                async with pictured_on_failure(page, "native-first-run"):
                    await click_id(page, "home-settings", timeout=30000)
                    await click_id(page, "dice-physical")  # a setting, to be found in the data folder
                    await click_id(page, "nav-back")
                    await click_id(page, "home-new-game")
                    await wait_text(page, "Start the game")
                    await fill_name(page, 1, "Carmen")
                    await fill_name(page, 2, "Nicholas")
                    await click_id(page, "setup-start-button")
                    await wait_text(page, "Carmen's turn")
                    assert await ident(page, "nav-correct").count(), "the table screen's toolbar is not there"
                    assert not await ident(page, "nav-table-view").count(), (
                        "a packaged app offers the join QR code, but no phone can reach it"
                    )
                    await click_id(page, "action-move")
                    await click_id(page, "die-1")
                    await wait_text(page, "Carmen moves from the Cell Block to the Cafeteria")
                    await click_id(page, "action-steal_spoon")
                    await wait_text(page, "Carmen takes 1 × Spoon")
                    await click_id(page, "action-end_turn")
                    await wait_text(page, "Nicholas's turn")
                    game_url = page.url
                    await page.goto(f"{game_url.rstrip('/')}/table")  # the table view's route: the console
                    await enable_semantics(page)
                    await wait_text(page, "Nicholas's turn", 30000)
                    assert not await ident(page, "join-qr").count(), "the join QR code is shown"
                    await shot(page, "native-first-run")
                stop_server(proc)

                kept = sorted(p.name for p in data.iterdir()) if data.is_dir() else []
                assert [n for n in kept if not n.endswith(("-journal", "-wal", "-shm"))] == [
                    "games.sqlite3",
                    "settings.json",
                ], f"the data folder holds {kept}"
                assert not our_files(home), f"the app wrote outside its data folder: {our_files(home)}"
                assert '"die_mode": "physical"' in (data / "settings.json").read_text()
                game_id, state = stored_state(data)
                assert game_url.endswith(f"/game/{game_id}")
                assert (state.active, state.players[0].place, state.players[0].hand.count("spoon")) == (
                    1,
                    "cafeteria",
                    1,
                )

                proc = start_native(env, port)  # the app opened again: its home screen
                page = await open_page(browser, f"http://127.0.0.1:{port}/", PHONE)
                async with pictured_on_failure(page, "native-second-run"):
                    await wait_text(page, "Carmen, Nicholas", 30000)
                    await click_id(page, f"resume-{game_id}")
                    await wait_text(page, "Nicholas's turn")
                    await wait_text(page, "Spoon")
                    await click_id(page, "action-move")
                    await ident(page, "die-1").wait_for(state="attached", timeout=10000)  # the setting held
                    await shot(page, "native-second-run")
                await browser.close()

        drive(run())
    finally:
        stop_server(proc)
    assert not our_files(home), f"the app wrote outside its data folder: {our_files(home)}"
