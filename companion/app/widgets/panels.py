"""The right-hand panels of the table: the action menu, the composer, the pending decision,
the Warden's alert and the reactions, and "what just happened".

They render view models and call back into the table screen (`ctl`), which owns the session.
"""

from __future__ import annotations

import functools
from typing import Any

import flet as ft

from ..vm.actions import ActionVM, StepVM, menu_view
from ..vm.dice import MichelAskVM, PadVM
from ..vm.pending import AnswerVM, PendingVM
from ..vm.reactions import ReactionsVM
from ..vm.text import Tr
from .common import DANGER, card, heading, icon_button, muted, paint, pill, stepper, tall, tap
from .common import flat_button as button
from .die import die_face

GROUP_TITLES = {"place": "ui.group_place", "basic": "ui.group_basic", "free": "ui.group_free"}


# --- the menu ------------------------------------------------------------------------------


def action_menu(
    ctl: Any, actions: list[ActionVM], end_turn: ActionVM | None, tr: Tr, place: str, memo: Any = None
) -> ft.Control:
    return ft.Column(action_menu_rows(ctl, actions, end_turn, tr, place, memo), spacing=6, tight=True)


def action_menu_rows(
    ctl: Any, actions: list[ActionVM], end_turn: ActionVM | None, tr: Tr, place: str, memo: Any = None
) -> list[ft.Control]:
    """Legal actions first (by group); the refused ones folded under "Not possible now (N)",
    open while `ctl.refused_open`; End the turn leads when only free actions are left."""

    def kept(key: Any, build: Any) -> ft.Control:
        return memo.get(key, build) if memo is not None else build()

    menu = menu_view(actions, end_turn)
    rows: list[ft.Control] = []
    group = None
    for a in menu.legal:
        if a.group != group:
            group = a.group
            title = tr(GROUP_TITLES[group], place=place)
            rows.append(kept(("group", title), lambda t=title: muted(t, 12)))
        rows.append(kept(("action", repr(a)), lambda a=a: _action_tile(ctl, a, tr)))
        if a.pad is not None:
            rows.append(kept(("pad", repr(a.pad)), lambda pad=a.pad: die_pad(ctl, pad, tr)))
    if menu.end_turn is not None:
        end_turn = menu.end_turn
        label = end_turn.label + (f" — {end_turn.hint}" if end_turn.hint else "")
        done = menu.end_first

        def build() -> ft.Control:
            return button(
                label,
                lambda e: ctl.start_action("end_turn"),
                icon=ft.Icons.DONE_ALL,
                style="filled" if done else "tonal",
                identifier="action-end_turn",
            )

        end = kept(("end_turn", label, done), build)
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


def _fold(ctl: Any, tr: Tr, count: int, opened: bool) -> ft.Control:
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


