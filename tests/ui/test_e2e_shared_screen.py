"""End to end, in Debian's chromium: a screen the whole table sees (issue 14).

With no phone joined the console is shared by default: each board shows how many cards its
player holds and never which; "show my hand" shows that one hand until the next action, or
until ten seconds have passed. The log tells a Search without the card drawn (Boots).
"""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import async_playwright

from companion.app.session import TableSession

from .harness import LAPTOP, click_id, launch_browser, open_page, pictured_on_failure, screen_text, shot, wait_text

HANDS = {"players": [{"name": "Carmen", "hand": ["blade", "spoon"]}, {"name": "Nicholas", "hand": ["links"]}]}


async def gone(page, text: str, timeout: float = 15.0) -> None:
    """Wait until `text` is nowhere on screen."""
    deadline = time.monotonic() + timeout
    while text in await screen_text(page):
        assert time.monotonic() < deadline, f"{text!r} still on screen"
        await asyncio.sleep(0.2)


def test_a_shared_screen_shows_no_hand_until_show_my_hand(server, store) -> None:
    game = store.create_game(HANDS)
    table = TableSession(store, game)
    assert table.submit({"type": "search", "player": 0, "cards": ["boots"]}, table.version).accepted

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + f"/game/{game}", LAPTOP)
            async with pictured_on_failure(page, "shared-screen"):
                await wait_text(page, "Carmen's turn", 30000)
                text = await screen_text(page)
                assert "Hand: " not in text and "Boots" not in text and "Links" not in text
                await click_id(page, "show-hand-0")
                await wait_text(page, "Hand: Blade, Boots, Spoon")
                await shot(page, "shared-screen-hand-shown")
                assert "Links" not in await screen_text(page)  # only that one hand
                await click_id(page, "action-end_turn")  # the next action hides it
                await gone(page, "Hand: ")
                await click_id(page, "show-hand-1")
                await wait_text(page, "Hand: Links")
                shown = time.monotonic()
                await gone(page, "Hand: ", timeout=14)  # ten seconds, then hidden by itself
                assert time.monotonic() - shown > 8
                await click_id(page, "nav-log")
                await wait_text(page, "Carmen draws")
                log = await screen_text(page)
                assert "Carmen draws 1 Search card" in log and "Boots" not in log, log
            await browser.close()

    asyncio.run(run())
