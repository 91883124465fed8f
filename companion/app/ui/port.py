"""What the screens use of the app that shows them: `AppPort`, which the frame (`App`, shell.py)
fulfils. Screens, routes and the phone's pages take an `AppPort`, never the `App` itself, so none
of them imports the frame that imports them.

The attributes a screen sets (the settings it reloads, the screen it swaps in, the devices a
phone entered as) are plain attributes here; the rest are read-only properties, whatever `App`
makes of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import flet as ft

from companion.rules import Event
from storage import Device, Store

from ..door.device_storage import DeviceStorage
from ..services.settings import Settings
from ..services.shared import Services
from ..vm.actions import ReasonVM
from ..vm.rulings import Ruling
from ..vm.text import Tr
from .locale import DeviceLanguage


class ShownScreen(Protocol):
    """A screen as the app holds and draws it (screens/base.py's `Screen` is one)."""

    @property
    def app(self) -> AppPort: ...

    def appbar(self) -> ft.AppBar: ...

    def body(self) -> ft.Control: ...


class AppPort(Protocol):
    """One browser tab's app, as its screens use it."""

    settings: Settings  # the host's settings (a screen reloads them when another device changed them)
    language: str  # this tab's language (locale.py)
    device_language: DeviceLanguage | None  # this device's choice and its browser's own language
    screen: ShownScreen | None  # the screen shown (a phone's seat swaps in the page of a freed seat)
    link_ok: bool  # this tab presented a game's valid join secret
    join_devices: dict[str, Device]  # the devices this tab entered as, by game (phone/device.py)
    # What this tab just recorded on another screen of a game (a correction), by game: the version
    # it made and its events, for the table screen it goes back to to tell as what just happened.
    just_recorded: dict[str, tuple[int, list[Event]]]

    @property
    def page(self) -> ft.Page: ...

    @property
    def services(self) -> Services: ...

    @property
    def store(self) -> Store: ...

    @property
    def tr(self) -> Tr: ...

    @property
    def route(self) -> str: ...

    @property
    def width(self) -> float: ...

    @property
    def host(self) -> bool: ...  # the host's screens (else only joining and a seat: door/access.py)

    @property
    def prefs(self) -> DeviceStorage | None: ...  # this browser's storage, once admitted

    @property
    def narrow(self) -> bool: ...

    @property
    def wide(self) -> bool: ...

    def go(self, route: str, **query: Any) -> None: ...

    def show(self, route: str) -> None: ...

    def render(self) -> None: ...

    def apply_settings(self) -> None: ...

    def use_fonts(self, *families: str | None) -> None: ...  # bundled fonts a screen draws with

    def save_settings(self, settings: Settings) -> None: ...

    def file_picker(self) -> ft.FilePicker: ...

    def toast(self, text: str) -> None: ...

    def flag(
        self,
        title: str,
        reasons: list[ReasonVM],
        *,
        on_force: Callable[[Ruling], Any] | None = None,
        lead: str | None = None,
    ) -> None: ...

    def confirm(self, title: str, text: str, yes: str, on_yes: Callable[[], Any], *, danger: bool = False) -> None: ...

    def run_later(self, coro_fn: Callable[..., Any], *args: Any) -> bool: ...
