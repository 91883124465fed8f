"""End to end: every screen on a phone (390×844) and a laptop (1280×800), light and dark, and at
200% text size; screenshots go to test-artifacts/. Each screen is also checked for controls a
screen reader could not name (every button, switch, field must have an accessible name)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from playwright.async_api import async_playwright

from .conftest import write_settings
from drivers.browser import (
    LAPTOP,
    PHONE,
    click_id,
    drive,
    evaluate,
    ident,
    launch_browser,
    open_page,
    set_text_scale,
    shot,
    wait_text,
)

UNNAMED_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  const out = [];
  for (const e of host.querySelectorAll('[role=button],[role=switch],[role=checkbox],[role=tab],input,[role=slider]')) {
    const name = (e.getAttribute('aria-label') || e.innerText || e.value || '').trim();
    if (!name) out.push(e.outerHTML.replace(/ style="[^"]*"/g, '').slice(0, 160));
  }
  return out;
}"""


def finished_games(store: Any) -> None:
    """Three short games that end with a Dig, so the history has points to plot."""
    for seed, (first, second) in enumerate([(11, 3), (9, 11), (11, 11)]):
        gid = store.create_game(
            {
                "players": [
                    {
                        "name": "Carmen",
                        "color": "red",
                        "tunnel": first,
                        "hand": ["spoon", "unknown"],
                        "beatings": seed % 2,
                    },
                    {"name": "Nicholas", "color": "black", "tunnel": second, "hand": ["pickaxe"]},
                ],
                "seed": seed,
            }
        )
        version = store.load(gid).version
        store.submit(
            gid,
            {"type": "dig", "player": 0, "tool": "spoon"} if first == 11 else {"type": "end_turn", "player": 0},
            base_version=version,
        )
        table = store.load(gid)
        if table.game.state.winner is None:
            store.submit(gid, {"type": "dig", "player": 1, "tool": "pickaxe"}, base_version=table.version)


async def unnamed(page: Any) -> list[str]:
    return await evaluate(page, UNNAMED_JS)


@pytest.mark.parametrize("device,dark", [("phone", False), ("phone", True), ("laptop", False), ("laptop", True)])
def test_every_screen(server, store, settings_path, device: str, dark: bool) -> None:
    write_settings(settings_path, theme="dark" if dark else "light")
    finished_games(store)
    game_id = store.create_game(
        {
            "players": [
                {"name": "Carmen", "color": "red", "hand": ["knife", "links", "unknown"], "beatings": 1},
                {"name": "Nicholas", "color": "black", "place": "cafeteria"},
                {"name": "Yellow", "color": "yellow", "hand": ["knife", "knife", "unknown"], "tunnel": 4},
                {"name": "Dana", "color": "blue", "gang": "crew", "cigarettes": 3},
            ],
            "modules": {"neutrals": 2, "warden": True},
            "seed": 4,
        }
    )
    viewport = PHONE if device == "phone" else LAPTOP
    tag = f"{device}-{'dark' if dark else 'light'}"
    problems: dict[str, list[str]] = {}

    async def visit(page: Any, route: str, ready: str, name: str) -> None:
        await page.goto(server.url + route)
        from drivers.browser import enable_semantics

        await enable_semantics(page)
        await wait_text(page, ready, 30000)
        await shot(page, f"gallery-{tag}-{name}")
        missing = await unnamed(page)
        if missing:
            problems[name] = missing

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/", viewport, dark=dark)
            await visit(page, "/", "Unfinished games", "home")
            await visit(page, "/setup", "Start the game", "setup")
            await visit(page, f"/game/{game_id}", "Carmen's turn", "table")
            await click_id(page, "menu-refused")  # what is not possible now is folded away
            await click_id(page, "action-craft")  # 1 Beating: flagged BEAT-2
            await ident(page, "flag-rule-BEAT-2").wait_for(state="attached", timeout=10000)
            await shot(page, f"gallery-{tag}-flag")
            await click_id(page, "flag-ok")
            await click_id(page, "action-extort")
            await wait_text(page, "Which player?")  # Yellow and Dana are both here; Nicholas is not
            await shot(page, f"gallery-{tag}-compose")
            await visit(page, f"/game/{game_id}/log", "recorded", "log")
            await visit(page, "/rules?rule=WARD-3", "WARD-3", "rules")
            await visit(page, "/history", "Tunnel points per game", "history")
            await visit(page, "/settings", "Theme", "settings")
            finished = [g for g in store.list_games("finished")][0]
            await visit(page, f"/game/{finished.id}/win", "escaped", "win")
            await visit(page, f"/game/{finished.id}/replay?step=1", "Entry 1 of", "replay")
            # 200% text size (the browser's font size setting): the table and the setup still work.
            await page.goto(f"{server.url}/game/{game_id}")
            from drivers.browser import enable_semantics

            await enable_semantics(page)
            await wait_text(page, "Carmen's turn", 30000)
            await set_text_scale(page, 2.0)
            await asyncio.sleep(1.0)
            await shot(page, f"gallery-{tag}-table-200")
            await click_id(page, "action-move")
            await wait_text(page, "Carmen rolls")
            await shot(page, f"gallery-{tag}-rolled-200")
            await browser.close()

    drive(run())
    assert not problems, f"controls without an accessible name: {problems}"


async def laid_out_box(page: Any, name: str, larger_than: float = 0.0) -> dict[str, float]:
    """The box of the node `name` once it is laid out (and taller than `larger_than`), or the last
    one seen after 15 s: Flutter builds a node's box a moment after the node itself."""
    box = None
    for _ in range(150):
        box = await ident(page, name).bounding_box()
        if box is not None and box["height"] > larger_than:
            break
        await asyncio.sleep(0.1)
    assert box is not None, f"{name} was never laid out"
    return box


def test_standee_letters_grow_with_the_text_inside_their_disc(server, store) -> None:
    """At 200% text a standee's letter is twice as tall: its disc grows around it (a disc of a
    fixed size let two letters spill over its edge)."""
    game_id = store.create_game({"players": [{"name": "Carmen"}, {"name": "Yellow", "color": "yellow"}], "seed": 1})

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/", {"width": 1280, "height": 2400})
            await page.goto(f"{server.url}/game/{game_id}")
            from drivers.browser import enable_semantics

            await enable_semantics(page)
            await wait_text(page, "Carmen's turn", 30000)
            disc = await laid_out_box(page, "avatar-1")  # Yellow's standee on her player card
            await set_text_scale(page, 2.0)
            grown = await laid_out_box(page, "avatar-1", larger_than=1.1 * disc["height"])
            assert grown["height"] > 1.1 * disc["height"], (disc, grown)
            await browser.close()

    drive(run())
