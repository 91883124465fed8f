"""End to end, in Debian's chromium: playing beside the real box.

The Italian guide's tutorial round with the table's own die, its starting hands entered in
setup, played in at most 14 taps (counted); a Warden warning before an offence; the winning
Dig asked first, then undone from the win screen; the score strip on a phone; a finished game
replayed step by step from Home and from the win screen; a shared screen that shows no hand
until its player asks.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from playwright.async_api import async_playwright

from .test_e2e_example_round import fill_name
from drivers.browser import (
    LAPTOP,
    PHONE,
    SCREEN_TEXT_JS,
    click_id,
    drive,
    ident,
    launch_browser,
    open_page,
    pictured_on_failure,
    screen_text,
    shot,
    wait_text,
)

TUTORIAL = Path(__file__).resolve().parents[1] / "scenarios" / "tutorial.json"
MAX_TAPS = 14


class Taps:
    """Every tap of the round goes through here, so the test counts what a player would do."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    async def __call__(self, name: str) -> None:
        self.count += 1
        await click_id(self.page, name)


async def set_up_the_tutorial(page) -> None:
    """The real die in Settings, three names and Yellow's two Knives in his starting hand."""
    await click_id(page, "home-settings", timeout=30000)
    await click_id(page, "dice-physical")
    await click_id(page, "nav-back")
    await click_id(page, "home-new-game")
    await wait_text(page, "Start the game")
    for number, name in enumerate(["Carmen", "Nicholas", "Yellow"], start=1):
        await fill_name(page, number, name)
    await wait_text(page, "3 of 3 cards: 0 named, 3 unentered")
    await click_id(page, "switch-in-progress")  # Knives come from the board: a hand the box dealt otherwise
    for _ in range(2):  # one tap per card: the chips stay open
        await click_id(page, "start-add-2-knife")
    await wait_text(page, "3 of 3 cards: 2 named, 1 unentered")
    await click_id(page, "setup-start-button")
    await wait_text(page, "Carmen's turn")


async def play_the_round(tap: Taps) -> None:
    page = tap.page
    await tap("pad-move-1-cafeteria")  # the die shows 1: one tap moves her
    await wait_text(page, "Carmen moves from the Cell Block to the Cafeteria")
    await tap("action-steal_spoon")
    await wait_text(page, "Carmen takes 1 × Spoon")
    await tap("action-end_turn")
    await wait_text(page, "Nicholas's turn")
    await tap("action-cautious_move")
    await tap("choice-to-recreational_area")
    await wait_text(page, "Nicholas moves from the Cell Block to the Recreational Area")
    await tap("action-end_turn")
    await wait_text(page, "Yellow's turn")
    await tap("pad-move-1-cafeteria")
    await wait_text(page, "Yellow moves from the Cell Block to the Cafeteria")
    await tap("action-extort")
    await tap("choice-tool-spoon")
    await tap("done-weapons")
    await wait_text(page, "Yellow extorts Carmen for the Spoon")
    await tap("answer-fight")
    await tap("answer-weapon-blade-0")
    await tap("answer-weapon-knife-2")
    await tap("answer-give_up")
    await wait_text(page, "Carmen takes 1 Beating")


def test_the_tutorial_round_with_a_real_die_in_at_most_14_taps(server, store) -> None:
    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/", LAPTOP)
            tap = Taps(page)
            async with pictured_on_failure(page, "real-box-tutorial"):
                await set_up_the_tutorial(page)
                await shot(page, "real-box-die-pad")
                await play_the_round(tap)
            await browser.close()
        print(f"tutorial round: {tap.count} taps")
        assert tap.count <= MAX_TAPS
        state = store.load(store.list_games("active")[0].id).game.state
        final = json.loads(TUTORIAL.read_text(encoding="utf-8"))
        assert len(final["actions"]) == state.step == 11
        carmen, nicholas, yellow = state.players
        assert (carmen.place, carmen.beatings, carmen.hand.size()) == ("cafeteria", 1, 2)
        assert (nicholas.place, yellow.place, dict(yellow.hand.known)) == (
            "recreational_area",
            "cafeteria",
            {"spoon": 1},
        )

    drive(run())


