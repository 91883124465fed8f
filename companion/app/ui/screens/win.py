"""The end: who escaped, the final standings; the game is now in the history."""

from __future__ import annotations

from typing import Any

import flet as ft

from ...services.opening import Opening
from ...vm.undo import undo_view
from ...vm.win import StandingVM, WinVM, win_view
from ..port import AppPort
from ..widgets.common import button, card, heading, muted, pill, standee
from .base import GameScreen
from .bgstats import bgstats_button
from .home import export_game


class WinScreen(GameScreen):
    title_key = "ui.win_title"

    def __init__(self, app: AppPort, opening: Opening, query: dict[str, str]) -> None:
        super().__init__(app, opening, query)
        self.redirect: str | None = None
        self.entries: list[Any] | None = None  # the log, read off the loop: it says what an undo takes back
        if not self.problem and self.session.state.winner is None:
            self.redirect = f"/game/{self.game_id}"
        elif not self.problem:
            self.later(self._read)

    async def _read(self) -> None:
        try:
            self.entries = await self.session.read_events()
        except Exception:  # the standings stand without it; only the undo button waits for the log
            return
        if self.app.screen is self:
            self.app.render()

    def back_route(self) -> str | None:
        return "/"

    def content(self) -> ft.Control:
        tr = self.tr
        if self.problem:
            return muted(self.problem)
        vm = win_view(self.session.state, tr)
        if vm is None:
            return muted(tr("ui.not_finished"))
        rows: list[ft.Control] = [self._headline(vm), heading(tr("ui.standings"), 18)]
        for team, tunnel in vm.teams:
            rows.append(
                card(
                    ft.Row(
                        [
                            ft.Text(team, size=16, weight=ft.FontWeight.BOLD, expand=True),
                            ft.Text(tr("ui.tunnel_short", tunnel=tunnel, target=vm.target), size=16),
                        ]
                    )
                )
            )
        rows += [self._standing(st, vm.target) for st in vm.standings]
        undo = undo_view(self.entries, self.session.state, tr, self.session.can_redo) if self.entries else None
        if undo is not None and undo.can_undo:  # the winning action was entered by mistake: take it back, play on
            rows.append(
                button(
                    tr("ui.win_undo", what=undo.last),
                    self._undo,
                    icon=ft.Icons.UNDO,
                    style="tonal",
                    identifier="win-undo",
                )
            )
        rows.append(self._links(vm.winner))
        return ft.Column(rows, spacing=10)

    def _headline(self, vm: WinVM) -> ft.Control:
        """Who escaped, announced as the screen opens."""
        return ft.Semantics(
            identifier="win-headline",
            container=True,
            live_region=True,
            content=card(
                ft.Column(
                    [
                        ft.Icon(ft.Icons.EMOJI_EVENTS, size=64, color=ft.Colors.AMBER),
                        heading(vm.headline, 24),
                        muted(self.tr("ui.win_moved_to_history"), 14),
                    ],
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    spacing=8,
                    tight=True,
                ),
                padding=20,
                bgcolor=ft.Colors.PRIMARY_CONTAINER,
            ),
        )

    def _standing(self, st: StandingVM, target: int) -> ft.Control:
        """One player's place in the final standings: rank, standee, badges and totals."""
        tr = self.tr
        badges = (
            [pill(tr("ui.winner"), icon=ft.Icons.EMOJI_EVENTS, bgcolor=ft.Colors.AMBER, color=ft.Colors.BLACK)]
            if st.winner
            else []
        )
        if st.team:
            badges.append(pill(st.team))
        return card(
            ft.Row(
                [
                    ft.Text(f"{tr.num(st.rank)}.", size=20, weight=ft.FontWeight.BOLD, width=36),
                    standee(st.name[:1].upper(), st.color, st.name, size=34),
                    ft.Column(
                        [
                            ft.Row([ft.Text(st.name, size=16, weight=ft.FontWeight.BOLD), *badges], wrap=True),
                            muted(
                                tr(
                                    "ui.standing_line",
                                    tunnel=st.tunnel,
                                    target=target,
                                    beatings=st.beatings,
                                    cigarettes=st.cigarettes,
                                    place=st.place,
                                ),
                                13,
                            ),
                        ],
                        spacing=2,
                        expand=True,
                    ),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            identifier=f"standing-{st.rank}-{st.name}",
            label=tr("ui.standing_label", rank=st.rank, player=st.name, tunnel=st.tunnel),
        )

    def _links(self, winner: str) -> ft.Control:
        """Where to go from here: Home, History, the log, the replay, the file of the game, BG Stats."""
        tr = self.tr
        return ft.Row(
            [
                button(tr("ui.home"), lambda e: self.app.go("/"), icon=ft.Icons.HOME, identifier="win-home"),
                button(
                    tr("ui.history"),
                    lambda e: self.app.go("/history"),
                    icon=ft.Icons.INSIGHTS,
                    style="outlined",
                    identifier="win-history",
                ),
                button(
                    tr("ui.log"),
                    lambda e: self.app.go(f"/game/{self.game_id}/log", back=f"/game/{self.game_id}/win"),
                    icon=ft.Icons.RECEIPT_LONG,
                    style="outlined",
                    identifier="win-log",
                ),
                button(
                    tr("ui.replay"),
                    lambda e: self.app.go(f"/game/{self.game_id}/replay", step=0, back=f"/game/{self.game_id}/win"),
                    icon=ft.Icons.SLOW_MOTION_VIDEO,
                    style="outlined",
                    identifier="win-replay",
                ),
                button(
                    tr("ui.export_game"),
                    lambda e: self.app.run_later(export_game, self.app, self.game_id, winner),
                    icon=ft.Icons.DOWNLOAD,
                    style="outlined",
                    identifier="win-export",
                ),
                bgstats_button(self.app, self.game_id, "win-bgstats"),
            ],
            wrap=True,
            spacing=10,
            run_spacing=10,
        )

    def _undo(self, e: Any = None) -> None:
        self.later(self._undone)

    async def _undone(self) -> None:
        outcome = await self.session.rewind("undo")
        if outcome.stale or outcome.error:
            self.app.toast(self.tr("ui.stale") if outcome.stale else outcome.error or "")
            self.app.render()
            return
        self.app.go(f"/game/{self.game_id}")
