"""Thumb-sized controls on a touch screen, the compact layout on a laptop (widgets/common.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import flet as ft

from companion.app.ui.widgets.common import TOUCH, app_theme, icon_button, tap

from .conftest import make_store
from .test_app_offline import new_app


def test_a_phones_width_takes_the_touch_theme_and_a_laptops_keeps_the_compact_one(tmp_path: Path) -> None:
    store = make_store(tmp_path)

    async def run() -> None:
        phone = await new_app(store, tmp_path, 390)
        assert phone.touch and phone.page.theme.visual_density == ft.VisualDensity.STANDARD
        style = phone.page.theme.filled_button_theme.style
        assert style.padding.top + style.padding.bottom + 20 >= TOUCH  # one line of a button is 20 px
        laptop = await new_app(store, tmp_path, 1280)
        assert not laptop.touch and laptop.page.theme.visual_density is None
        laptop._resized(ft.PageResizeEvent("resized", laptop.page, width=390, height=844))
        assert laptop.touch and laptop.page.theme.visual_density == ft.VisualDensity.STANDARD

    asyncio.run(run())


def test_every_tap_area_and_icon_button_is_a_touch_target_at_least() -> None:
    dot = tap(ft.Container(width=30, height=30), lambda e: None, "Red", padding=3)
    floor = dot.content.content.controls[0]
    assert (floor.width, floor.height) == (TOUCH - 6, TOUCH - 6)  # with its padding: 48 x 48
    line = tap(ft.Text("End the turn"), lambda e: None, "End", padding=ft.Padding.symmetric(horizontal=18, vertical=10))
    floor = line.content.content.controls[0]
    assert (floor.width, floor.height) == (TOUCH - 36, TOUCH - 20)
    least = icon_button(ft.Icons.UNDO, "Undo", lambda e: None).content.size_constraints
    assert (least.min_width, least.min_height) == (TOUCH, TOUCH)
    assert app_theme(None, touch=False).visual_density is None
