"""History and statistics: finished games, per-player totals, and two charts (flet-charts):
Tunnel points per game and Beatings taken per game, one line per player.

Charts do not follow the page's direction by themselves: in a right-to-left language the games
run from right to left (the first game at the right edge) and the value axis sits on the right,
like the progress bars; every axis label is written in the language's digits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ...services.opening import Listing
from ...vm.history import STAT_COLUMNS, GameRowVM, HistoryVM, PlayerRowVM, SeriesVM, games_view, history_view
from ..port import AppPort
from ..widgets.common import card, edge, game_card, heading, icon_button, muted, pill, width_class
from ..widgets.paged import Paged
from .archive import archive_row
from .base import Screen
from .bgstats import bgstats_button
from .home import delete_button, export_game

GAMES_PAGE = 20  # finished games listed at a time
# A point's tooltip names its player: written in the inverse ink rather than the line's colour,
# which the tooltip's background would swallow for some players.
TOOLTIP_TEXT = ft.TextStyle(color=ft.Colors.ON_INVERSE_SURFACE, size=12)
DOT = 4.0  # a point's radius, in logical pixels
RING = 4.0  # how much wider the dot of a line under another line's point is, per line on top


class HistoryScreen(Screen):
    title_key = "ui.history_title"

    def __init__(self, app: AppPort, query: dict[str, str], listing: Listing) -> None:
        super().__init__(app, query)
        self.listing = listing  # the finished games and their statistics, read off the loop (opening.py)
        self.games: Paged[GameRowVM] | None = None  # the finished games, a page at a time

    def content(self) -> ft.Control:
        tr = self.tr
        if self.listing.problem is not None:
            return muted(tr("ui.store_problem", problem=self.listing.problem))
        stats = self.listing.statistics
        assert stats is not None  # the history's listing is read with them (routes.py)
        vm = history_view(stats)
        rows: list[ft.Control] = []
        if not stats.games:
            rows.append(
                card(
                    ft.Column(
                        [heading(tr("ui.history_empty_title"), 17), muted(tr("ui.history_empty"))],
                        spacing=6,
                        tight=True,
                    )
                )
            )
        else:
            if vm.first > 1:
                rows.append(muted(tr("ui.chart_latest", shown=vm.last - vm.first + 1, total=vm.last)))
            rows.append(
                self._chart(
                    tr("ui.chart_tunnel"), tr("ui.chart_tunnel_label"), vm.tunnel, vm.max_tunnel, vm, "chart-tunnel"
                )
            )
            rows.append(
                self._chart(
                    tr("ui.chart_beatings"),
                    tr("ui.chart_beatings_label"),
                    vm.beatings,
                    max(2, vm.max_beatings),
                    vm,
                    "chart-beatings",
                )
            )
            rows.append(self._players(vm))
        rows.append(heading(tr("ui.finished_games"), 18))
        rows.append(archive_row(self.app))
        finished = games_view(self.listing.finished, tr)
        if not finished:
            rows.append(muted(tr("ui.history_no_games")))
        self.games = Paged(
            finished,
            self._game_card,
            lambda count, left: tr("ui.show_more_games", count=count, left=left),
            page=GAMES_PAGE,
            identifier="history-more",
            previous=self.games,
            spacing=10,
        )
        rows.append(self.games.control)
        return ft.Column(rows, spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

    def _game_card(self, g: GameRowVM) -> ft.Control:
        tr = self.tr
        return game_card(
            g.title,
            g.summary,
            [
                icon_button(
                    ft.Icons.SLOW_MOTION_VIDEO,
                    tr("ui.replay_named", game=g.title),
                    lambda e, gid=g.game_id: self.app.go(f"/game/{gid}/replay", step=0, back="/history"),
                    identifier=f"history-replay-{g.game_id}",
                ),
                icon_button(
                    ft.Icons.RECEIPT_LONG,
                    tr("ui.log_of", game=g.title),
                    lambda e, gid=g.game_id: self.app.go(f"/game/{gid}/log", back="/history"),
                    identifier=f"history-log-{g.game_id}",
                ),
                icon_button(
                    ft.Icons.EMOJI_EVENTS,
                    tr("ui.standings_of", game=g.title),
                    lambda e, gid=g.game_id: self.app.go(f"/game/{gid}/win"),
                    identifier=f"history-win-{g.game_id}",
                ),
                icon_button(
                    ft.Icons.DOWNLOAD,
                    tr("ui.export_game_named", game=g.title),
                    lambda e, gid=g.game_id, t=g.title: self.app.run_later(export_game, self.app, gid, t),
                    identifier=f"history-export-{g.game_id}",
                ),
                bgstats_button(self.app, g.game_id, f"history-bgstats-{g.game_id}", g.title),
                delete_button(self.app, g, f"history-delete-{g.game_id}"),
            ],
            identifier=f"history-game-{g.game_id}",
        )

    def _chart(self, title: str, axis: str, series: list[SeriesVM], top: int, vm: HistoryVM, ident: str) -> ft.Control:
        tr = self.tr
        rtl = tr.rtl
        first, last = vm.first, vm.last

        def at(game: int) -> int:  # where a game sits on the x axis (mirrored right-to-left)
            return first + last - game if rtl else game

        data, legend = self._lines(series, at)
        chart = self._line_chart(data, axis, top, vm, at)
        summary = tr(
            "ui.chart_summary",
            title=title,
            lines=tr.join(
                tr("ui.chart_series", player=s.name, values=tr.join(tr.num(y) for _, y in s.points)) for s in series
            ),
        )
        return card(
            ft.Column(
                [
                    heading(title, 17),
                    ft.Row(legend, wrap=True, spacing=6),
                    ft.Semantics(label=summary, container=True, content=chart, identifier=ident),
                ],
                spacing=8,
                tight=True,
            )
        )

    def _lines(self, series: list[SeriesVM], at: Callable[[int], int]) -> tuple[list[Any], list[ft.Control]]:
        """One line per player, each point with its tooltip, and the legend's entry for each."""
        import flet_charts as fch

        tr = self.tr
        data = []
        legend = []
        for s in series:
            color = edge(s.color)
            data.append(
                fch.LineChartData(
                    points=[
                        fch.LineChartDataPoint(
                            at(x),
                            y,
                            point=fch.ChartCirclePoint(
                                color=color, radius=DOT + RING * under, stroke_width=1, stroke_color=ft.Colors.SURFACE
                            ),
                            tooltip=fch.LineChartDataPointTooltip(
                                text=tr("ui.chart_point", player=s.name, game=x, value=y), text_style=TOOLTIP_TEXT
                            ),
                        )
                        for (x, y), under in zip(s.points, s.under, strict=True)
                    ],
                    color=color,
                    stroke_width=3,
                    point=True,
                    curved=False,
                )
            )
            # The dot in the line's colour, the name in ink: a yellow name is unreadable.
            legend.append(pill(s.name, icon=ft.Icons.CIRCLE, icon_color=color))
        return data, legend

    def _line_chart(self, data: list[Any], axis: str, top: int, vm: HistoryVM, at: Callable[[int], int]) -> Any:
        """The lines on their axes: the games along the bottom, the values on the reading side."""
        import flet_charts as fch

        tr = self.tr
        rtl = tr.rtl
        first, last = vm.first, vm.last
        # The game numbers sit a little below the axis, clear of the dots of a player at 0.
        labels = [
            fch.ChartAxisLabel(
                value=at(i), label=ft.Container(ft.Text(tr.num(i), size=11), padding=ft.Padding.only(top=8))
            )
            for i in range(first, last + 1)
        ]
        step = 1 if top <= 12 else 2
        values = fch.ChartAxis(
            labels=[
                fch.ChartAxisLabel(value=v, label=ft.Text(tr.num(v), size=11)) for v in range(0, max(1, top) + 2, step)
            ],
            label_spacing=step,  # else the chart samples its own interval and shows few of these labels
            label_size=32,
            title=ft.Text(axis, size=11),
            title_size=18,
        )
        none = fch.ChartAxis(show_labels=False, label_size=0, title_size=0)
        return fch.LineChart(
            tooltip=fch.LineChartTooltip(bgcolor=ft.Colors.INVERSE_SURFACE),
            data_series=data,
            min_x=first - 0.5 if last > first else first - 1,
            max_x=last + 0.5 if last > first else last + 1,  # one game: in the middle
            min_y=0,
            max_y=max(1, top) + 1,
            left_axis=none if rtl else values,
            right_axis=values if rtl else None,
            bottom_axis=fch.ChartAxis(
                labels=labels, label_size=32, title=ft.Text(tr("ui.chart_games"), size=11), title_size=18
            ),
            horizontal_grid_lines=fch.ChartGridLines(interval=step, color=ft.Colors.OUTLINE_VARIANT, width=1),
            height=220,
            expand=True,
        )

    def resized(self, old: float, new: float) -> bool:
        return (width_class(old) == 0) != (width_class(new) == 0)  # the players' statistics change layout

    def _players(self, vm: HistoryVM) -> ft.Control:
        """A table of the players' statistics; on a narrow screen, one block per player instead,
        as the table's seven columns would run off a phone's edge."""
        tr = self.tr
        body: ft.Control
        if self.app.narrow:
            body = ft.Column([self._player_block(p) for p in vm.players], spacing=12, tight=True)
        else:
            table = ft.DataTable(
                columns=[
                    ft.DataColumn(
                        label=ft.Text(tr(key), size=12, weight=ft.FontWeight.BOLD), numeric=key != "ui.col_player"
                    )
                    for key in ("ui.col_player", *(key for key, _ in STAT_COLUMNS))
                ],
                rows=[
                    ft.DataRow(
                        cells=[
                            ft.DataCell(ft.Text(p.name, size=13)),
                            *(ft.DataCell(ft.Text(tr.num(value), size=13)) for _, value in p.stats),
                        ]
                    )
                    for p in vm.players
                ],
                column_spacing=18,
                heading_row_height=40,
                data_row_min_height=36,
            )
            body = ft.Row([table], scroll=ft.ScrollMode.AUTO)  # long headings of a language may still overflow
        return card(
            ft.Column([heading(tr("ui.player_stats"), 17), body], spacing=8, tight=True),
            identifier="player-stats",
        )

    def _player_block(self, p: PlayerRowVM) -> ft.Control:
        tr = self.tr
        return ft.Column(
            [
                heading(p.name, 15),
                ft.Row(
                    [
                        ft.Row(
                            [muted(tr(key), 12), ft.Text(tr.num(value), size=13, weight=ft.FontWeight.BOLD)],
                            spacing=4,
                            tight=True,
                        )
                        for key, value in p.stats
                    ],
                    wrap=True,
                    spacing=14,
                    run_spacing=4,
                ),
            ],
            spacing=2,
            tight=True,
        )
