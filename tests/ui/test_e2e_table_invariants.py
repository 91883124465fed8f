"""End to end, in Debian's chromium: a table that takes every path never gets stuck.

For each way a table sets itself up (tests/ui/table_monkey.py: die, cards, devices, screen), a
game is played by random taps of whoever must decide, on the screen they may use, with every
screen checked after every tap. Modes are grouped by their devices (one test each), so the
browser contexts of a group are made once. `COMPANION_TABLE_MODES` (mode names, comma-separated)
and `COMPANION_TABLE_SEED` replay a failure; `COMPANION_TABLE_TAPS` plays longer.
"""

from __future__ import annotations

import os
import random
import re
import time

import pytest
from playwright.async_api import async_playwright

from .table_monkey import DEVICES, MODES, ServerErrors, Sessions, open_table, play
from drivers.browser import AppServer, drive, launch_browser

TAPS = int(os.environ.get("COMPANION_TABLE_TAPS", "8"))
SEED = int(os.environ.get("COMPANION_TABLE_SEED", "20261206"))
CHOSEN = [m for m in os.environ.get("COMPANION_TABLE_MODES", "").split(",") if m]


def seed_of(mode_name: str) -> int:
    """Each mode's own game and taps, from the run's seed (a replay gives the seed it printed)."""
    return SEED if CHOSEN else random.Random(f"{SEED}:{mode_name}").randrange(2**31)


@pytest.mark.parametrize("devices", DEVICES)
def test_every_mode_of_the_table_goes_on_after_every_tap(devices: str, store, settings_path) -> None:
    modes = [m for m in MODES if m.devices == devices and (not CHOSEN or m.name in CHOSEN)]
    if not modes:
        pytest.skip(f"COMPANION_TABLE_MODES names no mode with {devices}")

    async def run() -> None:
        with Sessions() as sessions, ServerErrors() as errors, AppServer(store, settings_path, lan=True) as server:
            async with async_playwright() as p:
                browser = await launch_browser(p)
                devices = None
                for mode in modes:
                    seed = seed_of(mode.name)
                    started = time.monotonic()
                    table = await open_table(browser, server, settings_path, store, mode, seed, sessions, None, devices)
                    await play(table, random.Random(seed), TAPS, errors, sessions)
                    print(f"{mode.name}: seed {seed}, {len(table.log)} taps in {time.monotonic() - started:.0f} s")
                    devices = table.devices
                await browser.close()

    drive(run(), limit=1500)


# Players who mean to win: they dig when they can, head back to the Cell Block, leave the
# neutrals where they are, and end a fight fast.
DIGGERS = [
    (re.compile(r"(action-dig|choice-tool-.*|done-.*)"), 400),
    (re.compile(r"(pad-move-\d-cell_block|choice-to-cell_block|(answer|end)-skip_neutral|answer-give_up)"), 80),
    (re.compile(r"action-(end_turn|move|cautious_move)"), 20),
    (re.compile(r"answer-cooperate-.*"), 2),
]


def whole_game(seed: int) -> dict:
    """A short game of four (house-rule target 5, each hand two Pickaxes, two Spoons and a Knife): it can be
    played from its first turn to the win through the screens, every rule in force."""
    return {
        "players": [
            {"name": n, "hand": ["pickaxe", "pickaxe", "spoon", "spoon", "knife"]}
            for n in ("Anna", "Bruno", "Carla", "Dario")
        ],
        "modules": {"neutrals": 2},
        "house_rules": {"targets": {str(n): 5 for n in range(2, 7)}},
        "seed": seed,
    }


def test_four_players_two_on_phones_with_the_real_box_play_a_game_to_its_end(store, settings_path) -> None:
    """The table of the report: the real die, the real Michel cards and the real random cards, two
    of four players on their phones, the other two at the laptop: the game is played to its win."""
    mode = MODES[[m.name for m in MODES].index("real-die+real-cards+two-phones+shared")]
    seed = SEED

    async def run() -> None:
        with Sessions() as sessions, ServerErrors() as errors, AppServer(store, settings_path, lan=True) as server:
            async with async_playwright() as p:
                browser = await launch_browser(p)
                table = await open_table(browser, server, settings_path, store, mode, seed, sessions, whole_game(seed))
                await play(table, random.Random(seed), 300, errors, sessions, prefer=DIGGERS)
                print(f"a whole game: {len(table.log)} taps")
                state = table.state
                tunnels = [p.tunnel for p in state.players]
                assert state.winner is not None, f"no winner after {len(table.log)} taps (Tunnels {tunnels})"
                await browser.close()

    drive(run(), limit=900)
