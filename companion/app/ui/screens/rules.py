"""The rules: every rule id with the text written for the table, by section, searchable.
Flags link here with `?rule=ID`: that rule is shown first and highlighted."""

from __future__ import annotations

from typing import Any

import flet as ft

from ...vm.rules import rule_count, rules_view
from ..port import AppPort
from ..widgets.common import DANGER, card, heading, muted, pill
from .base import Screen


class RulesScreen(Screen):
    title_key = "ui.rules_title"

    def __init__(self, app: AppPort, query: dict[str, str]) -> None:
        super().__init__(app, query)
        self.search = query.get("q", "")
        self.highlight = query.get("rule")
        self.results = ft.Column(spacing=10)
        self.field = ft.TextField(
            label=self.tr("ui.rules_search"),
            value=self.search,
            prefix_icon=ft.Icons.SEARCH,
            on_change=self._changed,
            autofocus=not self.highlight,
        )

    def content(self) -> ft.Control:
        self._fill()
        return ft.Column([self.field, self.results], spacing=10)

    def _changed(self, e: Any) -> None:
        self.search = e.control.value or ""
        self.highlight = None
        self._fill()
        self.results.update()

    def _fill(self) -> None:
        tr = self.tr
        sections = rules_view(tr, self.search, self.highlight)
        rows: list[ft.Control] = [muted(tr("ui.rules_count", count=rule_count(sections)), 12)]
        if self.highlight:
            hit = next((r for s in sections for r in s.rules if r.ident == self.highlight), None)
            if hit is not None:
                rows.append(self._rule(hit.ident, hit.text, True))
        for section in sections:
            rows.append(heading(section.title, 17))
            for rule in section.rules:
                rows.append(self._rule(rule.ident, rule.text, rule.highlighted))
        if len(rows) == 1:
            rows.append(muted(tr("ui.rules_none")))
        self.results.controls = rows

    def _rule(self, ident: str, text: str, highlighted: bool) -> ft.Control:
        return card(
            ft.Row(
                [
                    pill(
                        ident,
                        bold=True,
                        size=13,
                        bgcolor=DANGER if highlighted else None,
                        color=ft.Colors.WHITE if highlighted else None,
                    ),
                    ft.Text(text, size=14, expand=True, selectable=True),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=10,
            ),
            padding=12,  # a one-line rule, whose text one may select, is a touch target high too
            identifier=f"rule-{ident}{'-top' if highlighted else ''}",
            bgcolor=ft.Colors.ERROR_CONTAINER if highlighted else ft.Colors.SURFACE_CONTAINER_LOW,
            label=f"{ident}: {text}",
        )
