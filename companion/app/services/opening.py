"""What a screen reads from the store before it can be drawn, read off the event loop.

The table (in any viewer's eyes), its log, corrections, replay and final standings are built
from the stored game (`Opening`), and the referee's console also from who holds a seat (a
phone seated ends an automatic shared screen), the host's table view from the join link too.
Home and the history are built from the lists of games (`Listing`). Those reads (a replay of a
long log, a slow PostgreSQL) run in a lane of `offloop` (the game's, or `LISTS`), and the
screen is then built on the loop from what they returned, so opening a screen never freezes
the other tables' screens.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage import Device, GameInfo, Statistics, Table

from .shared import Services

LISTS = "game lists"  # the lane of the reads that list every game


@dataclass(frozen=True)
class Seating:
    """Who holds a place at a table, and its join link's secret when the screen shows the link."""

    devices: tuple[Device, ...] = ()
    secret: str | None = None

    @property
    def phones_seated(self) -> bool:
        """Whether a phone holds a seat (so each hand has a private screen)."""
        return any(d.seat is not None for d in self.devices)

    def holds(self, device: Device) -> bool:
        """Whether `device` still holds the place it had (the host may have freed it)."""
        return any(d.id == device.id and d.seat == device.seat for d in self.devices)


@dataclass(frozen=True)
class Opening:
    """The stored game as a screen opens it, or the store's words for why it cannot."""

    game_id: str
    table: Table | None = None  # None with `problem`
    problem: str | None = None
    seating: Seating = Seating()


def read_seating(services: Services, game_id: str, link: bool = False) -> Seating:
    """The game's devices (and its secret with `link`); none where phones cannot join."""
    if not services.joinable:
        return Seating()
    join = services.join
    return Seating(tuple(join.listing(game_id)), join.secret(game_id) if link else None)


def read_opening(services: Services, game_id: str, link: bool = False) -> Opening:
    """Everything a game's screen is built from (runs on a worker thread)."""
    try:
        return Opening(game_id, services.store.load(game_id), seating=read_seating(services, game_id, link))
    except Exception as error:  # unknown id or an unreadable database: the screen says which
        return Opening(game_id, problem=getattr(error, "message", str(error)))


@dataclass(frozen=True)
class Listing:
    """The stored games home and the history list, the statistics the history charts, or the
    store's words for why they cannot be read."""

    active: tuple[GameInfo, ...] = ()
    finished: tuple[GameInfo, ...] = ()
    statistics: Statistics | None = None  # read for the history only
    problem: str | None = None


def read_listing(services: Services, statistics: bool = False) -> Listing:
    """The games' lists (runs on a worker thread); with `statistics`, the history's figures too."""
    store = services.store
    try:
        return Listing(
            tuple(store.list_games("active")),
            tuple(store.list_games("finished")),
            store.statistics() if statistics else None,
        )
    except Exception as error:  # the database may be unreachable: the screen says so
        return Listing(problem=getattr(error, "message", str(error)))
