"""The composer: the questions a chosen action still asks (`vm/composer.py`), one step at a
time; the Michel deck's card kinds when an action needs the card the table drew, and the cards
a hand may hold when the table draws one from it at random."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.rules import UNKNOWN

from ....vm.actions import ChoiceVM, StepVM
from ....vm.dice import CardAskVM, MichelAskVM
from ....vm.interaction import TableControl
from ....vm.text import Tr
from ..common import DANGER, card, heading, ident, muted, pill, stepper, tall, tap
from ..common import flat_button as button
from .dice import die_entry


def composer_panel(
    ctl: TableControl,
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


def _step(ctl: TableControl, step: StepVM, tr: Tr, draft: dict[str, Any]) -> ft.Control:
    """The answer controls of one question, by its kind."""
    if step.kind == "one":
        return _one_step(ctl, step, tr)
    if step.kind == "die":
        return die_entry(lambda v: ctl.answer_die(step, v), tr, draft.get("die_progress", []), step.exact or 1)
    if step.kind == "number":
        return _number_step(ctl, step, tr, draft)
    # "many": counts per card
    chosen: list[str] = list(draft.get(step.field, list(step.default or ())))
    cards = _card_entry(ctl, step, tr, chosen) if all(c.limit is None for c in step.choices) else None
    cards = cards or _count_step(ctl, step, tr, chosen)
    if step.then is None:
        return cards
    return ft.Column([cards, _then(ctl, step, step.then, tr, draft, chosen)], spacing=10, tight=True)


def _then(
    ctl: TableControl, step: StepVM, then: StepVM, tr: Tr, draft: dict[str, Any], chosen: list[Any]
) -> ft.Control:
    """The number asked with the cards (a sale's printed total): a tap on it records both, once
    the cards chosen fit."""
    fits = (len(chosen) == step.exact) if step.exact is not None else (step.low <= len(chosen) <= step.high)
    record = (lambda v: ctl.answer_all((step.field, chosen), (then.field, v))) if fits else None
    prompt = ft.Semantics(
        identifier=f"step-{then.field}",
        container=True,
        content=ft.Text(then.prompt, size=15, weight=ft.FontWeight.W_600),
    )
    return ft.Column([prompt, _number_entry(ctl, then, tr, draft, record)], spacing=6, tight=True)


def _one_step(ctl: TableControl, step: StepVM, tr: Tr) -> ft.Control:
    """One choice among several: a tap answers; a refused choice says why when tapped."""
    items = [_choice(ctl, step, c) if c.enabled else _refused_choice(ctl, step, c, tr) for c in step.choices]
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


def _choice(ctl: TableControl, step: StepVM, c: ChoiceVM) -> ft.Control:
    return tap(
        tall(ft.Text(c.label, size=15, weight=ft.FontWeight.W_600), 10),
        lambda e, v=c.value: ctl.answer(step.field, v),
        c.label,
        identifier=f"choice-{step.field}-{ident(c.value)}",
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=14, vertical=10),
    )


def _refused_choice(ctl: TableControl, step: StepVM, c: ChoiceVM, tr: Tr) -> ft.Control:
    """A choice the engine refuses: greyed, with its first reason under it."""
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
    return tap(
        tall(ft.Column(text, spacing=2, tight=True), 8),
        lambda e, ch=c: ctl.explain_choice(ch),
        label,
        identifier=f"choice-{step.field}-{ident(c.value)}",
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        padding=ft.Padding.symmetric(horizontal=12, vertical=8),
    )


def _number_step(ctl: TableControl, step: StepVM, tr: Tr, draft: dict[str, Any]) -> ft.Control:
    """A number within the step's bounds: one tap on a usual value, or −/+ or typed, then Done."""
    return _number_entry(ctl, step, tr, draft, lambda v: ctl.answer(step.field, v))


def _number_entry(
    ctl: TableControl, step: StepVM, tr: Tr, draft: dict[str, Any], record: Callable[[int], Any] | None
) -> ft.Control:
    """The usual values as one tap each (`step.quick`), then − value + (the value may be typed)
    and Done, which records the value shown or typed. `record` None: not possible yet."""
    value = draft.get(step.field, step.default if step.default is not None else step.low)
    field = step.field
    ink = None if record is not None else ft.Colors.ON_SURFACE_VARIANT
    quick = [
        tap(
            tall(ft.Text(tr.num(v), size=16, weight=ft.FontWeight.W_600, color=ink), 6),
            (lambda e, v=v: record(v)) if record is not None else None,
            tr("ui.quick_number", prompt=step.prompt, value=tr.num(v)),
            identifier=f"quick-{field}-{v}",
            bgcolor=ft.Colors.SECONDARY_CONTAINER if record is not None else ft.Colors.SURFACE_CONTAINER_HIGHEST,
            padding=ft.Padding.symmetric(horizontal=12, vertical=6),
            radius=16,
            enabled=record is not None,
        )
        for v in step.quick
    ]
    entry = stepper(  # − and + move the value, typed it is kept as typed; Done records it
        value,
        lambda v: ctl.set_draft(field, v),
        low=step.low,
        high=step.high,
        label=step.prompt,
        fmt=tr.num,
        prefix=f"number-{field}",
        on_typing=lambda v: ctl.keep(field, v),
    )
    done = button(
        tr("ui.done"),
        (lambda e: record(ctl.draft.get(field, value))) if record is not None else None,
        identifier=f"done-{field}",
    )
    return ft.Row(
        [*quick, entry, done],
        wrap=True,
        spacing=8,
        run_spacing=8,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def _count_step(ctl: TableControl, step: StepVM, tr: Tr, chosen: list[str]) -> ft.Control:
    """Cards with a limit each (the hand's): a count per card, then Done once the total fits."""
    total = len(chosen)
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
                        prefix=f"many-{step.field}-{ident(c.value)}",
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
    tail: list[ft.Control] = [muted(counter, 13)]
    if step.then is None:  # else the number asked with the cards records them
        tail.append(done)
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


def _card_entry(ctl: TableControl, step: StepVM, tr: Tr, chosen: list[Any]) -> ft.Control:
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
                identifier=f"entered-{step.field}-{ident(value)}",
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
            identifier=f"add-{step.field}-{ident(c.value)}",
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
                ([counter] if entered else []) + ([done] if step.then is None else []),
                wrap=True,
                spacing=10,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        ],
        spacing=8,
        tight=True,
    )


