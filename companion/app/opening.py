"""What a screen about one stored game reads before it can be drawn, read off the event loop.

The table (in any viewer's eyes), its log, corrections, replay and final standings are built
from the stored game, and the referee's console also from who holds a seat (a phone seated
ends an automatic shared screen), the host's table view from the join link too. Those reads
(a replay of a long log, a slow PostgreSQL) run in the game's lane of `offloop`, and the
screen is then built on the loop from what they returned, so opening a table never freezes
the other tables' screens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Seating:
    """Who holds a place at a table, and its join link's secret when the screen shows the link."""

    devices: tuple[Any, ...] = ()  # storage.Device
    secret: str | None = None

    @property
    def phones_seated(self) -> bool:
        """Whether a phone holds a seat (so each hand has a private screen)."""
        return any(d.seat is not None for d in self.devices)

    def holds(self, device: Any) -> bool:
        """Whether `device` still holds the place it had (the host may have freed it)."""
        return any(d.id == device.id and d.seat == device.seat for d in self.devices)


@dataclass(frozen=True)
class Opening:
    """The stored game as a screen opens it, or the store's words for why it cannot."""

    game_id: str
    table: Any = None  # storage.Table; None with `problem`
    problem: str | None = None
    seating: Seating = Seating()


def read_seating(services: Any, game_id: str, link: bool = False) -> Seating:
    """The game's devices (and its secret with `link`); none where phones cannot join."""
    if not services.joinable:
        return Seating()
    join = services.join
    return Seating(tuple(join.listing(game_id)), join.secret(game_id) if link else None)


def read_opening(services: Any, game_id: str, link: bool = False) -> Opening:
    """Everything a game's screen is built from (runs on a worker thread)."""
    try:
        table = services.store.load(game_id)
    except Exception as error:  # unknown id or an unreadable database: the screen says which
        return Opening(game_id, problem=getattr(error, "message", str(error)))
    return Opening(game_id, table, seating=read_seating(services, game_id, link))
