"""The log: every recorded action and its events in plain language, newest first; on a screen
the table shares, in the public words (no card a hand took or gave is named)."""

from __future__ import annotations

from typing import Any

import flet as ft

from ...services.opening import Opening
from ...vm.log import LogLineVM, log_view
from ...vm.seat import SPECTATOR
from ...vm.table import names_of
from ..port import AppPort
from ..widgets.common import card, icon_button, muted, pill
from ..widgets.paged import Paged
from .base import GameScreen

LOG_PAGE = 50  # entries listed at a time: a long game's log is a thousand cards


class LogScreen(GameScreen):
    title_key = "ui.log_title"

    def __init__(self, app: AppPort, opening: Opening, query: dict[str, str]) -> None:
        super().__init__(app, opening, query)
        self.entries: list[Any] | None = None  # read off the loop, then drawn (a long log takes a while)
        self.lines: Paged[LogLineVM] | None = None  # newest first, a page at a time
        self.viewer = SPECTATOR if not self.problem and app.settings.shared_screen else None
        if not self.problem:
            self.later(self._read)

    async def _read(self) -> None:
        try:
            self.entries = await self.session.read_events()
        except Exception as error:
            self.problem = getattr(error, "message", str(error))
        if self.app.screen is self:
            self.app.render()

    def actions(self) -> list[ft.Control]:
        """A finished game's log offers its replay, entry by entry."""
        if self.problem or self.session.state.winner is None:
            return []
        back = self.app.route or f"/game/{self.game_id}/log"
        return [
            icon_button(
                ft.Icons.SLOW_MOTION_VIDEO,
                self.tr("ui.replay"),
                lambda e: self.app.go(f"/game/{self.game_id}/replay", step=0, back=back),
                identifier="nav-replay",
            )
        ]

    def content(self) -> ft.Control:
        tr = self.tr
        if self.problem:
            return muted(self.problem)
        if self.entries is None:
            return muted(tr("ui.log_reading"))
        lines = log_view(self.entries, names_of(self.session.state), tr, viewer=self.viewer)
        if not lines:
            return muted(tr("ui.log_empty"))
        self.lines = Paged(
            lines,
            self._entry,
            lambda count, left: tr("ui.show_earlier_entries", count=count, left=left),
            page=LOG_PAGE,
            identifier="log-more",
            previous=self.lines,
        )
        return ft.Column([muted(tr("ui.log_hint", count=len(lines)), 13), self.lines.control], spacing=8)

    def _entry(self, line: LogLineVM) -> ft.Control:
        tr = self.tr
        head: list[ft.Control] = [
            ft.Text(
                line.title,
                size=15,
                weight=ft.FontWeight.W_600,
                expand=True,
                color=ft.Colors.ON_SURFACE_VARIANT if line.undone else None,
                style=ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH) if line.undone else None,
            ),
            muted(tr.digits(f"#{line.seq} {line.when}"), 12),
        ]
        if line.undone:
            head.insert(1, pill(tr("ui.undone_badge"), size=11))
        body = [
            ft.Text(f"• {t}", size=13, color=ft.Colors.ON_SURFACE_VARIANT if line.undone else None) for t in line.lines
        ]
        return card(
            ft.Column([ft.Row(head, spacing=6), *body], spacing=3, tight=True),
            padding=10,
            identifier=f"log-{line.seq}",
        )