def test_offence_warning_winning_dig_undo_and_the_phone_strip(server, store) -> None:
    offence = store.create_game(
        {"players": [{"name": "Carmen", "hand": ["spoon"]}, {"name": "Nicholas"}], "modules": {"warden": True}}
    )
    winning = store.create_game(
        {"players": [{"name": "Carmen", "tunnel": 11, "hand": ["spoon"]}, {"name": "Nicholas"}]}
    )

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + f"/game/{offence}", LAPTOP)
            async with pictured_on_failure(page, "real-box-warden"):
                await wait_text(page, "Carmen's turn", 30000)
                dig = ident(page, "action-dig")
                assert "Warden here: WARD-2" in (await dig.get_attribute("aria-label") or await dig.inner_text())
                await click_id(page, "action-dig")  # asked once, nothing recorded yet
                await ident(page, "confirm-yes").wait_for(state="attached", timeout=10000)
                await wait_text(page, "is a Warden offence (WARD-2)")
                assert store.load(offence).game.state.step == 0
                await click_id(page, "confirm-yes")
                await wait_text(page, "Warden offence: Carmen did")
            page = await open_page(browser, server.url + f"/game/{winning}", LAPTOP)
            async with pictured_on_failure(page, "real-box-win"):
                await wait_text(page, "Carmen's turn", 30000)
                await click_id(page, "action-dig")
                await wait_text(page, "This Dig wins the game for Carmen")
                assert store.load(winning).game.state.winner is None
                await click_id(page, "confirm-yes")
                await ident(page, "win-undo").wait_for(state="attached", timeout=15000)
                await click_id(page, "win-undo")
                await wait_text(page, "Carmen's turn")
                state = store.load(winning).game.state
                assert state.winner is None and state.players[0].tunnel == 11
            phone = await open_page(browser, server.url + f"/game/{offence}", PHONE)
            async with pictured_on_failure(phone, "real-box-phone-strip"):
                await wait_text(phone, "Nicholas: Tunnel 0 of", 30000)
                await shot(phone, "real-box-phone-strip")
                carmen = ident(phone, "score-0")
                strip = await carmen.get_attribute("aria-label") or await carmen.inner_text()
                assert strip.startswith("Their turn. Carmen: Tunnel 1 of")  # she dug under the Warden
                await click_id(phone, "score-1", expect_change=False)
                await scrolled_into_view(phone, "player-1")  # the page scrolls to Nicholas's board
            await browser.close()

    drive(run())


async def scrolled_into_view(page, name: str, timeout: float = 15) -> None:
    """Wait until the node's top is on the screen: a scroll takes as long as the machine lets it."""
    deadline = time.monotonic() + timeout
    while not ((box := await ident(page, name).bounding_box()) and 0 <= box["y"] < page.viewport_size["height"]):
        assert time.monotonic() < deadline, f"{name} is not on screen: {box}"
        await asyncio.sleep(0.1)


async def label_of(page, name: str) -> str:
    node = ident(page, name).first
    return await node.get_attribute("aria-label") or await node.inner_text()


