"""A phone's screen: its player's hand, its actions on its turn, its reactions at any time.

`SeatPolicy` makes the table screen the one seen through one seat: the same map, players, composer and
decision panels, built from the seat's projection (`SeatSession.state`), so another seat's
cards are never among the controls sent to this phone. The turn menu shows only on the seat's
own turn; a decision shows its answers only to the seat that decides (the others read it, and
a teammate gets the Weapons they may play for it); the reactions (report the Warden, Corruption,
a Background) are the seat's own. Undo, redo and "record anyway" are the referee's, not here.

Every other screen's accepted action arrives on the game's topic: the phone reloads, and shows
what happened in the words its seat may read. A phone that slept reconnects to the same
session, which has kept following the game; it reloads once more on reconnecting.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import flet as ft

from companion.rules import Event, GameState
from storage import Device

from ...door.device_storage import storage_of
from ...services.news import SCREEN_CHANGED
from ...services.opening import Opening, Seating, read_seating
from ...services.sync import NotYourSeat, SeatLost, SeatSession
from ...vm.call import CallVM, SaidVM, seat_call, seat_said
from ...vm.pending import PendingVM, pending_view
from ...vm.reactions import ReactionsVM, reactions_view
from ...vm.seat import event_lines
from ...vm.table import names_of
from ...vm.text import Tr
from ..port import AppPort
from ..screens.live import LiveTable
from ..screens.table import TableScreen
from ..screens.viewer import Console
from ..widgets.common import card, heading, icon_button, muted, pill
from .device import TOKEN_PREF, DeviceScreen, seated
from .nudge import Nudge

log = logging.getLogger(__name__)


class DevicePolicy(Console):
    """The table through a device's eyes (a seat's, or nobody's): what the phone and the table
    view share. Nothing here records anyway or rewinds the log; a won game stays on screen (the
    banner names the winner); changes made elsewhere are told in words for this viewer."""

    may_force = False  # a refusal names its rules; recording it anyway is the referee's call
    may_rewind = False
    won_route = False
    follows_seating = False
    stale_text = "join.stale"

    def __init__(self, device: Device | None) -> None:
        super().__init__()
        self.device = device

    def open_session(self, app: AppPort, opening: Opening) -> SeatSession:
        return app.services.tables.seat_session(opening.game_id, app.page, self.device, opening.table)

    def shares(self, screen: LiveTable) -> bool:
        return False  # a device's session holds only what its viewer may know already

    def seen(self, screen: LiveTable) -> tuple[GameState, int | None]:
        return screen.session.state, self.viewer

    def lines_for(self, screen: LiveTable, events: Sequence[Event]) -> list[str]:
        """What just happened, told for this screen's viewer (a seat, or SPECTATOR)."""
        return event_lines(events, names_of(screen.session.state), screen.tr, screen.viewer)

    async def _devices_changed(self, topic: str, message: Any) -> None:
        freed = message.get("devices") or [] if isinstance(message, dict) and message.get("kind") == "freed" else []
        if self.device is not None and self.device.id in freed:
            self.lost()
            return
        await super()._devices_changed(topic, message)

    @property
    def has_extra(self) -> bool:
        return False  # a device's own panel (its hand, the host's join panel): see the subclasses

    def said(self, screen: LiveTable) -> SaidVM:
        return SaidVM()  # the banner's headline says whose turn it is: nobody's call here

    def devices_changed(self, screen: LiveTable, message: dict[str, Any]) -> None:
        """A device joined, left or was freed (the host's panel redraws); or the host's screens
        now show or hide the hands, which a phone's hand note says."""
        if message.get("kind") == SCREEN_CHANGED:
            screen.app.settings = screen.app.services.settings_file.load()
            screen.refresh()

    def lost(self) -> None:
        """The host freed this device's place: say so, and forget the token kept in this browser."""
        screen = self.screen
        if screen is None or screen.app.screen is not screen:
            return
        app = screen.app
        seated(app).pop(screen.game_id, None)
        screen.leave()
        app.screen = FreedScreen(app, {})
        app.render()
        app.run_later(forget_token, app, screen.game_id)


