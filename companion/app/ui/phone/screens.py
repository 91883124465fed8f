"""The pages a phone meets before its seat: the neutral page, the seat picker, the gate.

- `/join/<game>?key=<secret>` (the QR code): a wrong, old or missing secret gets the neutral
  page and counts against the address; the right one shows the seats (and "just watch"), or
  takes the seat tapped on the page's own screen while this client loaded (early_join.py). A
  browser that already holds a seat at this game (its device token, in its storage) goes
  straight back to it.
- `/play/<game>`: the phone's own page; its device token says which seat (or that it
  watches). Without a valid token: the neutral page.
Neither page names a game or a player before the secret or the token has been checked.
"""

from __future__ import annotations

import logging
from typing import Any

import flet as ft

from storage import Device, LinkRefused, SeatTaken

from ...door.device_storage import storage_of
from ...door.peer import peer_of
from ...door.tokens import GAME_ID, valid
from ...services.opening import Opening
from ...vm.table import standee_color
from ..port import AppPort
from ..screens.base import Screen
from ..widgets.common import button, heading, muted, standee, tap
from .device import TOKEN_PREF, DeviceScreen, client, seated
from .early_join import PICK_PREF, WATCH
from .seat import seat_screen
from .table_view import table_view_screen

log = logging.getLogger(__name__)


def device_screen(app: AppPort, head: str, rest: list[str], query: dict[str, str], opening: Opening | None) -> Screen:
    """`opening`: the game read off the loop, when this tab already holds a place at it."""
    game_id = rest[0] if rest else ""
    if head == "join":
        return JoinScreen(app, game_id, query)
    known = seated(app).get(game_id)
    if known is not None and opening is not None and opening.problem is None and opening.seating.holds(known):
        return enter(app, known, query, opening)
    return PlayScreen(app, game_id, query)


def enter(app: AppPort, device: Device, query: dict[str, str], opening: Opening) -> Screen:
    seated(app)[device.game_id] = device
    if device.seat is None:
        return table_view_screen(app, opening, query, device=device)
    return seat_screen(app, device, query, opening)


class NeutralScreen(DeviceScreen):
    """What any browser without the secret sees: the app's name and how to join. Nothing else."""

    def content(self) -> ft.Control:
        tr = self.tr
        return self.message(ft.Icons.QR_CODE_SCANNER, tr("join.welcome_title"), tr("join.welcome_text"), "join-neutral")


