"""A phone's hold on the game: what it may submit, and how the table hears about it.

A `SeatSession` is the table session of one device. Its `state` is the seat's projection
(the engine's `view`), so every screen built on it shows only what that seat may know. Its writes go
through the same store as the host's, with the version the phone was looking at (a stale
one is refused with the fresh state) and an idempotency key made from the device, that
version and the action: a tap retried after a network blip is the same key, so the store
answers it with the first result instead of applying it twice. A device acts only for its
own seat, never forces a refused action, never undoes, never says what the app's chance
decided (`outcomes`): those are the referee's.

Every accepted write is told (tables.py) on the game's topic (`news.game_topic(game_id)`, the one the host's
screens already use) with its events; each receiving screen reloads and shows what its own
viewer may read. Seats freed, links rotated and devices coming and going are told on
`news.devices_topic(game_id)`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from companion.rules import GameState, view
from storage import Device, Store, Table

from .joining import JoinService
from .session import TableSession, Teller

HOST_ONLY = frozenset({"adjust"})  # corrections are the referee's


class NotYourSeat(Exception):
    """An action for another seat, a correction, a forced action or chance outcomes from a phone: never sent."""


class SeatLost(Exception):
    """The host freed this device's seat (or the device was sent away) since the screen opened."""


class SeatSession(TableSession):
    """One device's session: its seat's view, and writes only for that seat.

    `device` None is the host's own table view: the public view, and no writes at all.
    """

    def __init__(
        self,
        store: Store,
        game_id: str,
        device: Device | None,
        join: JoinService,
        table: Table | None = None,
        teller: Teller | None = None,
    ) -> None:
        self.device = device
        self.seat = None if device is None else device.seat
        self.join = join
        self._view: GameState | None = None
        self._view_of: Table | None = None
        who = "table view" if device is None else f"device {device.id} seat {device.seat}"
        super().__init__(store, game_id, by=who, table=table, teller=teller)

    @property
    def state(self) -> GameState:
        """The game as this seat knows it (computed once per version)."""
        table = self.table
        if self._view_of is not table:
            self._view = view(table.game.state, self.seat)  # seat None: the public table
            self._view_of = table
        assert self._view is not None  # made above for this table, or for the same table before
        return self._view

    def allows(self, action: object) -> bool:
        return (
            self.seat is not None
            and isinstance(action, dict)
            and action.get("player") == self.seat
            and not isinstance(action.get("player"), bool)
            and action.get("type") not in HOST_ONLY
            and not action.get("force")
            and not action.get("outcomes")
        )

    def guard(self, action: dict[str, Any]) -> None:
        if not self.allows(action):
            raise NotYourSeat(action.get("type") if isinstance(action, dict) else action)
        if self.device is None or not self.join.still_bound(self.device):
            raise SeatLost(self.game_id)

    def key_for(self, action: dict[str, Any], base_version: int) -> str:
        """Same device, same version, same action: the same key (a retry is not a second action)."""
        body = json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        digest = hashlib.sha256(body.encode("utf-8")).hexdigest()[:32]
        device = self.device.id if self.device is not None else "-"
        return f"dev:{device}:v{base_version}:{digest}"

    def guard_rewind(self, which: str) -> None:
        raise NotYourSeat(which)
