"""Home: start a game, resume one, history and statistics, import/export, rules, settings."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

import flet as ft

from companion.gamefile import MAX_BYTES as MAX_GAME_FILE_BYTES
from companion.rules import decode_json, tutorial_config

from ...services.opening import Listing
from ...vm.history import GameRowVM, games_view
from ..port import AppPort
from ..widgets.common import button, card, game_card, heading, icon_button, muted, tap
from .base import Screen

log = logging.getLogger(__name__)
HOME_FINISHED = 5  # the latest finished games on Home; History lists them all


class HomeScreen(Screen):
    def __init__(self, app: AppPort, query: dict[str, str], listing: Listing) -> None:
        super().__init__(app, query)
        self.listing = listing  # the games, read off the loop (opening.py)
        if listing.problem is not None:  # the database may be unreachable: say so, keep the rest usable
            app.toast(self.tr("ui.store_problem", problem=listing.problem))

    def back_route(self) -> str | None:
        return None

    def actions(self) -> list[ft.Control]:
        tr = self.tr
        return [
            icon_button(ft.Icons.MENU_BOOK, tr("ui.rules"), lambda e: self.app.go("/rules"), identifier="nav-rules"),
            icon_button(
                ft.Icons.SETTINGS, tr("ui.settings"), lambda e: self.app.go("/settings"), identifier="nav-settings"
            ),
        ]

    def content(self) -> ft.Control:
        tr = self.tr
        active, finished = games_view(self.listing.active, tr), games_view(self.listing.finished, tr)
        latest = finished[:HOME_FINISHED]
        rows: list[ft.Control] = [self._hero(), ft.Container(height=8), heading(tr("ui.resume_title"), 18)]
        if not active:
            rows.append(muted(tr("ui.resume_none")))
        rows += [self._active_game(g) for g in active]
        if finished:
            rows += [ft.Container(height=8), heading(tr("ui.finished_title"), 18)]
        rows += [self._finished_game(g) for g in latest]
        if len(finished) > len(latest):
            rows.append(
                button(
                    tr("ui.all_finished", count=len(finished)),
                    lambda e: self.app.go("/history"),
                    icon=ft.Icons.INSIGHTS,
                    style="text",
                    identifier="home-all-finished",
                )
            )
        rows += [
            ft.Container(height=8),
            heading(tr("ui.more_title"), 18),
            ft.ResponsiveRow(
                [
                    self._tile(ft.Icons.INSIGHTS, tr("ui.history"), tr("ui.history_hint"), "/history", "home-history"),
                    self._tile(ft.Icons.MENU_BOOK, tr("ui.rules"), tr("ui.rules_hint"), "/rules", "home-rules"),
                    self._tile(
                        ft.Icons.SETTINGS, tr("ui.settings"), tr("ui.settings_hint"), "/settings", "home-settings"
                    ),
                ],
                spacing=10,
                run_spacing=10,
            ),
        ]
        return ft.Column(rows, spacing=10)

    def _hero(self) -> ft.Control:
        """The app's name, and the ways to a game: a new one, a file to import, or the tutorial round."""
        tr = self.tr
        return card(
            ft.Column(
                [
                    ft.Row(
                        [
                            ft.Icon(ft.Icons.HARDWARE, size=40, color=ft.Colors.PRIMARY),
                            ft.Column(
                                [heading(tr("ui.app_name"), 24), muted(tr("ui.app_tagline"), 14)],
                                spacing=2,
                                expand=True,
                            ),
                        ],
                        vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                    ft.Row(
                        [
                            button(
                                tr("ui.new_game"),
                                lambda e: self.app.go("/setup"),
                                icon=ft.Icons.ADD,
                                identifier="home-new-game",
                            ),
                            button(
                                tr("ui.import_game"),
                                self._import,
                                icon=ft.Icons.UPLOAD_FILE,
                                style="outlined",
                                identifier="home-import",
                            ),
                            button(
                                tr("tutorial.home"),
                                lambda e: self.later(self._tutorial),
                                icon=ft.Icons.SCHOOL,
                                style="outlined",
                                identifier="home-tutorial",
                                tooltip=tr("tutorial.home_hint"),
                            ),
                        ],
                        wrap=True,
                        spacing=10,
                        run_spacing=10,
                    ),
                ],
                spacing=14,
            ),
            padding=18,
            bgcolor=ft.Colors.PRIMARY_CONTAINER,
        )

    def _active_game(self, g: GameRowVM) -> ft.Control:
        """A game in progress: delete it, export it, or resume it."""
        tr = self.tr
        return game_card(
            g.title,
            g.summary,
            [
                delete_button(self.app, g, f"delete-{g.game_id}"),
                icon_button(
                    ft.Icons.DOWNLOAD,
                    tr("ui.export_game_named", game=g.title),
                    lambda e, gid=g.game_id, t=g.title: self.app.run_later(export_game, self.app, gid, t),
                    identifier=f"export-{g.game_id}",
                ),
                button(
                    tr("ui.resume"),
                    lambda e, gid=g.game_id: self.app.go(f"/game/{gid}"),
                    icon=ft.Icons.PLAY_ARROW,
                    identifier=f"resume-{g.game_id}",
                    tooltip=tr("ui.resume_named", game=g.title),
                ),
            ],
        )

    def _finished_game(self, g: GameRowVM) -> ft.Control:
        """A finished game: its replay, or its final standings."""
        tr = self.tr
        return game_card(
            g.title,
            g.summary,
            [
                button(
                    tr("ui.replay"),
                    lambda e, gid=g.game_id: self.app.go(f"/game/{gid}/replay", step=0, back="/"),
                    icon=ft.Icons.SLOW_MOTION_VIDEO,
                    style="text",
                    identifier=f"replay-{g.game_id}",
                    tooltip=tr("ui.replay_named", game=g.title),
                ),
                button(
                    tr("ui.see_standings"),
                    lambda e, gid=g.game_id: self.app.go(f"/game/{gid}/win"),
                    icon=ft.Icons.EMOJI_EVENTS,
                    style="outlined",
                    identifier=f"finished-{g.game_id}",
                    tooltip=tr("ui.see_standings_named", game=g.title),
                ),
            ],
        )

    def _tile(self, icon: Any, title: str, hint: str, route: str, ident: str) -> ft.Control:
        inner = ft.Row(
            [
                ft.Icon(icon, size=28, color=ft.Colors.PRIMARY),
                ft.Column([ft.Text(title, size=16, weight=ft.FontWeight.W_600), muted(hint)], spacing=2, expand=True),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        t = tap(
            inner,
            lambda e: self.app.go(route),
            f"{title}. {hint}",
            identifier=ident,
            padding=14,
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        )
        t.col = {"xs": 12, "sm": 6, "md": 4}
        return t

    async def _tutorial(self) -> None:
        """A new game of the tutorial round: its table screen guides it step by step."""
        try:
            game_id = await self.app.services.tables.create_game(tutorial_config())
        except Exception as error:  # a storage problem: say it, stay on Home
            self.app.toast(self.tr("ui.store_problem", problem=getattr(error, "message", str(error))))
            return
        self.app.go(f"/game/{game_id}")

    async def _import(self, e: Any = None) -> None:
        tr = self.tr
        files = await self.app.file_picker().pick_files(
            dialog_title=tr("ui.import_game"), allowed_extensions=["json"], with_data=True
        )
        if not files:
            return
        await self.import_bytes(files[0].bytes or b"")

    async def import_bytes(self, raw: bytes) -> None:
        tr = self.tr
        if len(raw) > MAX_GAME_FILE_BYTES:  # refused before decoding (companion/gamefile.py)
            problem = tr("ui.import_too_large", megabytes=MAX_GAME_FILE_BYTES // (1024 * 1024))
            self.app.toast(tr("ui.import_failed", problem=problem))
            return
        try:
            data = decode_json(raw)
            game_id = await self.app.services.tables.import_game(data)
        except Exception as error:  # a bad file is the user's to fix: say what is wrong
            message = getattr(error, "message", None) or str(error)
            self.app.toast(tr("ui.import_failed", problem=message))
            return
        self.app.toast(tr("ui.imported"))
        self.app.go(f"/game/{game_id}")


async def export_game(app: AppPort, game_id: str, title: str) -> None:
    """Save a game file (PROTOCOL.md format) through the browser's download or the OS dialog."""
    tr = app.tr
    try:
        data = await app.services.tables.export_game(game_id)
    except Exception as error:
        app.toast(tr("ui.export_failed", problem=getattr(error, "message", str(error))))
        return
    raw = json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")
    stamp = datetime.now().strftime("%Y%m%d-%H%M")
    safe = "-".join("".join(ch for ch in title if ch.isalnum() or ch in " -").split())[:40] or "game"
    name = f"dyo-{safe}-{stamp}.json"
    try:
        await app.file_picker().save_file(
            dialog_title=tr("ui.export_game"), file_name=name, src_bytes=raw, allowed_extensions=["json"]
        )
    except Exception as error:  # no dialog available (desktop without zenity): say where it went wrong
        app.toast(tr("ui.export_failed", problem=str(error)))


def delete_button(app: AppPort, g: GameRowVM, identifier: str) -> ft.Control:
    """Delete a game, asked first: nothing of it is kept (a game set up wrong, a test game)."""
    tr = app.tr
    return icon_button(
        ft.Icons.DELETE_OUTLINE,
        tr("ui.delete_game_named", game=g.title),
        lambda e: app.confirm(
            tr("ui.delete_title"),
            tr("ui.delete_text", game=g.title, detail=g.summary),
            tr("ui.delete_yes"),
            lambda: app.run_later(delete_game, app, g.game_id, g.title),
            danger=True,
        ),
        identifier=identifier,
    )


async def delete_game(app: AppPort, game_id: str, title: str) -> None:
    """Delete the game, tell every screen of it (the phones at its seats, other instances), and
    show the lists again without it."""
    tr = app.tr
    try:
        await app.services.tables.delete_game(game_id, app.page)  # its screens are told
    except Exception as error:
        app.toast(tr("ui.delete_failed", problem=getattr(error, "message", str(error))))
        return
    app.toast(tr("ui.deleted", game=title))
    app.show(app.route)
