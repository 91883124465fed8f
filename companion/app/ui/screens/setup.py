"""Setup: 2–6 players with names and colours, ruleset and house rules, Michel & Michelle,
the Warden and the Dig In Places, Team mode, an optional starting state, and whether this
screen is shared by the table.

The engine validates the form on every change (`SetupForm.problems`); the reason a game cannot
start is shown inline, with its rule id, and Start stays off until it is fixed. Name fields
are kept across re-renders so typing never loses focus.
"""

from __future__ import annotations

import functools
from typing import Any

import flet as ft

from companion.rules import PRESETS, PUNISHMENT_CHOOSERS

from ...vm.rulings import house_rule_words
from ...vm.setup import HOUSE_NUMBERS, MAX_PLAYERS, MIN_PLAYERS, SetupForm, dig_in_places
from ...vm.table import COLORS
from ..port import AppPort
from ..widgets.common import (
    DANGER,
    button,
    card,
    choice_chips,
    heading,
    icon_button,
    muted,
    paint,
    pill,
    stepper,
    switch,
    tap,
)
from .base import Screen
from .checklist import SetupDraft, draft_of, drop_draft, hand_ticks_to_game, keep_draft
from .settings import screen_choice
from .setup_start import StartingStateEditors


class SetupScreen(StartingStateEditors, Screen):
    title_key = "ui.setup_title"

    def __init__(self, app: AppPort, query: dict[str, str]) -> None:
        super().__init__(app, query)
        mode = "random" if app.settings.neutral_destinations == "automatic" else "ask"
        kept = draft_of(app) if query.get("keep") else None  # back from its checklist: the same form
        self.draft = kept or SetupDraft(SetupForm.default(3, neutral_destination=mode, kept=app.settings.kept_rulings))
        self.form = self.draft.form
        self.fields: list[ft.TextField] = []
        self.problem_box = ft.Container()
        self.first_box = ft.Container()
        self.start_box = ft.Container()
        self.adding: dict[int, bool] = {}

    def back_route(self) -> str | None:
        return "/"

    # --- building ------------------------------------------------------------------------------

    def _team_chips(self, seat: int, team: str | None) -> ft.Control:
        tr = self.tr
        return choice_chips(
            [("a", tr("ui.team_a")), ("b", tr("ui.team_b"))],
            team,
            lambda v: self._set_team(seat, v),
            prefix=f"team-{seat}",
            label_of=lambda t: tr("ui.team_choice", number=seat + 1, team=t),
        )

    def _name_field(self, seat: int) -> ft.TextField:
        while len(self.fields) <= seat:
            i = len(self.fields)
            self.fields.append(
                ft.TextField(
                    label=self.tr("ui.player_name_label", number=i + 1),
                    value=self.form.players[i].name,
                    hint_text=self.tr("ui.player_default_name", number=i + 1),
                    on_change=lambda e, s=i: self._named(s, e.data if isinstance(e.data, str) else e.control.value),
                    expand=True,
                )
            )
        return self.fields[seat]

    def content(self) -> ft.Control:
        sections = [self._players(), self._hands(), self._rules(), self._modules(), self._progress()]
        sections.append(screen_choice(self))  # whether this screen will hide the hands
        self._refresh_problems(update=False)
        sections.append(
            card(ft.Column([self.problem_box, self.start_box], spacing=10, tight=True), identifier="setup-start")
        )
        return ft.Column(sections, spacing=12)

    def _players(self) -> ft.Control:
        tr = self.tr
        f = self.form
        rows: list[ft.Control] = [
            ft.Row(
                [
                    heading(tr("ui.setup_players", count=len(f.players)), 18),
                    ft.Row(
                        [
                            icon_button(
                                ft.Icons.PERSON_REMOVE,
                                tr("ui.remove_last_player"),
                                lambda e: self._remove(len(f.players) - 1),
                                identifier="setup-remove-player",
                                enabled=len(f.players) > MIN_PLAYERS,
                            ),
                            icon_button(
                                ft.Icons.PERSON_ADD,
                                tr("ui.add_player"),
                                lambda e: self._add(),
                                identifier="setup-add-player",
                                enabled=len(f.players) < MAX_PLAYERS,
                            ),
                        ],
                        tight=True,
                    ),
                ],
                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            )
        ]
        for seat, p in enumerate(f.players):
            colours = ft.Row([self._swatch(seat, c, c == p.color) for c in COLORS], wrap=True, spacing=4, run_spacing=4)
            line: list[ft.Control] = [ft.Row([self._name_field(seat)], expand=True)]
            rows.append(ft.Column([ft.Row(line), colours], spacing=4, tight=True))
            if f.team:
                rows.append(self._team_chips(seat, p.team))
            rows.append(ft.Divider(height=6))
        rows.append(muted(tr("ui.first_player"), 13))
        self._fill_first()
        rows.append(self.first_box)
        return card(ft.Column(rows, spacing=8, tight=True), identifier="setup-players")

    def _fill_first(self) -> None:
        tr = self.tr
        f = self.form
        names = [(i, (p.name.strip() or tr("ui.player_default_name", number=i + 1))) for i, p in enumerate(f.players)]
        self.first_box.content = choice_chips(
            names,
            f.first_player,
            self._set_first,
            prefix="first",
            label_of=lambda n: tr("ui.first_player_choice", player=n),
        )

    def _swatch(self, seat: int, color: str, on: bool) -> ft.Control:
        fill, ink = paint(color)
        name = self.tr(f"ui.color_{color}")
        inner = ft.Container(
            ft.Icon(ft.Icons.CHECK, color=ink, size=18) if on else None,
            width=30,
            height=30,
            bgcolor=fill,
            border_radius=ft.BorderRadius.all(15),
            alignment=ft.Alignment.CENTER,
            border=ft.Border.all(3 if on else 1, ft.Colors.PRIMARY if on else ft.Colors.OUTLINE),
        )
        return tap(
            inner,
            lambda e: self._set_color(seat, color),
            self.tr("ui.color_choice", number=seat + 1, color=name),
            identifier=f"color-{seat}-{color}",
            selected=on,
            padding=3,
            radius=20,
        )

    def _rules(self) -> ft.Control:
        tr = self.tr
        f = self.form
        rows: list[ft.Control] = [
            heading(tr("ui.setup_rules"), 18),
            choice_chips([(p, tr(f"ui.preset_{p}")) for p in PRESETS], f.ruleset, self._set_ruleset, prefix="ruleset"),
            muted(tr(f"ui.preset_{f.ruleset}_hint"), 12),
            muted(tr("ui.house_rules"), 13),
        ]
        for name in HOUSE_NUMBERS:
            value = f.value(name)
            changed = name in f.house and f.house[name] != f.preset_value(name)
            label = tr(f"ui.house_{name}")
            rows.append(
                ft.Row(
                    [
                        ft.Text(label, size=14, expand=True),
                        pill(tr("ui.house_changed"), bgcolor=ft.Colors.TERTIARY_CONTAINER)
                        if changed
                        else ft.Container(),
                        stepper(
                            value,
                            functools.partial(self._set_house, name),
                            low=0 if name != "actions_per_turn" else 1,
                            high=100 if name == "target" else 20,
                            label=label,
                            fmt=tr.num,
                            prefix=f"house-{name}",
                        ),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                )
            )
        rows.extend(self._kept_rulings())
        return card(ft.Column(rows, spacing=8, tight=True), identifier="setup-rules")

    def _kept_rulings(self) -> list[ft.Control]:
        """The rulings the table kept from earlier games: each on, unless switched off here."""
        tr = self.tr
        if not self.form.kept:
            return []
        rows: list[ft.Control] = [muted(tr("ui.kept_rulings"), 13)]
        for n, kept in enumerate(self.form.kept):
            words = house_rule_words(kept["house_rules"], tr)
            why = tr("ui.kept_ruling_why", ruling=kept["ruling"]) if kept["ruling"] else tr("ui.kept_ruling_no_why")
            rows.append(
                self._switch(words, why, n not in self.form.kept_off, functools.partial(self._set_kept, n), f"kept-{n}")
            )
        return rows

    def _modules(self) -> ft.Control:
        tr = self.tr
        f = self.form
        rows: list[ft.Control] = [
            heading(tr("ui.setup_modules"), 18),
            ft.Text(tr("ui.neutrals"), size=14, weight=ft.FontWeight.W_600),
            choice_chips(
                [(0, tr("ui.neutrals_0")), (1, tr("ui.neutrals_1")), (2, tr("ui.neutrals_2"))],
                f.neutrals,
                self._set_neutrals,
                prefix="neutrals",
            ),
        ]
        if f.neutrals:
            rows.append(
                choice_chips(
                    [("ask", tr("ui.neutral_ask")), ("random", tr("ui.neutral_random"))],
                    f.neutral_destination,
                    self._set_neutral_mode,
                    prefix="neutral-mode",
                )
            )
        rows.append(
            self._switch(
                tr("ui.warden_module"), tr("ui.warden_module_hint"), f.warden, self._set_warden, "switch-warden"
            )
        )
        if f.warden:
            rows.append(
                choice_chips(
                    [(c, tr(f"ui.punishment_{c}")) for c in PUNISHMENT_CHOOSERS],
                    f.punishment_choice,
                    self._set_punishment_choice,
                    prefix="punishment-choice",
                )
            )
        rows.append(ft.Text(tr("ui.dig_in_places"), size=14, weight=ft.FontWeight.W_600))
        places = [(p, tr.name("place", p)) for p in dig_in_places()]
        rows.append(choice_chips(places, set(f.places), self._toggle_place, prefix="dig-in", multi=True))
        rows.append(
            self._switch(tr("ui.team_mode"), tr("ui.team_mode_hint"), f.team, self._set_team_mode, "switch-team")
        )
        return card(ft.Column(rows, spacing=8, tight=True), identifier="setup-modules")

    def _switch(self, label: str, hint: str, value: bool, on_change: Any, ident: str) -> ft.Control:
        return ft.Column([switch(label, value, on_change, identifier=ident), muted(hint, 12)], spacing=0, tight=True)

    def _refresh_problems(self, update: bool = True) -> None:
        tr = self.tr
        problems = self.form.problems(tr)
        if problems:
            self.problem_box.content = ft.Column(
                [
                    ft.Semantics(
                        identifier=f"setup-problem-{pr.rule or 'config'}",
                        container=True,
                        live_region=True,
                        content=ft.Row(
                            [
                                pill(
                                    pr.rule or tr("ui.setup_problem"), bgcolor=DANGER, color=ft.Colors.WHITE, bold=True
                                ),
                                ft.Text(pr.message, size=14, color=DANGER, expand=True),
                            ],
                            vertical_alignment=ft.CrossAxisAlignment.START,
                        ),
                    )
                    for pr in problems
                ],
                spacing=6,
                tight=True,
            )
            if problems[0].rule:
                self.problem_box.content.controls.append(muted(tr.rule(problems[0].rule), 12))
        else:
            notes = [
                ft.Semantics(
                    identifier="setup-hand-note",
                    container=True,
                    live_region=True,
                    content=ft.Row(
                        [ft.Icon(ft.Icons.INFO_OUTLINE, color=ft.Colors.ORANGE), ft.Text(note, size=14, expand=True)]
                    ),
                )
                for note in self.form.hand_notes(tr)
            ]
            self.problem_box.content = ft.Column(
                notes
                + [
                    ft.Row(
                        [ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.GREEN), ft.Text(tr("ui.setup_ready"), size=14)]
                    )
                ],
                spacing=6,
                tight=True,
            )
        start = button(
            tr("ui.start_game"),
            None if problems else self._start_game,
            icon=ft.Icons.PLAY_ARROW,
            identifier="setup-start-button",
        )
        checklist = button(
            tr("checklist.open"),
            None if problems else self._open_checklist,
            icon=ft.Icons.CHECKLIST,
            style="outlined",
            identifier="setup-checklist",
        )
        self.start_box.content = ft.Row([start, checklist], wrap=True, spacing=10, run_spacing=10)
        if update:
            try:
                self.problem_box.update()
                self.start_box.update()
            except RuntimeError:
                pass

    # --- edits ---------------------------------------------------------------------------------

    def _rerender(self) -> None:
        self.app.render()

    def _named(self, seat: int, value: str) -> None:
        """Typing updates the form, the first-player chips and the verdict, not the whole page."""
        self.form.players[seat].name = value or ""
        self._fill_first()
        self._refresh_problems()
        try:
            self.first_box.update()
        except RuntimeError:
            pass

    def _add(self) -> None:
        if self.form.add_player():
            self._rerender()

    def _remove(self, seat: int) -> None:
        if self.form.remove_player(seat):
            del self.fields[seat:]
            self._rerender()

    def _set_color(self, seat: int, color: str) -> None:
        for other, p in enumerate(self.form.players):
            if other != seat and p.color == color:  # swap, so two standees never share a colour
                p.color = self.form.players[seat].color
        self.form.players[seat].color = color
        self._rerender()

    def _set_team(self, seat: int, team: str) -> None:
        self.form.players[seat].team = team
        self._rerender()

    def _set_first(self, seat: int) -> None:
        self.form.first_player = seat
        self._rerender()

    def _set_ruleset(self, preset: str) -> None:
        self.form.ruleset = preset
        self.form.house = {}
        self._rerender()

    def _set_house(self, name: str, value: int) -> None:
        self.form.house[name] = value
        self._rerender()

    def _set_kept(self, n: int, on: bool) -> None:
        (self.form.kept_off.discard if on else self.form.kept_off.add)(n)
        self._rerender()

    def _set_neutrals(self, n: int) -> None:
        self.form.neutrals = n
        self._rerender()

    def _set_neutral_mode(self, mode: str) -> None:
        self.form.neutral_destination = mode
        self._rerender()

    def _set_punishment_choice(self, chooser: str) -> None:
        self.form.punishment_choice = chooser
        self._rerender()

    def _set_warden(self, on: bool) -> None:
        self.form.warden = bool(on)
        self._rerender()

    def _toggle_place(self, place: str) -> None:
        self.form.toggle_place(place, place not in self.form.places)
        self._rerender()

    def _set_team_mode(self, on: bool) -> None:
        self.form.team = bool(on)
        self._rerender()

    def _open_checklist(self, e: Any = None) -> None:
        """What to lay out for this setup; Back comes back to this very form."""
        keep_draft(self.app, self.draft)
        self.app.go("/setup/checklist")

    def _start_game(self, e: Any = None) -> None:
        if self.form.problems(self.tr):
            self._refresh_problems()
            return
        self.later(self._create)

    async def _create(self) -> None:
        tr = self.tr
        try:
            game_id = await self.app.services.tables.create_game(self.form.config(tr))
        except Exception as error:  # ConfigError (raced) or a storage problem: keep the form
            self.app.toast(tr("ui.store_problem", problem=getattr(error, "message", str(error))))
            return
        drop_draft(self.app)
        self.app.run_later(hand_ticks_to_game, self.app, game_id, set(self.draft.ticked))
        self.app.go(f"/game/{game_id}")
