"""Settings: theme, how dice are rolled, how neutral destinations are chosen, language."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import flet as ft

from ..settings import DIE_MODES, NEUTRAL_MODES, THEMES
from ..vm.text import Tr, available_languages
from ..widgets.common import card, choice_chips, heading, muted, tap
from .base import Screen


class SettingsScreen(Screen):
    title_key = "ui.settings_title"

    def content(self) -> ft.Control:
        tr = self.tr
        s = self.app.settings
        rows = [
            self._section(tr("ui.setting_theme"), tr("ui.setting_theme_hint"),
                          choice_chips([(t, tr(f"ui.theme_{t}")) for t in THEMES], s.theme,
                                       lambda v: self._set(theme=v), prefix="theme")),
            self._section(tr("ui.setting_dice"), tr("ui.setting_dice_hint"),
                          choice_chips([(m, tr(f"ui.dice_{m}")) for m in DIE_MODES], s.die_mode,
                                       lambda v: self._set(die_mode=v), prefix="dice")),
            self._section(tr("ui.setting_neutrals"), tr("ui.setting_neutrals_hint"),
                          choice_chips([(m, tr(f"ui.neutrals_mode_{m}")) for m in NEUTRAL_MODES],
                                       s.neutral_destinations, lambda v: self._set(neutral_destinations=v),
                                       prefix="neutral-dest")),
            self._section(tr("ui.setting_language"), tr("ui.setting_language_hint"), self._languages()),
        ]
        if self.app.services.lan_url:
            rows.append(self._section(tr("ui.setting_lan"), tr("ui.setting_lan_hint"),
                                      ft.Text(self.app.services.lan_url, selectable=True, size=15)))
        return ft.Column(rows, spacing=12)

    def _languages(self) -> ft.Control:
        """Each language named in itself, in its own script's font."""
        chips = []
        for lang in available_languages():
            name = self.tr.raw(f"ui.language_{lang}") if self.tr.has(f"ui.language_{lang}") else lang
            on = lang == self.app.settings.language
            text = ft.Text(name, size=15, weight=ft.FontWeight.W_600 if on else None, font_family=Tr(lang).font)
            chips.append(tap(ft.Row([ft.Icon(ft.Icons.CHECK, size=16) if on else ft.Container(width=0), text],
                                    spacing=4, tight=True),
                             lambda e, v=lang: self._set(language=v), name, identifier=f"language-{lang}", selected=on,
                             padding=ft.Padding.symmetric(horizontal=12, vertical=8), radius=20,
                             bgcolor=ft.Colors.SECONDARY_CONTAINER if on else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                             border=ft.Border.all(1, ft.Colors.PRIMARY if on else ft.Colors.OUTLINE_VARIANT)))
        return ft.Row(chips, wrap=True, spacing=8, run_spacing=8)

    def _section(self, title: str, hint: str, control: ft.Control) -> ft.Control:
        return card(ft.Column([heading(title, 17), muted(hint, 13), control], spacing=8, tight=True))

    def _set(self, **changes: Any) -> None:
        self.app.save_settings(replace(self.app.settings, **changes))
        self.tr = self.app.tr
        self.app.render()
