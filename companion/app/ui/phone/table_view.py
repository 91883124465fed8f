"""The table view: the shared screen in the middle of the table, and a spectator's phone.

It is the table screen through nobody's eyes (`SPECTATOR`): the map, every standee, each
player's public board (hand sizes, never cards), whose turn or decision it is, the Warden's
alert, the piles, and what just happened in public words. Nothing on it can act.

On the host's screen (`/game/<id>/table`) it also carries the join panel: the QR code of the
join link (this server's address, the game, its secret) with the same link as text, each
seat with the device that holds it (online or away) and a button to free it, the spectators,
and "New link", which rotates the secret: links and codes shown before stop working, while
the phones already seated stay (their own tokens bring them back, not the link).
"""

from __future__ import annotations

import logging
import struct
import zlib
from typing import Any

import flet as ft

from companion.rules import GameState
from storage import Device

from ...host.net import LAN_COMMAND, reachable_url
from ...services.opening import Opening
from ...vm.pending import PendingVM, pending_view
from ...vm.reactions import ReactionsVM, reactions_view
from ...vm.seat import SPECTATOR
from ...vm.table import seat_color
from ...vm.text import Tr
from ..port import AppPort
from ..screens.live import LiveTable
from ..screens.table import TableScreen
from ..widgets.common import button, card, heading, icon_button, muted, pill, standee
from .seat import DevicePolicy

log = logging.getLogger(__name__)


def qr_png(url: str, box: int = 8) -> bytes:
    """The join link as a QR code: a PNG, black on white, with the standard quiet zone (four
    modules), each module `box` pixels wide. qrcode computes the modules; the PNG is written
    here, so that the app needs neither Pillow nor pypng."""
    import qrcode

    code = qrcode.QRCode(border=4)
    code.add_data(url)
    code.make(fit=True)
    return bilevel_png(
        [[not dark for dark in row for _ in range(box)] for row in code.get_matrix() for _ in range(box)]
    )


