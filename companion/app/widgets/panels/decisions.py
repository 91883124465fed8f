"""A pending decision: whose it is, what it asks, and its answers (or the die, or the cards to
discard, it needs first)."""

from __future__ import annotations

import functools
from typing import Any

import flet as ft

from ...vm.pending import AnswerVM, PendingVM
from ...vm.text import Tr
from ..common import card, ident, muted, paint, stepper
from ..common import flat_button as button
from ..die import die_face
from .dice import die_entry, die_pad


def pending_panel(ctl: Any, vm: PendingVM, tr: Tr, die_for: AnswerVM | None, pick: list[str]) -> ft.Control:
    fill, ink = paint(vm.color)
    rows: list[ft.Control] = [
        ft.Row(
            [
                ft.Container(
                    ft.Text(vm.player[:1].upper(), color=ink, weight=ft.FontWeight.BOLD, size=16),
                    bgcolor=fill,
                    width=34,
                    height=34,
                    border_radius=ft.BorderRadius.all(17),
                    alignment=ft.Alignment.CENTER,
                ),
                ft.Text(
                    tr("ui.decision_for", player=vm.player),
                    size=13,
                    weight=ft.FontWeight.W_600,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                    expand=True,
                ),
            ],
            spacing=10,
        ),
        ft.Semantics(
            identifier="pending-title",
            container=True,
            live_region=True,
            content=ft.Text(vm.title, size=20, weight=ft.FontWeight.BOLD),
        ),
    ]
    if vm.die is not None:
        rows.append(
            ft.Row(
                [die_face(vm.die, 44), muted(tr("ui.highlighted_on_map"), 13)],
                spacing=10,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    if vm.michel_card:
        rows.append(
            ft.Row(
                [
                    ft.Icon(ft.Icons.STYLE, color=ft.Colors.BROWN_400),
                    ft.Text(tr("ui.michel_card_shown", card=vm.michel_card), size=15, weight=ft.FontWeight.W_600),
                ],
                spacing=8,
            )
        )
    for line in vm.details:
        rows.append(ft.Text(line, size=14))
    if vm.show_hand is not None:
        whose, cards = vm.show_hand
        rows.append(
            card(
                ft.Text(tr("ui.spying_hand", player=whose, cards=tr.join(cards)), size=14),
                bgcolor=ft.Colors.TERTIARY_CONTAINER,
            )
        )
    if die_for is not None:
        rows.append(ft.Text(tr("ui.enter_die_for", answer=die_for.label), size=15, weight=ft.FontWeight.W_600))
        rows.append(die_entry(lambda v: ctl.answer_with_die(die_for, v), tr, [], 1))
        rows.append(button(tr("ui.cancel"), lambda e: ctl.cancel_die(), style="text", identifier="die-cancel"))
    elif vm.pick is not None:
        total = len(pick)
        for card_id, label, have in vm.pick.cards:
            n = pick.count(card_id)
            rows.append(
                ft.Row(
                    [
                        ft.Text(f"{label}  ({tr.num(have)})", size=14, expand=True),
                        stepper(
                            n,
                            functools.partial(ctl.set_pick, card_id),
                            low=0,
                            high=min(have, n + max(0, vm.pick.count - total)),
                            label=label,
                            fmt=tr.num,
                            prefix=f"pick-{card_id}",
                        ),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                )
            )
        ok = total == vm.pick.count
        rows.append(
            ft.Row(
                [
                    muted(tr("ui.chosen_exact", count=total, need=vm.pick.count), 13),
                    button(
                        tr("ui.discard_these"),
                        (lambda e: ctl.submit_pick()) if ok else None,
                        identifier="pick-done",
                        icon=ft.Icons.DELETE_SWEEP,
                    ),
                ],
                wrap=True,
                spacing=10,
            )
        )
    else:
        rows += [die_pad(ctl, pad, tr) for pad in vm.pads]
        buttons = [_answer_button(ctl, a, tr) for a in vm.answers]
        rows.append(ft.Row(buttons, wrap=True, spacing=10, run_spacing=10))
        if vm.helpers:
            rows.append(muted(tr("ui.helpers_title"), 13))
            rows.append(ft.Row([_answer_button(ctl, a, tr) for a in vm.helpers], wrap=True, spacing=10, run_spacing=10))
    return card(
        ft.Column(rows, spacing=12, tight=True),
        identifier=f"pending-{vm.kind}",
        padding=16,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        border=ft.Border.all(3, fill),
    )


def _answer_button(ctl: Any, a: AnswerVM, tr: Tr) -> ft.Control:
    style = {"primary": "filled", "danger": "filled", "neutral": "tonal"}[a.style]
    return button(
        a.label,
        lambda e, ans=a: ctl.choose_answer(ans),
        style=style,
        danger=a.style == "danger",
        identifier=f"answer-{_answer_ident(a)}",
    )


def _answer_ident(a: AnswerVM) -> str:
    act = a.action
    parts = [str(act.get("type"))]
    for key in ("option", "card", "tool", "neutral", "discard", "choice"):
        if act.get(key) is not None:
            parts.append(ident(act[key]))
    if act.get("type") == "weapon":
        parts.append(str(a.seat))
    return "-".join(parts)