class SeatPolicy(DevicePolicy):
    """A phone's seat: its own menu on its turn, its own decisions and reactions, its hand."""

    has_extra = True  # the player's hand
    device: Device  # a seated device (its `seat` is a number)

    def __init__(self, device: Any) -> None:
        super().__init__(device)
        self.viewer: int = device.seat
        self._session_id = ""
        self.nudge = Nudge()
        self._called: tuple[GameState, str, CallVM | None] | None = None

    # --- called to play ------------------------------------------------------------------------

    def call(self, screen: LiveTable) -> CallVM | None:
        """What the game waits for from this seat now (its turn, its decision...), if anything:
        worked out once per state seen (the banner and the nudge both ask)."""
        state = screen.session.state
        if self._called is None or self._called[0] is not state or self._called[1] != screen.tr.lang:
            self._called = (state, screen.tr.lang, seat_call(state, self.viewer, screen.tr))
        return self._called[2]

    def said(self, screen: LiveTable) -> SaidVM:
        """ "Your turn", "Your decision: ..." as the banner's headline; a Weapon this player may
        play for a teammate or an offence they may report, under it."""
        return seat_said(self.call(screen))

    def heard(self, screen: LiveTable, news: bool) -> None:
        """The game changed: a new call brought by another screen's change buzzes this phone."""
        self.nudge.follow(screen.app, self.call(screen), news)

    # --- whose screen ------------------------------------------------------------------------

    def menu_seat(self, state: GameState) -> int | None:
        mine = state.active == self.viewer and state.pending is None and state.winner is None
        return self.viewer if mine else None

    def answers_for(self, seat: int) -> bool:
        return seat == self.viewer

    def pending_for(self, state: GameState, tr: Tr, physical: bool) -> PendingVM | None:
        pend = pending_view(state, tr, physical)
        if pend is None:
            return None
        if pend.seat == self.viewer:
            pend.helpers = []
            return pend
        return pend.watched([a for a in pend.helpers if a.seat == self.viewer])

    def reactions_for(self, state: GameState, tr: Tr) -> ReactionsVM:
        return reactions_view(state, tr, seats=(self.viewer,))

    def refused_before_store(self, error: Exception) -> bool:
        screen = self.screen
        if screen is None:
            return False
        if isinstance(error, NotYourSeat):
            screen.toast(screen.tr("join.not_yours"))
            screen.show()
            return True
        if isinstance(error, SeatLost):
            self.lost()
            return True
        return False

    # --- the frame -----------------------------------------------------------------------------

    def title_template(self, screen: LiveTable) -> tuple[str, dict[str, Any]]:
        s = screen.session.state
        return "join.seat_title", {"player": s.players[self.viewer].name, "round": s.round}

    def back_route(self, screen: LiveTable) -> str | None:
        return None

    def actions(self, screen: LiveTable) -> list[ft.Control]:
        return screen.memo.make(self._phone_actions, screen, screen.tr.lang)

    def _phone_actions(self, screen: LiveTable, lang: str) -> list[ft.Control]:
        """The app bar's buttons: the same on every redraw (`lang` keys them in the memo)."""
        back = f"/play/{screen.game_id}"
        app = screen.app
        return [
            icon_button(
                ft.Icons.MENU_BOOK, screen.tr("ui.rules"), lambda e: app.go("/rules", back=back), identifier="nav-rules"
            ),
            icon_button(
                ft.Icons.SETTINGS,
                screen.tr("ui.settings"),  # a phone's settings: its language, its turn sound
                lambda e: app.go("/settings", back=back),
                identifier="nav-settings",
            ),
        ]

    def extra(self, screen: LiveTable, shown: Any) -> tuple[Any, ft.Control | None]:
        """The player's own hand, as they entered it: only this phone ever gets it."""
        tr = screen.tr
        me = screen.session.state.players[self.viewer]
        alone = screen.app.settings.shared_screen  # no referee's screen shows every hand
        key = (tuple(sorted(me.hand.known.items())), me.hand.unknown, me.background, alone, tr.lang)
        if key == shown:
            return key, None
        chips = [
            pill(
                tr("ui.times", count=n, what=tr.name("card", c)) if n > 1 else tr.name("card", c),
                size=14,
                bgcolor=ft.Colors.TERTIARY_CONTAINER,
                color=ft.Colors.ON_TERTIARY_CONTAINER,
            )
            for c, n in sorted(me.hand.known.items())
        ]
        if me.hand.unknown:
            chips.append(pill(tr("ui.unknown_cards", count=me.hand.unknown), size=14))
        rows: list[ft.Control] = [
            ft.Row(
                [
                    ft.Icon(ft.Icons.STYLE, color=ft.Colors.PRIMARY),
                    heading(tr("join.your_hand", count=me.hand.size()), 16),
                ],
                spacing=8,
            ),
            ft.Row(chips, wrap=True, spacing=6, run_spacing=6) if chips else muted(tr("ui.hand_empty"), 14),
        ]
        if me.background is not None and me.has_background:
            rows.append(muted(tr("ui.background_known", background=tr.name("background", me.background)), 13))
        rows.append(muted(tr("join.hand_private" if alone else "join.hand_on_console"), 12))
        return key, card(ft.Column(rows, spacing=8, tight=True), identifier="my-hand")

    # --- coming and going --------------------------------------------------------------------------

    def opened(self, screen: LiveTable, seating: Seating) -> None:
        super().opened(screen, seating)
        app, device = screen.app, self.device
        page = app.page
        self._session_id = str(getattr(page.session, "id", id(screen)))
        app.services.join.arrive(device.id, self._session_id)
        page.on_connect = self._reconnected
        page.on_disconnect = self._disconnected
        app.services.tables.devices_changed(page, device.game_id, "online", [device.id])
        self.heard(screen, news=False)  # the call standing when the phone arrives is not news
        app.run_later(self.nudge.prepare, app)

    def _reconnected(self, e: Any = None) -> None:
        """Back from sleep: the session followed the game meanwhile; reload once more and say so.
        The browser answers no call to the services it had (its storage, its haptics): new ones."""
        screen = self.screen
        if screen is not None:
            if screen.app.prefs is not None:
                screen.app.prefs.connected()
            self.nudge.renew()
            screen.later(self._catch_up, screen)

    async def _catch_up(self, screen: LiveTable) -> None:
        app, device = screen.app, self.device
        try:
            seating = await app.services.tables.read(screen.game_id, read_seating, app.services, screen.game_id)
        except Exception:  # the store cannot say: the seat's next write asks it again (sync.py)
            seating = Seating((device,))
        if not seating.holds(device):  # the host freed this seat while the phone slept
            self.lost()
            return
        app.services.join.arrive(device.id, self._session_id)
        app.services.tables.devices_changed(app.page, screen.game_id, "online", [device.id])
        await screen.session.reread()  # off the loop (offloop.py)
        if screen.app.screen is screen:
            screen.control.reset()
            screen.control.tell([screen.tr("join.caught_up")])
            self.heard(screen, news=True)  # its turn came while it slept: buzz now
            screen.show()

    def _disconnected(self, e: Any = None) -> None:
        if self.screen is not None:
            app = self.screen.app
            if app.prefs is not None:
                app.prefs.disconnected()
            app.services.join.leave(self.device.id, self._session_id)
            app.services.tables.devices_changed(app.page, self.screen.game_id, "offline", [self.device.id])

    def left(self, screen: LiveTable) -> None:
        super().left(screen)
        app = screen.app
        app.services.join.leave(self.device.id, self._session_id)
        app.page.on_connect = None
        app.page.on_disconnect = lambda e: None
        app.services.tables.devices_changed(app.page, screen.game_id, "offline", [self.device.id])


def seat_screen(app: AppPort, device: Device, query: dict[str, str], opening: Opening) -> TableScreen:
    """A phone's seat: the table screen through that seat's eyes."""
    return TableScreen(app, opening, query, SeatPolicy(device))


class FreedScreen(DeviceScreen):
    def content(self) -> ft.Control:
        tr = self.tr
        return self.message(ft.Icons.EVENT_SEAT, tr("join.freed_title"), tr("join.freed_text"), "join-freed")


async def forget_token(app: AppPort, game_id: str) -> None:
    try:
        await storage_of(app).remove(TOKEN_PREF.format(game=game_id))
    except Exception:
        log.info("cannot clear this browser's storage")
