"""End to end, in Debian's chromium: a browser whose connection dropped (a Wi-Fi blip, a phone
that slept) answers again as soon as it is back, on the screen it was on.

Flet 1.0.5 sends the whole page on a reconnect, and its browser client took that in so slowly
that the tab froze: 7 s on Settings, 30 s on the table, 52 s on the setup screen. The app now
empties the page while the socket is away and draws the screen again once it is back
(`App._empty_page`). Each case measures the freeze itself: a timer of the page that ticks
every 100 ms must never wait long, and the screen must take a tap right away.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from playwright.async_api import async_playwright

from drivers.browser import (
    LAPTOP,
    click_id,
    cut_connection,
    drive,
    evaluate,
    launch_browser,
    open_page,
    reconnected,
    wait_text,
)

TICKS = "() => { window.__ticks = []; setInterval(() => window.__ticks.push(performance.now()), 100); }"
LONGEST_WAIT = "() => Math.max(0, ...window.__ticks.slice(1).map((t, i) => t - window.__ticks[i]))"
MOST_FROZEN_MS = 2000  # the old code froze 7,000-52,000 ms; a redraw takes a few hundred
TWO_PLAYERS = {"players": [{"name": "Carmen"}, {"name": "Nicholas"}]}


@pytest.mark.parametrize(
    ("route", "shown", "tap", "then"),
    [
        ("/settings", "Sound", "theme-dark", "theme-dark=true"),
        ("/setup", "Start the game", "setup-add-player", "Players (4)"),
        ("/game/{game}", "Carmen's turn", "action-end_turn", "Nicholas's turn"),
    ],
    ids=["settings", "setup", "table"],
)
def test_a_reconnected_browser_answers_at_once(server, store, route: str, shown: str, tap: str, then: str) -> None:
    game = store.create_game(TWO_PLAYERS)

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + route.format(game=game), LAPTOP, routed=True)
            await wait_text(page, shown, 30000)
            await evaluate(page, TICKS)
            await cut_connection(page)
            await reconnected(page, 2)
            back = time.monotonic()
            await asyncio.sleep(3)  # the old code froze within the first second back
            answered = await evaluate(page, LONGEST_WAIT, timeout=60)
            assert time.monotonic() - back < 5, "the page did not answer for seconds after the reconnect"
            assert answered < MOST_FROZEN_MS, f"the page froze for {answered:.0f} ms after the reconnect"
            await click_id(page, tap)
            await wait_text(page, then, 10000)
            await browser.close()

    drive(run())
