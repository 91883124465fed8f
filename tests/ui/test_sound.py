"""The table's sounds without a browser: which accepted actions sound, where, and the files."""

from __future__ import annotations

import importlib.util
import io
import wave
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.app.services.settings import Settings, SettingsFile
from companion.app.ui import sound
from companion.rules import Game
from companion.rules import events as ev

SOUNDS = Path(__file__).resolve().parents[2] / "assets" / "sounds"


def test_an_offence_whistles_and_an_app_roll_rolls() -> None:
    game = Game({"players": [{"name": "Carmen", "hand": ["spoon"]}, {"name": "Nicholas"}], "modules": {"warden": True}})
    dig = game.submit({"type": "dig", "player": 0, "tool": "spoon"})  # under the Warden: WARD-2
    assert dig.accepted and dig.offence is not None
    assert sound.cues(dig.events, dig.offence) == ["whistle"]
    assert sound.cues(dig.events) == ["whistle"]  # as another screen hears of it (no offence record)
    move = Game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]}).submit({"type": "move", "player": 0})
    assert move.accepted and sound.cues(move.events, move.offence) == ["roll"]
    table_die = Game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]}).submit(
        {"type": "move", "player": 0, "die": [1]}
    )
    assert table_die.accepted and sound.cues(table_die.events) == []  # the table rolled its own die
    assert (
        sound.cues(Game({"players": [{"name": "A"}, {"name": "B"}]}).submit({"type": "search", "player": 0}).events)
        == []
    )


def test_sound_is_on_by_default_and_kept(tmp_path) -> None:
    assert Settings().sound_on
    file = SettingsFile(tmp_path / "settings.json")
    assert file.load().sound == "on"
    file.save(Settings(sound="off"))
    assert file.load().sound == "off" and not file.load().sound_on
    assert Settings(sound="loud").valid().sound == "on"


class FakeSounds:
    played: list[str] = []

    def play(self, app, name: str) -> bool:
        self.played.append(name)
        return True


@pytest.mark.parametrize(
    "viewer, setting, heard", [(None, "on", ["whistle"]), (None, "off", []), (0, "on", []), (-1, "on", [])]
)
def test_only_the_console_sounds(monkeypatch, viewer, setting, heard) -> None:
    """The referee's console plays (viewer None); a phone's seat and the table view stay quiet."""
    FakeSounds.played = []
    monkeypatch.setattr(sound, "TableSounds", FakeSounds)
    screen = SimpleNamespace(viewer=viewer, app=SimpleNamespace(settings=Settings(sound=setting)))
    assert sound.after(screen, [ev.Offence(player=0, action="dig", place="cell_block")]) == heard
    assert FakeSounds.played == heard


def test_the_files_are_what_the_script_makes(tmp_path) -> None:
    """The committed WAVs are small and rebuilt byte for byte by make_sounds.py."""
    spec = importlib.util.spec_from_file_location("make_sounds", SOUNDS / "make_sounds.py")
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    maker.HERE = tmp_path
    for name, samples in (("whistle.wav", maker.whistle()), ("roll.wav", maker.roll()), ("chime.wav", maker.chime())):
        maker.write(name, samples)
        raw = (SOUNDS / name).read_bytes()
        assert raw == (tmp_path / name).read_bytes() and len(raw) < 40_000, name
        with wave.open(io.BytesIO(raw)) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, maker.RATE)
        assert name in {Path(src).name for src in [*sound.SOUNDS.values(), sound.CHIME]}
