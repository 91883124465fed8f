"""What every screen shares: an app bar with a back/home button and a centred, scrollable body."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Any

import flet as ft

from ...services.opening import Opening
from ..port import AppPort
from ..widgets.common import icon_button


class Screen:
    title_key = "ui.app_title"

    def __init__(self, app: AppPort, query: dict[str, str] | None = None) -> None:
        self.app = app
        self.tr = app.tr
        self.query = query or {}
        self.writing: Future[Any] | None = None  # the last step awaiting the store (see `later`)

    def later(self, coro_fn: Callable[..., Awaitable[Any]], *args: Any) -> bool:
        """Run a tap's step that awaits the store (session.py, offloop.py) as a task of this
        session's loop, so the loop serves every other screen meanwhile; `writing` keeps its
        future, for a tool or a test that waits for the tap to be done. False: not scheduled."""
        try:
            self.writing = self.app.page.run_task(coro_fn, *args)
        except Exception:  # the session is closing: the tap is dropped, as the screen is
            self.writing = None
            return False
        return True

    def title(self) -> str:
        return self.tr(self.title_key)

    def title_template(self) -> tuple[str, dict[str, Any]] | None:
        """A title naming a player, as (key, params with "player"): a narrow bar shortens the
        name and keeps the rest (the turn number) whole."""
        return None

    def title_control(self) -> ft.Control:
        template = self.title_template()
        if template is not None and self.tr(template[0], **template[1]) != self.title():
            template = None  # a screen titled otherwise than the template it inherits
        if template is None:
            return ft.Text(self.title(), size=19, weight=ft.FontWeight.W_600)
        key, params = template
        mark = "\u0000"
        before, _, after = self.tr(key, **dict(params, player=mark)).partition(mark)
        parts = [
            ft.Text(before, no_wrap=True),
            ft.Text(
                params["player"],
                no_wrap=True,
                max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS,
                expand=True,
                expand_loose=True,  # shrinks for a long name, and only then: the rest follows the name
            ),
            ft.Text(after, no_wrap=True),
        ]
        for part in parts:
            part.size, part.weight = 19, ft.FontWeight.W_600
        return ft.Semantics(
            label=self.title(),
            container=True,
            exclude_semantics=True,
            content=ft.Row([p for p in parts if p.value.strip()], spacing=0),
        )

    def back_route(self) -> str | None:
        return self.query.get("back") or "/"

    def actions(self) -> list[ft.Control]:
        return []

    def bar_actions(self) -> list[ft.Control]:
        """The buttons the app bar holds (a narrow screen may keep some in its body instead)."""
        return self.actions()

    def appbar(self) -> ft.AppBar:
        back = self.back_route()
        leading = None
        if back is not None:
            leading = icon_button(
                ft.Icons.ARROW_BACK, self.tr("ui.back"), lambda e: self.app.go(back), identifier="nav-back"
            )
        return ft.AppBar(
            leading=leading,
            title=self.title_control(),
            actions=self.bar_actions() + [ft.Container(width=6)],
            bgcolor=ft.Colors.SURFACE_CONTAINER,
            automatically_imply_leading=False,
        )

    def content(self) -> ft.Control:
        raise NotImplementedError

    def body(self) -> ft.Control:
        """The same scrolling column every time, with new content: a tap keeps the scroll position."""
        width = min(960, max(300, (self.app.width or 960) - 16))
        if getattr(self, "_scroll", None) is None:
            self._scroll = ft.Column(scroll=ft.ScrollMode.AUTO, expand=True)
            self._root = ft.Container(
                content=self._scroll, expand=True, padding=ft.Padding.symmetric(horizontal=8, vertical=12)
            )
        self._scroll.controls = [
            ft.Row([ft.Container(self.content(), width=width)], alignment=ft.MainAxisAlignment.CENTER)
        ]
        return self._root


class GameScreen(Screen):
    """A screen about one stored game (log, corrections, final standings), built from the game
    as read off the loop (opening.py), or showing the store's words for why it cannot (`problem`)."""

    def __init__(self, app: AppPort, opening: Opening, query: dict[str, str]) -> None:
        super().__init__(app, query)
        self.game_id = opening.game_id
        self.problem: str | None = opening.problem
        if self.problem is None:
            self.session = app.services.tables.session(self.game_id, app.page, opening.table)

    def back_route(self) -> str | None:
        return self.query.get("back") or f"/game/{self.game_id}"
