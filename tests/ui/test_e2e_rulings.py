"""End to end, in Debian's chromium: the referee overrules a refusal with the table's ruling,
keeps it as a house rule, the log tells the ruling, and New game offers it again."""

from __future__ import annotations

import json

from playwright.async_api import async_playwright

from drivers.browser import (
    LAPTOP,
    click_id,
    drive,
    ident,
    launch_browser,
    open_page,
    pictured_on_failure,
    type_text,
    wait_text,
)

GAME = {
    "players": [
        {"name": "Carmen", "hand": ["links", "pike", "links", "pike"], "place": "cafeteria"},
        {"name": "Nicholas"},
    ],
    "ruleset": "online-simplified",  # one Craft per turn (VAR-2)
    "seed": 3,
    "start": {},
}


def test_a_ruling_is_typed_recorded_told_and_offered_next_game(server, store, settings_path) -> None:
    game_id = store.create_game(GAME)
    store.submit(game_id, {"type": "craft", "player": 0, "recipe": "pickaxe"}, base_version=0)

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, f"{server.url}/game/{game_id}", LAPTOP)
            async with pictured_on_failure(page, "rulings-laptop"):
                await wait_text(page, "Carmen's turn", 30000)
                await click_id(page, "menu-refused")
                await click_id(page, "action-craft")
                await ident(page, "flag-rule-VAR-2").wait_for(state="attached", timeout=10000)
                field = page.get_by_label("The table's ruling (optional)")
                await field.click()
                await type_text(page, "two crafts are fine")
                await click_id(page, "flag-ruling-keep")
                await click_id(page, "flag-force")
                await click_id(page, "choice-recipe-pickaxe")  # forcing lists every recipe: which one
                await wait_text(page, "The table's ruling: “two crafts are fine”", 20000)
                await wait_text(page, "Kept as a house rule")
                await click_id(page, "nav-back")
                await click_id(page, "home-new-game")
                await wait_text(page, "Your table's rulings from earlier games")
                await wait_text(page, "Craft more than once per turn")
            await browser.close()

    drive(run())
    forced = store.events(game_id)[-1].action
    assert forced["force"] is True and forced["ruling"] == "two crafts are fine"
    kept = json.loads(settings_path.read_text(encoding="utf-8"))["kept_rulings"]
    assert kept == [{"ruling": "two crafts are fine", "house_rules": {"craft_once_per_turn": False}}]
