"""Correct the table: set what the app holds to what the box shows, as one logged `adjust`.

Every edit waits in a draft (vm/correct.py) that is read back in words and judged by the engine
before anything is recorded; one tap records it all, with the version on screen like any action.
A correction is never flagged, and undo takes it back like any other entry.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from ...services.opening import Opening
from ...vm import correct as vm
from ..port import AppPort
from ..widgets.common import DANGER, button, card, choice_chips, heading, muted, pill, stepper
from .base import GameScreen

TOTAL_HIGH = 200  # steppers for piles and the deck: far above anything in the box


class CorrectScreen(GameScreen):
    title_key = "correct.title"

    def __init__(self, app: AppPort, opening: Opening, query: dict[str, str]) -> None:
        super().__init__(app, opening, query)
        self.draft = vm.Draft(seat=0 if self.problem else self.session.state.active)

    # --- building ------------------------------------------------------------------------------

    def content(self) -> ft.Control:
        if self.problem:
            return muted(self.problem)
        tr = self.tr
        return ft.Column([muted(tr("correct.hint"), 14), self._player(), self._table(), self._summary()], spacing=12)

    def _number(self, path: str, label: str, high: int) -> ft.Control:
        s = self.session.state
        return ft.Row(
            [
                ft.Text(label, size=15, expand=True),
                stepper(
                    vm.value(s, self.draft, path),
                    lambda v: self._set(path, v),
                    high=high,
                    label=label,
                    prefix=f"correct-{path.replace('.', '-')}",
                    fmt=self.tr.num,
                ),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )

    def _places(self, path: str, prefix: str) -> ft.Control:
        s = self.session.state
        return choice_chips(
            [(pid, self.tr.name("place", pid)) for pid in s.board.places],
            vm.value(s, self.draft, path),
            lambda v: self._set(path, v),
            prefix=prefix,
        )

    def _player(self) -> ft.Control:
        tr, s, d = self.tr, self.session.state, self.draft
        p = s.players[d.seat]
        base = f"players.{d.seat}"
        rows: list[ft.Control] = [
            heading(tr("correct.players"), 17),
            choice_chips([(q.seat, q.name) for q in s.players], d.seat, self._pick_seat, prefix="correct-seat"),
            self._number(f"{base}.tunnel", tr("correct.field.tunnel"), 99),
            self._number(f"{base}.beatings", tr("correct.field.beatings"), s.ruleset.max_beatings),
            self._number(f"{base}.cigarettes", tr("correct.field.cigarettes"), 99),
        ]
        for token in sorted(t for t in s.supplies if t != "trauma"):
            rows.append(self._number(f"{base}.tokens.{token}", tr.name("token", token), 99))
        rows += [muted(tr("correct.field.place")), self._places(f"{base}.place", "correct-place")]
        held = [tr("correct.card_count", card=tr.name("card", c), count=n) for c, n in sorted(p.hand.known.items())]
        if p.hand.unknown:
            held.append(tr("correct.unknown_cards", count=p.hand.unknown))
        hand = tr.join(held)
        rows.append(ft.Text(tr("correct.hand_now", hand=hand or tr("correct.hand_empty")), size=14))
        ops = [(op, tr(f"correct.op_{op}")) for op in vm.HAND_OPS]
        blocked = {"identify"} if not p.hand.unknown else set()
        rows.append(choice_chips(ops, d.hand_op, self._pick_op, prefix="correct-op", disabled=blocked))
        cards = vm.card_choices(s, d.hand_op, d.seat)
        rows.append(
            choice_chips([(c, tr.name("card", c)) for c in cards], None, self._hand_edit, prefix="correct-card")
            if cards
            else muted(tr("correct.no_cards"))
        )
        return card(ft.Column(rows, spacing=8, tight=True), identifier="correct-player")

    def _table(self) -> ft.Control:
        tr, s = self.tr, self.session.state
        rows: list[ft.Control] = [heading(tr("correct.table"), 17)]
        if s.warden_module:
            rows += [muted(tr("correct.field.warden")), self._places("warden", "correct-warden")]
        for name in s.neutrals:
            rows += [muted(tr.name("neutral", name)), self._places(f"neutrals.{name}", f"correct-{name}")]
        rows.append(self._number("actions_left", tr("correct.field.actions_left"), 10))
        rows.append(self._number("deck", tr("correct.field.deck"), TOTAL_HIGH))
        for pile in s.piles:
            rows.append(self._number(f"piles.{pile}", tr("correct.pile", card=tr.name("card", pile)), TOTAL_HIGH))
        for token in sorted(t for t in s.supplies if t != "trauma"):
            rows.append(
                self._number(f"supplies.{token}", tr("correct.supply", token=tr.name("token", token)), TOTAL_HIGH)
            )
        return card(ft.Column(rows, spacing=8, tight=True), identifier="correct-table")

    def _summary(self) -> ft.Control:
        tr, s = self.tr, self.session.state
        lines = vm.summary(s, self.draft, tr)
        problems = vm.problems(s, self.draft, tr)
        rows: list[ft.Control] = [heading(tr("correct.summary"), 17)]
        if not lines:
            rows.append(muted(tr("correct.nothing_yet")))
        rows += [ft.Text(f"• {line}", size=14) for line in lines]
        for r in problems:
            rows.append(
                ft.Semantics(
                    identifier=f"correct-problem-{r.rule}",
                    container=True,
                    content=ft.Row(
                        [
                            pill(r.rule, bgcolor=DANGER, color=ft.Colors.WHITE, bold=True),
                            ft.Text(r.message, size=14, expand=True),
                        ],
                        vertical_alignment=ft.CrossAxisAlignment.START,
                    ),
                )
            )
        rows.append(
            ft.TextField(
                label=tr("correct.reason"), value=self.draft.reason, dense=True, max_length=200, on_change=self._reason
            )
        )
        rows.append(
            ft.Row(
                [
                    button(  # always on: the tap that leaves a number field may be the one completing the draft
                        tr("correct.record"),
                        lambda e: self._record(),
                        identifier="correct-record",
                        icon=ft.Icons.CHECK,
                    ),
                    button(
                        tr("correct.clear"),
                        (lambda e: self._clear()) if lines else None,
                        style="text",
                        identifier="correct-clear",
                    ),
                ],
                wrap=True,
                spacing=8,
            )
        )
        return card(ft.Column(rows, spacing=8, tight=True), identifier="correct-summary")

    # --- taps ----------------------------------------------------------------------------------

    def _set(self, path: str, new: Any) -> None:
        self.draft.values[path] = new
        self.app.render()

    def _pick_seat(self, seat: int) -> None:
        self.draft.seat = seat
        self.app.render()

    def _pick_op(self, op: str) -> None:
        self.draft.hand_op = op
        self.app.render()

    def _hand_edit(self, card_id: str) -> None:
        self.draft.hand.append((self.draft.seat, self.draft.hand_op, card_id))
        self.app.render()

    def _reason(self, e: Any) -> None:
        self.draft.reason = e.control.value or ""  # typing only changes the draft: no re-render

    def _clear(self) -> None:
        self.draft = vm.Draft(seat=self.draft.seat)
        self.app.render()

    def _record(self) -> None:
        """Record the draft, or say why not. Record is on even before the draft is ready: a number
        typed and not yet left is taken by the tap that leaves its field, this one (the screen
        is redrawn after it: Shell.render), and a button off when the finger went down would
        never see that tap."""
        s = self.session.state
        action = vm.correction(s, self.draft)
        problems = vm.problems(s, self.draft, self.tr)
        if action is None:
            self.app.toast(self.tr("correct.nothing_yet"))
        elif problems:
            self.app.toast(f"{problems[0].rule}: {problems[0].message}")
        else:
            self.later(self._recorded, action)

    async def _recorded(self, action: dict[str, Any]) -> None:
        outcome = await self.session.record(action)
        if outcome.stale:
            self.app.toast(self.tr("ui.stale"))
            self.app.render()
        elif outcome.error:
            self.app.toast(self.tr("ui.store_problem", problem=outcome.error))
        elif not outcome.accepted:  # the state changed under the draft: the engine says what no longer fits
            self.app.render()
        else:  # the session told the game's other screens (services/tables.py); the table this tab
            # goes back to tells it as what just happened
            self.app.just_recorded[self.game_id] = (self.session.version, list(outcome.events))
            self.app.toast(self.tr("correct.recorded"))
            self.app.go(f"/game/{self.game_id}")
