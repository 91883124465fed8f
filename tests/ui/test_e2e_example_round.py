"""End to end, in Debian's chromium: the Italian guide's example round, played through the UI.

Setup (3 players, Yellow holding two Knives, entered as a game in progress), then the round:
Carmen Simple move (die 1) → Cafeteria, Steal a Spoon, end; Nicholas Cautious move →
Recreational Area, end; Yellow Simple move (die 1) → Cafeteria, extorts Carmen's Spoon with a
Knife; Carmen fights with a Blade, Yellow plays a Knife, Carmen gives up: 1 Beating, the Spoon
goes to Yellow. Then Carmen tries to Craft and the referee flags BEAT-2 with its text.
"""

from __future__ import annotations

from playwright.async_api import async_playwright

from .conftest import write_settings
from drivers.browser import (
    ARTIFACTS,
    LAPTOP,
    click_id,
    drive,
    evaluate,
    ident,
    launch_browser,
    open_page,
    shot,
    type_text,
    wait_text,
)


async def fill_name(page, number: int, name: str) -> None:
    """Type a name as a person would: tap the field, type, and see the app take it."""
    field = page.get_by_label(f"Player {number} name", exact=True)
    await field.wait_for(state="attached", timeout=15000)
    await field.click()
    await type_text(page, name)
    await wait_text(page, f"{name} starts")


async def play_example_round(page, tag: str) -> None:
    # Settings: the table rolls real dice and enters them.
    await click_id(page, "home-settings", timeout=30000)
    await click_id(page, "dice-physical")
    await click_id(page, "nav-back")
    await click_id(page, "home-new-game")
    await wait_text(page, "Start the game")
    for number, name in enumerate(["Carmen", "Nicholas", "Yellow"], start=1):
        await fill_name(page, number, name)
    await shot(page, f"{tag}-setup")
    # Yellow starts with two Knives: a game in progress.
    await click_id(page, "switch-in-progress")
    await click_id(page, "start-add-2-knife")  # one tap per card: the chips stay open
    await click_id(page, "start-add-2-knife")
    await click_id(page, "setup-start-button")
    await wait_text(page, "Carmen's turn")
    await shot(page, f"{tag}-table-start")

    # Carmen: Simple move, die 1 -> Cafeteria; Steal a Spoon; end.
    await click_id(page, "action-move")
    await click_id(page, "die-1")
    await wait_text(page, "Carmen moves from the Cell Block to the Cafeteria")
    await click_id(page, "action-steal_spoon")
    await wait_text(page, "Carmen takes 1 × Spoon")
    await click_id(page, "action-end_turn")
    await wait_text(page, "Nicholas's turn")
    # Nicholas: Cautious move -> Recreational Area; end.
    await click_id(page, "action-cautious_move")
    await click_id(page, "choice-to-recreational_area")
    await wait_text(page, "Nicholas moves from the Cell Block to the Recreational Area")
    await click_id(page, "action-end_turn")
    await wait_text(page, "Yellow's turn")
    # Yellow: Simple move, die 1 -> Cafeteria; extort Carmen for the Spoon with a Knife.
    await click_id(page, "action-move")
    await click_id(page, "die-1")
    await wait_text(page, "Yellow moves from the Cell Block to the Cafeteria")
    await click_id(page, "action-extort")
    await click_id(page, "choice-tool-spoon")
    await click_id(page, "done-weapons")
    await wait_text(page, "Yellow extorts Carmen for the Spoon")
    await shot(page, f"{tag}-extortion")
    # Carmen fights: Blade; Yellow: Knife; Carmen gives up.
    await click_id(page, "answer-fight")
    await click_id(page, "answer-weapon-blade-0")
    await click_id(page, "answer-weapon-knife-2")
    await click_id(page, "answer-give_up")
    await wait_text(page, "Carmen gives Spoon to Yellow")
    await wait_text(page, "Carmen takes 1 Beating")
    await shot(page, f"{tag}-after-combat")


def test_example_round_through_the_ui(server, store, settings_path) -> None:
    write_settings(settings_path, screen="private")  # the referee's own screen: every card named

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, server.url + "/", LAPTOP)
            try:
                await play_example_round(page, "example-laptop")
            except Exception:
                await shot(page, "example-laptop-FAILED", painted=False)
                import re

                html = await evaluate(page, "document.querySelector('flt-semantics-host').outerHTML")
                (ARTIFACTS / "example-laptop-FAILED.html").write_text(re.sub(r' style="[^"]*"', "", html))
                print("\n".join(page.console_lines[-40:]))
                raise
            # The exact outcome, from the stored game itself.
            games = store.list_games("active")
            assert len(games) == 1
            state = store.load(games[0].id).game.state
            carmen, nicholas, yellow = state.players
            assert (carmen.place, carmen.beatings, dict(carmen.hand.known), carmen.hand.unknown) == (
                "cafeteria",
                1,
                {},
                2,
            )
            assert (nicholas.place, nicholas.beatings, nicholas.hand.size()) == ("recreational_area", 0, 3)
            assert (yellow.place, yellow.beatings, dict(yellow.hand.known), yellow.hand.unknown) == (
                "cafeteria",
                0,
                {"spoon": 1},
                1,
            )
            assert state.piles["spoon"] == 10 and state.piles["knife"] == 20 and state.discard == ["blade"]
            assert state.active == 2 and state.pending is None
            # Yellow ends; Carmen (1 Beating) tries to Craft: flagged BEAT-2 with the rule's text.
            await click_id(page, "action-end_turn")
            await wait_text(page, "Carmen's turn")
            await click_id(page, "menu-refused")  # what is not possible now is folded away
            craft = ident(page, "action-craft")
            label = await craft.get_attribute("aria-label") or await craft.inner_text()
            assert "BEAT-2" in label and "not allowed" in label
            await click_id(page, "action-craft")
            await ident(page, "flag-rule-BEAT-2").wait_for(state="attached", timeout=10000)
            await wait_text(page, "With 1 Beating you cannot Craft")
            await shot(page, "example-laptop-craft-flag")
            await browser.close()

    drive(run())
