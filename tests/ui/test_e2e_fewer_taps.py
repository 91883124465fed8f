"""End to end, in Debian's chromium: the taps a table spends (issue 37), counted at 1280×800.

A simple turn with the real die (a move, a Search, the turn ended with Michel moved) in at most
3 taps, each control tapped, and the whole of what it is chosen among, on screen without
scrolling; a sale of one card at its printed value in at most 3; starting hands of three named
cards in one tap a card, the running total in view after each.
"""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import async_playwright

from .conftest import write_settings
from drivers.browser import (
    LAPTOP,
    click_id,
    drive,
    ident,
    launch_browser,
    open_page,
    pictured_on_failure,
    type_over,
    wait_text,
)

APP_BAR = 64  # the app bar's height: a control under it is not in view


class Taps:
    """Every tap goes through here: counted, and each tapped control first found whole on
    screen, where it is, without scrolling (`also`: other controls that must be in view too)."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    async def in_view(self, name: str, timeout: float = 20) -> None:
        """`name` drawn whole on screen where it is: its box read until it holds still (a redraw
        may be replacing it), never scrolled to."""
        width, height = LAPTOP["width"], LAPTOP["height"]
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                box = await ident(self.page, name).first.bounding_box(timeout=500)
            except Exception:  # not there yet, or replaced while read
                box = None
            if box is not None and box["width"] >= 1 and box == last:
                break
            assert time.monotonic() < deadline, f"{name} is not on screen"
            last = box
            await asyncio.sleep(0.15)
        inside = box["x"] >= 0 and box["x"] + box["width"] <= width and box["y"] >= APP_BAR
        assert inside and box["y"] + box["height"] <= height, f"{name} is not whole on screen: {box}"

    async def __call__(self, name: str, also: tuple[str, ...] = ()) -> None:
        for other in (name, *also):
            await self.in_view(other)
        self.count += 1
        await click_id(self.page, name)


NEUTRALS = {
    "players": [{"name": "Anna"}, {"name": "Bea"}, {"name": "Carla"}],
    "modules": {"neutrals": 2},
    "seed": 4,
}


def test_a_simple_turn_with_the_real_die_takes_three_taps(server, store, settings_path) -> None:
    write_settings(settings_path, die_mode="physical")
    game_id = store.create_game(NEUTRALS)

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, f"{server.url}/game/{game_id}", LAPTOP)
            tap = Taps(page)
            async with pictured_on_failure(page, "fewer-taps-simple-turn"):
                await wait_text(page, "Anna's turn", 30000)
                faces = [f"pad-move-{face}-{to}" for face, to in ((1, "cafeteria"), (4, "recreational_area"))]
                await tap("pad-move-1-cafeteria", also=tuple(faces))  # the die showed 1
                await wait_text(page, "Anna moves from the Cell Block to the Cafeteria")
                await tap("action-search")
                await wait_text(page, "Anna draws 2 Search cards")
                pad = ("end-pad-michel-1-cell_block", "end-pad-michel-6-recreational_area", "end-skip_neutral")
                await tap("end-pad-michel-5-infirmary", also=pad)  # the turn ends, Michel goes to the Infirmary
                await wait_text(page, "Bea's turn")
            await browser.close()
        print(f"simple turn: {tap.count} taps")
        assert tap.count <= 3
        game = store.load(game_id).game
        assert [a.TYPE for a in game.log] == ["move", "search", "end_turn", "move_neutral"]
        assert game.state.neutrals["michel"] == "infirmary" and game.state.active == 1

    drive(run())


def test_selling_one_card_at_its_printed_value_takes_three_taps(server, store) -> None:
    game_id = store.create_game(
        {
            "players": [
                {"name": "Anna", "place": "recreational_area", "hand": ["ring", "boots", "unknown"]},
                {"name": "Bea"},
            ]
        }
    )

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, f"{server.url}/game/{game_id}", LAPTOP)
            tap = Taps(page)
            async with pictured_on_failure(page, "fewer-taps-sale"):
                await wait_text(page, "Anna's turn", 30000)
                await tap("action-sell")
                await tap("choice-cards-ring")
                await tap("quick-cigarettes-3")  # the Ring shows 3 cigarettes
                await wait_text(page, "1 action left")
            await browser.close()
        print(f"sale: {tap.count} taps")
        assert tap.count <= 3
        anna = store.load(game_id).game.state.players[0]
        assert anna.cigarettes == 3 and "ring" not in anna.hand.known

    drive(run())


def test_starting_hands_take_one_tap_a_card(server, store) -> None:
    hands = {0: ("blade", "boots", "ring"), 2: ("ring", "ring", "cap")}  # the second player's left unentered

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/", LAPTOP)
            tap = Taps(page)
            async with pictured_on_failure(page, "fewer-taps-hands"):
                await click_id(page, "home-new-game", timeout=30000)
                await wait_text(page, "Start the game")
                for seat, cards in hands.items():
                    for named, card in enumerate(cards, start=1):
                        tap.count += 1
                        await click_id(page, f"start-add-{seat}-{card}")
                        running = f"3 of 3 cards: {named} named, {3 - named} unentered"
                        await wait_text(page, running)
                        await tap.in_view(f"start-total-{seat}")  # the total, heading the chips
                await click_id(page, "setup-start-button")
                await wait_text(page, "Player 1's turn")
            await browser.close()
        print(f"starting hands: {tap.count} taps")
        assert tap.count == 6
        players = store.load(store.list_games("active")[0].id).game.state.players
        assert [dict(p.hand.known) for p in players] == [{"blade": 1, "boots": 1, "ring": 1}, {}, {"ring": 2, "cap": 1}]
        assert [p.hand.unknown for p in players] == [0, 3, 0]

    drive(run())


def test_a_house_rule_typed_then_start_tapped_once_starts_with_it(server, store) -> None:
    """A number typed into setup, then Start the game tapped once: the game starts, with that
    number (the tap that leaves the field takes it)."""

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/", LAPTOP)
            async with pictured_on_failure(page, "fewer-taps-typed-start"):
                await click_id(page, "home-new-game", timeout=30000)
                await wait_text(page, "Start the game")
                await type_over(page, "house-target-value", "7")
                await asyncio.sleep(1.0)  # a person looks at what they typed before tapping on
                await click_id(page, "setup-start-button", expect_change=False)  # one tap, never repeated
                await wait_text(page, "Player 1's turn")
            await browser.close()
        config = store.load(store.list_games("active")[0].id).game.state.config
        assert config["house_rules"]["targets"]["3"] == 7  # three players: the target typed

    drive(run())
