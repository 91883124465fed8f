"""End to end, in Debian's chromium: the table's sounds play in the browser (also after its
connection dropped and came back), and stay off when asked.

Headless chromium refuses to play audio without a user gesture, so this browser is started with
the autoplay policy that allows it; what plays is observed by wrapping the browser's own
`HTMLMediaElement.prototype.play` before the app loads (the audio plugin plays through
`Audio` elements that are never in the DOM), recording each source it was asked to play.
"""

from __future__ import annotations

import asyncio

from playwright.async_api import async_playwright

from drivers.browser import (
    CHROMIUM_ARGS,
    LAPTOP,
    click_id,
    cut_connection,
    drive,
    evaluate,
    ident,
    open_page,
    pictured_on_failure,
    reconnected,
    require_chromium,
    wait_text,
)

RECORD_PLAYS = """
(() => {
  window.__played = [];
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function (...args) {
    window.__played.push(this.currentSrc || this.src || '');
    return play.apply(this, args);
  };
})();
"""
WARDEN = {"players": [{"name": "Carmen", "hand": ["spoon"]}, {"name": "Nicholas"}], "modules": {"warden": True}}
PLAIN = {"players": [{"name": "Carmen"}, {"name": "Nicholas"}]}


async def played(page) -> list[str]:
    return await evaluate(page, "() => window.__played.slice()")


async def wait_played(page, url: str, timeout: float = 15000) -> None:
    """Until `url` was played: the file as this app serves it (offline, from its own assets)."""
    await page.wait_for_function("(url) => window.__played.includes(url)", arg=url, timeout=timeout)


async def dig_under_the_warden(page) -> None:
    await wait_text(page, "Carmen's turn", 30000)
    await click_id(page, "action-dig")
    await ident(page, "confirm-yes").wait_for(state="attached", timeout=10000)
    await click_id(page, "confirm-yes")
    await wait_text(page, "Warden offence: Carmen did")


async def roll_to_move(page) -> None:
    await wait_text(page, "Carmen's turn", 30000)
    await click_id(page, "action-move")
    await wait_text(page, "Carmen rolls a")


def test_the_whistle_and_the_roll_play_and_sound_off_is_quiet(server, store) -> None:
    games = {
        name: store.create_game(config)
        for name, config in (("offence", WARDEN), ("roll", PLAIN), ("quiet_offence", WARDEN), ("quiet_roll", PLAIN))
    }

    async def run() -> None:
        async with async_playwright() as p:
            browser = await p.chromium.launch(
                executable_path=require_chromium(), args=[*CHROMIUM_ARGS, "--autoplay-policy=no-user-gesture-required"]
            )
            context = await browser.new_context(viewport=LAPTOP)
            await context.add_init_script(RECORD_PLAYS)
            page = await open_page(
                browser, server.url + f"/game/{games['offence']}", LAPTOP, context=context, routed=True
            )
            async with pictured_on_failure(page, "sound-whistle"):
                await wait_text(page, "Carmen's turn", 30000)
                await asyncio.sleep(1)
                assert await played(page) == []  # nothing sounds before the offence
                # The connection drops and comes back: the players made when the console opened
                # answer nothing any more (Flet 1.0), so the whistle needs new ones.
                await cut_connection(page)
                await reconnected(page, 2)
                await asyncio.sleep(1.0)
                await dig_under_the_warden(page)
                await wait_played(page, server.url + "/sounds/whistle.wav")
                assert not any(src.endswith("/sounds/roll.wav") for src in await played(page))
            page = await open_page(browser, server.url + f"/game/{games['roll']}", LAPTOP, context=context)
            async with pictured_on_failure(page, "sound-roll"):
                await roll_to_move(page)
                await wait_played(page, server.url + "/sounds/roll.wav")
                assert not any(src.endswith("/sounds/whistle.wav") for src in await played(page))
            page = await open_page(browser, server.url + "/settings", LAPTOP, context=context)
            async with pictured_on_failure(page, "sound-settings"):  # Sound off: the same offence and roll are quiet
                await click_id(page, "sound-off", timeout=30000)
            for name, play in (("quiet_offence", dig_under_the_warden), ("quiet_roll", roll_to_move)):
                page = await open_page(browser, server.url + f"/game/{games[name]}", LAPTOP, context=context)
                async with pictured_on_failure(page, f"sound-{name}"):
                    await play(page)
                    await asyncio.sleep(2)
                    assert await played(page) == []
            await browser.close()
        assert server.services.settings_file.load().sound == "off"

    drive(run())
