"""What answers a tap on the table, on top of its side panel.

A phone's other buttons, the scores, the news (whose turn it is, the Warden's alert, what just
happened) and the decision or composer are one column. Its parts are rewritten in place and only
what changed is sent (`send`): Flet diffs the whole subtree of a control it sends, changed or not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from ...vm.call import SaidVM
from ...vm.table import ScoreVM, TableVM
from ...vm.text import Tr
from .die import RollingDie, die_face, show_pips
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
        self.still: ft.Semantics | None = None  # the die that shows the last roll, turned in place
        self.changed: list[ft.Control] = []  # the parts to send
        self.news = ft.Column([self.status.control, self.alert_slot, self.result_slot], spacing=10)
        self.control = ft.Column([self.tools, self.strip.control, self.news, self.main_slot], spacing=10)

    def set_table(self, table: TableVM, scores: list[ScoreVM], deciding_now: bool, said: SaidVM) -> None:
        """Whose turn or decision it is (`deciding_now`: a decision, not a turn), what this screen
        says of it to its viewer, and the scores."""
        if self.status.set(table, self.tr, deciding_now, said):
            self._mark(self.status.control)
        for part in self.strip.set(scores):
            self._mark(part)

    def set_tools(self, tools: Sequence[ft.Control]) -> None:
        if buttons_key(tools) != buttons_key(self.tools.controls) or self.tools.visible != bool(tools):
            self.tools.controls = list(tools)  # else keep the controls sent
            self.tools.visible = bool(tools)
            self._mark(self.tools)

    def fill(self, slot: ft.Container, content: ft.Control | None, changed: bool = False) -> None:
        """A slot shows `content` (a panel built anew, or one rewritten in place: `changed`) or nothing.

        A panel no longer shown stays in its slot, hidden: one kept by its screen (the pending
        decision) and shown again is then a small patch, not its whole subtree sent anew."""
        if content is None:
            if slot.visible:
                slot.visible = False
                self._mark(slot)
        elif changed or content is not slot.content or not slot.visible:
            slot.content = content
            slot.visible = True
            self._mark(slot)

    def set_result(self, lines: list[str], value: int | None, rolls: bool) -> None:
        """What just happened, with the die rolled (tumbling when it was rolled just now)."""
        die: ft.Control | None = None
        turned = False
        self.roller = None
        if value is not None and rolls:
            self.roller = RollingDie(value, DIE_SIZE, self.tr("ui.die_rolled", value=value))
            die = self.roller.control
        elif value is not None:
            die, turned = self._still_die(value)
        if self.result.set(lines, die) or turned or self.result_slot.visible != bool(lines):
            self.result_slot.visible = bool(lines)
            self._mark(self.result_slot)

    def _still_die(self, value: int) -> tuple[ft.Semantics, bool]:
        """The die showing the last roll, and whether it turned to a new value.

        There is one per head and a new roll turns its pips in place: a new die would cost every
        screen of the table its whole subtree (fifteen controls built, configured and sent).
        """
        label = self.tr("ui.die_rolled", value=value)
        if self.still is None:
            self.still = ft.Semantics(
                label=label, container=True, identifier="die-result", content=die_face(value, DIE_SIZE)
            )
            return self.still, True
        turned = self.still.label != label
        if turned:
            face = self.still.content
            assert isinstance(face, ft.Container)
            show_pips(face, value)
            self.still.label = label
        return self.still, turned

    def _mark(self, part: ft.Control) -> None:
        """`part` changed: one of the column's, one of the news, the scores or one of their chips."""
        if all(part is not p for p in self.changed):
            self.changed.append(part)

    def send(self) -> None:
        """Send what changed, the news first (RuntimeError: the head is not on the page).

        Flet sends each control updated as a message of its own, and a connection writes one
        message per pass of the event loop, between the other screens' work: a phone draws a
        message that arrives alone in a frame of its own. So the news go in one message (their
        column, when more than one of them changed), then the scores in one, then the buttons
        and the panel.
        """
        changed, self.changed = self.changed, []
        news = [part for part in changed if any(part is n for n in self.news.controls)]
        chips = [part for part in changed if any(part is c.control for c in self.strip.chips)]
        for group, whole in ((news, self.news), (chips, self.strip.control)):
            if len(group) > 1:
                whole.update()
            elif group:
                group[0].update()
        grouped = news + chips
        for part in changed:
            if all(part is not g for g in grouped):
                part.update()
