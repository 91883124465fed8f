"""What just happened: the strip with the latest action's news and die, rewritten in place."""

from __future__ import annotations

from typing import Any

import flet as ft

from ....vm.text import Tr
from ..common import card, icon_button


class ResultStrip:
    """What just happened (and the die rolled), with a button to dismiss it.

    It stays on the page and is rewritten in place: the news of an action is new values for the
    same texts, a small patch that every screen of the table draws in one quick frame.
    """

    def __init__(self, tr: Tr, on_close: Any) -> None:
        self.texts: list[ft.Text] = []
        self.column = ft.Column(spacing=3, expand=True, tight=True)
        self.die = ft.Container(visible=False)
        title = ft.Row(
            [
                ft.Text(tr("ui.what_happened"), size=13, weight=ft.FontWeight.BOLD, expand=True),
                icon_button(ft.Icons.CLOSE, tr("ui.dismiss"), on_close, identifier="result-close", size=18),
            ],
            spacing=4,
        )
        body = ft.Row([self.die, self.column], spacing=12, vertical_alignment=ft.CrossAxisAlignment.START)
        self.control = card(
            ft.Column([title, body], spacing=4, tight=True),
            identifier="result",
            padding=10,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        )
        self.lines: list[str] | None = None

    def set(self, lines: list[str], die: ft.Control | None) -> bool:
        """Show these lines and die; False when they are already shown.

        A die no longer shown stays in its slot, hidden: shown again (the head's die turns in
        place), it is not sent anew with its whole face."""
        if lines == self.lines and die is (self.die.content if self.die.visible else None):
            return False
        self.lines = list(lines)
        while len(self.texts) < len(lines):
            self.texts.append(ft.Text(size=13))
        for text, line in zip(self.texts, lines, strict=False):
            text.value = line
        shown: list[ft.Control] = list(self.texts[: len(lines)])
        self.column.controls = shown
        if die is not None:
            self.die.content = die
        self.die.visible = die is not None
        return True
