"""A d6 drawn with pips, and its roll animation (the value is the engine's: the app never rolls
twice, the animation only shows the result it already logged)."""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Callable
from typing import Any

import flet as ft

PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]}


def die_face(
    value: int | None, size: int = 56, *, color: Any = ft.Colors.WHITE, pip: Any = ft.Colors.BLACK, border: Any = None
) -> ft.Container:
    """A die showing `value` (None: a blank die)."""
    dot = size * 0.17
    cells: list[ft.Control] = []
    for i in range(9):
        on = value is not None and i in PIPS.get(value, [])
        cells.append(
            ft.Container(width=dot, height=dot, border_radius=ft.BorderRadius.all(dot / 2), bgcolor=pip if on else None)
        )
    grid = ft.Column(
        [ft.Row(cells[r * 3 : r * 3 + 3], alignment=ft.MainAxisAlignment.SPACE_BETWEEN, spacing=0) for r in range(3)],
        alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        spacing=0,
    )
    return ft.Container(
        content=grid,
        width=size,
        height=size,
        padding=size * 0.14,
        bgcolor=color,
        border_radius=ft.BorderRadius.all(size * 0.18),
        border=border or ft.Border.all(2, ft.Colors.OUTLINE),
        rotate=ft.Rotate(0),
        animate_rotation=ft.Animation(90, ft.AnimationCurve.EASE_OUT),
        shadow=ft.BoxShadow(blur_radius=6, color=ft.Colors.with_opacity(0.3, ft.Colors.BLACK)),
    )


def show_pips(face: ft.Container, value: int, pip: Any = ft.Colors.BLACK) -> None:
    """Turn a face built by `die_face` to `value` in place: only the pips' colours change."""
    grid = face.content
    assert isinstance(grid, ft.Column)
    for r, row in enumerate(grid.controls):
        assert isinstance(row, ft.Row)
        for c, cell in enumerate(row.controls):
            assert isinstance(cell, ft.Container)
            cell.bgcolor = pip if r * 3 + c in PIPS[value] else None


class RollingDie:
    """A die that tumbles for a moment, then lands on the logged value."""

    def __init__(self, value: int, size: int = 64, label: str = "") -> None:
        self.value = value
        self.size = size
        self.face = die_face(random.randint(1, 6), size)
        self.control = ft.Semantics(
            label=label, container=True, live_region=True, content=self.face, identifier="die-result"
        )

    async def roll(self, frames: int = 8, delay: float = 0.07, on_done: Callable[[], Any] | None = None) -> None:
        try:
            for i in range(frames):
                show_pips(self.face, random.randint(1, 6) if i < frames - 1 else self.value)
                self.face.rotate = ft.Rotate(math.pi / 2 * (i + 1))
                self.face.update()
                await asyncio.sleep(delay)
            show_pips(self.face, self.value)
            self.face.rotate = ft.Rotate(0)
            self.face.border = ft.Border.all(3, ft.Colors.PRIMARY)
            self.face.update()
        except Exception:  # the screen changed while rolling: nothing to show any more
            return
        if on_done is not None:
            on_done()
