"""What every page of a phone shares: the device it entered as, by game, the address that wrong
secrets count against, and the page without a way back into the host's screens."""

from __future__ import annotations

import logging
from typing import Any

import flet as ft

from storage import Device

from ...door.peer import peer_of
from ..port import AppPort
from ..screens.base import Screen
from ..widgets.common import card, heading

log = logging.getLogger(__name__)
TOKEN_PREF = "dyo.device.{game}"


def seated(app: AppPort) -> dict[str, Device]:
    """The devices this session has entered as, by game (a session is one browser tab)."""
    found = getattr(app, "join_devices", None)
    if found is None:
        found = app.join_devices = {}
    return found


def client(app: AppPort) -> str:
    """The address wrong secrets count against: the connection's own (peer.py)."""
    return peer_of(app.page).address


class DeviceScreen(Screen):
    """A page of a device that is not (yet) at a table: no way back into the host's screens."""

    game_id = ""

    async def _store(self, fn: Any, *args: Any) -> Any:
        """A join call, which reads the store: off the loop, in this game's lane (offloop.py)."""
        return await self.app.services.tables.read(self.game_id, fn, *args)

    def back_route(self) -> str | None:
        return None

    def title(self) -> str:
        return self.tr("ui.app_title")

    def message(self, icon: Any, title: str, text: str, ident: str) -> ft.Control:
        return card(
            ft.Column(
                [
                    ft.Row(
                        [ft.Icon(icon, size=36, color=ft.Colors.PRIMARY), heading(title, 20)], spacing=12, wrap=True
                    ),
                    ft.Semantics(identifier=ident, container=True, content=ft.Text(text, size=16)),
                ],
                spacing=12,
            ),
            padding=20,
        )
