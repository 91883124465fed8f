"""`dyo-companion bench sync`'s latency runs as the app reads now: its scripted taps (Search, End
the turn) are answered on every other screen, in both of its set-ups. No test times anything;
this one keeps the suite from silently breaking when a screen's words change (it did once, when
the seat whose turn it is began to read "Your turn")."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from companion.bench import sync as bench

SCREENS = len(bench.NAMES)  # the other screens that see each tap: 6 phones, or 5 and the table view


@pytest.mark.parametrize("accessible", [False, True], ids=["as-phones-are", "accessibility-tree-on"])
def test_the_sync_benchmark_plays_its_turns_on_every_screen(tmp_path: Path, accessible: bool) -> None:
    out = asyncio.run(bench._latency(tmp_path, accessible, turns=2))
    taps = 2 * 2
    assert len(out["drawn"]) == len(out["arrived"]) == taps * SCREENS
    assert all(ms > 0 for ms in out["drawn"] + out["arrived"])
    if accessible:
        assert len(out["seen"]) == taps * SCREENS