def test_replaying_a_finished_game(server, store) -> None:
    """Search, the winning Dig, its undo and redo: four entries, stepped through both ways."""
    game = store.create_game({"players": [{"name": "Carmen", "tunnel": 11, "hand": ["spoon"]}, {"name": "Nicholas"}]})
    version = store.load(game).version
    for action in ({"type": "search", "player": 0}, {"type": "dig", "player": 0, "tool": "spoon"}):
        version = store.submit(game, action, base_version=version).version
    version = store.undo(game, base_version=version).version
    store.redo(game, base_version=version)
    assert store.load(game).status == "finished"

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/", LAPTOP)
            async with pictured_on_failure(page, "real-box-replay"):
                await click_id(page, f"replay-{game}", timeout=30000)
                await wait_text(page, "The table as set up: 4 entries to replay")
                assert "Tunnel 11 of 12" in await label_of(page, "player-0")
                await click_id(page, "replay-next")
                await wait_text(page, "Entry 1 of 4")
                await wait_text(page, "Carmen draws 1 Search card")
                carmen = await label_of(page, "player-0")
                assert "Tunnel 11 of 12" in carmen and "2 cards in hand" in carmen
                assert "Hand: " not in await screen_text(page)  # as the table saw it: hand sizes only
                await click_id(page, "replay-next")
                await wait_text(page, "Entry 2 of 4")
                await wait_text(page, "Carmen reaches 12 Tunnel points and escapes!")
                assert "Tunnel 12 of 12" in await label_of(page, "player-0")
                await shot(page, "real-box-replay")
                await click_id(page, "replay-previous")
                await wait_text(page, "Entry 1 of 4")
                assert "Tunnel 11 of 12" in await label_of(page, "player-0")
                await click_id(page, "replay-last")
                await wait_text(page, "Entry 4 of 4")
                await wait_text(page, "Redo: Carmen: Dig")
                assert await ident(page, "replay-next").count() == 1
                await click_id(page, "replay-view-hands")
                await wait_text(page, "Entry 4 of 4")
                await click_id(page, "replay-first")
                await wait_text(page, "The table as set up: 4 entries to replay")
                await wait_text(page, "Hand: Spoon")  # the referee's view: the hands as entered
            win = await open_page(browser, server.url + f"/game/{game}/win", LAPTOP)
            async with pictured_on_failure(win, "real-box-replay-from-win"):
                await click_id(win, "win-replay", timeout=30000)
                await wait_text(win, "The table as set up: 4 entries to replay")
                await click_id(win, "replay-next")
                await wait_text(win, "Carmen draws 1 Search card")
            await browser.close()

    drive(run())


def test_a_shared_screen_shows_no_hand_until_show_my_hand(server, store) -> None:
    """No phone has joined: the console is the table's shared screen (the default). No card of
    any hand is on it until its player asks, and the hand hides again after the next action or
    after ten seconds."""
    game = store.create_game(
        {"players": [{"name": "Carmen", "hand": ["ring", "pike"]}, {"name": "Nicholas", "hand": ["bandana"]}]}
    )

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + f"/game/{game}", LAPTOP)
            async with pictured_on_failure(page, "real-box-shared"):
                await wait_text(page, "Carmen's turn", 30000)
                await ident(page, "show-hand-0").wait_for(state="attached", timeout=10000)
                text = await screen_text(page)
                assert "Ring" not in text and "Pike" not in text and "Bandana" not in text
                assert "Hand:" not in text
                await click_id(page, "show-hand-0")
                await wait_text(page, "Hand: Pike, Ring")
                await shot(page, "real-box-shared-hand")
                assert "Bandana" not in await screen_text(page)  # only the hand asked for
                await click_id(page, "action-search")  # the next action hides it, and names no card
                await wait_text(page, "Carmen draws 1 Search card")
                drawn = set(store.load(game).game.state.players[0].hand.known) - {"ring", "pike"}
                text = await screen_text(page)
                assert "Pike" not in text and "Hand:" not in text
                assert not [card for card in drawn if card.replace("_", " ").title() in text], drawn
                await click_id(page, "action-end_turn")
                await wait_text(page, "Nicholas's turn")
                await click_id(page, "show-hand-1")
                await wait_text(page, "Hand: Bandana")
                await page.wait_for_function(  # ten seconds later it is gone by itself
                    "(needle) => { const f = " + SCREEN_TEXT_JS + "; return !f().includes(needle); }",
                    arg="Bandana",
                    timeout=20000,
                )
                text = await screen_text(page)
                assert "Bandana" not in text and "Hand:" not in text
                await click_id(page, "nav-log")  # the log of a shared screen names no card either
                await wait_text(page, "Carmen draws 1 Search card (Search).")
                assert not [card for card in drawn if card.replace("_", " ").title() in await screen_text(page)]
            await browser.close()

    drive(run())
