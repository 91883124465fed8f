"""The map: every Place with its die faces, Search value, Place actions and standees.

A Place a die result allows is highlighted (and tappable when the choice is the player's to
make); the Place of the player whose turn it is carries a marker; the Warden's Place says so.
Tiles are built once and updated in place, so a move sends only the standees that moved.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import flet as ft

from ...vm.table import PlaceVM, StandeeVM, TableVM
from ...vm.text import Tr
from .common import Memo, muted, paint, pill, standee


class PlaceTile:
    def __init__(self, tr: Tr, col: ft.ResponsiveNumber) -> None:
        self.tr = tr
        self.col = col
        self.clickable: bool | None = None
        self._build()

    def _build(self) -> None:
        """New controls throughout. Flutter web drops a node's identifier when its role changes (a
        Place becoming a button while a tap on it answers, and back), so a tile whose Place turns
        clickable or stops being so is drawn anew, a new node with its identifier."""
        self.vm: PlaceVM | None = None
        self.head = ft.Text(size=15, weight=ft.FontWeight.BOLD)
        self.info = ft.Row(wrap=True, spacing=4, run_spacing=4)
        self.people = ft.Row(wrap=True, spacing=8, run_spacing=6)
        self.box = ft.Container(
            ft.Column([self.head, self.info, self.people], spacing=6, tight=True),
            padding=10,
            border_radius=ft.BorderRadius.all(10),
        )
        self.control = ft.Semantics(content=self.box, button=False, exclude_semantics=True)
        self.control.col = self.col
        self.memo = Memo(keep=4)  # standees: a turn changes who is active, not who stands here

    def set(self, p: PlaceVM, on_place: Callable[[str], Any] | None) -> bool:
        clickable = on_place is not None and p.highlighted
        if p == self.vm and clickable == self.clickable:
            return False
        if self.clickable is not None and clickable != self.clickable:
            self._build()
        old, self.vm, self.clickable = self.vm, p, clickable
        tr = self.tr
        self.control.identifier = f"place-{p.ident}"
        if old is None or (old.name, old.faces, old.search, old.actions, old.notes) != (
            p.name,
            p.faces,
            p.search,
            p.actions,
            p.notes,
        ):
            self.head.value = p.name
            info = (
                [
                    pill(
                        tr("ui.die_faces", faces=" ".join(str(f) for f in p.faces)),
                        icon=ft.Icons.CASINO,
                        size=11,
                        bold=True,
                    )
                ]
                if p.faces
                else []
            )
            info.append(pill(tr("ui.search_value", count=p.search), icon=ft.Icons.SEARCH, size=11))
            for action in p.actions:
                info.append(
                    pill(action, size=11, bgcolor=ft.Colors.TERTIARY_CONTAINER, color=ft.Colors.ON_TERTIARY_CONTAINER)
                )
            for note in p.notes:
                info.append(
                    pill(note, size=11, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, color=ft.Colors.ON_SURFACE_VARIANT)
                )
            self.info.controls = info
        if old is None or old.standees != p.standees:
            self.people.controls = _people(p, tr, self.memo)
            self.memo.cycle()
        border = ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)
        bg: ft.ColorValue = ft.Colors.SURFACE_CONTAINER_LOW
        if p.here:
            border = ft.Border.all(2, ft.Colors.SECONDARY)
        if p.warden:
            bg = ft.Colors.with_opacity(0.08, ft.Colors.INDIGO)
        if p.highlighted:
            border = ft.Border.all(4, ft.Colors.PRIMARY)
            bg = ft.Colors.PRIMARY_CONTAINER
        self.box.border, self.box.bgcolor = border, bg
        self.box.on_click = (lambda e, pid=p.ident: on_place(pid)) if on_place is not None and clickable else None
        who = tr.join(s.label for s in p.standees) or tr("ui.place_empty")
        label = tr(
            "ui.place_label", place=p.name, faces=" ".join(str(f) for f in p.faces) or "-", search=p.search, who=who
        )
        self.control.label = tr("ui.place_label_highlighted", label=label) if p.highlighted else label
        self.control.selected = p.highlighted
        self.control.button = clickable  # a Place is a button only while a tap on it answers
        return True


def _people(p: PlaceVM, tr: Tr, memo: Memo) -> list[ft.Control]:
    people = [memo.get(repr(s), functools.partial(_person, s)) for s in p.standees]
    return people or [memo.make(muted, tr("ui.place_empty"), 12)]


def _person(s: StandeeVM) -> ft.Control:
    if s.kind == "warden":
        fill, ink = paint("warden")
        return ft.Container(
            ft.Row(
                [
                    ft.Icon(ft.Icons.LOCAL_POLICE, size=16, color=ink),
                    ft.Text(s.label, size=12, color=ink, weight=ft.FontWeight.BOLD),
                ],
                spacing=3,
                tight=True,
            ),
            bgcolor=fill,
            border_radius=ft.BorderRadius.all(14),
            padding=ft.Padding.symmetric(horizontal=8, vertical=5),
        )
    return ft.Row(
        [
            standee(
                s.short,
                s.color,
                s.label,
                size=30,
                active=s.active,
                shape="circle" if s.kind == "player" else "square",
                icon=ft.Icons.PERSON_OUTLINE if s.kind == "neutral" else None,
            ),
            ft.Text(s.label, size=12, weight=ft.FontWeight.W_600 if s.active else None),
        ],
        spacing=4,
        tight=True,
    )


class BoardMap:
    """The map's tiles, kept between taps."""

    def __init__(self, tr: Tr, columns: int) -> None:
        self.tr = tr
        self.col: ft.ResponsiveNumber = {"xs": {2: 6, 3: 4, 4: 3}.get(columns, 6)}
        self.row = ft.ResponsiveRow(spacing=8, run_spacing=8)
        self.control = ft.Semantics(identifier="board", container=True, label=tr("ui.board_label"), content=self.row)
        self.tiles: list[PlaceTile] = []

    def set(self, vm: TableVM, on_place: Callable[[str], Any] | None = None) -> list[ft.Control]:
        """Show `vm`; returns what to send: the tiles that changed, or the whole row if it did."""
        while len(self.tiles) < len(vm.places):
            self.tiles.append(PlaceTile(self.tr, self.col))
        changed: list[ft.Control] = [
            tile.control for tile, place in zip(self.tiles, vm.places, strict=False) if tile.set(place, on_place)
        ]
        wanted: list[ft.Control] = [t.control for t in self.tiles[: len(vm.places)]]
        if list(map(id, self.row.controls)) != list(map(id, wanted)):
            self.row.controls = wanted
            return [self.row]
        return changed


def board_map(vm: TableVM, tr: Tr, *, columns: int, on_place: Callable[[str], Any] | None = None) -> ft.Control:
    """A map drawn once (screens that do not update it)."""
    board = BoardMap(tr, columns)
    board.set(vm, on_place)
    return board.control