def bilevel_png(rows: list[list[bool]]) -> bytes:
    """A PNG of one bit per pixel, grey (True: white, False: black); every row as long as the first."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    width = len(rows[0]) if rows else 0
    scanlines = bytearray()
    for row in rows:
        bits = "".join("1" if white else "0" for white in row).ljust(-(-width // 8) * 8, "0")
        scanlines.append(0)  # filter: none
        scanlines += int(bits, 2).to_bytes(len(bits) // 8, "big") if bits else b""
    header = struct.pack(">IIBBBBB", width, len(rows), 1, 0, 0, 0, 0)  # 1 bit, greyscale, no interlace
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(scanlines), 9))
        + chunk(b"IEND", b"")
    )


def base_url(app: AppPort) -> str:
    """This server's address as phones reach it: the LAN address when serving the network, else
    the address this browser used (the Flet websocket's)."""
    lan = app.services.lan_url
    if lan:
        return lan.rstrip("/")
    ws = str(getattr(app.page, "url", "") or "")
    if ws.startswith(("ws://", "wss://")):
        ws = "http" + ws[2:]
    return ws.rstrip("/") or "http://127.0.0.1:8550"


class TableViewPolicy(DevicePolicy):
    """Nobody's eyes (`SPECTATOR`): everything public, nothing to tap; on the host's screen
    (no device) it also carries the join panel."""

    viewer = SPECTATOR

    def __init__(self, device: Device | None = None) -> None:
        super().__init__(device)  # device: a spectator's; None on the host's screen
        self._qr: tuple[str, bytes] | None = None

    @property
    def has_extra(self) -> bool:  # the join panel is the host's
        return self.device is None

    @property
    def follows_seating(self) -> bool:  # type: ignore[override]
        return self.has_extra

    @property
    def shows_link(self) -> bool:  # type: ignore[override]
        return self.has_extra

    def menu_seat(self, state: GameState) -> int | None:
        return None

    def answers_for(self, seat: int) -> bool:
        return False

    def pending_for(self, state: GameState, tr: Tr, physical: bool) -> PendingVM | None:
        """Who decides what, and what is on the table (Weapons laid...): no answers, no cards."""
        pend = pending_view(state, tr, physical)
        return None if pend is None else pend.watched()

    def reactions_for(self, state: GameState, tr: Tr) -> ReactionsVM:
        return reactions_view(state, tr, seats=())  # the Warden's alert, with nobody's buttons

    def back_route(self, screen: LiveTable) -> str | None:
        return f"/game/{screen.game_id}" if self.has_extra else None

    def actions(self, screen: LiveTable) -> list[ft.Control]:
        tr, app, game = screen.tr, screen.app, screen.game_id
        hosting = self.has_extra
        rules = icon_button(
            ft.Icons.MENU_BOOK,
            tr("ui.rules"),
            lambda e: app.go("/rules", back=f"/game/{game}/table" if hosting else f"/play/{game}"),
            identifier="nav-rules",
        )
        if not hosting:
            return [rules]
        return [
            icon_button(
                ft.Icons.GAVEL, tr("join.console"), lambda e: app.go(f"/game/{game}"), identifier="nav-console"
            ),
            rules,
        ]

    # --- the join panel ------------------------------------------------------------------------------

    def extra(self, screen: LiveTable, shown: Any) -> tuple[Any, ft.Control | None]:
        tr, app, game = screen.tr, screen.app, screen.game_id
        join = app.services.join
        secret, devices = self.seating.secret, self.seating.devices  # read off the loop (opening.py)
        if secret is None:  # the link could not be read: no panel rather than a wrong code
            return None, None
        url = join.join_url(game, base_url(app), secret)
        s = screen.session.state
        key = (
            url,
            tuple((d.id, d.seat, d.label, join.online(d.id)) for d in devices),
            tr.lang,
            tuple(p.name for p in s.players),
        )
        if key == shown:
            return key, None
        link = ft.Semantics(
            identifier="join-url",
            container=True,
            label=url,  # a selectable text is mute
            content=ft.Text(url, size=12, selectable=True, color=ft.Colors.ON_SURFACE_VARIANT),
        )
        rows: list[ft.Control] = [
            ft.Row(
                [ft.Icon(ft.Icons.PHONE_ANDROID, color=ft.Colors.PRIMARY), heading(tr("join.panel_title"), 17)],
                spacing=8,
            ),
            *self._code(app, tr, url),
            link,
        ]
        holders = {d.seat: d for d in devices if d.seat is not None}
        for p in s.players:
            rows.append(self._seat_row(screen, p, holders.get(p.seat)))
        watchers = [d for d in devices if d.seat is None]
        if watchers:
            rows.append(muted(tr("join.spectators", count=len(watchers)), 12))
        rows.append(
            button(
                tr("join.new_link"),
                lambda e: self._ask_rotate(screen),
                icon=ft.Icons.AUTORENEW,
                style="outlined",
                identifier="join-new-link",
            )
        )
        return key, card(ft.Column(rows, spacing=10, tight=True), identifier="join-panel")

    def _code(self, app: AppPort, tr: Tr, url: str) -> list[ft.Control]:
        """The QR code of the join link with how to use it; or, when the link names this computer
        only (served on loopback, not with --lan), no code at all but how to start so that phones
        can open it."""
        if not app.services.lan_url and not reachable_url(url):
            title = heading(tr("join.local_title"), 15)
            return [
                card(
                    ft.Column(
                        [
                            ft.Row([ft.Icon(ft.Icons.WIFI_OFF, color=ft.Colors.ERROR), title], spacing=8),
                            ft.Text(tr("join.local_only"), size=14),
                            ft.Text(LAN_COMMAND, size=15, weight=ft.FontWeight.BOLD, font_family="monospace"),
                        ],
                        spacing=6,
                        tight=True,
                    ),
                    bgcolor=ft.Colors.ERROR_CONTAINER,
                    identifier="join-local-only",
                    label=f"{tr('join.local_title')} {tr('join.local_only')} {LAN_COMMAND}",
                )
            ]
        if self._qr is None or self._qr[0] != url:
            self._qr = (url, qr_png(url))
        qr = ft.Semantics(
            identifier="join-qr",
            label=tr("join.qr_label"),
            container=True,
            image=True,
            content=ft.Container(
                ft.Image(src=self._qr[1], width=232, height=232),
                bgcolor=ft.Colors.WHITE,
                padding=4,
                border_radius=ft.BorderRadius.all(8),
            ),
        )
        return [muted(tr("join.panel_hint"), 13), ft.Row([qr], alignment=ft.MainAxisAlignment.CENTER)]

    def _seat_row(self, screen: LiveTable, p: Any, device: Any) -> ft.Control:
        tr = screen.tr
        if device is None:
            state: ft.Control = muted(tr("join.no_device"), 12)
            free: ft.Control = ft.Container()
        else:
            online = screen.app.services.join.online(device.id)
            state = ft.Row(
                [
                    pill(
                        tr("join.online") if online else tr("join.away"),
                        size=11,
                        bgcolor=ft.Colors.GREEN_100 if online else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                        color=ft.Colors.BLACK if online else None,
                    ),
                    muted(device.label, 12),
                ],
                spacing=6,
                wrap=True,
            )
            free = button(
                tr("join.free_seat"),
                lambda e: self._ask_free(screen, p.seat, p.name),
                style="text",
                identifier=f"free-seat-{p.seat}",
            )
        return ft.Semantics(
            identifier=f"device-seat-{p.seat}",
            container=True,
            content=ft.Row(
                [
                    standee(p.name[:1].upper(), seat_color(screen.session.state, p.seat), p.name, size=30),
                    ft.Column(
                        [ft.Text(p.name, size=14, weight=ft.FontWeight.W_600), state],
                        spacing=2,
                        expand=True,
                        tight=True,
                    ),
                    free,
                ],
                spacing=8,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        )

    def _ask_free(self, screen: LiveTable, seat: int, name: str) -> None:
        tr = screen.tr
        screen.confirm(
            tr("join.free_title", player=name),
            tr("join.free_text", player=name),
            tr("join.free_seat"),
            lambda: self._free(screen, seat),
            danger=True,
        )

    def _free(self, screen: LiveTable, seat: int) -> None:
        screen.later(self._freed, screen, seat)

    async def _freed(self, screen: LiveTable, seat: int) -> None:
        await screen.app.services.tables.free_seat(screen.app.page, screen.game_id, seat)  # heard here too: redrawn

    def _ask_rotate(self, screen: LiveTable) -> None:
        tr = screen.tr
        screen.confirm(
            tr("join.rotate_title"), tr("join.rotate_text"), tr("join.new_link"), lambda: self._rotate(screen)
        )

    def _rotate(self, screen: LiveTable) -> None:
        screen.later(self._rotated, screen)

    async def _rotated(self, screen: LiveTable) -> None:
        await screen.app.services.tables.rotate_link(screen.app.page, screen.game_id)  # heard here: the new link
        screen.toast(screen.tr("join.rotated"))

    def devices_changed(self, screen: LiveTable, message: dict[str, Any]) -> None:
        if self.has_extra:
            screen.refresh()  # who is here, who is away, the link


def table_view_screen(
    app: AppPort, opening: Opening, query: dict[str, str], device: Device | None = None
) -> TableScreen:
    """The table view: the table screen through nobody's eyes (the host's, or a spectator's phone)."""
    return TableScreen(app, opening, query, TableViewPolicy(device))
