"""End to end, in Debian's chromium: the tutorial round from Home, guided step by step: the first
step played from the menu with the real die, the rest with "Play this step", to its end."""

from __future__ import annotations

from playwright.async_api import async_playwright

from .conftest import write_settings
from drivers.browser import LAPTOP, click_id, drive, launch_browser, open_page, pictured_on_failure, wait_text


def test_the_tutorial_round_is_guided_from_home_to_its_end(server, store, settings_path) -> None:
    write_settings(settings_path, die_mode="physical")

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url, LAPTOP)
            async with pictured_on_failure(page, "tutorial-laptop"):
                await click_id(page, "home-tutorial", timeout=30000)
                await wait_text(page, "Tutorial round · step 1 of 11", 30000)
                await wait_text(page, "the guide rolled a 1")
                await click_id(page, "action-move")  # the table plays the step itself, real die
                await click_id(page, "die-1")  # a 1 from the Cell Block: only the Cafeteria (MOVE-2)
                await wait_text(page, "Tutorial round · step 2 of 11")
                for number in range(2, 12):
                    await click_id(page, "coach-play")
                    if number < 11:
                        await wait_text(page, f"step {number + 1} of 11")
                await wait_text(page, "The tutorial round is over")
                await click_id(page, "coach-carry-on")
                await wait_text(page, "Yellow's turn")
            await browser.close()

    drive(run())
    (game,) = store.list_games()
    assert store.load(game.id).version == 11
