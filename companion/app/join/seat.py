"""A phone's screen: its player's hand, its actions on its turn, its reactions at any time.

`SeatScreen` is the table screen seen through one seat: the same map, players, composer and
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

import dataclasses
import logging
from typing import Any

import flet as ft

from ..screens.table import TableScreen
from ..vm.pending import pending_view
from ..vm.reactions import reactions_view
from ..vm.seat import event_lines
from ..vm.table import names_of
from ..widgets.common import card, heading, icon_button, muted, pill
from .screens import TOKEN_PREF, DeviceScreen, announce, seated
from .sync import NotYourSeat, SeatLost, SeatSession, devices_topic

log = logging.getLogger(__name__)


class DeviceTable(TableScreen):
    """The table through a device's eyes (a seat's, or nobody's): what the phone and the table
    view share. Read-only parts of the referee's screen are overridden, a panel of its own
    (`_extra`, filled by `fill_extra`) sits under what answers a tap, and changes made
    elsewhere arrive with their events, told in words for this screen's viewer."""

    may_force = False  # a refusal names its rules; recording it anyway is the referee's call

    def __init__(self, app: Any, game_id: str, query: dict[str, str], device: Any) -> None:
        self.device = device
        self._extra = ft.Container()
        self._extra_key: Any = None
        super().__init__(app, game_id, query)
        self.redirect = None  # a won game stays on screen: the banner names the winner
        self.devices_topic = devices_topic(game_id)
        try:
            app.page.pubsub.subscribe_topic(self.devices_topic, self._devices_changed)
        except Exception:
            log.debug("no pubsub for this page", exc_info=True)

    def open_session(self, app: Any, game_id: str) -> SeatSession:
        return SeatSession(app.store, game_id, self.device, app.services.join)

    has_extra = False  # a panel of its own under what answers a tap

    def fill_extra(self) -> Any:
        """Fill `_extra` when what it shows changed; returns what it shows (a key)."""
        return None

    def devices_changed(self, message: dict[str, Any]) -> None:
        """A device joined, left or was freed (the host's panel redraws)."""

    # --- the frame -----------------------------------------------------------------------------

    def _frame(self, narrow: bool) -> ft.Control:
        before = getattr(self, "_root", None)
        root = super()._frame(narrow)
        if root is not before and self.has_extra:
            self._side_parts.insert(1, self._extra)  # just under what answers a tap
        return root

    def body(self) -> ft.Control:
        out = super().body()
        if not self.missing and self.has_extra:
            self._extra_key = self.fill_extra()
        return out

    def refresh(self) -> None:
        before = self._extra_key
        super().refresh()
        if self._extra_key != before and self.app.screen is self:
            try:
                self._extra.update()
            except RuntimeError:  # the layout changed meanwhile: the new frame shows it
                pass

    def key(self, e: ft.KeyboardEvent) -> None:
        if (e.key or "").lower() == "escape" and (self.composer is not None or self.die_for is not None):
            self.cancel_action()

    def undo(self) -> None:
        return

    def redo(self) -> None:
        return

    def game_won(self) -> None:
        self._show()

    # --- the rest of the table -------------------------------------------------------------------

    def news_lines(self, events: list[dict[str, Any]]) -> list[str]:
        return self.lines_for(events) or [self.tr("join.updated")]

    async def _devices_changed(self, topic: str, message: Any) -> None:
        if self.app.screen is not self or not isinstance(message, dict):
            return
        device = self.device
        if device is not None and message.get("kind") == "freed" \
                and device.id in (message.get("devices") or []):
            self.lost()
            return
        self.devices_changed(message)

    def leave(self) -> None:
        super().leave()
        try:
            self.app.page.pubsub.unsubscribe_topic(self.devices_topic)
        except Exception:
            pass

    def lost(self) -> None:
        """The host freed this device's place: say so, and forget the token kept in this browser."""
        if self.app.screen is not self:
            return
        seated(self.app).pop(self.game_id, None)
        self.leave()
        self.app.screen = FreedScreen(self.app, {})
        self.app.render()
        self.app.run_later(forget_token, self.app, self.game_id)


