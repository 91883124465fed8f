"""A phone in Debian's chromium, seated on one instance, while the table plays on another.

Instance A is the real command in a process of its own; the phone opens the join link there
and takes Carmen's seat. Instance B is this process (companion/bench/instance.py): the referee's console
and the other five seats' phones are its screens, and every action is taken there, so all the
phone learns comes through PostgreSQL and A. What the phone may know is checked on what A sends
it (the websocket frames, as the browser received them): never another seat's cards, not even
one drawn on B, yet every public result of the actions taken on B.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

from companion.bench.instance import Instance
from companion.i18n import name

from drivers.browser import click_id, enable_semantics, launch_browser, wait_text

NAMES = ["Carmen", "Nicholas", "Yellow", "Dana", "Omar", "Lucia"]
HANDS = [["spoon", "bandana"], ["golden_chain"], ["silver_watch"], ["camouflage"], ["cafeteria_key"], ["boots"]]
GAME = {"players": [{"name": n, "hand": h} for n, h in zip(NAMES, HANDS, strict=True)], "seed": 7}
PHONE = {"width": 390, "height": 844}


async def written(screen: Any) -> None:
    """Wait until the screen's tap has been through the store (it is recorded off the loop)."""
    while screen.writing is not None and not screen.writing.done():
        await asyncio.wrap_future(screen.writing)


async def seated_phone(browser: Any, url: str) -> tuple[Any, list[bytes]]:
    """A phone (a browser context of its own) that opened `url`, with every frame it received."""
    context = await browser.new_context(viewport=PHONE, locale="en-US")
    page = await context.new_page()
    frames: list[bytes] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived", lambda data: frames.append(data if isinstance(data, bytes) else data.encode())
        ),
    )
    await page.goto(url)
    await enable_semantics(page)
    return page, frames


def test_a_phone_on_one_instance_gets_no_other_hand_from_play_on_another(pg_url: str, tmp_path: Path) -> None:
    from companion.bench import stop_process
    from companion.bench.proxy import start_instance

    proc, port = start_instance(pg_url, tmp_path)

    async def run() -> tuple[bytes, list[str]]:
        b = Instance(pg_url, tmp_path, "b")
        try:
            game = b.store.create_game(GAME)
            secret = b.store.devices.secret(game)
            others = []
            for seat in range(1, len(NAMES)):
                device, _ = b.services.join.join(game, secret, "127.0.0.1", seat, f"phone {seat}")
                others.append(await b.open_screen(f"/play/{game}", device))
            referee = await b.open_screen(f"/game/{game}")
            async with async_playwright() as p:
                browser = await launch_browser(p)
                phone, frames = await seated_phone(browser, f"http://127.0.0.1:{port}/join/{game}?key={secret}")
                await click_id(phone, "join-seat-0", timeout=30000)
                await wait_text(phone, "Carmen · round 1", 30000)
                await wait_text(phone, name("card", "bandana"), 30000)
                # On B: Carmen's turn ends from the console, Nicholas draws from his phone, then
                # the console ends his turn. The phone on A is told each public result.
                referee.screen.control.submit({"type": "end_turn", "player": 0})
                await written(referee.screen)
                await wait_text(phone, "Nicholas's turn", 30000)
                nicholas = others[0]
                nicholas.screen.control.submit({"type": "search", "player": 1})
                await written(nicholas.screen)
                await wait_text(phone, "Nicholas draws 1 Search card", 30000)
                referee.screen.control.submit({"type": "end_turn", "player": 1})
                await written(referee.screen)
                await wait_text(phone, "Yellow's turn", 30000)
                await asyncio.sleep(0.5)  # any frame still on its way is kept too
                await browser.close()
            players = b.store.load(game).game.state.players
            assert players[1].hand.size() == len(HANDS[1]) + 1, "Nicholas drew nothing"
            hands = [set(player.hand.known) for player in players]
            secrets = [card for hand in hands[1:] for card in hand if card not in hands[0]]
            assert len(secrets) == len(NAMES) - 1
            return b"".join(frames), secrets
        finally:
            b.close()

    try:
        received, secrets = asyncio.run(run())
    finally:
        stop_process(proc)
    assert name("card", "bandana").encode() in received  # the phone's own hand did come through
    for card in secrets:
        for shown in (card, name("card", card)):
            assert shown.encode() not in received, f"Carmen's phone received {shown}"
