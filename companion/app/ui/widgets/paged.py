"""A long list shown a page at a time (a year of finished games, a long game's log): every row
is a control to build, send and lay out in the browser, so the first page comes at once and a
button under it adds the next page, sent as the new rows only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import flet as ft

from .common import button

Item = TypeVar("Item")


class Paged(Generic[Item]):
    shown: int  # the rows listed

    def __init__(
        self,
        items: Sequence[Item],
        row: Callable[[Item], ft.Control],
        more: Callable[[int, int], str],
        *,
        page: int,
        identifier: str,
        previous: Paged[Item] | None = None,
        spacing: int = 8,
    ) -> None:
        """`more(count, left)` words the button; `previous`: this list as the screen drew it
        before (a turned phone keeps the pages it opened)."""
        self.items, self.row, self.more, self.page, self.identifier = items, row, more, page, identifier
        self.shown = max(previous.shown if previous is not None else 0, page)
        self.rows = ft.Column(
            [row(item) for item in items[: self.shown]],
            spacing=spacing,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        )
        self.slot = ft.Container(self._button())
        self.control = ft.Column(
            [self.rows, self.slot], spacing=spacing, horizontal_alignment=ft.CrossAxisAlignment.STRETCH
        )

    def _button(self) -> ft.Control | None:
        left = len(self.items) - self.shown
        if left <= 0:
            return None
        return button(
            self.more(min(left, self.page), left),
            self.show_more,
            style="outlined",
            icon=ft.Icons.EXPAND_MORE,
            identifier=self.identifier,
        )

    def show_more(self, e: Any = None) -> None:
        before, self.shown = self.shown, self.shown + self.page
        self.rows.controls += [self.row(item) for item in self.items[before : self.shown]]
        self.slot.content = self._button()
        self.rows.update()
        self.slot.update()
