"""Replaying a game from its log, and the in-process cache of recently replayed games.

A replay is the configuration run through the actions in effect (store.py says why the log is
the truth). The cache keeps the replayed game of recently used tables, keyed by version, so an
append does not replay the log. When another process wrote, a cached game is moved on by the
actions written since, read from the log exactly as a replay reads them (the same game, without
running the log's beginning again); an undo or redo among them falls back to a replay. A game
not in the cache opens from its resume point where it has one (resume.py), else by a replay. A
writer takes its entry out of the cache while it changes it, and puts it back after.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from sqlalchemy import Connection

from companion.rules import ConfigError, Game

from .consistency import dump
from .errors import LogDiverged
from .log import stored_config
from .records import Table
from .resume import Replayed, resumed
from .rows import NEWER_ENTRIES, Head, fold_log

CACHE_GAMES = 32


def replay(conn: Connection, head: Head) -> Replayed:
    folded = fold_log(conn, head)
    try:
        game = Game.replay(stored_config(head.config), [json.loads(e.action) for e in folded.in_effect])
    except (ValueError, ConfigError) as error:  # MalformedAction and a refused action are ValueErrors
        raise LogDiverged(
            f"game {head.id} no longer replays with this version of the rules engine: "
            f"{getattr(error, 'message', error)}"
        ) from None
    return Replayed(head.version, game, folded.redo, [e.seq for e in folded.in_effect])


def caught_up(conn: Connection, head: Head, cached: Replayed) -> Replayed | None:
    """`cached` (owned by the caller) moved on to the head's version by the actions appended
    since; None when an undo or redo is among the new entries, or one is no longer accepted
    (a replay then says so)."""
    newer = conn.execute(NEWER_ENTRIES, {"game_id": head.id, "after": cached.version, "upto": head.version}).all()
    if len(newer) != head.version - cached.version or any(e.kind != "action" for e in newer):
        return None
    for e in newer:
        if not cached.game.submit(json.loads(e.action)).accepted:
            return None
        cached.seqs.append(e.seq)
    cached.version, cached.redo = head.version, []
    return cached


def table_of(game_id: str, replayed: Replayed) -> Table:
    """The caller's own copy of a replayed game, as a Table."""
    game = replayed.game.copy()
    return Table(
        game_id=game_id,
        version=replayed.version,
        game=game,
        config=json.loads(dump(game.config)),
        status="active" if game.state.winner is None else "finished",
        can_undo=bool(game.log),
        can_redo=bool(replayed.redo),
    )


class ReplayCache:
    """The replayed games of the most recently used tables (thread-safe)."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, Replayed] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._games.clear()

    def take(self, conn: Connection, head: Head) -> Replayed:
        """The game at the head's version, owned by the caller: out of the cache until put back."""
        with self._lock:
            cached = self._games.pop(head.id, None)
        if cached is not None and cached.version == head.version:
            return cached
        if cached is not None and cached.version < head.version:
            caught = caught_up(conn, head, cached)
            if caught is not None:
                return caught
        return resumed(conn, head) or replay(conn, head)

    def remember(self, game_id: str, replayed: Replayed) -> None:
        with self._lock:
            current = self._games.get(game_id)
            if current is None or current.version <= replayed.version:
                self._games[game_id] = replayed
                self._games.move_to_end(game_id)
            while len(self._games) > CACHE_GAMES:
                self._games.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)

    def table(self, head: Head) -> Table | None:
        """The cached game at the head's version as a Table, or None."""
        with self._lock:  # copied under the lock: a writer takes an entry out before changing it
            cached = self._games.get(head.id)
            if cached is None or cached.version != head.version:
                return None
            self._games.move_to_end(head.id)
            return table_of(head.id, cached)
