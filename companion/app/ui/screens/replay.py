"""Replay: a game's log entry by entry, the board as it stood after each, its events in words.

Opened from a finished game on Home, the win screen or the log (`/game/<id>/replay?step=N`).
It is read-only: the map and the players' boards are the table's own widgets with nothing to
tap. By default it shows what the whole table saw (the public view: hand sizes, public words),
as a replay is watched together; the referee may show every hand as it was entered
(`hands=1`). Only the host's browsers reach it, like every game screen.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from ...services.opening import Opening
from ...vm.replay import REPLAYS, ReplayStepVM, clamp_step, replay_step
from ..port import AppPort
from ..widgets.board import BoardMap
from ..widgets.common import Memo, card, choice_chips, heading, icon_button, muted, pill
from ..widgets.players import PlayersPanel, piles_row
from .base import GameScreen

VIEWS = ("public", "hands")


class ReplayScreen(GameScreen):
    title_key = "ui.replay_title"

    def __init__(self, app: AppPort, opening: Opening, query: dict[str, str]) -> None:
        super().__init__(app, opening, query)
        self.hands = query.get("hands") == "1"
        self.vm: ReplayStepVM | None = None
        self.step = 0
        if self.problem:
            return
        # Stepping opens this screen again: the log read for the first step is kept (REPLAYS).
        self.replay = REPLAYS.cached(app.store, self.game_id, self.session.version)
        if self.replay is None:
            self.later(self._read)
        else:
            self.step = clamp_step(query.get("step"), self.replay.total)

    async def _read(self) -> None:
        """The whole log, read off the loop (a long game's log takes a while)."""
        try:
            self.replay = await self.app.services.tables.read(
                self.game_id, REPLAYS.get, self.app.store, self.game_id, self.session.version
            )
            self.step = clamp_step(self.query.get("step"), self.replay.total)
        except Exception as error:  # the log cannot be read: say why
            self.problem = getattr(error, "message", str(error))
        if self.app.screen is self:
            self.app.render()

    def back_route(self) -> str | None:
        return self.query.get("back") or "/"

    def title(self) -> str:
        if self.problem:
            return super().title()
        return self.tr("ui.replay_title_named", game=self.tr.join(p.name for p in self.session.state.players))

    def go_step(self, step: int, hands: bool | None = None) -> None:
        hands = self.hands if hands is None else hands
        self.app.go(
            f"/game/{self.game_id}/replay", step=step, hands="1" if hands else None, back=self.query.get("back")
        )

    def key(self, e: ft.KeyboardEvent) -> None:
        """Arrows step through the log; Home and End go to either end."""
        if self.vm is None:
            return
        moves = {"arrow left": self.step - 1, "arrow right": self.step + 1, "home": 0, "end": self.vm.total}
        target = moves.get((e.key or "").lower())
        if target is not None and self.tr.rtl and (e.key or "").lower() in ("arrow left", "arrow right"):
            target = 2 * self.step - target  # the arrows follow the reading direction
        if target is not None and 0 <= target <= self.vm.total and target != self.step:
            self.go_step(target)

    def content(self) -> ft.Control:
        tr = self.tr
        if self.problem:
            return muted(self.problem)
        if self.replay is None:
            return muted(tr("ui.log_reading"))
        vm = self.vm = replay_step(self.replay, self.step, tr, hands=self.hands)
        narrow = self.app.narrow
        head: list[ft.Control] = []
        if vm.problem:
            head.append(muted(vm.problem, 14))
        else:
            title: list[ft.Control] = [ft.Text(vm.title, size=16, weight=ft.FontWeight.W_600, expand=True)]
            if vm.undone:
                title.append(pill(tr("ui.undone_badge"), size=11))
            head.append(ft.Row(title, spacing=6))
            lines = vm.lines or ([tr("ui.replay_quiet")] if vm.kind == "action" else [])
            head += [ft.Text(f"• {line}", size=14) for line in lines]
        events = ft.Semantics(
            identifier="replay-entry",
            container=True,
            live_region=True,
            content=card(ft.Column(head, spacing=4, tight=True), padding=12, bgcolor=ft.Colors.PRIMARY_CONTAINER),
        )
        rows: list[ft.Control] = [self._controls(vm), events]
        rows.append(
            card(
                ft.Column(
                    [
                        muted(tr("ui.replay_view_hint"), 13),
                        choice_chips(
                            [(v, tr(f"ui.replay_view_{v}")) for v in VIEWS],
                            "hands" if self.hands else "public",
                            lambda v: self.go_step(self.step, v == "hands"),
                            prefix="replay-view",
                        ),
                    ],
                    spacing=6,
                    tight=True,
                ),
                padding=10,
            )
        )
        if vm.table is not None:
            board = BoardMap(tr, 2 if narrow else 3)
            board.set(vm.table)  # no tap: a replay changes nothing
            players = PlayersPanel(tr, {"xs": 12} if narrow else {"xs": 6})
            players.set(vm.table)
            rows += [
                heading(vm.table.headline, 16),
                board.control,
                heading(tr("ui.players_title"), 16),
                players.row,
                piles_row(vm.table, tr, Memo()),
            ]
        return ft.Column(rows, spacing=10)

    def _controls(self, vm: ReplayStepVM) -> ft.Control:
        """First, previous, next, last: named icon buttons (48 px targets), off at either end."""
        tr = self.tr
        # The row mirrors in Persian and these icons with it, as the back arrow does.
        first, back, forward, last = (
            ft.Icons.FIRST_PAGE,
            ft.Icons.CHEVRON_LEFT,
            ft.Icons.CHEVRON_RIGHT,
            ft.Icons.LAST_PAGE,
        )

        def to(step: int) -> Any:
            return lambda e: self.go_step(step)

        buttons = [
            icon_button(
                first,
                tr("ui.replay_first"),
                None if vm.first else to(0),
                identifier="replay-first",
                enabled=not vm.first,
            ),
            icon_button(
                back,
                tr("ui.replay_previous"),
                None if vm.first else to(vm.step - 1),
                identifier="replay-previous",
                enabled=not vm.first,
            ),
            ft.Semantics(
                identifier="replay-step",
                container=True,
                label=vm.heading,
                exclude_semantics=True,
                content=ft.Text(vm.heading, size=16, weight=ft.FontWeight.BOLD),
            ),
            icon_button(
                forward,
                tr("ui.replay_next"),
                None if vm.last else to(vm.step + 1),
                identifier="replay-next",
                enabled=not vm.last,
            ),
            icon_button(
                last,
                tr("ui.replay_last"),
                None if vm.last else to(vm.total),
                identifier="replay-last",
                enabled=not vm.last,
            ),
        ]
        return ft.Row(
            buttons, spacing=4, alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER
        )