def _action_tile(ctl: Any, a: ActionVM, tr: Tr) -> ft.Control:
    if a.enabled:
        icon = ft.Icon(ft.Icons.PLAY_ARROW_ROUNDED, color=ft.Colors.PRIMARY, size=22)
        lines: list[ft.Control] = [
            ft.Row(
                [ft.Text(a.label, size=15, weight=ft.FontWeight.W_600, expand=True), pill(a.cost, size=11)], spacing=6
            )
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
            lambda e, k=a.type: ctl.start_action(k, quick=a.details),
            label,
            identifier=f"action-{a.type}",
            bgcolor=ft.Colors.SECONDARY_CONTAINER,
            padding=ft.Padding.symmetric(horizontal=10, vertical=9),
            expand=True,
        )
        if not a.details:
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
    first = a.reasons[0] if a.reasons else None
    reason_row = []
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
    lines = [
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


# --- composing ------------------------------------------------------------------------------


def composer_panel(
    ctl: Any,
    title: str,
    summary: list[tuple[str, str]],
    step: StepVM | None,
    tr: Tr,
    draft: dict[str, Any],
    can_back: bool,
    forcing: bool,
) -> ft.Control:
    rows: list[ft.Control] = [
        ft.Row(
            [
                heading(title, 18),
                pill(tr("ui.forced_badge"), bgcolor=DANGER, color=ft.Colors.WHITE) if forcing else ft.Container(),
            ],
            spacing=8,
        ),
    ]
    for question, answer in summary:
        rows.append(ft.Text(tr("ui.summary_line", question=question, answer=answer), size=13))
    if step is not None:
        rows.append(
            ft.Semantics(
                identifier=f"step-{step.field}",
                container=True,
                content=ft.Text(step.prompt, size=15, weight=ft.FontWeight.W_600),
            )
        )
        rows.append(_step(ctl, step, tr, draft))
    nav = [button(tr("ui.cancel"), lambda e: ctl.cancel_action(), style="text", identifier="compose-cancel")]
    if can_back:
        nav.insert(
            0,
            button(
                tr("ui.previous"),
                lambda e: ctl.back_action(),
                style="text",
                identifier="compose-back",
                icon=ft.Icons.ARROW_BACK,
            ),
        )
    rows.append(ft.Row(nav, wrap=True))
    return card(
        ft.Column(rows, spacing=10, tight=True),
        identifier="composer",
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(2, ft.Colors.PRIMARY),
    )


def _step(ctl: Any, step: StepVM, tr: Tr, draft: dict[str, Any]) -> ft.Control:
    if step.kind == "one":
        items = []
        for _i, c in enumerate(step.choices):
            if c.enabled:
                items.append(
                    tap(
                        tall(ft.Text(c.label, size=15, weight=ft.FontWeight.W_600), 10),
                        lambda e, v=c.value: ctl.answer(step.field, v),
                        c.label,
                        identifier=f"choice-{step.field}-{_ident(c.value)}",
                        bgcolor=ft.Colors.SECONDARY_CONTAINER,
                        padding=ft.Padding.symmetric(horizontal=14, vertical=10),
                    )
                )
            else:
                first = c.reasons[0] if c.reasons else None
                text: list[ft.Control] = [ft.Text(c.label, size=14, color=ft.Colors.ON_SURFACE_VARIANT)]
                if first is not None:
                    text.append(
                        ft.Row(
                            [
                                pill(first.rule, bgcolor=DANGER, color=ft.Colors.WHITE, size=10, bold=True),
                                ft.Text(first.message, size=11, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                            ],
                            spacing=4,
                        )
                    )
                label = tr(
                    "ui.choice_refused_label",
                    choice=c.label,
                    reasons=" ".join(f"{r.rule}: {r.message}" for r in c.reasons),
                )
                items.append(
                    tap(
                        tall(ft.Column(text, spacing=2, tight=True), 8),
                        lambda e, ch=c: ctl.explain_choice(ch),
                        label,
                        identifier=f"choice-{step.field}-{_ident(c.value)}",
                        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
                        padding=ft.Padding.symmetric(horizontal=12, vertical=8),
                    )
                )
        if step.optional:  # the card drawn may stay unentered, like any card nobody named
            items.append(
                button(
                    tr("ui.leave_unentered"),
                    lambda e: ctl.answer(step.field, None),
                    style="outlined",
                    identifier=f"skip-{step.field}",
                )
            )
        return ft.Row(items, wrap=True, spacing=8, run_spacing=8)
    if step.kind == "die":
        return die_entry(lambda v: ctl.answer_die(step, v), tr, draft.get("die_progress", []), step.exact or 1)
    if step.kind == "number":
        value = draft.get(step.field, step.default if step.default is not None else step.low)
        return ft.Row(
            [
                stepper(
                    value,
                    lambda v: ctl.set_draft(step.field, max(step.low, min(step.high, v))),
                    low=step.low,
                    high=step.high,
                    label=step.prompt,
                    fmt=tr.num,
                    prefix=f"number-{step.field}",
                ),
                button(tr("ui.done"), lambda e: ctl.answer(step.field, value), identifier=f"done-{step.field}"),
            ],
            wrap=True,
            spacing=12,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
    # "many": counts per card
    chosen: list[str] = list(draft.get(step.field, list(step.default or ())))
    total = len(chosen)
    if all(c.limit is None for c in step.choices):
        return _card_entry(ctl, step, tr, chosen)
    rows: list[ft.Control] = []
    for c in step.choices:
        have = chosen.count(c.value)
        limit = c.limit if c.limit is not None else step.high
        if not c.enabled:
            rows.append(muted(tr("ui.choice_unavailable", choice=c.label), 13))
            continue
        rows.append(
            ft.Row(
                [
                    ft.Text(c.label + (f"  ({c.detail})" if c.detail else ""), size=14, expand=True),
                    stepper(
                        have,
                        functools.partial(ctl.set_count, step.field, c.value, chosen=chosen),
                        low=0,
                        high=min(limit, have + max(0, step.high - total)),
                        label=c.label,
                        fmt=tr.num,
                        prefix=f"many-{step.field}-{_ident(c.value)}",
                    ),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    ok = (total == step.exact) if step.exact is not None else (step.low <= total <= step.high)
    counter = (
        tr("ui.chosen_exact", count=total, need=step.exact)
        if step.exact is not None
        else tr("ui.chosen_count", count=total)
    )
    done_label = tr("ui.record") if step.optional else tr("ui.done")
    done = button(
        done_label,
        (lambda e: ctl.answer(step.field, chosen)) if ok else None,
        identifier=f"done-{step.field}",
        icon=ft.Icons.CHECK,
    )
    tail = [muted(counter, 13), done]
    if step.optional and total:
        tail.insert(
            1,
            button(
                tr("ui.clear"), lambda e: ctl.set_draft(step.field, []), style="text", identifier=f"clear-{step.field}"
            ),
        )
    return ft.Column(
        [*rows, ft.Row(tail, wrap=True, spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER)],
        spacing=4,
        tight=True,
    )


def _card_entry(ctl: Any, step: StepVM, tr: Tr, chosen: list[Any]) -> ft.Control:
    """Quick entry of drawn cards: one tap per card drawn, a tap on an entered card takes it back."""
    total = len(chosen)
    full = total >= step.high
    labels = {c.value: c.label for c in step.choices}
    entered = []
    for value in dict.fromkeys(chosen):
        n = chosen.count(value)
        text = labels.get(value, str(value)) if n == 1 else tr("ui.times", count=n, what=labels.get(value, str(value)))
        rest = list(chosen)
        rest.remove(value)
        entered.append(
            tap(
                tall(
                    ft.Row(
                        [ft.Text(text, size=14, weight=ft.FontWeight.W_600), ft.Icon(ft.Icons.CLOSE, size=16)],
                        spacing=4,
                        tight=True,
                    ),
                    6,
                ),
                lambda e, r=rest: ctl.set_draft(step.field, r),
                tr("ui.remove_card", card=text),
                identifier=f"entered-{step.field}-{_ident(value)}",
                bgcolor=ft.Colors.TERTIARY_CONTAINER,
                padding=ft.Padding.symmetric(horizontal=10, vertical=6),
                radius=16,
            )
        )
    chips = [
        tap(
            tall(ft.Text(c.label, size=14), 7),
            None if full else (lambda e, v=c.value: ctl.set_draft(step.field, chosen + [v])),
            tr("ui.add_card", card=c.label),
            identifier=f"add-{step.field}-{_ident(c.value)}",
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            padding=ft.Padding.symmetric(horizontal=10, vertical=7),
            radius=16,
        )
        for c in step.choices
    ]
    done = button(
        tr("ui.record") if step.optional else tr("ui.done"),
        (lambda e: ctl.answer(step.field, chosen)) if step.low <= total <= step.high else None,
        identifier=f"done-{step.field}",
        icon=ft.Icons.CHECK,
    )
    counter = muted(tr("ui.entered_count", count=total, high=step.high), 13)
    return ft.Column(
        [
            ft.Row(entered, wrap=True, spacing=6, run_spacing=6) if entered else counter,
            ft.Row(chips, wrap=True, spacing=6, run_spacing=6),
            ft.Row(
                [counter, done] if entered else [done],
                wrap=True,
                spacing=10,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        ],
        spacing=8,
        tight=True,
    )


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


def die_pad(ctl: Any, pad: PadVM, tr: Tr) -> ft.Control:
    """Each face with the Places it leads to: the table taps the face it rolled and where to go."""
    rows: list[ft.Control] = [muted(pad.title, 13)]
    for face in pad.faces:
        targets = [
            tap(
                tall(ft.Text(t.label, size=14, weight=ft.FontWeight.W_600), 6),
                lambda e, act=t.action: ctl.submit_checked(act),
                tr("ui.pad_target", value=face.face, place=t.label),
                identifier=t.ident,
                bgcolor=ft.Colors.SECONDARY_CONTAINER,
                padding=ft.Padding.symmetric(horizontal=10, vertical=6),
                radius=16,
            )
            for t in face.targets
        ]
        rows.append(
            ft.Row(
                [ft.Semantics(label=tr("ui.die_shows", value=face.face), content=die_face(face.face, 36)), *targets],
                wrap=True,
                spacing=6,
                run_spacing=6,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    return ft.Semantics(identifier=f"pad-{pad.who}", container=True, content=ft.Column(rows, spacing=4, tight=True))


def michel_panel(ctl: Any, vm: MichelAskVM, tr: Tr) -> ft.Control:
    """The real Michel deck's card kinds: the table taps the one it drew."""
    chips = [
        tap(
            tall(ft.Text(name, size=15, weight=ft.FontWeight.W_600), 10),
            lambda e, c=card: ctl.pick_michel(c),
            tr("ui.michel_ask_card", card=name),
            identifier=f"michel-{card}",
            bgcolor=ft.Colors.SECONDARY_CONTAINER,
            padding=ft.Padding.symmetric(horizontal=14, vertical=10),
        )
        for card, name in vm.cards
    ]
    rows: list[ft.Control] = [heading(tr("ui.michel_ask_title"), 18)]
    if vm.prompt:
        rows.append(muted(vm.prompt, 13))
    rows += [
        ft.Row(chips, wrap=True, spacing=8, run_spacing=8),
        button(tr("ui.cancel"), lambda e: ctl.cancel_action(), style="text", identifier="michel-cancel"),
    ]
    return card(
        ft.Column(rows, spacing=10, tight=True),
        identifier="michel-ask",
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(2, ft.Colors.PRIMARY),
    )


def _ident(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "+".join(str(v) for v in value) or "none"
    return str(value).lower().replace(" ", "_")


# --- a pending decision -----------------------------------------------------------------------


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
            parts.append(_ident(act[key]))
    if act.get("type") == "weapon":
        parts.append(str(a.seat))
    return "-".join(parts)


# --- the Warden's alert and other reactions ----------------------------------------------------


def offence_alert(ctl: Any, vm: ReactionsVM, tr: Tr) -> ft.Control | None:
    off = vm.offence
    if off is None:
        return None
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
    content = ft.Column(
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
            ft.Text(tr("ui.offence_help"), size=13, color=ft.Colors.WHITE),
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


def reactions_panel(
    ctl: Any, vm: ReactionsVM, tr: Tr, open_seat: int | None = None, names: list[str] | None = None
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


# --- what just happened ----------------------------------------------------------------------------


class ResultStrip:
    """What just happened (and the die rolled), with a button to dismiss it.

    It stays on the page and is rewritten in place: the news of an action is new values for the
    same texts, a small patch that every screen of the table draws in one quick frame.
    """

    def __init__(self, tr: Tr, on_close: Any) -> None:
        self.texts: list[ft.Text] = []
        self.column = ft.Column(spacing=3, expand=True, tight=True)
        self.die = ft.Container(visible=False)
        title = ft.Row(
            [
                ft.Text(tr("ui.what_happened"), size=13, weight=ft.FontWeight.BOLD, expand=True),
                icon_button(ft.Icons.CLOSE, tr("ui.dismiss"), on_close, identifier="result-close", size=18),
            ],
            spacing=4,
        )
        body = ft.Row([self.die, self.column], spacing=12, vertical_alignment=ft.CrossAxisAlignment.START)
        self.control = card(
            ft.Column([title, body], spacing=4, tight=True),
            identifier="result",
            padding=10,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        )
        self.lines: list[str] | None = None

    def set(self, lines: list[str], die: ft.Control | None) -> bool:
        """Show these lines and die; False when they are already shown."""
        if lines == self.lines and die is self.die.content:
            return False
        self.lines = list(lines)
        while len(self.texts) < len(lines):
            self.texts.append(ft.Text(size=13))
        for text, line in zip(self.texts, lines, strict=False):
            text.value = line
        shown: list[ft.Control] = list(self.texts[: len(lines)])
        self.column.controls = shown
        self.die.content = die
        self.die.visible = die is not None
        return True
