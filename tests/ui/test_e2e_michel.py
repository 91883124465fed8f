"""End to end: Michel & Michelle run by the app. Ending a turn, the mover only says which neutral
moves, in the same tap as End the turn; the app rolls, shows the move and the extortion with the
Michel card it drew, and asks the extorted player (only them) for their answer."""

from __future__ import annotations

from playwright.async_api import async_playwright

from companion.rules import Game

from drivers.browser import (
    LAPTOP,
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


def config(seed: int) -> dict:
    return {
        "players": [
            {"name": "Carmen", "place": "recreational_area"},
            {"name": "Nicholas", "place": "infirmary", "hand": ["spoon", "unknown", "unknown"]},
        ],
        "modules": {"neutrals": 2},
        "seed": seed,
    }


def first_extorting_seed() -> tuple[int, list[str]]:
    """A seed whose first neutral move ends with Michel extorting a player (found with the engine)."""
    for seed in range(200):
        game = Game(config(seed))
        game.submit({"type": "end_turn", "player": 0})
        answer = game.submit({"type": "move_neutral", "player": 0, "neutral": "michel"})
        choices: list[str] = []
        events = list(answer.events)
        if game.state.pending is not None and game.state.pending.kind == "neutral_destination":
            option = game.state.pending.options[0]
            choices.append(option)
            events += game.submit({"type": "choose", "player": 0, "option": option}).events
        cards = [e for e in events if e.TYPE == "michel_card"]
        if cards and game.state.pending is not None and game.state.pending.player == 1:
            return seed, choices
    raise AssertionError("no seed found")


def test_michel_moves_and_extorts_through_the_ui(server, store) -> None:
    seed, choices = first_extorting_seed()
    game_id = store.create_game(config(seed))

    async def run() -> None:
        async with async_playwright() as p:
            browser = await launch_browser(p)
            page = await open_page(browser, f"{server.url}/game/{game_id}", LAPTOP)
            async with pictured_on_failure(page, "michel-laptop"):
                await wait_text(page, "Carmen's turn", 30000)
                await wait_text(page, "End the turn, then:")
                await shot(page, "michel-laptop-choose-neutral")
                await click_id(page, "end-move_neutral-michel")  # one tap: the turn ends, Michel moves
                for place in choices:  # a die face naming two Places: the mover picks, on the map
                    await wait_text(page, "where does it go?")
                    await click_id(page, f"place-{place}")
                await wait_text(page, "Michel extorts Nicholas and reveals a Michel card")
                await ident(page, "die-result").wait_for(state="attached", timeout=15000)
                text = await screen_text(page)
                assert "Nicholas decides" in text  # only the extorted player's own choice
                await shot(page, "michel-laptop-extortion")
            await browser.close()

    drive(run())
    state = store.load(game_id).game.state
    assert state.neutrals["michel"] == "infirmary" and state.pending.player == 1
