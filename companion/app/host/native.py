"""The app as a packaged native app (`flet build apk|ipa|linux|macos|windows`).

There is no server and no browser: the device runs Python, the store is a SQLite file in the
app's own data folder (Flet names it in `FLET_APP_STORAGE_DATA`), and the same screens draw
natively. No other device can reach this app, so it offers no join link or QR code.
`main.py` at the repository root is the module `flet build` runs; it calls `run()`.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from ..services.settings import SettingsFile

DATA_ENV = "FLET_APP_STORAGE_DATA"  # set by the packaged app's host (Flet's storage paths)
DATABASE = "games.sqlite3"
SETTINGS = "settings.json"
ASSETS = Path(__file__).resolve().parents[2] / "assets"  # beside main.py, in a checkout and in a package


def data_folder() -> Path | None:
    """The app's private data folder, when a packaged app's host names one."""
    folder = os.environ.get(DATA_ENV)
    return Path(folder) if folder else None


@cache
def services() -> Any:
    """The store and settings of this device, opened once per process: both in the data folder
    when there is one (else the user's data folder, as `dyo-companion` uses), with joining by
    phone switched off."""
    from storage import Store

    from ..ui.shell import Services

    folder = data_folder()
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    store = Store(url=f"sqlite:///{folder / DATABASE}" if folder else None)
    settings = SettingsFile(folder / SETTINGS if folder else None)
    return Services(store=store, settings_file=settings, joinable=False)


def main(page: Any) -> None:
    from ..ui.shell import App

    App(page, services()).start()


def run() -> None:
    """Run the app the way a packaged build does (Flet picks the transport its host asks for)."""
    import flet as ft

    from . import flet_diff

    flet_diff.apply()  # as the server does
    ft.run(main, assets_dir=str(ASSETS))


if __name__ == "__main__":  # `python -m companion.app.host.native`
    run()
