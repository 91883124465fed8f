"""The Warden's alert (an offence to report, a Free pass, the Punishments) and the reactions
other seats may make now (Backgrounds to reveal, the Warden to move)."""

from __future__ import annotations

import flet as ft

from ....vm.interaction import TableControl
from ....vm.reactions import OffenceVM, ReactionsVM
from ....vm.text import Tr
from ..common import DANGER, card, muted, pill
from ..common import flat_button as button


def offence_alert(ctl: TableControl, vm: ReactionsVM, tr: Tr) -> ft.Control | None:
    off = vm.offence
    if off is None:
        return None
    buttons = _offence_buttons(ctl, off)
    content = _offence_text(ctl, off, tr)
    if buttons:  # nobody may report or use Corruption now: no empty box under the alert
        content.controls.append(
            ft.Container(
                ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
                bgcolor=ft.Colors.SURFACE,
                padding=10,
                border_radius=ft.BorderRadius.all(10),
            )
        )
    return ft.Semantics(
        identifier="offence-alert",
        container=True,
        live_region=True,
        label=tr("ui.offence_label", message=off.message, rule=off.rule),
        content=ft.Container(
            content,
            bgcolor=DANGER,
            padding=14,
            border_radius=ft.BorderRadius.all(14),
            border=ft.Border.all(3, ft.Colors.AMBER),
        ),
    )


def _offence_buttons(ctl: TableControl, off: OffenceVM) -> list[ft.Control]:
    """Who may report the offence, the offender's Free pass, the Punishments to choose from."""
    buttons = [
        button(
            a.label,
            lambda e, ans=a: ctl.choose_answer(ans),
            danger=True,
            icon=ft.Icons.CAMPAIGN,
            identifier=f"report-{a.seat}",
        )
        for a in off.reports
    ]
    if off.freepass is not None:
        buttons.append(
            button(
                off.freepass.label,
                lambda e, ans=off.freepass: ctl.choose_answer(ans),
                style="tonal",
                icon=ft.Icons.CONFIRMATION_NUMBER,
                identifier=f"freepass-{off.freepass.seat}",
            )
        )
    for a in off.punishments:
        buttons.append(
            button(
                a.label,
                lambda e, ans=a: ctl.choose_answer(ans),
                style="outlined",
                icon=ft.Icons.GAVEL,
                identifier=f"punish-{a.seat}",
            )
        )
    return buttons


def _offence_text(ctl: TableControl, off: OffenceVM, tr: Tr) -> ft.Column:
    """The offence in words, the rule it breaks, what the table may do, and the rule to read."""
    return ft.Column(
        [
            ft.Row(
                [
                    ft.Icon(ft.Icons.LOCAL_POLICE, color=ft.Colors.WHITE, size=34),
                    ft.Column(
                        [
                            ft.Text(tr("ui.offence_title"), size=20, weight=ft.FontWeight.BOLD, color=ft.Colors.WHITE),
                            ft.Text(off.message, size=15, color=ft.Colors.WHITE),
                        ],
                        spacing=2,
                        expand=True,
                        tight=True,
                    ),
                    pill(off.rule, bgcolor=ft.Colors.WHITE, color=DANGER, bold=True, size=14),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=10,
            ),
            ft.Text(off.help, size=13, color=ft.Colors.WHITE),
            ft.Row(
                [
                    ft.TextButton(
                        tr("ui.read_rule", rule=off.rule),
                        icon=ft.Icons.MENU_BOOK,
                        style=ft.ButtonStyle(color=ft.Colors.WHITE),
                        on_click=lambda e: ctl.open_rule(off.rule),
                    )
                ]
            ),
        ],
        spacing=8,
        tight=True,
    )


def reactions_panel(
    ctl: TableControl, vm: ReactionsVM, tr: Tr, open_seat: int | None = None, names: list[str] | None = None
) -> ft.Control | None:
    if not vm.others and not vm.move_warden and not vm.backgrounds:
        return None
    rows: list[ft.Control] = [muted(tr("ui.reactions_title"), 13)]
    buttons = [
        button(
            a.label,
            lambda e, ans=a: ctl.choose_answer(ans),
            style="outlined",
            identifier=f"react-{a.seat}-{a.action.get('type')}",
        )
        for a in vm.others
    ]
    for seat, _answers in vm.backgrounds.items():
        if seat == open_seat:
            continue
        who = names[seat] if names else str(seat)
        buttons.append(
            button(
                tr("ui.react.background_open", player=who),
                lambda e, s=seat: ctl.open_backgrounds(s),
                style="outlined",
                icon=ft.Icons.BADGE,
                identifier=f"react-{seat}-backgrounds",
            )
        )
    if buttons:
        rows.append(ft.Row(buttons, wrap=True, spacing=8, run_spacing=8))
    if open_seat in vm.backgrounds:
        rows.append(
            ft.Row(
                [
                    button(
                        a.label,
                        lambda e, ans=a: ctl.choose_answer(ans),
                        style="tonal",
                        identifier=f"react-{a.seat}-bg-{a.action.get('card')}",
                    )
                    for a in vm.backgrounds[open_seat]
                ]
                + [
                    button(
                        tr("ui.cancel"),
                        lambda e: ctl.open_backgrounds(None),
                        style="text",
                        identifier="react-backgrounds-close",
                    )
                ],
                wrap=True,
                spacing=8,
                run_spacing=8,
            )
        )
    for mv in vm.move_warden:
        rows.append(ft.Text(mv.label, size=13, weight=ft.FontWeight.W_600))
        rows.append(
            ft.Row(
                [
                    button(
                        name,
                        lambda e, t=dict(mv.template, to=pid), s=mv.seat: ctl.submit(t),
                        style="outlined",
                        identifier=f"warden-to-{mv.seat}-{pid}",
                    )
                    for pid, name in mv.places
                ],
                wrap=True,
                spacing=6,
                run_spacing=6,
            )
        )
    return card(ft.Column(rows, spacing=8, tight=True), identifier="reactions")
