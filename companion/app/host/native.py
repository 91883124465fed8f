"""The app as a packaged native app (`flet build apk|ipa|linux|macos|windows`).

There is no server and no browser: the device runs Python, the store is a SQLite file in the
app's own data folder (Flet names it in `FLET_APP_STORAGE_DATA`), and the same screens draw
natively. No other device can reach this app, so it offers no join link or QR code.
`main.py` at the repository root is the module `flet build` runs; companion/app/entry/packaged.py puts
the app together for it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA_ENV = "FLET_APP_STORAGE_DATA"  # set by the packaged app's host (Flet's storage paths)
DATABASE = "games.sqlite3"
SETTINGS = "settings.json"
ASSETS = Path(__file__).resolve().parents[3] / "assets"  # beside main.py, in a checkout and in a package


def data_folder() -> Path | None:
    """The app's private data folder, when a packaged app's host names one."""
    folder = os.environ.get(DATA_ENV)
    return Path(folder) if folder else None


def run(main: Callable[[Any], None]) -> None:
    """Run `main` the way a packaged build does (Flet picks the transport its host asks for)."""
    import flet as ft

    from . import flet_diff

    flet_diff.apply()  # as the server does
    ft.run(main, assets_dir=str(ASSETS))
