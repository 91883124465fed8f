"""End to end: New game opens the setup checklist before Start, a line is ticked, the printable
page of that very setup opens in the browser, and Back returns to the form as it was."""

from __future__ import annotations

from playwright.async_api import async_playwright

from drivers.browser import (
    LAPTOP,
    click_id,
    drive,
    launch_browser,
    open_page,
    pictured_on_failure,
    screen_text,
    wait_text,
)


def test_the_checklist_opens_from_setup_and_a_line_is_ticked(server) -> None:
    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/setup", LAPTOP)
            async with pictured_on_failure(page, "checklist-laptop"):
                await wait_text(page, "Start the game", 30000)
                await click_id(page, "switch-warden")
                await click_id(page, "setup-checklist")
                await wait_text(page, "Stand the Warden in the Cell Block.")
                text = await screen_text(page)
                total = text.split("0 of ")[1].split(" done")[0]
                await click_id(page, "check-warden.standee")
                await wait_text(page, f"1 of {total} done")
                async with page.context.expect_page(timeout=20000) as opened:
                    await click_id(page, "checklist-print", expect_change=False)
                printed = await opened.value
                await printed.wait_for_load_state()
                assert "Stand the Warden in the Cell Block." in await printed.inner_text("body")
                await printed.close()
                await click_id(page, "nav-back")
                await wait_text(page, "Start the game")
                assert "Warden" in await screen_text(page)
            await browser.close()

    drive(run())
