"""Whether a referee's screen shows the hands, said on that screen, with the one tap that changes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ...vm.text import Tr
from .common import card, flat_button, muted


def screen_privacy(tr: Tr, shared: bool, on_change: Callable[[bool], Any]) -> ft.Control:
    """A shared screen says its hands are hidden and offers to show them; a screen showing every
    hand says so, louder, and offers to hide them again."""
    if shared:
        words = muted(tr("ui.screen_hides_hands"), 13)
        change = flat_button(
            tr("ui.show_hands_here"), lambda e: on_change(False), style="text", identifier="screen-show-hands"
        )
        icon = ft.Icon(ft.Icons.VISIBILITY_OFF, size=18, color=ft.Colors.ON_SURFACE_VARIANT)
        colour = ft.Colors.SURFACE_CONTAINER_LOW
    else:
        words = ft.Text(tr("ui.screen_shows_hands"), size=14, weight=ft.FontWeight.W_600)
        change = flat_button(
            tr("ui.hide_hands_here"), lambda e: on_change(True), style="tonal", identifier="screen-hide-hands"
        )
        icon = ft.Icon(ft.Icons.VISIBILITY, size=18, color=ft.Colors.ON_ERROR_CONTAINER)
        colour = ft.Colors.ERROR_CONTAINER
    row = ft.Row(
        [icon, ft.Container(words, expand=True), change], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER
    )
    return card(
        row, identifier="screen-privacy", padding=ft.Padding.symmetric(horizontal=10, vertical=4), bgcolor=colour
    )