class SeatScreen(DeviceTable):
    has_extra = True  # the player's hand

    def __init__(self, app: Any, device: Any, query: dict[str, str]) -> None:
        self.viewer = device.seat
        super().__init__(app, device.game_id, query, device)
        page = app.page
        self._session_id = str(getattr(page.session, "id", id(self)))
        app.services.join.arrive(device.id, self._session_id)
        page.on_connect = self._reconnected
        page.on_disconnect = self._disconnected
        announce(app, device.game_id, "online", [device.id])

    # --- whose screen ------------------------------------------------------------------------

    def menu_seat(self, s: Any) -> int | None:
        mine = s.active == self.viewer and s.pending is None and s.winner is None
        return self.viewer if mine else None

    def pending_for(self, s: Any, physical: bool) -> Any:
        pend = pending_view(s, self.tr, physical)
        if pend is None:
            return None
        if pend.seat == self.viewer:
            pend.helpers = []
            return pend
        mine = [a for a in pend.helpers if a.seat == self.viewer]  # a teammate's Weapons (TEAM-5)
        return dataclasses.replace(pend, answers=[], helpers=mine, pick=None, show_hand=None)

    def reactions_for(self, s: Any) -> Any:
        return reactions_view(s, self.tr, seats=(self.viewer,))

    def lines_for(self, events: list[dict[str, Any]]) -> list[str]:
        return event_lines(events, names_of(self.session.state), self.tr, self.viewer)

    # --- the frame -----------------------------------------------------------------------------

    def title(self) -> str:
        if self.missing:
            return super().title()
        s = self.session.state
        return self.tr("join.seat_title", player=s.players[self.viewer].name, turn=s.turn)

    def back_route(self) -> str | None:
        return None

    def actions(self) -> list[ft.Control]:
        return self.memo.make(self._phone_actions, self.tr.lang)

    def _phone_actions(self, lang: str) -> list[ft.Control]:
        """The app bar's buttons: the same on every redraw (`lang` keys them in the memo)."""
        back = f"/play/{self.game_id}"
        return [icon_button(ft.Icons.MENU_BOOK, self.tr("ui.rules"), lambda e: self.app.go("/rules", back=back),
                            identifier="nav-rules"),
                icon_button(ft.Icons.TRANSLATE, self.tr("ui.setting_language"),  # a phone's settings: its language
                            lambda e: self.app.go("/settings", back=back), identifier="nav-settings")]

    def fill_extra(self) -> Any:
        """The player's own hand, as they entered it: only this phone ever gets it."""
        tr = self.tr
        me = self.session.state.players[self.viewer]
        key = (tuple(sorted(me.hand.known.items())), me.hand.unknown, me.background, tr.lang)
        if key == self._extra_key:
            return key
        chips = [pill(tr("ui.times", count=n, what=tr.name("card", c)) if n > 1 else tr.name("card", c), size=14,
                      bgcolor=ft.Colors.TERTIARY_CONTAINER, color=ft.Colors.ON_TERTIARY_CONTAINER)
                 for c, n in sorted(me.hand.known.items())]
        if me.hand.unknown:
            chips.append(pill(tr("ui.unknown_cards", count=me.hand.unknown), size=14))
        rows: list[ft.Control] = [
            ft.Row([ft.Icon(ft.Icons.STYLE, color=ft.Colors.PRIMARY),
                    heading(tr("join.your_hand", count=me.hand.size()), 16)], spacing=8),
            ft.Row(chips, wrap=True, spacing=6, run_spacing=6) if chips else muted(tr("ui.hand_empty"), 14),
        ]
        if me.background is not None and me.has_background:
            rows.append(muted(tr("ui.background_known", background=tr.name("background", me.background)), 13))
        rows.append(muted(tr("join.hand_private"), 12))
        self._extra.content = card(ft.Column(rows, spacing=8, tight=True), identifier="my-hand")
        return key

    # --- taps ----------------------------------------------------------------------------------

    def start_action(self, kind: str, force: bool = False, quick: bool = False) -> None:
        if self.menu_seat(self.session.state) is None:  # a tap on a menu the table has moved past
            self.refresh()
            return
        super().start_action(kind, force=False, quick=quick)

    def choose_place(self, place: str) -> None:
        pend = self.session.state.pending
        if pend is not None and pend.player == self.viewer:
            super().choose_place(place)

    def write_refused(self, error: Exception) -> bool:
        if isinstance(error, NotYourSeat):
            self.app.toast(self.tr("join.not_yours"))
            self._show()
            return True
        if isinstance(error, SeatLost):
            self.lost()
            return True
        return False

    def _after(self, outcome: Any) -> None:
        if outcome.stale:  # another device was first: nothing was recorded, here is the table now
            self._reset()
            self.app.toast(self.tr("join.stale"))
            self._show()
            return
        super()._after(outcome)

    # --- coming and going --------------------------------------------------------------------------

    def _reconnected(self, e: Any = None) -> None:
        """Back from sleep: the session followed the game meanwhile; reload once more and say so."""
        join = self.app.services.join
        if not join.still_bound(self.device):
            self.lost()
            return
        join.arrive(self.device.id, self._session_id)
        announce(self.app, self.game_id, "online", [self.device.id])
        if self.app.screen is self:
            self.later(self._catch_up)

    async def _catch_up(self) -> None:
        await self.session.reread()
        if self.app.screen is self:
            self._reset()
            self.result = [self.tr("join.caught_up")]
            self.result_die = None
            self._show()

    def _disconnected(self, e: Any = None) -> None:
        self.app.services.join.leave(self.device.id, self._session_id)
        announce(self.app, self.game_id, "offline", [self.device.id])

    def leave(self) -> None:
        super().leave()
        self.app.services.join.leave(self.device.id, self._session_id)
        self.app.page.on_connect = None
        self.app.page.on_disconnect = lambda e: None
        announce(self.app, self.game_id, "offline", [self.device.id])


class FreedScreen(DeviceScreen):
    def content(self) -> ft.Control:
        tr = self.tr
        return self.message(ft.Icons.EVENT_SEAT, tr("join.freed_title"), tr("join.freed_text"), "join-freed")


async def forget_token(app: Any, game_id: str) -> None:
    try:
        await app.prefs.remove(TOKEN_PREF.format(game=game_id))
    except Exception:
        log.info("cannot clear this browser's storage")