def michel_panel(ctl: TableControl, vm: MichelAskVM, tr: Tr) -> ft.Control:
    """The real Michel deck's card kinds: the table taps the one it drew."""
    chips = [
        _drawn_chip(name, lambda e, c=card: ctl.pick_michel(c), tr("ui.michel_ask_card", card=name), f"michel-{card}")
        for card, name in vm.cards
    ]
    return _ask_card(vm.title or tr("ui.michel_ask_title"), vm.prompt, chips, ctl, tr, "michel")


def card_panel(ctl: TableControl, vm: CardAskVM, tr: Tr) -> ft.Control:
    """The cards a hand may hold: the table taps the one it drew from the real hand."""
    chips = [
        _drawn_chip(
            name,
            lambda e, c=card: ctl.pick_card(c),
            tr("ui.card_ask_unknown_label") if card == UNKNOWN else tr("ui.card_ask_card", card=name),
            f"drawn-{card}",
        )
        for card, name in vm.cards
    ]
    return _ask_card(vm.title, vm.prompt, chips, ctl, tr, "drawn")


def _drawn_chip(name: str, on_click: Any, label: str, identifier: str) -> ft.Control:
    return tap(
        tall(ft.Text(name, size=15, weight=ft.FontWeight.W_600), 10),
        on_click,
        label,
        identifier=identifier,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=14, vertical=10),
    )


def _ask_card(title: str, prompt: str, chips: list[ft.Control], ctl: TableControl, tr: Tr, prefix: str) -> ft.Control:
    """A card the table drew from the box, asked: its question, what was entered so far, the cards."""
    rows: list[ft.Control] = [heading(title, 18)]
    if prompt:
        rows.append(muted(prompt, 13))
    rows += [
        ft.Row(chips, wrap=True, spacing=8, run_spacing=8),
        button(tr("ui.cancel"), lambda e: ctl.cancel_action(), style="text", identifier=f"{prefix}-cancel"),
    ]
    return card(
        ft.Column(rows, spacing=10, tight=True),
        identifier=f"{prefix}-ask",
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(2, ft.Colors.PRIMARY),
    )
