"""A pending decision: whose it is, what it asks, and its answers (or the die, or the cards to
discard, it needs first)."""

from __future__ import annotations

import functools

import flet as ft

from ....vm.interaction import TableControl
from ....vm.pending import AnswerVM, PendingVM
from ....vm.text import Tr
from ..common import Memo, card, ident, muted, paint, stepper
from ..common import flat_button as button
from ..die import die_face, show_pips
from .dice import die_entry, die_pad


class PendingPanel:
    """The pending decision's card, kept on a screen and rewritten in place.

    A decision follows most moves (where to go with the die), on every screen of the table. Built
    anew, its card, header and die were hundreds of controls to configure and send on each
    screen; now the frame, whose decision it is, the title and the die stay, the die turning its
    pips, and only what the decision offers (its answers, the cards to pick) is new.
    """

    def __init__(self) -> None:
        # Its identifier stays "pending" whatever it asks: an identifier changed in place was
        # seen to stay old in the browser's semantics tree.
        self.initial = ft.Text(weight=ft.FontWeight.BOLD, size=16)
        self.badge = ft.Container(
            self.initial, width=34, height=34, border_radius=ft.BorderRadius.all(17), alignment=ft.Alignment.CENTER
        )
        self.whose = ft.Text(size=13, weight=ft.FontWeight.W_600, color=ft.Colors.ON_SURFACE_VARIANT, expand=True)
        self.title = ft.Text(size=20, weight=ft.FontWeight.BOLD)
        self.die = die_face(None, 44)
        self.die_note = muted("", 13)
        self.die_row = ft.Row(
            [self.die, self.die_note], spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER, visible=False
        )
        self.offers = ft.Column(spacing=12, tight=True)
        column = ft.Column(
            [
                ft.Row([self.badge, self.whose], spacing=10),
                ft.Semantics(identifier="pending-title", container=True, live_region=True, content=self.title),
                self.die_row,
                self.offers,
            ],
            spacing=12,
            tight=True,
        )
        named = card(column, identifier="pending", padding=16, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)
        assert isinstance(named, ft.Semantics) and isinstance(named.content, ft.Container)
        self.control, self.box = named, named.content
        self.answers = Memo(keep=3)  # an answer offered again (Fight, Cooperate) keeps its button
        self.shown: tuple[str, ...] | None = None

    def show(self, ctl: TableControl, vm: PendingVM, tr: Tr, die_for: AnswerVM | None, pick: list[str]) -> bool:
        """Show this decision; False when it is shown already."""
        key = (repr(vm), repr(die_for), repr(pick), tr.lang)
        if key == self.shown:
            return False
        self.shown = key
        fill, ink = paint(vm.color)
        self.initial.value, self.initial.color, self.badge.bgcolor = vm.player[:1].upper(), ink, fill
        self.whose.value = tr("ui.decision_for", player=vm.player)
        self.title.value = vm.title
        self.box.border = ft.Border.all(3, fill)
        self.die_row.visible = vm.die is not None
        if vm.die is not None:
            show_pips(self.die, vm.die)
            self.die_note.value = tr("ui.highlighted_on_map")
        self.offers.controls = _offers(ctl, vm, tr, die_for, pick, self.answers)
        self.answers.cycle()
        return True


def _offers(
    ctl: TableControl, vm: PendingVM, tr: Tr, die_for: AnswerVM | None, pick: list[str], answers: Memo
) -> list[ft.Control]:
    """What the decision shows beside its title: its details, then its answers (or the die, or
    the cards to discard, it needs first)."""
    rows: list[ft.Control] = []
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

        def buttons(offered: list[AnswerVM]) -> ft.Row:
            kept = [answers.get(repr(a), functools.partial(_answer_button, ctl, a, tr)) for a in offered]
            return ft.Row(kept, wrap=True, spacing=10, run_spacing=10)

        rows.append(buttons(vm.answers))
        if vm.helpers:
            rows.append(muted(tr("ui.helpers_title"), 13))
            rows.append(buttons(vm.helpers))
    return rows


def _answer_button(ctl: TableControl, a: AnswerVM, tr: Tr) -> ft.Control:
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
