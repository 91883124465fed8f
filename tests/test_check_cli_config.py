"""`python -m companion check` on impossible configurations: exit 2, one line on stderr naming
the rule, nothing on stdout, no traceback. Plus a short random self-play run with every module."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _players(n):
    return [{"name": f"Prisoner {i + 1}"} for i in range(n)]


IMPOSSIBLE = {
    "TEAM-1": {"players": _players(5), "modules": {"team": True}},
    "TEAM-7": {"players": _players(4), "modules": {"team": True, "places": ["gambling_cells"]}},
    "DI-1": {"players": _players(3), "modules": {"places": ["gymnasium", "swimming_pool"]}},
    "SET-1": {"players": _players(7)},
}


def _run(*args, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize("rule", sorted(IMPOSSIBLE))
def test_impossible_configuration(rule, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"config": IMPOSSIBLE[rule], "actions": [{"type": "search", "player": 0}]}))
    result = _run("check", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.endswith("\n") and len(result.stderr.splitlines()) == 1
    assert f"{rule}:" in result.stderr
    assert "Traceback" not in result.stderr


def test_impossible_configuration_messages():
    """The line says what is wrong, not only which rule."""
    expected = {
        "TEAM-1": "Team mode needs 4 or 6 players, not 5.",
        "TEAM-7": "The Gambling Cells cannot be used in Team mode.",
        "DI-1": "swimming_pool is not a Dig In Place",
        "SET-1": "A game has 2 to 6 players, not 7.",
    }
    for rule, config in IMPOSSIBLE.items():
        game = json.dumps({"config": config, "actions": []})
        result = subprocess.run(
            [sys.executable, "-m", "companion", "check", "-"],
            check=False,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            input=game,
        )
        assert result.returncode == 2 and result.stdout == ""
        assert expected[rule] in result.stderr, result.stderr


def test_simulate_every_module():
    """`dyo-companion simulate --games 5 --players 6 --modules any --seed 3` finishes cleanly."""
    result = _run("simulate", "--games", "5", "--players", "6", "--modules", "any", "--seed", "3", timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
