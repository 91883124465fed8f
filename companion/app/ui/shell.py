"""The app's frame: one per browser tab (Flet session). It owns the screen shown, the route,
the theme and language, and the dialogs every screen shares (flags, confirmations, toasts).

Routes are the state a reload or a server restart comes back to: `/game/<id>` reopens the
table at whatever the stored game says (its pending decision included), so resuming after a
restart lands on the same screen.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import flet as ft

from companion.rules import RULING_MAX, Event
from storage import Device

from ..door.access import admit
from ..door.device_storage import DeviceStorage
from ..host import memory
from ..host.server import KEYLESS_SESSION_SECONDS as KEYLESS_SESSION_SECONDS  # also read from here
from ..host.server import SESSION_SECONDS as SESSION_SECONDS
from ..services.opening import Listing
from ..services.settings import Settings
from ..services.shared import Services
from ..vm.actions import ReasonVM
from ..vm.rulings import Ruling, house_rule_words, keepable
from ..vm.text import FONT_FILES, Tr
from . import sound
from .locale import DeviceLanguage, apply_language, open_in_device_language
from .port import ShownScreen
from .routes import Read, read_for, screen_for
from .widgets.common import (
    DANGER,
    LEAVING_FIELD,
    app_theme,
    button,
    heading,
    muted,
    pill,
    start_border,
    width_class,
)

log = logging.getLogger(__name__)
AFTER_TAP_S = 0.5  # a tap's finger is up by then (a phone's tap: 50-150 ms, plus the way to the server)


class App:
    join_devices: dict[str, Device]  # the devices this browser joined, by game (ui/phone/device.py sets it)

    def __init__(self, page: ft.Page, services: Services) -> None:
        self.page = page
        self.services = services
        self.store = services.store
        self.settings: Settings = services.settings_file.load()
        self.language = "en"  # this session's (this device's) language: see locale.py
        self.device_language: DeviceLanguage | None = None
        self.tr = Tr(self.language)
        self.screen: ShownScreen | None = None
        self.route = ""
        self.width: float = page.width or 1024
        self._file_picker: ft.FilePicker | None = None  # see `file_picker`
        self._after_tap = False  # a redraw waits for a tap that left a number field (`render`)
        self.host = False  # decided by admit() from the connection and the host key
        self.link_ok = False  # this session presented a game's valid join secret
        self._short_lived = False
        self._echoes: list[str] = []  # routes we pushed whose route-change event has not come back yet
        self.opening: Future[None] | None = None  # the read of the game the screen asked for shows
        self._open_on_connect = False  # a screen asked for while the socket was gone
        self.prefs: DeviceStorage | None = None  # this browser's storage, set by `admit` (door/access.py)
        self.just_recorded: dict[str, tuple[int, list[Event]]] = {}  # see AppPort

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        page = self.page
        page.title = self.tr("ui.app_title")
        page.padding = 0
        page.spacing = 0
        self.apply_settings()
        page.on_route_change = self._route_changed
        page.on_resize = self._resized
        page.on_keyboard_event = self._key
        page.on_connect = self._connected
        page.on_disconnect = self._disconnected
        page.on_close = self._closed
        admit(self)  # the host's screens, or only joining and a seat (door/access.py)
        open_in_device_language(self, page.route or "/")

    @property
    def holds_key(self) -> bool:
        """Whether this session ever presented something valid: the host key (or is the host's
        machine), a join secret, a device token."""
        return self.host or self.link_ok or bool(getattr(self, "join_devices", None))

    @property
    def _offline(self) -> bool:
        """Whether the socket is gone (Flet detaches it before it announces the disconnection)."""
        return self.page.session.connection is None

    def _connected(self, e: ft.Event[ft.Page] | None = None) -> None:
        self._short_lived = False
        # Flet 1.0 answers no call to a service made before a reconnect: new ones are made on use.
        if self.prefs is not None:
            self.prefs.connected()
        self._file_picker = None
        sound.renew(self)
        if self._open_on_connect:
            self._open_on_connect = False
            asked = self.route
            if self.page.route and self.page.route != asked:
                # The browser came back on the address it had when its socket dropped, which Flet
                # reports next as a route change: that one is skipped (an echo), and the browser is
                # sent to the screen asked for meanwhile.
                self._echoes.append(self.page.route)
                self.go(asked)
            else:
                self.show(asked)
        elif self.screen is not None and self.page.route and self.page.route != self.route:
            # The browser came back on another address (a reload there, a typed address): its
            # screen, not the one it left, which would be drawn only to be replaced.
            self.show(self.page.route)
        elif self.screen is not None:
            self.render()

    async def _disconnected(self, e: ft.Event[ft.Page] | None = None) -> None:
        """Its socket is gone: a session that never held a key is kept only briefly (a stranger's
        reconnect storm must not pin memory for the usual grace period)."""
        if self.prefs is not None:
            self.prefs.disconnected()
        self._empty_page()
        if self.holds_key or self._short_lived:
            return
        self._short_lived = True  # Session.disconnect announces the disconnection again
        try:
            await self.page.session.disconnect(KEYLESS_SESSION_SECONDS)
        except Exception:  # a session already closing
            log.debug("cannot shorten a session's grace period", exc_info=True)

    def _empty_page(self) -> None:
        """Take the screen off the page while the socket is gone; `_connected` draws it again.

        On a reconnect Flet 1.0.5 sends the whole page, and its browser client takes that in
        far more slowly than the same controls in an update: the tab froze for 7 s on Settings,
        30 s on the table and 52 s on the setup screen, in which it answered no tap. An empty
        page comes back at once, and the screen then arrives as it does on any navigation.
        """
        self.page.appbar = None
        self.page.controls.clear()

    def _closed(self, e: ft.Event[ft.Page] | None = None) -> None:
        if self.prefs is not None:
            self.prefs.closed()
        memory.session_closed()

    def file_picker(self) -> ft.FilePicker:
        """The session's file picker (import, export), made on first use and after a reconnect."""
        if self._file_picker is None:
            self._file_picker = ft.FilePicker()
        return self._file_picker

    def apply_settings(self) -> None:
        page = self.page
        page.theme_mode = {"light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}.get(
            self.settings.theme, ft.ThemeMode.SYSTEM
        )
        self.tr = Tr(self.language)
        font = self.tr.font
        self.use_fonts(font)
        self._touch = self.touch
        page.theme = app_theme(font, self._touch)
        page.dark_theme = app_theme(font, self._touch)
        apply_language(page, self.tr)

    def use_fonts(self, *families: str | None) -> None:
        """Register the bundled fonts these families name, once per tab. The client downloads a
        font as soon as it is registered (the Persian one is 123 kB), so a device registers only
        the fonts it draws with: its language's, and the language chooser's on the settings screen."""
        fonts = dict(self.page.fonts or {})
        wanted = {family: FONT_FILES[family] for family in families if family in FONT_FILES}
        if not wanted.keys() <= fonts.keys():
            self.page.fonts = fonts | wanted

    def save_settings(self, settings: Settings) -> None:
        self.settings = settings.valid()
        if not self.services.settings_file.save(self.settings):
            self.toast(self.tr("ui.settings_not_saved"))
        self.apply_settings()

    # --- navigation -------------------------------------------------------------------------

    def go(self, route: str, **query: Any) -> None:
        """Show a screen now and record it in the browser's history (Back returns here)."""
        if query:
            route = f"{route}?{urlencode({k: v for k, v in query.items() if v not in (None, '')})}"
        self.show(route)
        self._echoes.append(route)
        self.page.navigate(route)

    def _route_changed(self, e: ft.RouteChangeEvent) -> None:
        """Browser Back/Forward (or a typed URL) shows that screen; our own pushes come back as echoes."""
        if e.route in self._echoes:
            while self._echoes and self._echoes.pop(0) != e.route:
                pass
            return
        if e.route != self.route:
            self.show(e.route)

    def show(self, route: str) -> None:
        """Show the screen of `route`. A screen built from something stored (a game, the lists
        of games) is drawn once that has been read, off the loop (routes.py, opening.py);
        meanwhile the page keeps what it showed. While the socket is gone, any screen opens
        when it reconnects (`_connected`)."""
        if self.screen is not None and hasattr(self.screen, "leave"):
            self.screen.leave()
        if self.screen is not None:
            memory.screen_left()
        self.screen = None
        self.route = route
        self.opening = None
        read = read_for(self, urlsplit(route or "/").path or "/")
        try:
            if self._offline:
                self._open_on_connect = True
                return
            if read is not None:
                self.opening = self.page.run_task(self._open, route, read)
                return
        except Exception:  # the session is gone or closing: nothing to show it on
            return
        self._present(route, None)

    async def shown(self) -> None:
        """Until the screen the last route asked for is drawn (what it reads is read first)."""
        if self.opening is not None:
            await asyncio.wrap_future(self.opening)

    async def _open(self, route: str, read: Read) -> None:
        found = await self.services.tables.read(read.lane, read.fn, *read.args)
        if self.route == route:  # unless another screen was asked for meanwhile
            self._present(route, found)

    def _present(self, route: str, found: Any) -> None:
        """Build the route's screen from what it read (`found`) and draw it."""
        parts = urlsplit(route or "/")
        try:
            self.screen = screen_for(self, parts.path or "/", dict(parse_qsl(parts.query)), found)
            redirect = getattr(self.screen, "redirect", None)
            if redirect:  # e.g. a finished game's table shows its final standings (the same game)
                self.route = redirect
                self.screen = screen_for(self, redirect, {}, found)
                self._echoes.append(redirect)
                self.page.navigate(redirect)
        except Exception:  # a broken screen must not leave a blank page
            log.exception("cannot show %s", route)
            from .screens.home import HomeScreen

            self.screen = HomeScreen(self, {}, Listing())  # no list: the store may be what broke
            self.toast(self.tr("ui.screen_failed"))
        self.render()

    def render(self) -> None:
        if self._offline:  # drawn when the socket is back (`_connected`)
            return
        if LEAVING_FIELD.get():  # a number field's blur: its tap is not over yet
            self._render_after_tap()
            return
        page = self.page
        screen = self.screen
        try:
            assert screen is not None  # a screen is shown before it is drawn; None fails as a broken one
            appbar, body = screen.appbar(), screen.body()
        except Exception:  # never a blank page: say so and offer the way home
            log.exception("cannot render %s", self.route)
            appbar = ft.AppBar(title=ft.Text(self.tr("ui.app_title")))
            body = ft.Container(
                ft.Column(
                    [
                        ft.Text(self.tr("ui.screen_failed"), size=16),
                        button(self.tr("ui.home"), lambda e: self.go("/"), identifier="go-home"),
                    ],
                    spacing=12,
                ),
                padding=20,
            )
        page.appbar = appbar
        page.controls.clear()
        page.controls.append(body)
        page.update()

    def _render_after_tap(self) -> None:
        """Redraw once the tap that left a number field is over. The number is already taken (the
        screen's model has it), but a screen redrawn between the finger going down and coming up
        replaces or moves what it landed on (a line read back above Record pushes it down), and
        the tap is lost: so the redraw waits a moment, and the tap's own handler runs first,
        reading the number taken."""
        if self._after_tap:
            return
        self._after_tap = True

        async def later() -> None:
            LEAVING_FIELD.set(False)  # this task's copy of the context it was made in
            await asyncio.sleep(AFTER_TAP_S)
            self._after_tap = False
            self.render()

        if not self.run_later(later):
            self._after_tap = False

    def refresh(self) -> None:
        """Rebuild the current screen from its models (after a change elsewhere)."""
        if self.screen is not None:
            self.render()

    def _resized(self, e: ft.PageResizeEvent) -> None:
        width = getattr(e, "width", None) or self.page.width or self.width
        old = self.width
        self.width = width
        if self.touch != getattr(self, "_touch", None):  # a phone's width now, or no longer
            self.apply_settings()
            if self.screen is not None:
                self.render()
        elif self.screen is not None and hasattr(self.screen, "resized") and self.screen.resized(old, width):
            self.render()

    def _key(self, e: ft.KeyboardEvent) -> None:
        if self.screen is not None and hasattr(self.screen, "key"):
            self.screen.key(e)

    @property
    def narrow(self) -> bool:
        return width_class(self.width or 1024) == 0

    @property
    def wide(self) -> bool:
        return width_class(self.width or 1024) == 2

    @property
    def touch(self) -> bool:
        """Whether this screen is touched rather than clicked: a phone's width, or a phone's or a
        tablet's system (its controls then take thumb-sized paddings: `app_theme`)."""
        return self.narrow or getattr(self.page, "platform", None) in (ft.PagePlatform.ANDROID, ft.PagePlatform.IOS)

    # --- shared dialogs ---------------------------------------------------------------------

    def toast(self, text: str) -> None:
        self.page.show_dialog(ft.SnackBar(ft.Text(text), duration=ft.Duration(seconds=4), rtl=self.tr.rtl))

    def close_dialog(self, e: Any = None) -> None:
        try:
            self.page.pop_dialog()
        except Exception:  # already closed
            pass

    def flag(
        self,
        title: str,
        reasons: list[ReasonVM],
        *,
        on_force: Callable[[Ruling], Any] | None = None,
        lead: str | None = None,
    ) -> None:
        """The referee's flag: what is not allowed, each rule id with its message and the rule's text;
        where the referee may record it anyway, the table's ruling (why, and whether to keep it)."""
        tr = self.tr
        rows: list[ft.Control] = []
        if lead:
            rows.append(ft.Text(lead, size=15))
        for r in reasons:
            rows.append(
                ft.Semantics(
                    identifier=f"flag-rule-{r.rule}",
                    container=True,
                    content=ft.Container(
                        content=ft.Column(
                            [
                                ft.Row(
                                    [
                                        pill(r.rule, bgcolor=DANGER, color=ft.Colors.WHITE, bold=True, size=14),
                                        ft.Text(r.message, size=15, weight=ft.FontWeight.W_600, expand=True),
                                    ],
                                    vertical_alignment=ft.CrossAxisAlignment.START,
                                    wrap=False,
                                ),
                                muted(tr.rule(r.rule), 13),
                                ft.TextButton(
                                    tr("ui.read_rule", rule=r.rule),
                                    icon=ft.Icons.MENU_BOOK,
                                    on_click=lambda e, rule=r.rule: self._open_rule(rule),
                                ),
                            ],
                            spacing=6,
                            tight=True,
                        ),
                        padding=10,
                        border_radius=ft.BorderRadius.all(8),
                        bgcolor=ft.Colors.with_opacity(0.10, DANGER),
                        border=start_border(ft.BorderSide(4, DANGER), tr.rtl),
                    ),
                )
            )
        actions: list[ft.Control] = []
        if on_force is not None and reasons and all(r.forceable for r in reasons):
            rows.extend(self._overrule(reasons, on_force, actions))
        actions.append(button(tr("ui.ok"), self.close_dialog, identifier="flag-ok"))
        dialog = ft.AlertDialog(
            modal=False,
            rtl=tr.rtl,
            # The dialog scrolls a long flag itself: a scrolling column inside it took every pixel
            # of the window's height, a short flag in a tall box with a blank middle.
            scrollable=True,
            icon=ft.Icon(ft.Icons.FRONT_HAND, color=DANGER, size=36),
            title=heading(title, 20, color=DANGER),
            content=ft.Semantics(
                identifier="flag",
                container=True,
                label=tr("ui.flag_label", title=title),
                content=ft.Column(rows, tight=True, spacing=10, width=520),
            ),
            actions=actions,
        )
        self.page.show_dialog(dialog)

    def _overrule(
        self, reasons: list[ReasonVM], on_force: Callable[[Ruling], Any], actions: list[ft.Control]
    ) -> list[ft.Control]:
        """The ruling's fields under the flag, and "Record anyway" (added to `actions`)."""
        tr = self.tr
        said = {"text": "", "keep": False}  # what the referee typed and ticked, as the client tells it
        why = ft.TextField(
            label=tr("ui.ruling_label"),
            hint_text=tr("ui.ruling_hint"),
            max_length=RULING_MAX,
            dense=True,
            rtl=tr.rtl,
            on_change=lambda e: said.update(text=e.control.value or ""),
        )
        rows: list[ft.Control] = [ft.Semantics(identifier="flag-ruling", container=True, content=why)]
        house = keepable(reasons)
        if house:
            keep = ft.Checkbox(
                label=tr("ui.ruling_keep", house_rule=house_rule_words(house, tr)),
                on_change=lambda e: said.update(keep=bool(e.control.value)),
            )
            rows.append(ft.Semantics(identifier="flag-ruling-keep", container=True, content=keep))

        def force(e: Any) -> None:
            self.close_dialog()
            on_force(Ruling(str(said["text"]), bool(house) and bool(said["keep"])))

        actions.append(button(tr("ui.record_anyway"), force, style="text", identifier="flag-force"))
        return rows

    def _open_rule(self, rule: str) -> None:
        self.close_dialog()
        back = self.route
        self.go("/rules", rule=rule, back=back)

    def confirm(self, title: str, text: str, yes: str, on_yes: Callable[[], Any], *, danger: bool = False) -> None:
        tr = self.tr

        def do(e: Any) -> None:
            self.close_dialog()
            on_yes()

        self.page.show_dialog(
            ft.AlertDialog(
                modal=True,
                rtl=tr.rtl,
                title=heading(title, 19),
                content=ft.Text(text, size=15),
                actions=[
                    button(tr("ui.cancel"), self.close_dialog, style="text", identifier="confirm-no"),
                    button(yes, do, identifier="confirm-yes", danger=danger),
                ],
            )
        )

    def run_later(self, coro_fn: Callable[..., Any], *args: Any) -> bool:
        """Run a coroutine function on this session's loop (animations, file dialogs); False when
        it could not be scheduled (the session is closing, or its browser is away meanwhile)."""
        try:
            loop = self.page.session.connection.loop
            if loop is None or loop.is_closed():  # checked first: a coroutine made here would never run
                return False
            self.page.run_task(coro_fn, *args)
        except Exception:
            return False
        return True

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
