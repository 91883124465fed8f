"""The table's settings: theme, dice, neutral destinations, Michel's cards, sound, whose eyes the
referee's screen is for; kept in a small JSON file.

The file lives beside the database in the user's data folder (or where `COMPANION_SETTINGS`
points); a missing or damaged file just means the defaults. The language is not here: it is
each device's own (see locale.py), and a `language` left in an older file is ignored.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from .kept_rulings import valid_kept

ENV = "COMPANION_SETTINGS"
THEMES = ("system", "light", "dark")
DIE_MODES = ("app", "physical")
NEUTRAL_MODES = ("ask", "automatic")
# After each turn: End the turn offers the neutrals' move in the same tap, or (the table said so
# once) leaves them where they are whenever the rules let them stay (MICH-2).
AFTER_TURN_MODES = ("ask", "stay")
MICHEL_MODES = ("app", "physical")
CARD_MODES = ("app", "physical")  # a card taken at random from a hand: the app picks it, or the table draws it
SOUND_MODES = ("on", "off")
# The referee's screen: shared by the table (hands hidden), or the referee's own (every hand
# shown). It never changes by itself: an older file's "auto" (it turned to the referee's own when
# a phone took a seat, showing every hand without a word) reads as shared.
SCREEN_MODES = ("shared", "private")


@dataclass
class Settings:
    theme: str = "system"
    die_mode: str = "app"  # the app rolls, or the table rolls and enters the result
    neutral_destinations: str = "ask"  # new games: ask the mover, or the app picks (MICH-2)
    michel_mode: str = "app"  # the app draws Michel's cards, or the table draws the real ones and says which
    card_mode: str = (
        "app"  # a random card from a hand: the app picks it, or the table draws the real one and says which
    )
    sound: str = "on"  # the console's whistle and die roll (sound.py)
    after_turn: str = "ask"  # AFTER_TURN_MODES: the neutrals' move offered with End the turn, or they stay
    screen: str = "shared"  # SCREEN_MODES: whether the referee's screen hides the hands
    # Rulings the table kept as house rules for its next games: {"ruling": why, "house_rules": {...}}.
    kept_rulings: list[dict[str, Any]] = field(default_factory=list)

    def valid(self) -> Settings:
        return Settings(
            theme=self.theme if self.theme in THEMES else "system",
            die_mode=self.die_mode if self.die_mode in DIE_MODES else "app",
            neutral_destinations=self.neutral_destinations if self.neutral_destinations in NEUTRAL_MODES else "ask",
            michel_mode=self.michel_mode if self.michel_mode in MICHEL_MODES else "app",
            card_mode=self.card_mode if self.card_mode in CARD_MODES else "app",
            sound=self.sound if self.sound in SOUND_MODES else "on",
            after_turn=self.after_turn if self.after_turn in AFTER_TURN_MODES else "ask",
            screen=self.screen if self.screen in SCREEN_MODES else "shared",
            kept_rulings=valid_kept(self.kept_rulings),
        )

    @property
    def physical_dice(self) -> bool:
        return self.die_mode == "physical"

    @property
    def neutrals_stay(self) -> bool:
        """End the turn leaves Michel & Michelle where they are (when the rules let them stay)."""
        return self.after_turn == "stay"

    @property
    def sound_on(self) -> bool:
        return self.sound == "on"

    @property
    def physical_cards(self) -> bool:
        return self.card_mode == "physical"

    @property
    def shared_screen(self) -> bool:
        """The referee's screens hide every hand (so a phone alone shows its player's)."""
        return self.screen != "private"

    @property
    def physical_michel(self) -> bool:
        return self.michel_mode == "physical"


def default_path() -> Path:
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    import platformdirs

    return Path(platformdirs.user_data_dir("dyo-companion", appauthor=False)) / "settings.json"


class SettingsFile:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def load(self) -> Settings:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return Settings()
        known = {f.name for f in fields(Settings)}
        return (
            Settings(**{k: v for k, v in data.items() if k in known}).valid() if isinstance(data, dict) else Settings()
        )

    def save(self, settings: Settings) -> bool:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(asdict(settings), indent=1), encoding="utf-8")
            tmp.replace(self.path)
            return True
        except OSError:
            return False  # settings are a convenience: a read-only disk must not stop the game
