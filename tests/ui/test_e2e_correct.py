"""End to end, in Debian's chromium: correcting the table when the app disagrees with the box.

The correction screen gathers the edits, reads them back, refuses an impossible one with its rule
before anything is stored, and records the rest as one logged `adjust` that undo takes back.
"""

from __future__ import annotations

from playwright.async_api import async_playwright

from drivers.browser import (
    LAPTOP,
    click_id,
    drive,
    evaluate,
    ident,
    launch_browser,
    open_page,
    pictured_on_failure,
    shot,
    type_over,
    wait_text,
)

GAME = {
    "players": [{"name": "Carmen", "hand": ["spoon", "unknown", "unknown"]}, {"name": "Nicholas"}],
    "modules": {"warden": True},
    "seed": 3,
}


def test_a_correction_is_checked_read_back_recorded_and_undone(server, store) -> None:
    game_id = store.create_game(GAME)

    def stored():
        return store.load(game_id).game.state

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, f"{server.url}/game/{game_id}", LAPTOP)
            async with pictured_on_failure(page, "correct-laptop"):
                await wait_text(page, "Carmen's turn", 30000)
                await click_id(page, "nav-correct")
                await wait_text(page, "The box always wins")
                for _ in range(2):  # Carmen has 2 more cigarettes than the app thinks
                    await click_id(page, "correct-players-0-cigarettes-plus")
                await wait_text(page, "Carmen · Cigarettes: from 0 to 2")
                await click_id(page, "correct-warden-showers")  # the Warden stands in the Showers
                await wait_text(page, "The Warden's Place: from Cell Block to Showers")
                await click_id(page, "correct-op-identify")  # she showed a Blade from her hand
                await click_id(page, "correct-card-blade")
                await wait_text(page, "Carmen · Hand: Blade was one of the unentered cards")
                await click_id(page, "correct-piles-knife-minus")  # a Knife fell off the table
                await wait_text(page, "Knife pile: from 20 to 19")
                await shot(page, "correct-laptop-draft")
                await click_id(page, "correct-record")
                await wait_text(page, "Correction recorded")
                await wait_text(page, "Carmen's turn")
                await wait_text(page, "Correction: Carmen · Cigarettes set to 2")  # what just happened
            carmen = stored().players[0]
            assert (carmen.cigarettes, stored().warden, carmen.hand.known, carmen.hand.unknown) == (
                2,
                "showers",
                {"spoon": 1, "blade": 1},
                1,
            )
            assert stored().piles["knife"] == 19 and stored().corrections.get("knife") == -1

            async with pictured_on_failure(page, "correct-laptop-log"):
                await click_id(page, "nav-log")
                await wait_text(page, "The referee corrects the table")
                await wait_text(page, "Correction: Carmen · Cigarettes set to 2")
                await click_id(page, "nav-back")
                await wait_text(page, "Carmen's turn")
                await click_id(page, "nav-undo")
                await wait_text(page, "Undone")
            assert (stored().players[0].cigarettes, stored().warden, stored().piles["knife"]) == (0, "cell_block", 20)

            # An impossible correction is explained with its rule and cannot be recorded.
            async with pictured_on_failure(page, "correct-laptop-refused"):
                await click_id(page, "nav-correct")
                await click_id(page, "correct-op-remove")
                await click_id(page, "correct-seat-1")
                await wait_text(page, "No card of this hand was entered")
                await click_id(page, "correct-seat-0")
                await click_id(page, "correct-card-spoon")
                await click_id(page, "correct-op-add")
                for _ in range(20):  # the Knife pile is empty on the table...
                    await click_id(page, "correct-piles-knife-minus")
                await click_id(page, "correct-card-knife")  # ...so no Knife can come from it
                await ident(page, "correct-problem-SUP-2").wait_for(state="attached", timeout=10000)
                await shot(page, "correct-laptop-refused")
                before = store.load(game_id).version
                await click_id(page, "correct-record", expect_change=False)  # it says why, and records nothing
                await wait_text(page, "SUP-2: ")
                assert store.load(game_id).version == before
            await browser.close()

    drive(run())


def test_a_number_typed_then_record_tapped_once_is_recorded(server, store) -> None:
    """The referee types a number, the only change, and taps Record: that one tap records it.
    The tap that leaves the field takes the number (Record is on before the draft is ready), and
    the screen is redrawn with it after the tap, not under it."""
    game_id = store.create_game(GAME)

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, f"{server.url}/game/{game_id}", LAPTOP)
            async with pictured_on_failure(page, "correct-typed-record"):
                await wait_text(page, "Carmen's turn", 30000)
                await click_id(page, "nav-correct")
                await wait_text(page, "The box always wins")
                # Each number field is named for a screen reader, though its label is drawn only beside it.
                named = await evaluate(page, "() => Array.from(document.querySelectorAll('input'), e => e.ariaLabel)")
                assert {"Tunnel points", "Beatings", "Cigarettes"} <= set(named)
                await type_over(page, "correct-players-0-cigarettes-value", "3")
                await click_id(page, "correct-record", expect_change=False)  # one tap, never repeated
                await wait_text(page, "Correction: Carmen · Cigarettes set to 3")  # the table tells it
            assert store.load(game_id).game.state.players[0].cigarettes == 3
            await browser.close()

    drive(run())
