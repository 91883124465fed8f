"""The action menu: the legal actions by group, End the turn, and the refused ones folded
under "Not possible now (N)", each with the rule that refuses it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ....vm.actions import ActionVM, menu_view
from ....vm.interaction import TableControl
from ....vm.text import Tr
from ....vm.turn_end import TurnEndVM
from ..common import DANGER, Memo, muted, pill, tall, tap
from ..common import flat_button as button
from .dice import die_pad

GROUP_TITLES = {"place": "ui.group_place", "basic": "ui.group_basic", "free": "ui.group_free"}


def action_menu(
    ctl: TableControl, actions: list[ActionVM], end_turn: TurnEndVM | None, tr: Tr, place: str, memo: Any = None
) -> ft.Control:
    return ft.Column(action_menu_rows(ctl, actions, end_turn, tr, place, memo), spacing=6, tight=True)


def action_menu_rows(
    ctl: TableControl,
    actions: list[ActionVM],
    turn_end: TurnEndVM | None,
    tr: Tr,
    place: str,
    memo: Memo | None = None,
    composing: str | None = None,
) -> list[ft.Control]:
    """Legal actions first (by group); the refused ones folded under "Not possible now (N)",
    open while `ctl.refused_open`; End the turn (with the neutrals' move it may answer in the
    same tap) leads when only free actions are left. The action being composed (`composing`) is
    marked as the current one, not offered again."""

    def kept(key: Any, build: Callable[..., ft.Control]) -> ft.Control:
        return memo.get(key, build) if memo is not None else build()

    menu = menu_view(actions, turn_end.end_turn if turn_end is not None else None)
    rows: list[ft.Control] = []
    group = None
    for a in menu.legal:
        if a.group != group:
            group = a.group
            title = tr(GROUP_TITLES[group], place=place)
            rows.append(kept(("group", title), lambda t=title: muted(t, 12)))
        current = a.type == composing
        rows.append(kept(("action", repr(a), current), lambda a=a, c=current: _action_tile(ctl, a, tr, c)))
        if a.pad is not None:
            rows.append(kept(("pad", repr(a.pad)), lambda pad=a.pad: die_pad(ctl, pad, tr)))
    if turn_end is not None:
        done = menu.end_first
        shown = _pad_shown(ctl, turn_end)
        end = kept(("end_turn", repr(turn_end), done, shown), lambda: _end_turn(ctl, turn_end, tr, done, shown))
        if done:  # nothing left to do but free actions: ending the turn comes first
            rows.insert(0, end)
        else:
            rows += [kept(("end_gap",), lambda: ft.Container(height=4)), end]
    if menu.refused:
        opened = bool(getattr(ctl, "refused_open", False))
        count = len(menu.refused)
        rows.append(kept(("refused", count, opened), lambda: _fold(ctl, tr, count, opened)))
        if opened:
            rows += [kept(("action", repr(a)), lambda a=a: _action_tile(ctl, a, tr)) for a in menu.refused]
    return rows


def _whose_pad(ctl: TableControl, who: str, name: str, shown: bool) -> ft.Control:
    """A neutral whose die pad End the turn may show: the one shown is marked (no tap: it is
    there), another is a tap away."""
    if shown:
        return pill(name, icon=ft.Icons.CHECK, bgcolor=ft.Colors.SECONDARY_CONTAINER, size=14, bold=True)
    return tap(
        tall(ft.Text(name, size=14), 8),
        lambda e: ctl.show_pad(who),
        name,
        identifier=f"end-pad-show-{who}",
        padding=ft.Padding.symmetric(horizontal=12, vertical=8),
        radius=20,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )


def _pad_shown(ctl: TableControl, te: TurnEndVM) -> str | None:
    """Whose die pad End the turn shows: the one the table chose, else the first neutral's."""
    whose = [pad.who for pad in te.pads]
    return ctl.pad_neutral if ctl.pad_neutral in whose else (whose[0] if whose else None)


