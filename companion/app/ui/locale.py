"""The language of one device: chosen in Settings, remembered in that browser, else the browser's own.

Each browser tab is its own Flet session with its own `App`, so the language lives there (and
only there): two phones at the same table can read the same game in Italian and in Persian.
The choice is kept on the device itself, in Flet's client-side storage (`SharedPreferences`,
the browser's localStorage) under `PREF_KEY`, never in the server's settings file, which every
device of the host shares. Without a choice, the first of the browser's preferred languages
the app has is used (navigator.languages, through `page.get_device_info()`), else English.

The first screen waits for that answer (a few milliseconds), so a Persian phone never flashes
an English screen. A language also sets the page's direction (Persian mirrors the whole layout),
Flutter's own widget texts (`LocaleConfiguration`) and the font: the offline build has only
Roboto, which has no Persian letters, so Persian uses the bundled Vazirmatn (assets/fonts/).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from companion.i18n import DEFAULT_LANGUAGE

from ..vm.text import Tr, available_languages, match_language

if TYPE_CHECKING:  # Flet is imported when a page is at hand (this module's functions need none first)
    import flet as ft

log = logging.getLogger(__name__)

PREF_KEY = "dyo.language"
LOOKUP_SECONDS = 3.0  # a client that does not answer keeps the default language
# The region Flutter's own texts (dialog barriers, text field menus) use for each language.
REGIONS = {"en": "US", "it": "IT", "fa": "IR"}


def flutter_locale(lang: str) -> ft.Locale:
    import flet as ft

    return ft.Locale(lang, REGIONS.get(lang))


def apply_language(page: ft.Page, tr: Tr) -> None:
    """Direction, Flutter's widget texts and the window title for `tr`'s language.

    (The theme's font family is set with the theme, from `tr.font`.)"""
    import flet as ft

    page.rtl = tr.rtl
    page.locale_configuration = ft.LocaleConfiguration(
        supported_locales=[flutter_locale(lang) for lang in available_languages()],
        current_locale=flutter_locale(tr.lang),
    )
    page.title = tr("ui.app_title")


class Preferences(Protocol):
    """What the language needs of a browser's storage (`DeviceStorage` in the app)."""

    def get(self, key: str) -> Awaitable[Any]: ...

    def set(self, key: str, value: str) -> Awaitable[Any]: ...

    def remove(self, key: str) -> Awaitable[Any]: ...


class DeviceLanguage:
    """This device's saved choice (`saved`) and its browser's preferred language (`preferred`)."""

    def __init__(self, page: ft.Page, prefs: Preferences | None) -> None:
        """`prefs`: this browser's storage (`App.prefs`); None keeps a choice for the session only."""
        self.page = page
        self.saved: str | None = None
        self.preferred: str | None = None
        self._prefs = prefs

    @property
    def language(self) -> str:
        return self.saved or self.preferred or DEFAULT_LANGUAGE

    async def lookup(self) -> str:
        """Read the saved choice and the browser's languages; the language to use."""
        saved, tags = await asyncio.gather(
            self._ask(self._prefs.get(PREF_KEY)) if self._prefs is not None else _nothing(), self._browser_tags()
        )
        self.saved = saved if isinstance(saved, str) and saved in available_languages() else None
        self.preferred = match_language(tags)
        return self.language

    async def _browser_tags(self) -> list[str]:
        info = await self._ask(self.page.get_device_info())
        return list(locale_tags(getattr(info, "locales", None) or []))

    async def remember(self, lang: str | None) -> None:
        """Keep `lang` on this device (None: follow the browser's language again)."""
        self.saved = lang
        if self._prefs is None:
            return
        if lang is None:
            await self._ask(self._prefs.remove(PREF_KEY))
        else:
            await self._ask(self._prefs.set(PREF_KEY, lang))

    async def _ask(self, call: Any) -> Any:
        try:
            return await asyncio.wait_for(call, LOOKUP_SECONDS)
        except Exception:  # no answer, or a client without that service: keep what we have
            log.debug("client lookup failed", exc_info=True)
            return None


async def _nothing() -> None:
    return None


def locale_tags(locales: Iterable[Any]) -> Iterable[str]:
    """BCP 47 tags from Flet `Locale`s (or tags already)."""
    for loc in locales:
        if isinstance(loc, str):
            yield loc
        else:
            yield "-".join(p for p in (getattr(loc, "language_code", None), getattr(loc, "country_code", None)) if p)


class Speaker(Protocol):
    """What the language needs of a browser tab's app (`App` in shell.py)."""

    language: str
    device_language: DeviceLanguage | None

    @property
    def page(self) -> ft.Page: ...

    @property
    def route(self) -> str: ...

    @property
    def screen(self) -> object: ...  # None until a screen is shown

    def apply_settings(self) -> None: ...

    def show(self, route: str) -> None: ...

    def run_later(self, coro_fn: Callable[..., Any], *args: Any) -> bool: ...


def open_in_device_language(app: Speaker, route: str) -> None:
    """Show the first screen (`route`) once this device's language is known."""
    device = DeviceLanguage(app.page, getattr(app, "prefs", None))
    app.device_language = device

    async def first_screen() -> None:
        lang = await device.lookup()
        if not app.route:  # nothing asked for meanwhile
            if lang != app.language:
                app.language = lang
                app.apply_settings()
            app.show(route)
        elif lang != app.language:  # something was shown meanwhile: redraw it in this language
            set_language(app, lang)

    try:
        app.page.run_task(first_screen)
    except Exception:  # no running loop (a test without a client): English at once
        app.show(route)


def set_language(app: Speaker, lang: str) -> None:
    """This session speaks `lang` from now on: every screen is rebuilt in it."""
    app.language = lang
    app.apply_settings()
    if app.screen is not None:
        app.show(app.route or "/")


def choose_language(app: Speaker, lang: str | None) -> None:
    """The Settings picker: `lang`, or None to follow this device's own language; remembered here."""
    device: DeviceLanguage | None = getattr(app, "device_language", None)
    if device is None:
        device = app.device_language = DeviceLanguage(app.page, getattr(app, "prefs", None))
    device.saved = lang
    set_language(app, device.language)
    app.run_later(device.remember, lang)
