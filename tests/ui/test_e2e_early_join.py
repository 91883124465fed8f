"""End to end, in Debian's chromium on an emulated venue wifi: the join page draws the seats
before the web client has loaded (companion/app/ui/phone/early_join.py), a tap there is taken
by the client once it has loaded, and the table goes on whatever the timing.

Each phone is a browser context of its own, its network slowed as the venue's wifi (20 Mbit/s
down, 5 up, 40 ms); its client is held back (its bootstrap script answered only when the test
says) so that what happens while it loads is tested whatever this machine's speed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from playwright.async_api import async_playwright

from drivers.browser import (
    PHONE,
    AppServer,
    click_id,
    drive,
    enable_semantics,
    launch_browser,
    screen_text,
    wait_text,
)

pytestmark = pytest.mark.browser

NAMES = ["Carmen", "Nicholas", "Dana"]
VENUE_WIFI = {"offline": False, "latency": 40, "downloadThroughput": 20e6 / 8, "uploadThroughput": 5e6 / 8}
OWN = "#dyo-early"


@pytest.fixture
def lan_server(store: Any, settings_path: Any) -> Any:
    with AppServer(store, settings_path, lan=True) as srv:
        yield srv


async def phone(browser: Any, url: str, locale: str = "en-US", context: Any = None) -> Any:
    """The join link open on a phone of its own (or a new tab of `context`) on the venue's wifi,
    once the page's own screen is drawn, its client held back until `client_up`."""
    context = context or await browser.new_context(viewport=PHONE, locale=locale)
    page = await context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.client_may_load = asyncio.Event()

    async def hold(route: Any) -> None:
        await page.client_may_load.wait()
        await route.continue_()

    await page.route("**/flutter_bootstrap.js", hold)
    cdp = await context.new_cdp_session(page)
    await cdp.send("Network.enable")
    await cdp.send("Network.emulateNetworkConditions", VENUE_WIFI)
    await page.goto(url, wait_until="commit")
    await page.locator(OWN).wait_for(state="visible", timeout=15000)
    return page


async def client_up(page: Any) -> None:
    """The client loads and draws: the page's own screen is gone, its accessibility tree on."""
    page.client_may_load.set()
    await page.locator(OWN).wait_for(state="detached", timeout=60000)
    await enable_semantics(page)


def test_a_tap_on_the_pages_own_seats_is_taken_by_the_client(lan_server: Any, store: Any) -> None:
    game_id = store.create_game({"players": [{"name": n} for n in NAMES], "seed": 4})
    url = f"{lan_server.url}/join/{game_id}?key={store.devices.secret(game_id)}"

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            try:
                # Two phones see the seats at once; both tap Carmen before their client has loaded.
                first, second = await asyncio.gather(phone(browser, url), phone(browser, url))
                assert await first.locator("flt-semantics-host").count() == 0, "drawn before the client"
                assert await first.inner_text(f"{OWN} h1") == "Who are you?"
                for page in (first, second):
                    await page.get_by_role("button", name="Carmen: free seat").click()
                    assert await page.inner_text(f"{OWN} .status") == "Taking Carmen's seat…"
                await asyncio.gather(client_up(first), client_up(second))
                # One gets the seat; the other is told, and picks again on the client's screen.
                seated = await asyncio.wait_for(
                    asyncio.gather(*(holds_seat(page, "Carmen · round 1") for page in (first, second))), 60
                )
                assert sorted(seated) == [False, True], "one phone only holds Carmen's seat"
                other = second if seated[0] else first
                await wait_text(other, "Another phone took that seat a moment ago.", 15000)
                await wait_text(other, "Carmen: seat taken", 15000)
                await click_id(other, "join-seat-1")
                await wait_text(other, "Nicholas · round 1", 30000)
                assert {d.seat for d in store.devices.devices(game_id)} == {0, 1}

                # A phone already seated reopens the link: no seats, straight back to its own.
                winner = first if seated[0] else second
                again = await phone(browser, url, context=winner.context)
                assert await again.locator(f"{OWN} .seats").is_hidden()
                assert await again.inner_text(f"{OWN} .status") == "Connecting…"
                await client_up(again)
                await wait_text(again, "Carmen · round 1", 30000)

                # In Persian, right to left; "just watch" from the page's own screen.
                watcher = await phone(browser, url, locale="fa-IR")
                assert await watcher.get_attribute(OWN, "dir") == "rtl"
                assert await watcher.inner_text(f"{OWN} h1") == "شما کدام هستید؟"
                assert await watcher.locator(f"{OWN} button[data-seat='0']").is_disabled(), "Carmen is taken"
                await watcher.locator(f"{OWN} button.watch").click()
                await client_up(watcher)
                await wait_text(watcher, "Dana", 30000)
                assert [d.seat for d in store.devices.devices(game_id)].count(None) == 1, "one spectator"
                for page in (first, second, again, watcher):
                    assert page.errors == [], page.errors
            finally:
                await browser.close()

    drive(run())


async def holds_seat(page: Any, headline: str) -> bool:
    """Whether the phone ends on its seat (`headline`) or on the seat picker."""
    for _ in range(300):
        shown = await screen_text(page)
        if headline in shown:
            return True
        if "Who are you?" in shown:
            return False
        await asyncio.sleep(0.1)
    raise AssertionError("neither on a seat nor on the seat picker")