def _end_turn(ctl: TableControl, te: TurnEndVM, tr: Tr, first: bool, shown: str | None) -> ft.Control:
    """End the turn: one button, or (the neutrals' move to answer after it) each answer in one
    tap: which neutral moves, with a real die its face and Place, or leave them where they are."""
    end_turn = te.end_turn
    if not te.moves and not te.pads:
        label = end_turn.label + (f" — {end_turn.hint}" if end_turn.hint else "")
        return button(
            label,
            lambda e, then=te.then: ctl.end_turn(then),
            icon=ft.Icons.DONE_ALL,
            style="filled" if first else "tonal",
            identifier="action-end_turn",
        )
    pad = next((p for p in te.pads if p.who == shown), None)
    several = len(te.pads) > 1
    heading: list[ft.Control] = [
        ft.Icon(ft.Icons.DONE_ALL, size=18),
        ft.Text(tr("ui.end_turn_which") if several else te.title, size=15, weight=ft.FontWeight.W_600),
    ]
    if pad is not None and several:  # whose pad: one line with the heading, the pad under it
        heading += [_whose_pad(ctl, p.who, tr.name("neutral", p.who), p.who == pad.who) for p in te.pads]
    rows: list[ft.Control] = [
        ft.Row(heading, wrap=True, spacing=6, run_spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    ]
    answers = [
        button(
            a.label,
            lambda e, act=a.action: ctl.end_turn(act),
            style="filled" if first else "tonal",
            identifier=f"end-{a.action.get('type')}-{a.action.get('neutral')}",
        )
        for a in te.moves
    ]
    if answers:
        rows.append(ft.Row(answers, wrap=True, spacing=8, run_spacing=8))
    leave: list[ft.Control] = []
    if te.leave is not None:
        skip = te.leave
        leave.append(
            button(skip.label, lambda e: ctl.end_turn(skip.action), style="outlined", identifier="end-skip_neutral")
        )
    if pad is not None:  # leaving them goes in the pad's last line
        rows.append(die_pad(ctl, pad, tr, on_target=ctl.end_turn, prefix="end-", titled=not several, tail=leave))
    else:
        rows += leave
    return ft.Semantics(
        identifier="action-end_turn-then",
        container=True,
        content=ft.Container(
            ft.Column(rows, spacing=8, tight=True),
            padding=10,
            border=ft.Border.all(2 if first else 1, ft.Colors.PRIMARY if first else ft.Colors.OUTLINE_VARIANT),
            border_radius=ft.BorderRadius.all(12),
        ),
    )


def _fold(ctl: TableControl, tr: Tr, count: int, opened: bool) -> ft.Control:
    icon = ft.Icons.EXPAND_LESS if opened else ft.Icons.EXPAND_MORE
    row = ft.Row(
        [
            ft.Icon(icon, color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Text(tr("ui.not_possible_now", count=count), size=14, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
        ],
        spacing=8,
        expand=True,
    )
    return tap(
        tall(row, 10),
        lambda e: ctl.toggle_refused(),
        tr("ui.not_possible_label", count=count),
        identifier="menu-refused",
        selected=opened,
        padding=ft.Padding.symmetric(horizontal=10, vertical=10),
    )


def _action_tile(ctl: TableControl, a: ActionVM, tr: Tr, current: bool = False) -> ft.Control:
    return _allowed_tile(ctl, a, tr, current) if a.enabled else _refused_tile(ctl, a, tr)


def _allowed_tile(ctl: TableControl, a: ActionVM, tr: Tr, current: bool) -> ft.Control:
    """An action the player may take: a tap starts it (quick, when it has details to skip), with a
    second button for those details; the action being composed is marked and taps nothing."""
    icon = ft.Icon(ft.Icons.PLAY_ARROW_ROUNDED, color=ft.Colors.PRIMARY, size=22)
    lines: list[ft.Control] = [
        ft.Row([ft.Text(a.label, size=15, weight=ft.FontWeight.W_600, expand=True), pill(a.cost, size=11)], spacing=6)
    ]
    if a.hint:
        lines.append(muted(a.hint, 12))
    label = (
        tr("ui.action_label", action_label=a.label, cost=a.cost, hint=a.hint)
        if a.hint
        else tr("ui.action_label_plain", action_label=a.label, cost=a.cost)
    )
    if a.warning:
        warning = tr("ui.warden_here", rule=a.warning)
        lines.append(
            pill(warning, icon=ft.Icons.LOCAL_POLICE, bgcolor=DANGER, color=ft.Colors.WHITE, size=11, bold=True)
        )
        label = f"{label} {warning}"
    row = ft.Row([icon, ft.Column(lines, spacing=2, expand=True, tight=True)], spacing=8, expand=True)
    main = tap(
        tall(row, 9),
        None if current else lambda e, k=a.type: ctl.start_action(k, quick=a.details),
        label,
        identifier=f"action-{a.type}",
        bgcolor=ft.Colors.PRIMARY_CONTAINER if current else ft.Colors.SECONDARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=10, vertical=9),
        expand=True,
        selected=current or None,  # its questions are open above
    )
    if not a.details or current:
        return main
    more = tap(
        ft.Icon(ft.Icons.EDIT_NOTE, color=ft.Colors.PRIMARY),
        lambda e, k=a.type: ctl.start_action(k),
        tr(f"ui.action_details.{a.type}"),
        identifier=f"action-{a.type}-details",
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=12, vertical=14),
    )
    return ft.Row([main, more], spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def _refused_tile(ctl: TableControl, a: ActionVM, tr: Tr) -> ft.Control:
    """An action the rules refuse now: greyed, with its first reason; a tap explains them all."""
    first = a.reasons[0] if a.reasons else None
    reason_row: list[ft.Control] = []
    if first is not None:
        reason_row = [
            ft.Row(
                [
                    pill(first.rule, bgcolor=DANGER, color=ft.Colors.WHITE, size=11, bold=True),
                    ft.Text(first.message, size=12, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                ],
                spacing=6,
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
        ]
    lines: list[ft.Control] = [
        ft.Row(
            [ft.Text(a.label, size=15, color=ft.Colors.ON_SURFACE_VARIANT, expand=True), pill(a.cost, size=11)],
            spacing=6,
        ),
        *reason_row,
    ]
    label = tr(
        "ui.action_refused_label", action_label=a.label, reasons=" ".join(f"{r.rule}: {r.message}" for r in a.reasons)
    )
    return tap(
        tall(
            ft.Row(
                [
                    ft.Icon(ft.Icons.BLOCK, color=ft.Colors.ON_SURFACE_VARIANT, size=22),
                    ft.Column(lines, spacing=3, expand=True, tight=True),
                ],
                spacing=8,
                expand=True,
            ),
            9,
        ),
        lambda e, act=a: ctl.explain_refused(act),
        label,
        identifier=f"action-{a.type}",
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        padding=ft.Padding.symmetric(horizontal=10, vertical=9),
    )
