"""A seated phone called to play buzzes, and may chime.

When the game comes to wait for a phone's seat (its turn, a decision of its own, a Weapon it may
play for a teammate, an offence it may report: `vm/call.py`), its banner says so, and the phone
vibrates once through Flet's haptic feedback (a browser passes it to `navigator.vibrate`, where
the device has one). A short chime may play too: each phone's own choice, off until chosen, kept
in that browser's storage and set in the phone's Settings (ui/sound.py, `read_turn_sound`).

A call is nudged once: the phone's own taps never nudge it (its player is holding it), and news
that leave the same call standing (an action of the same turn) do not nudge it again.
"""

from __future__ import annotations

import logging
from typing import Any

import flet as ft

from ...vm.call import CallVM
from ..port import AppPort
from ..sound import chime_player, read_turn_sound

log = logging.getLogger(__name__)


class Nudge:
    """One seat screen's nudges: the call last seen, and the session's haptic and audio services
    (made when first needed; made again after a reconnect, as Flet answers no call to a service
    made before it)."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] | None = None
        self._haptic: Any = None
        self._chime: Any = None

    def follow(self, app: AppPort, call: CallVM | None, news: bool) -> bool:
        """The seat's call now; it buzzes when it is a new call brought by `news` (another
        screen's change), never for the phone's own tap. True when it buzzed."""
        key = None if call is None else call.key
        fresh = news and key is not None and key != self.key
        self.key = key
        return fresh and app.run_later(self._buzz, app)

    def renew(self) -> None:
        self._haptic = self._chime = None

    async def prepare(self, app: AppPort) -> None:
        """The chime loaded before it is needed, where this phone chose it."""
        if await read_turn_sound(app) and self._chime is None:
            self._chime = chime_player()

    async def _buzz(self, app: AppPort) -> None:
        try:
            if self._haptic is None:
                self._haptic = ft.HapticFeedback()
            await self._haptic.vibrate()
        except Exception:  # no haptic service on this client: the banner says it
            log.debug("no haptic feedback here", exc_info=True)
        if not await read_turn_sound(app):
            return
        try:
            if self._chime is None:
                self._chime = chime_player()
            await self._chime.play()
        except Exception:  # a browser that refuses to play stays quiet
            log.debug("the turn chime did not play", exc_info=True)
