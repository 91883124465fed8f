"""The random self-play of the issues' "done when": whole games, no broken invariant."""

import io
import subprocess
import sys

from companion.simulate import simulate


def test_five_hundred_base_games_keep_every_invariant():
    """500 four-player games with Michel and Michelle; BrokenInvariant would fail the test."""
    totals = simulate(games=500, players=4, seed=11, modules="base", out=io.StringIO())
    assert totals.games == 500


def test_five_hundred_games_of_random_module_combinations():
    """Random Dig In Places, Warden on/off, Team mode with 4 and 6, 0-2 neutrals, 2-6 players."""
    totals = simulate(games=500, players=None, seed=12, modules="any", out=io.StringIO())
    assert totals.games == 500


def test_the_command_prints_its_rates_and_exits_zero():
    result = subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--games", "3", "--seed", "5"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "games/s" in result.stdout and "actions/s" in result.stdout
