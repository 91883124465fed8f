"""End to end, in Debian's chromium at a phone's size (390×844): every control is at least 48×48
px, at 100% and at 200% text, on every screen a phone shows (joining, picking a seat, a seat's
turn, an action refused and one it composes, its decision and its reaction, the public table view, its
settings) and on the console's
screens (Home, the new game's setup with its colour dots, the table, History, Settings, the
rules a phone opens too).

Sizes are read from Flutter's accessibility tree (tests/ui/touch.py), each screen scrolled from
its top to its bottom. A failure names the screen, the text size and each control too small.
A phone called to play by another phone's tap vibrates (the browser's `navigator.vibrate`,
recorded here) and says "Your turn".
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import async_playwright

from .test_e2e_gallery import finished_games
from .touch import controls, too_small
from drivers.browser import (
    PHONE,
    AppServer,
    click_id,
    drive,
    enable_semantics,
    evaluate,
    ident,
    launch_browser,
    open_page,
    pictured_on_failure,
    set_text_scale,
    wait_text,
)

SCALES = (1.0, 2.0)
WARDEN = {
    "players": [{"name": "Carmen", "hand": ["spoon"]}, {"name": "Nicholas"}, {"name": "Yellow"}],
    "modules": {"warden": True},
    "seed": 3,
}
# The example round's extortion, up to Carmen's answer in the combat (tests/ui/test_view_models.py).
EXAMPLE = {
    "players": [{"name": "Carmen"}, {"name": "Nicholas"}, {"name": "Yellow", "hand": ["knife", "knife", "unknown"]}],
    "seed": 3,
}
TO_COMBAT = [
    {"type": "move", "player": 0, "die": [1]},
    {"type": "steal_spoon", "player": 0},
    {"type": "end_turn", "player": 0},
    {"type": "cautious_move", "player": 1, "to": "recreational_area"},
    {"type": "end_turn", "player": 1},
    {"type": "move", "player": 2, "die": [1]},
    {"type": "extort", "player": 2, "target": 0, "tool": "spoon", "weapons": ["knife"]},
    {"type": "fight", "player": 0},
]
RECORD_BUZZES = """
window.__buzzed = [];
Object.defineProperty(Navigator.prototype, 'vibrate', {
  configurable: true, value: function (pattern) { window.__buzzed.push(pattern); return true; },
});
"""


def play(store: Any, game: str, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        answer = store.submit(game, action, base_version=store.load(game).version)
        assert answer.answer.accepted, action


class Sizes:
    """The controls too small, by screen and text size."""

    def __init__(self) -> None:
        self.small: dict[str, dict[str, tuple[float, float]]] = {}

    async def check(self, page: Any, screen: str) -> None:
        """`screen` as shown on `page`, at each text size (the page is left at 100%)."""
        for scale in SCALES:
            await set_text_scale(page, scale)
            found = controls_checked(await controls(page), screen)
            if found:
                self.small[f"{screen} at {scale:.0%}"] = found
        await set_text_scale(page, 1.0)

    def assert_none(self) -> None:
        assert not self.small, "controls under 48x48 px: " + "; ".join(
            f"{where}: " + ", ".join(f"{name} {w:.0f}x{h:.0f}" for name, (w, h) in found.items())
            for where, found in self.small.items()
        )


def controls_checked(found: dict[str, tuple[float, float]], screen: str) -> dict[str, tuple[float, float]]:
    assert found, f"no control found on {screen}: the accessibility tree is empty"
    return too_small(found)


async def seat_phone(browser: Any, link: str, seat: int | None, ready: str, init: str | None = None) -> Any:
    """A phone that opened the join link and took `seat` (None: just watches)."""
    context = await browser.new_context(viewport=PHONE, locale="en-US")
    if init:
        await context.add_init_script(init)
    page = await open_page(browser, link, PHONE, context=context)
    await wait_text(page, "Who are you?", 30000)
    await click_id(page, "join-watch" if seat is None else f"join-seat-{seat}", timeout=30000)
    await wait_text(page, ready, 30000)
    return page


@pytest.fixture
def lan_server(store, settings_path):
    with AppServer(store, settings_path, lan=True) as srv:
        yield srv


def test_a_phone_picks_its_seat_and_plays_its_turn(lan_server, store) -> None:
    game = store.create_game(WARDEN)
    link = f"{lan_server.url}/join/{game}?key={store.devices.secret(game)}"
    sizes = Sizes()

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, link, PHONE)
            async with pictured_on_failure(page, "touch-phone-turn"):
                await wait_text(page, "Who are you?", 30000)
                await sizes.check(page, "the seat picker")
                await click_id(page, "join-seat-0", timeout=30000)
                await wait_text(page, "Your turn", 30000)
                await click_id(page, "menu-refused")  # what is not possible now, unfolded
                await sizes.check(page, "a seat's turn")
                await click_id(page, "action-extort")  # Carmen holds no Weapon: HAND-1
                await ident(page, "flag-ok").wait_for(state="attached", timeout=10000)
                await sizes.check(page, "the Not allowed dialog")
                await click_id(page, "flag-ok")
                await click_id(page, "action-cautious_move")
                await ident(page, "composer").wait_for(state="attached", timeout=10000)
                await sizes.check(page, "a seat's action being composed")
            await browser.close()

    drive(run())
    sizes.assert_none()


def test_a_phones_settings_and_the_table_view(lan_server, store) -> None:
    game = store.create_game(WARDEN)
    link = f"{lan_server.url}/join/{game}?key={store.devices.secret(game)}"
    sizes = Sizes()

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await seat_phone(browser, link, 1, "Nicholas · round 1")
            async with pictured_on_failure(page, "touch-phone-settings"):
                await click_id(page, "nav-settings")
                await wait_text(page, "Sound on my turn", 30000)
                await sizes.check(page, "a phone's settings")
            watcher = await seat_phone(browser, link, None, "Carmen's turn")
            async with pictured_on_failure(watcher, "touch-phone-table-view"):
                await sizes.check(watcher, "the table view")
            await browser.close()

    drive(run())
    sizes.assert_none()


def test_a_phone_asked_to_decide_or_react_and_called_to_play(lan_server, store) -> None:
    warden, combat = store.create_game(WARDEN), store.create_game(EXAMPLE)
    play(store, warden, [{"type": "dig", "player": 0, "tool": "spoon"}])  # under the Warden: an offence
    play(store, combat, TO_COMBAT)
    sizes = Sizes()

    def link(game: str) -> str:
        return f"{lan_server.url}/join/{game}?key={store.devices.secret(game)}"

    async def run() -> list[Any]:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            nicholas = await seat_phone(browser, link(warden), 1, "Report")
            async with pictured_on_failure(nicholas, "touch-phone-report"):
                await wait_text(nicholas, "You may report Carmen to the Warden")
                await sizes.check(nicholas, "a seat's reaction")
            carmen = await seat_phone(browser, link(combat), 0, "Your decision: play a Weapon or give up")
            yellow = await seat_phone(browser, link(combat), 2, "Waiting for Carmen", init=RECORD_BUZZES)
            async with pictured_on_failure(carmen, "touch-phone-decision"):
                await sizes.check(carmen, "a seat's decision")
                await click_id(carmen, "answer-give_up")
            async with pictured_on_failure(yellow, "touch-phone-called"):
                await wait_text(yellow, "Your turn", 15000)
                buzzed = await evaluate(yellow, "() => window.__buzzed.slice()")
            await browser.close()
            return list(buzzed)

    buzzed = drive(run())
    sizes.assert_none()
    assert len(buzzed) == 1, f"Yellow's phone vibrated {len(buzzed)} times when her turn came"


@pytest.mark.parametrize(
    "screens",
    [
        [("/", "Unfinished games", "Home"), ("/setup", "Start the game", "the new game's setup")],
        [("/game/{game}", "Carmen's turn", "the console's table"), ("/history", "Tunnel points", "History")],
        [("/settings", "Theme", "Settings"), ("/rules?q=Office", "OFF-2", "the rules")],
    ],
    ids=["home-setup", "table-history", "settings-rules"],
)
def test_the_console_at_a_phones_size(server, store, screens: list[tuple[str, str, str]]) -> None:
    finished_games(store)
    game = store.create_game({**WARDEN, "modules": {"warden": True, "neutrals": 1}})
    sizes = Sizes()

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + screens[0][0].format(game=game), PHONE)
            for route, ready, name in screens:
                async with pictured_on_failure(page, f"touch-console-{name}"):
                    if route != screens[0][0]:
                        await page.goto(server.url + route.format(game=game))
                        await enable_semantics(page)
                    await wait_text(page, ready, 30000)
                    await sizes.check(page, name)
            await browser.close()

    drive(run())
    sizes.assert_none()