class JoinScreen(DeviceScreen):
    def __init__(self, app: AppPort, game_id: str, query: dict[str, str]) -> None:
        super().__init__(app, query)
        self.game_id = game_id
        self.key = query.get("key")
        self.seats: list[Any] = []
        self.wait = 0.0
        if self.key is None:
            self.step = "refused"  # no secret at all: nothing to count, nothing to show
            return
        self.step = "connecting"
        app.run_later(self._look_for_seat)

    def title(self) -> str:
        return self.tr("join.title") if self.step == "pick" else self.tr("ui.app_title")

    async def _look_for_seat(self) -> None:
        """The secret opens the seats; a browser already seated here goes back to its seat."""
        app, join = self.app, self.app.services.join
        gate = await self._store(join.check_link, self.game_id, self.key, client(app))
        if not gate.ok:
            self.step, self.wait = ("locked" if gate.wait > 0 else "refused"), gate.wait
            if app.screen is self:
                app.render()
            return
        app.link_ok = True
        token = None
        try:
            token = await storage_of(app).get(TOKEN_PREF.format(game=self.game_id))
        except Exception:  # no storage on this browser: it picks a seat as if new
            log.info("cannot read this browser's storage")
        device = None if token is None else await self._store(join.resume, self.game_id, token, client(app))
        if app.screen is not self:
            return
        if device is not None and device.seat is not None:
            seated(app)[self.game_id] = device
            app.go(f"/play/{self.game_id}")
            return
        self.seats = await self._store(join.seats, self.game_id)
        self.step = "pick"
        picked, seat = await self._picked_on_page()
        if app.screen is not self:
            return
        if picked:  # "connecting" stays on screen until the seat opens (or says why it cannot)
            await self._take(seat)
        else:
            app.render()

    async def _picked_on_page(self) -> tuple[bool, int | None]:
        """The seat tapped on the page's own join screen while this client loaded
        (early_join.py): (True, seat), (True, None) to watch, (False, None) when none. Read once,
        then forgotten; a seat the game does not have is no pick (one taken since is refused as
        a tap here would be)."""
        key = PICK_PREF.format(game=self.game_id)
        try:
            found = await storage_of(self.app).get(key)
            if found is not None:
                await storage_of(self.app).remove(key)
        except Exception:  # no storage on this browser: the player taps here
            return False, None
        if found == WATCH:
            return True, None
        seats = {str(choice.seat): choice.seat for choice in self.seats}
        return (True, seats[found]) if isinstance(found, str) and found in seats else (False, None)

    def content(self) -> ft.Control:
        tr = self.tr
        if self.step == "refused":
            return self.message(ft.Icons.LINK_OFF, tr("join.refused_title"), tr("join.refused_text"), "join-refused")
        if self.step == "locked":
            return self.message(
                ft.Icons.HOURGLASS_TOP,
                tr("join.locked_title"),
                tr("join.locked_text", seconds=max(1, round(self.wait))),
                "join-locked",
            )
        if self.step == "connecting":
            return self.message(ft.Icons.SYNC, tr("join.connecting"), tr("join.connecting_text"), "join-connecting")
        rows: list[ft.Control] = [heading(tr("join.pick_title"), 20), muted(tr("join.pick_hint"), 14)]
        for choice in self.seats:
            color = standee_color(choice.color, choice.seat)
            label = (
                tr("join.seat_taken", player=choice.name) if choice.taken else tr("join.seat_free", player=choice.name)
            )
            inner = ft.Row(
                [
                    standee(choice.name[:1].upper(), color, choice.name, size=40),
                    ft.Column(
                        [
                            ft.Text(choice.name, size=18, weight=ft.FontWeight.W_600),
                            muted(tr("join.taken") if choice.taken else tr("join.free"), 13),
                        ],
                        spacing=2,
                        expand=True,
                    ),
                ],
                spacing=12,
            )
            rows.append(
                tap(
                    inner,
                    None if choice.taken else (lambda e, seat=choice.seat: self.pick(seat)),
                    label,
                    identifier=f"join-seat-{choice.seat}",
                    padding=12,
                    enabled=not choice.taken,
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST if choice.taken else ft.Colors.SECONDARY_CONTAINER,
                )
            )
        rows.append(ft.Container(height=6))
        rows.append(
            button(
                tr("join.watch"),
                lambda e: self.pick(None),
                icon=ft.Icons.VISIBILITY,
                style="outlined",
                identifier="join-watch",
            )
        )
        rows.append(muted(tr("join.watch_hint"), 13))
        return ft.Column(rows, spacing=10)

    def pick(self, seat: int | None) -> None:
        self.app.run_later(self._take, seat)

    async def _take(self, seat: int | None) -> None:
        """Take the seat (None: watch), keep the token in this browser (so reopening returns
        here), then go to the seat."""
        app, join = self.app, self.app.services.join
        try:
            device, token = await app.services.tables.join_seat(
                app.page, self.game_id, str(self.key), client(app), seat, peer_of(app.page).user_agent
            )
        except SeatTaken:
            app.toast(self.tr("join.seat_just_taken"))
            self.seats = await self._store(join.seats, self.game_id)
            app.render()
            return
        except LinkRefused:
            self.step = "refused"
            app.render()
            return
        seated(app)[self.game_id] = device
        try:
            await storage_of(self.app).set(TOKEN_PREF.format(game=self.game_id), token)
        except Exception:  # private browsing: the seat holds for this tab only
            log.info("cannot keep the device token in this browser")
        self.app.go(f"/play/{self.game_id}")


class PlayScreen(DeviceScreen):
    """The gate of `/play/<game>`: which seat this browser holds, from the token it kept."""

    def __init__(self, app: AppPort, game_id: str, query: dict[str, str]) -> None:
        super().__init__(app, query)
        self.game_id = game_id
        self.step = "connecting"
        if not valid(GAME_ID, game_id):
            self.step = "none"
            return
        app.run_later(self._look_up)

    async def _look_up(self) -> None:
        app = self.app
        token = None
        try:
            token = await storage_of(app).get(TOKEN_PREF.format(game=self.game_id))
        except Exception:
            log.info("cannot read this browser's storage")
        join = app.services.join
        device = None if token is None else await self._store(join.resume, self.game_id, token, client(app))
        if app.screen is not self:
            return
        if device is None:
            self.step = "none"
            app.render()
            return
        seated(app)[self.game_id] = device
        app.show(app.route)  # now this tab holds a place: its seat opens (its game read off the loop)

    def content(self) -> ft.Control:
        tr = self.tr
        if self.step == "connecting":
            return self.message(ft.Icons.SYNC, tr("join.connecting"), tr("join.connecting_text"), "join-connecting")
        return self.message(ft.Icons.QR_CODE_SCANNER, tr("join.no_seat_title"), tr("join.no_seat_text"), "join-no-seat")
