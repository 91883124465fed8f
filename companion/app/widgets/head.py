"""What answers a tap on the table, on top of its side panel.

A phone's other buttons, the scores, whose turn it is, the Warden's alert, what just happened
and the decision or composer are one column, sent as one patch so the browser draws the
answer in one frame. Its parts are rewritten in place; `dirty` says one of them changed where
the column's signature cannot tell (see widgets/patch.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from ..vm.table import ScoreVM, TableVM
from ..vm.text import Tr
from .common import Memo
from .die import RollingDie, die_face
from .panels import ResultStrip
from .patch import buttons_key
from .players import ScoreStrip, StatusBanner

DIE_SIZE = 52


class TableHead:
    def __init__(self, tr: Tr, on_score: Callable[[int], Any], on_dismiss: Callable[..., Any]) -> None:
        self.tr = tr
        self.tools = ft.Row(spacing=0, wrap=True, alignment=ft.MainAxisAlignment.END)  # a phone's other buttons
        self.strip = ScoreStrip(tr, on_score)
        self.status = StatusBanner()
        self.alert_slot, self.result_slot, self.main_slot = (ft.Container(visible=False) for _ in range(3))
        self.result = ResultStrip(tr, on_dismiss)
        self.result_slot.content = self.result.control
        self.roller: RollingDie | None = None  # the die rolled just now, to tumble once on the page
        self.memo = Memo(keep=2)  # the die shown, kept while it shows the same face
        self.dirty = False
        self.control = ft.Column(
            [
                self.tools,
                self.strip.control,
                self.status.control,
                self.alert_slot,
                self.result_slot,
                self.main_slot,
            ],
            spacing=10,
        )

    @property
    def slots(self) -> list[ft.Control]:
        """The parts that get new content (their signatures tell when they change)."""
        return [self.main_slot, self.alert_slot]

    def set_table(self, table: TableVM, scores: list[ScoreVM], deciding_now: bool) -> None:
        """Whose turn or decision it is (`deciding_now`: a decision, not a turn) and the scores."""
        if self.status.set(table, self.tr, deciding_now):
            self.dirty = True
        if self.strip.set(scores):
            self.dirty = True

    def set_tools(self, tools: Sequence[ft.Control]) -> None:
        if buttons_key(tools) != buttons_key(self.tools.controls):  # else keep the controls sent
            self.tools.controls = list(tools)
            self.dirty = True
        self.tools.visible = bool(tools)

    @staticmethod
    def fill(slot: ft.Container, content: ft.Control | None) -> None:
        slot.content = content
        slot.visible = content is not None

    def set_result(self, lines: list[str], value: int | None, rolls: bool) -> None:
        """What just happened, with the die rolled (tumbling when it was rolled just now)."""
        tr = self.tr
        die = None
        self.roller = None
        if value is not None and rolls:
            self.roller = RollingDie(value, DIE_SIZE, tr("ui.die_rolled", value=value))
            die = self.roller.control
        elif value is not None:
            die = self.memo.get(
                ("die", value),
                lambda: ft.Semantics(
                    label=tr("ui.die_rolled", value=value),
                    container=True,
                    identifier="die-result",
                    content=die_face(value, DIE_SIZE),
                ),
            )
        self.memo.cycle()
        if self.result.set(lines, die):
            self.dirty = True
        self.result_slot.visible = bool(lines)

    def send(self, changed: bool = False) -> None:
        """Send the column if a part of it changed (or `changed` says a slot did); RuntimeError
        when it is not on the page."""
        if self.dirty or changed:
            self.dirty = False
            self.control.update()
