"""Entering a real die: six faces to tap, and the pad of faces with the Places each leads to.
The menu, the composer and a pending decision all ask for one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from ....vm.dice import PadVM
from ....vm.interaction import TableControl
from ....vm.text import Tr
from ..common import muted, tall, tap
from ..die import die_face


def die_entry(on_value: Any, tr: Tr, entered: list[int], count: int) -> ft.Control:
    """Six faces to tap: the table rolled a physical die and enters what it shows."""
    faces = [
        tap(
            die_face(v, 44),
            lambda e, v=v: on_value(v),
            tr("ui.die_shows", value=v),
            identifier=f"die-{v}",
            padding=4,
            radius=12,
        )
        for v in range(1, 7)
    ]
    rows: list[ft.Control] = [ft.Row(faces, wrap=True, spacing=6, run_spacing=6)]
    if count > 1:
        rows.insert(
            0,
            muted(
                tr("ui.dice_entered", count=len(entered), need=count, dice=tr.join(str(d) for d in entered) or "-"), 13
            ),
        )
    return ft.Column(rows, spacing=6, tight=True)


def die_pad(
    ctl: TableControl,
    pad: PadVM,
    tr: Tr,
    on_target: Callable[[dict[str, Any]], Any] | None = None,
    prefix: str = "",
    *,
    titled: bool = True,
    tail: Sequence[ft.Control] = (),
) -> ft.Control:
    """Each face with the Places it leads to: the table taps the face it rolled and where to go.

    A face and its Places are one group, and the groups wrap side by side: six faces take four
    or five lines of the panel, not six, so what follows the pad stays in view on a laptop.
    `on_target` records a tap (default: the target's action as it is); `prefix` starts its ids;
    `titled` False leaves out the pad's title (its caller says whose it is); `tail` follows the
    faces in their last line."""
    record = on_target or ctl.submit_checked
    groups: list[ft.Control] = []
    for face in pad.faces:
        targets = [
            tap(
                tall(ft.Text(t.label, size=13, weight=ft.FontWeight.W_600), 6),
                lambda e, act=t.action: record(act),
                tr("ui.pad_target", value=face.face, place=t.label),
                identifier=prefix + t.ident,
                bgcolor=ft.Colors.SECONDARY_CONTAINER,
                padding=ft.Padding.symmetric(horizontal=8, vertical=6),
                radius=16,
            )
            for t in face.targets
        ]
        die = ft.Semantics(label=tr("ui.die_shows", value=face.face), content=die_face(face.face, 28))
        groups.append(
            ft.Container(
                ft.Row(
                    [die, *targets],
                    spacing=4,
                    tight=True,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                padding=ft.Padding.only(left=4, right=2),
                border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
                border_radius=ft.BorderRadius.all(18),
            )
        )
    rows: list[ft.Control] = [muted(pad.title, 12)] if titled else []
    rows.append(ft.Row([*groups, *tail], wrap=True, spacing=6, run_spacing=6))
    return ft.Semantics(
        identifier=f"{prefix}pad-{pad.who}", container=True, content=ft.Column(rows, spacing=4, tight=True)
    )
