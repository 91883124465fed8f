"""The README a player reads first: under 250 lines, its two set-up commands as .ci/run and the
players expect them, and its first screen says how to play with phones."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
FIRST_SCREEN = 30  # lines a browser or a terminal shows before any scrolling


def _lines() -> list[str]:
    return README.read_text(encoding="utf-8").splitlines()


def _block(marker: str) -> str:
    text = README.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->\n```\n(.*?)\n```", text, re.S)
    assert found, f"no code block after <!-- {marker} -->"
    return found.group(1)


def test_the_readme_is_short() -> None:
    assert len(_lines()) < 250


def test_the_set_up_commands_stay_as_they_are() -> None:
    assert _block("run-command") == "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/dyo-companion"
    assert _block("test-command") == "./tests/run"


def test_the_first_screen_says_how_to_play_with_phones() -> None:
    first = "\n".join(_lines()[:FIRST_SCREEN])
    assert "dyo-companion --lan" in first and "QR code" in first and "join link" in first
    assert "no phone can open" in first  # and why the plain command is not enough
