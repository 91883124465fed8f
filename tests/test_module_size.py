"""No module of the product (`companion/`, `storage/`) grows past 500 lines: past that, a file
does more than one job and should be split along the seams its sections already show."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MOST_LINES = 500


def test_every_module_is_at_most_500_lines():
    too_long = {
        str(path.relative_to(ROOT)): lines
        for package in ("companion", "storage")
        for path in sorted((ROOT / package).rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert too_long == {}, f"split these modules (lines): {too_long}"
