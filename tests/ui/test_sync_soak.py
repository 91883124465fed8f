"""`dyo-companion bench sync`'s soak, in Flet sessions without a browser: no screen misses an
action, and it times the server's part of the news (an action submitted to the first patch
sent to each other screen), so the browsers' share of the sync figures can be told apart."""

from __future__ import annotations

import asyncio
from pathlib import Path

from companion.bench import sync as bench


def test_the_soak_misses_nothing_and_times_the_servers_part(tmp_path: Path) -> None:
    soak = asyncio.run(bench._soak(tmp_path, 112))  # 100 to warm up, then timed
    assert soak["actions"] == 112 and soak["lost"] == 0
    first = soak["first_sent"]
    assert len(first) >= 12 * 4, "each timed action reaches most of the 6 other screens"
    assert all(0 < ms < bench.SETTLE_S * 1000 for ms in first)
