"""The table's sounds: a referee's whistle for a Warden offence, a short roll when the app rolls.

Only the referee's console plays them (the table's own screen, `viewer` None): with six phones
at the table, six whistles at once would be noise, so phones and the shared table view stay
quiet. Settings turns sound off (`Settings.sound`, on by default). A phone has one sound of its
own, a short chime when it is called to play (its turn, its decision): off until its player
chooses it in the phone's Settings, kept in that browser's storage (`PREF_KEY`).

The sounds are WAV files in the app's assets (`assets/sounds/`, rebuilt by `make_sounds.py`
there), served by the app itself, so they play offline. They play through Flet's audio service
(`flet-audio`: one `Audio` per sound, registered with the session's page when its table screen
opens, so the file is loaded before the first offence and a tap is answered at once).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from companion.rules import Event, Offence
from companion.rules import events as ev

from ..door.device_storage import storage_of
from .port import AppPort, ShownScreen

log = logging.getLogger(__name__)

SOUNDS = {"whistle": "sounds/whistle.wav", "roll": "sounds/roll.wav"}  # under the assets folder
CHIME = "sounds/chime.wav"  # a phone's own, when it is called to play (phone/nudge.py)
_ATTRIBUTE = "_table_sounds"  # where a session's players are kept (on its App)


def cues(events: Iterable[Event], offence: Offence | None = None) -> list[str]:
    """The sounds an accepted action calls for, in the order they are played: the whistle when
    it is a Warden offence, the roll when the app rolled a die (a die the table rolled and
    entered makes no sound: the table heard it)."""
    found = []
    if offence is not None or any(isinstance(e, ev.Offence) for e in events):
        found.append("whistle")
    if any(isinstance(e, ev.Roll) and e.source != "table" for e in events):
        found.append("roll")
    return found


def plays_here(screen: ShownScreen) -> bool:
    """Whether this screen makes sounds: the referee's console, with Sound on in Settings."""
    app = screen.app
    return getattr(screen, "viewer", 0) is None and app.settings.sound_on


class TableSounds:
    """One session's players, one per sound (Flet services live as long as they are referenced)."""

    def __init__(self) -> None:
        import flet_audio as fa

        self.players = {
            name: fa.Audio(src=src, release_mode=fa.ReleaseMode.STOP, volume=0.8) for name, src in SOUNDS.items()
        }

    def play(self, app: AppPort, name: str) -> bool:
        player = self.players.get(name)
        return player is not None and app.run_later(_play, player)


async def _play(player: Any) -> None:
    """Play from the start; a browser that refuses (no gesture yet, no audio device) stays quiet."""
    try:
        await player.play()
    except Exception:
        log.debug("a sound did not play", exc_info=True)


def prepare(screen: ShownScreen) -> TableSounds | None:
    """The session's players, made when the console opens (so the sounds are loaded before they
    are needed); None where this screen stays quiet or the page cannot hold them."""
    if not plays_here(screen):
        return None
    app = screen.app
    sounds = getattr(app, _ATTRIBUTE, None)
    if sounds is None:
        try:
            sounds = TableSounds()
        except Exception:  # no page in this context (a screen built outside a session): stay quiet
            log.debug("no audio for this session", exc_info=True)
            return None
        setattr(app, _ATTRIBUTE, sounds)
    return sounds


def renew(app: AppPort) -> None:
    """New players for the session (a browser that reconnected answers none of the old ones),
    made now if its screen makes sounds, so they are loaded before they are needed."""
    if getattr(app, _ATTRIBUTE, None) is None:
        return
    setattr(app, _ATTRIBUTE, None)
    if app.screen is not None:
        prepare(app.screen)


def after(screen: ShownScreen, events: Iterable[Event], offence: Offence | None = None) -> list[str]:
    """Play what an accepted action (this screen's or another device's) calls for; the names played."""
    wanted = cues(events, offence)
    if not wanted:
        return []
    sounds = prepare(screen)
    if sounds is None:
        return []
    return [name for name in wanted if sounds.play(screen.app, name)]


# --- a phone's turn chime ---------------------------------------------------------------------

PREF_KEY = "dyo.turn_sound"  # "on" in a browser whose player chose the chime
_CHOICE = "_turn_sound"  # where a session keeps its phone's choice (on its App)


class TurnSound:
    """This phone's choice of a chime when it is called: read once from its storage."""

    def __init__(self) -> None:
        self.on = False
        self.read = False


def turn_sound(app: AppPort) -> TurnSound:
    found = getattr(app, _CHOICE, None)
    if not isinstance(found, TurnSound):
        found = TurnSound()
        setattr(app, _CHOICE, found)
    return found


async def read_turn_sound(app: AppPort) -> bool:
    """Whether this phone chimes (its storage asked once per session; no answer: it does not)."""
    chosen = turn_sound(app)
    if not chosen.read:
        try:
            value = await storage_of(app).get(PREF_KEY)
        except Exception:  # no storage on this browser, or no answer: quiet
            log.debug("cannot read the turn sound of this browser", exc_info=True)
            value = None
        if not chosen.read:  # not chosen in Settings meanwhile
            chosen.on, chosen.read = value == "on", True
    return chosen.on


def choose_turn_sound(app: AppPort, on: bool) -> None:
    """Settings: this phone chimes when called (or not), from now on and on its next visits."""
    chosen = turn_sound(app)
    chosen.on, chosen.read = on, True
    app.run_later(_keep, app, on)


async def _keep(app: AppPort, on: bool) -> None:
    try:
        prefs = storage_of(app)
        await (prefs.set(PREF_KEY, "on") if on else prefs.remove(PREF_KEY))
    except Exception:  # private browsing: the choice holds for this visit
        log.info("cannot keep the turn sound in this browser")


def chime_player() -> Any:
    """The turn chime's player, registered with the current page."""
    import flet_audio as fa

    return fa.Audio(src=CHIME, release_mode=fa.ReleaseMode.STOP, volume=0.8)
