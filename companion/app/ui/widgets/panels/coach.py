"""The tutorial round's coach: the guide's next step, why it is legal and the rules it shows,
with "Play this step"; at the end (or off the guide's path) what the table may do now."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ....vm.text import Tr
from ....vm.tutorial import CoachVM
from ..common import card, heading, muted, pill
from ..common import flat_button as button


def coach_panel(
    coach: CoachVM,
    tr: Tr,
    *,
    play: Callable[[dict[str, Any]], Any],
    undo: Callable[[], Any],
    carry_on: Callable[[], Any],
    leave: Callable[[], Any],
) -> ft.Control:
    rows: list[ft.Control] = [
        heading(coach.title, 16),
        ft.Semantics(
            identifier="coach-text", container=True, content=ft.Text(coach.text, size=15, weight=ft.FontWeight.W_600)
        ),
    ]
    if coach.why:
        rows.append(ft.Text(coach.why, size=14))
    if coach.rules:
        rows.append(muted(tr("tutorial.rules_heading"), 12))
        for rule, text in coach.rules:
            words = muted(text, 12)
            words.expand = True
            top = ft.CrossAxisAlignment.START
            rows.append(ft.Row([pill(rule, bold=True), words], spacing=6, vertical_alignment=top))
    if coach.die_hint:
        rows.append(muted(coach.die_hint, 13, italic=True))
    buttons: list[ft.Control] = []
    if coach.action is not None:
        action = coach.action
        buttons.append(button(tr("tutorial.play_step"), lambda e: play(action), identifier="coach-play"))
    if coach.phase == "off":
        buttons.append(button(tr("tutorial.undo"), lambda e: undo(), identifier="coach-undo", icon=ft.Icons.UNDO))
    if coach.phase != "step":
        buttons.append(button(tr("tutorial.carry_on"), lambda e: carry_on(), style="text", identifier="coach-carry-on"))
        buttons.append(button(tr("tutorial.leave"), lambda e: leave(), style="text", identifier="coach-leave"))
    rows.append(ft.Row(buttons, wrap=True, spacing=8))
    return card(
        ft.Column(rows, spacing=8, tight=True),
        identifier="coach",
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        padding=12,
    )
