"""End to end: two screens on one game (a laptop and a phone) follow each other live, each telling
what was done on the other."""

from __future__ import annotations

from playwright.async_api import async_playwright

from drivers.browser import LAPTOP, PHONE, click_id, drive, launch_browser, open_page, wait_text


def test_two_screens_follow_each_other(server, store) -> None:
    game_id = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 21})

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            laptop = await open_page(browser, f"{server.url}/game/{game_id}", LAPTOP)
            phone = await open_page(browser, f"{server.url}/game/{game_id}", PHONE)
            await wait_text(laptop, "Carmen's turn", 30000)
            await wait_text(phone, "Carmen's turn", 30000)
            await click_id(laptop, "action-search")
            await wait_text(phone, "Carmen draws", 10000)  # the other screen tells what was done there
            await wait_text(phone, "1 action left")
            await click_id(phone, "action-end_turn")
            await wait_text(laptop, "Nicholas's turn", 10000)
            await browser.close()

    drive(run())
    assert store.load(game_id).game.state.active == 1
