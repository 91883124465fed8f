"""The one authority for writes: every write of any screen or device goes in here, is stored, and
only then is told to every screen of its game.

A screen asks; `TableService` stores (off the event loop, in the game's lane: offloop.py) and
tells: this process's screens through Flet's pubsub, the other instances over PostgreSQL
(news.py). Actions, undos and redos (corrections are actions) go through a `TableSession` the
service opened, which tells once the store has taken the write; deleting a game, freeing a seat,
a new join link, a phone joining, a device coming or going, and the host's screens changing
whether they show the hands are the service's own methods. Screens never publish and never call
the lanes.

Telling is not part of the write: the write stands when telling fails (the other screens catch up
on their next read). A failure is logged and counted (`failed_tells`), never swallowed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from companion.rules import Event
from storage import Device

from . import offloop
from .news import DELETED, SCREEN_CHANGED, News, devices_topic, game_topic
from .session import TableSession
from .sync import SeatSession

log = logging.getLogger(__name__)
T = TypeVar("T")


class GameTeller:
    """Tells one game's screens what a session's write changed, on behalf of the screen that wrote
    it (`origin`, its Flet page: it has the news already, so Flet's pubsub skips it)."""

    def __init__(self, tables: TableService, game_id: str, origin: Any) -> None:
        self.tables = tables
        self.game_id = game_id
        self.origin = origin

    def changed(self, version: int, events: Sequence[Event], table: Any) -> None:
        """The table goes with the news in this process (news.portable keeps it here): the other
        screens take it without reading the store again."""
        message = {"version": version, "events": list(events), "table": table}
        self.tables.tell(self.origin, game_topic(self.game_id), message)


class TableService:
    """Every write of every table of this process, and the news of each (one per server)."""

    def __init__(self, store: Callable[[], Any], news: Callable[[], News], join: Callable[[], Any]) -> None:
        self._store, self._news, self._join = store, news, join  # made on first use (shared.py)
        self.failed_tells = 0

    @property
    def store(self) -> Any:
        return self._store()

    def tell(self, origin: Any, topic: str, message: dict[str, Any], *, others: bool = True) -> bool:
        """Tell the screens of `topic` (the origin's too, unless `others`); False when it failed."""
        try:
            self._news().publish(origin, topic, message, others=others)
        except Exception:
            self.failed_tells += 1
            log.warning("cannot tell the screens of %s (%s)", topic, message.get("kind", "a change"), exc_info=True)
            return False
        return True

    # --- sessions: actions, undo and redo, corrections ----------------------------------------------

    def session(self, game_id: str, origin: Any, table: Any = None) -> TableSession:
        """The referee's session of a game: its writes are told to the game's screens."""
        return TableSession(self.store, game_id, table=table, teller=GameTeller(self, game_id, origin))

    def seat_session(self, game_id: str, origin: Any, device: Device | None, table: Any = None) -> SeatSession:
        """A device's session (`device` None: the public table view, which writes nothing)."""
        teller = GameTeller(self, game_id, origin)
        return SeatSession(self.store, game_id, device, self._join(), table=table, teller=teller)

    # --- games ---------------------------------------------------------------------------------------

    async def read(self, lane: str, fn: Callable[..., T], *args: Any) -> T:
        """A read for a screen (the store's, a phone gate's), off the loop after the calls already
        made in `lane` (a game's id, or the lists'): a screen never waits on the store itself."""
        return await offloop.run(lane, fn, *args)

    async def create_game(self, config: dict[str, Any]) -> str:
        return await offloop.run(offloop.NEW_GAMES, self.store.create_game, config)

    async def import_game(self, data: Any) -> str:
        return await offloop.run(offloop.NEW_GAMES, self.store.import_game, data)  # replays every action

    async def export_game(self, game_id: str) -> dict[str, Any]:
        return await offloop.run(game_id, self.store.export_game, game_id)

    async def export_finished(self) -> dict[str, Any]:
        """Every finished game in one file (storage/archive.py)."""
        from storage.archive import export_finished

        return await offloop.run(offloop.NEW_GAMES, export_finished, self.store)  # after any import under way

    async def import_archive(self, data: Any) -> Any:
        """Every game of such a file as new games, all or nothing (storage/archive.py's Imported)."""
        from storage.archive import import_archive

        return await offloop.run(offloop.NEW_GAMES, import_archive, self.store, data)

    async def delete_game(self, game_id: str, origin: Any) -> None:
        """Delete the game, then tell its screens (the phones at its seats, other instances)."""
        await offloop.run(game_id, self.store.delete_game, game_id)
        self.tell(origin, game_topic(game_id), {"kind": DELETED})

    # --- phones ----------------------------------------------------------------------------------

    async def join_seat(self, origin: Any, game_id: str, *args: Any) -> tuple[Device, str]:
        """Bind a device to a seat (JoinService.join's arguments), then tell the table."""
        device, token = await offloop.run(game_id, self._join().join, game_id, *args)
        self.devices_changed(origin, game_id, "joined", [device.id])
        return device, token

    async def free_seat(self, origin: Any, game_id: str, seat: int) -> list[str]:
        """Free a seat (its phones leave it), then tell the table: this screen hears it too."""
        gone: list[str] = await offloop.run(game_id, self._join().free_seat, game_id, seat)
        self.devices_changed(origin, game_id, "freed", gone)
        return gone

    async def rotate_link(self, origin: Any, game_id: str) -> None:
        """A new join link (the old one stops working), then tell the table: it reads the new one."""
        await offloop.run(game_id, self._join().rotate, game_id)
        self.devices_changed(origin, game_id, "link")

    def devices_changed(self, origin: Any, game_id: str, kind: str, devices: Sequence[str] = ()) -> None:
        """A game's devices changed (joined, freed, online, offline, a new link): every screen of
        it hears, the origin's too."""
        self.tell(origin, devices_topic(game_id), {"kind": kind, "devices": list(devices)}, others=False)

    def screen_changed(self, origin: Any, game_id: str) -> None:
        """The host's screens now show, or hide, the hands: the game's phones word their notes anew."""
        self.tell(origin, devices_topic(game_id), {"kind": SCREEN_CHANGED})
