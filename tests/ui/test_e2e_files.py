"""End to end: a game file exported from the home screen downloads in the browser, and the same
file imported back becomes a new game that opens at the same state; in between, the browser's
connection drops and comes back (the file picker is made again: Flet 1.0 answers no call to the
one made before). A game deleted from Home is asked about first."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from playwright.async_api import async_playwright

from drivers.browser import (
    LAPTOP,
    PHONE,
    click_id,
    cut_connection,
    drive,
    launch_browser,
    open_page,
    pictured_on_failure,
    reconnected,
    screen_text,
    shot,
    wait_text,
)


def test_export_then_import_a_game_file(server, store, tmp_path: Path) -> None:
    game_id = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 8})
    for action in ({"type": "move", "player": 0, "die": [1]}, {"type": "steal_spoon", "player": 0}):
        store.submit(game_id, action, base_version=store.load(game_id).version)

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/", LAPTOP, routed=True)
            async with pictured_on_failure(page, "files-laptop"):
                await wait_text(page, "Carmen, Nicholas", 30000)
                async with page.expect_download(timeout=20000) as download:
                    await click_id(page, f"export-{game_id}", expect_change=False)
                saved = tmp_path / "exported.json"
                await (await download.value).save_as(saved)
                data = json.loads(saved.read_text())
                assert [a["type"] for a in data["actions"]] == ["move", "steal_spoon"]
                await cut_connection(page)
                await reconnected(page, 2)
                await asyncio.sleep(1.0)  # the session is attached again
                async with page.expect_file_chooser(timeout=20000) as chooser:
                    await click_id(page, "home-import", expect_change=False)
                await (await chooser.value).set_files(str(saved))
                await wait_text(page, "Carmen's turn", 20000)
                await wait_text(page, "Spoon")
                await shot(page, "files-laptop-imported")
            await browser.close()

    drive(run())
    games = store.list_games("active")
    assert len(games) == 2
    imported = next(g for g in games if g.id != game_id)
    assert store.load(imported.id).game.state.players[0].hand.count("spoon") == 1


def test_a_game_deleted_from_home_is_asked_about_first(server, store) -> None:
    """A phone-sized Home: the bin asks first (Cancel keeps the game), then the game is gone."""
    kept = store.create_game({"players": [{"name": "Yellow"}, {"name": "Dana"}]})
    deleted = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/", PHONE)
            async with pictured_on_failure(page, "delete-phone"):
                await wait_text(page, "Carmen, Nicholas", 30000)
                await click_id(page, f"delete-{deleted}")
                await wait_text(page, "Delete this game?")
                await click_id(page, "confirm-no")
                assert len(store.list_games()) == 2
                await click_id(page, f"delete-{deleted}")
                await shot(page, "delete-phone-confirm")
                await click_id(page, "confirm-yes")
                await wait_text(page, "Deleted: Carmen, Nicholas")
                await shot(page, "delete-phone-after")
                assert "Carmen, Nicholas" not in (await screen_text(page)).replace("Deleted: Carmen, Nicholas", "")

    drive(run())
    assert [g.id for g in store.list_games()] == [kept]
