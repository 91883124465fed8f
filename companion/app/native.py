"""The app as a packaged native app (`flet build apk` / `flet build ipa`, or `--desktop`).

There is no server and no browser: the phone runs Python, the store is a SQLite file in the
app's own data folder (Flet names it in `FLET_APP_STORAGE_DATA`), and the same screens draw
natively. See the README, "Phones and tablets".
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .settings import SettingsFile


def data_folder() -> Path | None:
    folder = os.environ.get("FLET_APP_STORAGE_DATA")
    return Path(folder) if folder else None


def main(page: Any) -> None:
    from storage import Store

    from .shell import App, Services

    folder = data_folder()
    store = Store(url=f"sqlite:///{folder / 'games.sqlite3'}" if folder else None)
    settings = SettingsFile(folder / "settings.json" if folder else None)
    App(page, Services(store=store, settings_file=settings)).start()


if __name__ == "__main__":  # `python -m companion.app.native`, or the entry file of a `flet build`
    import flet as ft

    ft.run(main, assets_dir=str(Path(__file__).resolve().parents[2] / "assets"))
