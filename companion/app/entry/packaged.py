"""The packaged app (`flet build`, main.py): no server, no web framework, no phones joining."""

from __future__ import annotations

from functools import cache

import flet as ft

from ..host import native
from ..services.settings import SettingsFile
from ..services.shared import Services
from ..ui.shell import App


@cache
def native_services() -> Services:
    """The store and settings of this device, opened once per process: both in the packaged app's
    data folder when there is one (else the user's data folder, as `dyo-companion` uses), with
    joining by phone switched off."""
    from storage import Store

    folder = native.data_folder()
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    store = Store(url=f"sqlite:///{folder / native.DATABASE}" if folder else None)
    settings = SettingsFile(folder / native.SETTINGS if folder else None)
    return Services(store=store, settings_file=settings, joinable=False)


def native_main(page: ft.Page) -> None:
    """The packaged app's `main(page)`."""
    App(page, native_services()).start()


def run_native() -> None:
    native.run(native_main)
