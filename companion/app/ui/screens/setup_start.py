"""The setup form's starting state: where each player starts, with what, and the hand each
holds, for a game entered part-way through or with the physical hands named.

A mixin of `SetupScreen`, which owns the form and re-renders the page after each edit.
"""

from __future__ import annotations

import functools
from typing import Any

import flet as ft

from companion.rules import load_catalog

from ...vm.setup import HandTotalVM, SetupForm, hand_cards, hand_total, start_places
from ...vm.text import Tr
from ..widgets.common import button, card, choice_chips, heading, muted, pill, stepper, switch


class StartingStateEditors:
    """The in-progress switch, a starting-state card per player and a hand editor per player."""

    form: SetupForm
    tr: Tr
    adding: dict[int, bool]  # seats whose "add cards" chips were folded (False) or opened again (True)

    def _rerender(self) -> None:
        raise NotImplementedError

    def _switch(self, label: str, hint: str, value: bool, on_change: Any, ident: str) -> ft.Control:
        return ft.Column([switch(label, value, on_change, identifier=ident), muted(hint, 12)], spacing=0, tight=True)

    def _progress(self) -> ft.Control:
        tr = self.tr
        f = self.form
        rows: list[ft.Control] = [
            self._switch(
                tr("ui.in_progress"),
                tr("ui.in_progress_hint"),
                f.in_progress,
                self._set_in_progress,
                "switch-in-progress",
            )
        ]
        if f.in_progress:
            places = start_places(f)
            for seat, _p in enumerate(f.players):
                rows.append(self._start_editor(seat, places))
        return card(ft.Column(rows, spacing=8, tight=True), identifier="setup-progress")

    def _start_editor(self, seat: int, places: list[str]) -> ft.Control:
        tr = self.tr
        f = self.form
        p = f.players[seat]
        st = p.start
        name = p.name.strip() or tr("ui.player_default_name", number=seat + 1)
        home = places[0] if places else None
        rows: list[ft.Control] = [
            ft.Text(name, size=16, weight=ft.FontWeight.BOLD),
            muted(tr("ui.start_place"), 12),
            choice_chips(
                [(pl, tr.name("place", pl)) for pl in places],
                st.place or home,
                lambda v: self._start(seat, "place", v),
                prefix=f"start-place-{seat}",
                label_of=lambda t: tr("ui.start_place_choice", player=name, place=t),
            ),
        ]
        for field_name, high in (("cigarettes", 200), ("beatings", 2), ("tunnel", 99)):
            label = tr(f"ui.start_{field_name}")
            rows.append(
                ft.Row(
                    [
                        ft.Text(label, size=14, expand=True),
                        stepper(
                            getattr(st, field_name),
                            functools.partial(self._start, seat, field_name),
                            low=0,
                            high=high,
                            label=tr("ui.start_field_of", field=label, player=name),
                            fmt=tr.num,
                            prefix=f"start-{field_name}-{seat}",
                        ),
                    ]
                )
            )
        gangs = [(None, tr("ui.no_gang"))] + [(g, tr.name("gang", g)) for g in sorted(load_catalog().gangs)]
        rows.append(muted(tr("ui.start_gang"), 12))
        rows.append(
            choice_chips(
                gangs,
                st.gang,
                lambda v: self._start(seat, "gang", v),
                prefix=f"start-gang-{seat}",
                label_of=lambda t: tr("ui.start_gang_choice", player=name, gang=t),
            )
        )
        return card(
            ft.Column(rows, spacing=6, tight=True), identifier=f"start-{seat}", bgcolor=ft.Colors.SURFACE_CONTAINER
        )

    def _hands(self) -> ft.Control:
        """Every seat's starting hand, in every setup: named Search cards or unentered ones,
        with the running total against the starting hand size."""
        tr = self.tr
        rows: list[ft.Control] = [heading(tr("ui.hands_title"), 17), muted(tr("ui.hands_hint"), 12)]
        rows += [self._hand_editor(seat) for seat in range(len(self.form.players))]
        return card(ft.Column(rows, spacing=8, tight=True), identifier="setup-hands")

    def _hand_editor(self, seat: int) -> ft.Control:
        tr = self.tr
        f = self.form
        st = f.players[seat].start
        name = f.players[seat].name.strip() or tr("ui.player_default_name", number=seat + 1)
        total = hand_total(f, seat, tr)
        cards = hand_cards(f.in_progress)
        # The total heads the chips that change it: in view while cards are tapped in.
        rows: list[ft.Control] = [self._hand_heading(seat, name, total), self._hand_adder(seat, name, cards)]
        for cardid, n in ((c, st.known[c]) for c in cards if st.known.get(c)):
            label = tr("ui.start_card_count", player=name, card=tr.name("card", cardid))
            rows.append(
                self._count_row(
                    tr.name("card", cardid),
                    n,
                    functools.partial(self._start_card, seat, cardid),
                    label,
                    f"start-card-{seat}-{cardid}",
                )
            )
        rows.append(
            self._count_row(
                tr("ui.start_unknown"),
                total.unentered,
                lambda v: self._start(seat, "unknown", v),
                tr("ui.start_unknown_of", player=name),
                f"start-unknown-{seat}",
            )
        )
        return card(
            ft.Column(rows, spacing=6, tight=True), identifier=f"start-hand-{seat}", bgcolor=ft.Colors.SURFACE_CONTAINER
        )

    def _hand_heading(self, seat: int, name: str, total: HandTotalVM) -> ft.Control:
        """The player's name and the hand's total, marked while it differs from a starting hand."""
        return ft.Row(
            [
                ft.Text(name, size=15, weight=ft.FontWeight.BOLD),
                ft.Semantics(
                    identifier=f"start-total-{seat}",
                    container=True,
                    content=pill(
                        total.line,
                        size=12,
                        bold=True,
                        bgcolor=None if total.size == total.starting else ft.Colors.TERTIARY_CONTAINER,
                    ),
                ),
            ],
            wrap=True,
        )

    def _count_row(self, text: str, value: int, on_change: Any, label: str, prefix: str) -> ft.Control:
        """One count of a hand, 0 to 20: copies of a card named, or cards nobody entered."""
        return ft.Row(
            [
                ft.Text(text, size=14, expand=True),
                stepper(value, on_change, low=0, high=20, label=label, fmt=self.tr.num, prefix=prefix),
            ]
        )

    def _hand_adder(self, seat: int, name: str, cards: list[str]) -> ft.Control:
        """The cards to add to the hand, one tap each, open until the table folds them (then the
        button that opens them again)."""
        tr = self.tr
        if self.adding.get(seat, True):
            chips = choice_chips(
                [(c, tr.name("card", c)) for c in cards],
                None,
                lambda v: self._add_card(seat, v),
                prefix=f"start-add-{seat}",
                label_of=lambda t: tr("ui.start_add_card", player=name, card=t),
            )
            fold = button(
                tr("ui.start_add_done"),
                lambda e, s=seat: self._fold_adding(s),
                style="text",
                icon=ft.Icons.EXPAND_LESS,
                identifier=f"start-fold-add-{seat}",
            )
            hint = muted(tr("ui.start_add_cards_hint"), 12)
            return ft.Column(
                [ft.Row([hint, fold], wrap=True, spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER), chips],
                spacing=4,
                tight=True,
            )
        return button(
            tr("ui.start_add_cards"),
            lambda e, s=seat: self._open_adding(s),
            style="text",
            icon=ft.Icons.ADD,
            identifier=f"start-open-add-{seat}",
        )

    # --- edits ---------------------------------------------------------------------------------

    def _set_in_progress(self, on: bool) -> None:
        self.form.in_progress = bool(on)
        self._rerender()

    def _start(self, seat: int, name: str, value: Any) -> None:
        setattr(self.form.players[seat].start, name, value)
        self._rerender()

    def _start_card(self, seat: int, card_id: str, n: int) -> None:
        self.form.players[seat].start.set_card(card_id, n, self.form.value("starting_hand"))
        self._rerender()

    def _open_adding(self, seat: int) -> None:
        self.adding[seat] = True
        self._rerender()

    def _fold_adding(self, seat: int) -> None:
        self.adding[seat] = False
        self._rerender()

    def _add_card(self, seat: int, card_id: str) -> None:
        """One tap, one card named: the chips stay open for the next one."""
        st = self.form.players[seat].start
        st.set_card(card_id, st.known.get(card_id, 0) + 1, self.form.value("starting_hand"))
        self._rerender()
