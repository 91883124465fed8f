"""End to end, in Debian's chromium: the Warden's alert and a Report; undo and redo.

Games are created in the test's temporary database, then played only through the UI.
"""

from __future__ import annotations

from playwright.async_api import async_playwright

from .conftest import write_settings
from drivers.browser import (
    LAPTOP,
    PHONE,
    click_id,
    drive,
    ident,
    launch_browser,
    open_page,
    pictured_on_failure,
    screen_text,
    shot,
    wait_text,
)

WARDEN_GAME = {
    "players": [
        {"name": "Carmen", "color": "red", "hand": ["spoon", "unknown", "unknown"]},
        {"name": "Nicholas", "color": "black"},
        {"name": "Yellow", "color": "yellow"},
    ],
    "modules": {"warden": True},
    "seed": 11,
}


def test_warden_offence_is_flagged_and_reported(server, store) -> None:
    game_id = store.create_game(WARDEN_GAME)

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, f"{server.url}/game/{game_id}", PHONE)
            async with pictured_on_failure(page, "warden-phone"):
                await wait_text(page, "Carmen's turn", 30000)
                # Dig in the Cell Block, where the Warden stands: legal, but an offence (WARD-2). Her
                # only Tool is a Spoon, so the Dig asks nothing but, once, whether to do it under her eyes.
                await click_id(page, "action-dig")
                await wait_text(page, "Warden here: WARD-2")
                await click_id(page, "confirm-yes")
                await ident(page, "offence-alert").wait_for(state="attached", timeout=10000)
                alert = await ident(page, "offence-alert").get_attribute("aria-label")
                assert "WARD-2" in alert and "Carmen" in alert and "Dig" in alert and "Cell Block" in alert, alert
                await shot(page, "warden-phone-offence")
                # Any other player may report; the offender may not.
                assert await ident(page, "report-1").count() and await ident(page, "report-2").count()
                assert not await ident(page, "report-0").count()
                await click_id(page, "report-1")
                await wait_text(page, "Nicholas reports Carmen to the Warden")
                await wait_text(page, "Nicholas's turn")
                await shot(page, "warden-phone-reported")
            await browser.close()

    drive(run())
    state = store.load(game_id).game.state
    carmen = state.players[0]
    assert (carmen.place, carmen.tunnel, carmen.dug) == ("solitary", 1, ["spoon"])  # WARD-3, WARD-4
    assert state.active == 1 and state.offence is None


def test_undo_asks_before_a_die_roll_and_redo_restores(server, store, settings_path) -> None:
    write_settings(settings_path, die_mode="physical", theme="dark")
    game_id = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 5})

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, f"{server.url}/game/{game_id}", LAPTOP, dark=True)
            async with pictured_on_failure(page, "undo-laptop-dark"):
                await wait_text(page, "Carmen's turn", 30000)
                await click_id(page, "action-move")
                await click_id(page, "die-4")
                await wait_text(page, "where to?")  # a 4 names two Places: the choice is hers
                await shot(page, "undo-laptop-dark-destination")
                await click_id(page, "place-recreational_area")  # tap the highlighted Place
                await wait_text(page, "Carmen moves from the Cell Block to the Recreational Area")
                await click_id(page, "action-search")  # one tap: the cards drawn stay unentered
                await wait_text(page, "Carmen draws 2 Search cards")
                # Her own last step, no dice: undone at once.
                await click_id(page, "nav-undo")
                await wait_text(page, "Undone: Carmen: Search")
                assert store.load(game_id).game.state.players[0].hand.size() == 3
                # The destination choice: her own, no die in it: undone at once too.
                await click_id(page, "nav-undo")
                await wait_text(page, "Undone: Carmen: Choose")
                assert store.load(game_id).game.state.pending is not None  # back at the destination choice
                # The move itself carried the die roll: the table confirms first, and is told why.
                await click_id(page, "nav-undo")
                await ident(page, "confirm-yes").wait_for(state="attached", timeout=10000)
                assert "rolled dice" in await screen_text(page)
                await shot(page, "undo-laptop-dark-confirm")
                await click_id(page, "confirm-yes")
                await wait_text(page, "Undone: Carmen: Simple move")
                assert store.load(game_id).game.state.step == 0
                # Redo asks the same before putting the roll back, and names what it redid.
                await click_id(page, "nav-redo")
                await ident(page, "confirm-yes").wait_for(state="attached", timeout=10000)
                assert "rolled dice" in await screen_text(page)
                await click_id(page, "confirm-yes")
                await wait_text(page, "Redone: Carmen: Simple move")
                for what in ("Choose", "Search"):  # her own steps, no dice: at once
                    await click_id(page, "nav-redo")
                    await wait_text(page, f"Redone: Carmen: {what}")
                state = store.load(game_id).game.state
                assert state.players[0].place == "recreational_area" and state.players[0].hand.size() == 5
                await click_id(page, "nav-log")
                await wait_text(page, "Undo: Carmen: Search")
                await shot(page, "undo-laptop-dark-log")
            await browser.close()

    drive(run())
