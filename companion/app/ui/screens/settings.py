"""Settings: theme, how dice are rolled and cards drawn, how neutral destinations are chosen, sound, language.

Theme, dice, destinations and sound are the table's (the settings file of the host); the language is
this device's own, remembered in this browser (see locale.py), so each phone picks its own: a
joined phone's settings offer only the language.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import flet as ft

from ...services.settings import (
    AFTER_TURN_MODES,
    CARD_MODES,
    DIE_MODES,
    MICHEL_MODES,
    NEUTRAL_MODES,
    SCREEN_MODES,
    SOUND_MODES,
    THEMES,
)
from ...vm.text import Tr, available_languages
from ..locale import choose_language
from ..sound import choose_turn_sound, read_turn_sound, turn_sound
from ..widgets.common import card, choice_chips, heading, muted, tap
from .base import Screen

FOLLOW_DEVICE = "device"  # the picker's value for "no choice: this device's own language"


class SettingsScreen(Screen):
    title_key = "ui.settings_title"

    def content(self) -> ft.Control:
        tr = self.tr
        language = section(tr("ui.setting_language"), tr("ui.setting_language_hint"), self._languages())
        if not getattr(self.app, "host", True):  # a joined phone: its language and its turn sound
            return ft.Column([language, self._turn_sound()], spacing=12)
        rows = [
            language,
            screen_choice(self),
            setting_choice(self, "theme", THEMES, "theme", "theme", "theme"),
            setting_choice(self, "die_mode", DIE_MODES, "dice", "dice", "dice"),
            setting_choice(self, "michel_mode", MICHEL_MODES, "michel", "michel", "michel"),
            setting_choice(self, "card_mode", CARD_MODES, "cards", "cards", "cards"),
            setting_choice(self, "neutral_destinations", NEUTRAL_MODES, "neutrals", "neutrals_mode", "neutral-dest"),
            setting_choice(self, "after_turn", AFTER_TURN_MODES, "after_turn", "after_turn", "after-turn"),
            setting_choice(self, "sound", SOUND_MODES, "sound", "sound", "sound"),
        ]
        if self.app.services.lan_url:
            rows.append(
                section(
                    tr("ui.setting_lan"),
                    tr("ui.setting_lan_hint"),
                    ft.Text(self.app.services.lan_url, selectable=True, size=15),
                )
            )
        return ft.Column(rows, spacing=12)

    def _languages(self) -> ft.Control:
        """ "Like this device", then each language named in itself, in its own script's font."""
        device = self.app.device_language
        saved = getattr(device, "saved", None)
        own = getattr(device, "preferred", None) or "en"
        chosen = saved or FOLLOW_DEVICE
        options = [(FOLLOW_DEVICE, self.tr("ui.language_system", language=_native_name(own)), Tr(own).font)]
        options += [(lang, _native_name(lang), Tr(lang).font) for lang in available_languages()]
        self.app.use_fonts(*(font for _, _, font in options))
        chips = []
        for value, name, font in options:
            on = value == chosen
            text = ft.Text(name, size=15, weight=ft.FontWeight.W_600 if on else None, font_family=font)
            chips.append(
                tap(
                    ft.Row(
                        [ft.Icon(ft.Icons.CHECK, size=16) if on else ft.Container(width=0), text], spacing=4, tight=True
                    ),
                    lambda e, v=value: self._set_language(v),
                    name,
                    identifier=f"language-{value}",
                    selected=on,
                    padding=ft.Padding.symmetric(horizontal=12, vertical=8),
                    radius=20,
                    bgcolor=ft.Colors.SECONDARY_CONTAINER if on else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                    border=ft.Border.all(1, ft.Colors.PRIMARY if on else ft.Colors.OUTLINE_VARIANT),
                )
            )
        return ft.Row(chips, wrap=True, spacing=8, run_spacing=8)

    def _set_language(self, value: str) -> None:
        choose_language(self.app, None if value == FOLLOW_DEVICE else value)

    def _turn_sound(self) -> ft.Control:
        """A phone's own choice: a short sound when it is called to play (off until chosen).
        Its storage is read once; the choice shows when it has answered."""
        tr, app = self.tr, self.app
        chosen = turn_sound(app)
        if not chosen.read:
            app.run_later(self._read_turn_sound)

        def choose(value: str) -> None:
            choose_turn_sound(app, value == "on")
            app.render()

        chips = choice_chips(
            [(m, tr(f"ui.sound_{m}")) for m in ("off", "on")], "on" if chosen.on else "off", choose, prefix="turn-sound"
        )
        return section(tr("ui.setting_turn_sound"), tr("ui.setting_turn_sound_hint"), chips)

    async def _read_turn_sound(self) -> None:
        on = await read_turn_sound(self.app)
        if on and self.app.screen is self:
            self.app.render()


def section(title: str, hint: str, control: ft.Control) -> ft.Control:
    return card(ft.Column([heading(title, 17), muted(hint, 13), control], spacing=8, tight=True))


def setting_choice(screen: Screen, field: str, modes: tuple[str, ...], key: str, label: str, prefix: str) -> ft.Control:
    """One of the table's settings as a row of chips (`ui.setting_<key>`, each mode `ui.<label>_<mode>`);
    a tap saves it and redraws the screen showing it."""
    tr, app = screen.tr, screen.app

    def choose(value: str) -> None:
        chosen: dict[str, Any] = {field: value}  # one of the settings' text fields
        app.save_settings(replace(app.settings, **chosen))
        screen.tr = app.tr
        app.render()

    chips = choice_chips(
        [(m, tr(f"ui.{label}_{m}")) for m in modes], getattr(app.settings, field), choose, prefix=prefix
    )
    return section(tr(f"ui.setting_{key}"), tr(f"ui.setting_{key}_hint"), chips)


def screen_choice(screen: Screen) -> ft.Control:
    """ "This screen": shared by the table, or the referee's own (the setup and the console offer it too)."""
    return setting_choice(screen, "screen", SCREEN_MODES, "screen", "screen", "screen")


def _native_name(lang: str) -> str:
    """A language's name in that language (what its speakers look for in a list)."""
    return Tr(lang).raw(f"ui.language_{lang}")
