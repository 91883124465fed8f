"""The store: every game is its configuration plus an append-only log, replayed by the engine.

    store = Store()                                   # the default SQLite file, or $COMPANION_DATABASE_URL
    game_id = store.create_game(config)
    table = store.load(game_id)
    sub = store.submit(game_id, {"type": "search", "player": 0}, base_version=table.version)

The log is the truth (ANCHORS lessons 7, 9, 11). A game's state is never stored as the truth;
it is the configuration replayed through the actions in effect. The log keeps what happened:
each action is stored resolved (with the outcomes of its chance points: dice, draws, random
picks, shuffled orders) and the configuration keeps the setup's draws, so a replay reads every
outcome back and the seed decides only what has not happened yet. So:

- an accepted action is one transaction: append entry n+1 (the resolved action, the engine's
  answer, who, when, idempotency key) and advance the game's version n -> n+1; the
  caller hears "accepted" only after COMMIT (see `database.py` for what COMMIT guarantees);
- a refused or malformed action writes nothing;
- every write names the version it was based on; any other version is `StaleState`, and the
  (game_id, seq) primary key stops two writers that both read version n;
- undo and redo are entries too: nothing is deleted. The version counts *every* entry, so it
  only ever grows and one version number never names two different states (after "undo, then
  another action" a phone that saw the old version is refused, not silently accepted);
- redo re-applies the undone action, resolved, to the very state it was first applied to, so
  it reads back its recorded outcomes; the store checks the events match before writing.

A small in-process cache keeps the replayed game of recently used tables, keyed by version,
so an append does not replay the log; any version mismatch (another process wrote) falls back
to a replay.
"""

from __future__ import annotations

import copy
import json
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, insert, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from companion.rules import (
    Action,
    Answer,
    ConfigError,
    Game,
    MalformedAction,
    Offence,
    Violation,
    events_from_json,
    is_clean_text,
    is_int,
    parse_action,
)

from .consistency import check_log
from .consistency import dump as _dump
from .consistency import outcome as _outcome
from .database import Database
from .devices import Devices
from .errors import (
    BadGameFile,
    GameNotFound,
    InvalidArgument,
    KeyReused,
    LogDiverged,
    NothingToRedo,
    NothingToUndo,
    StaleState,
)
from .log import Entry, Folded, fold
from .migrations import Prepared, prepare
from .models import EventRow, GameRow, LogProblemRow, SeatRow, SnapshotRow
from .statistics import GameStats, SeatStats, Statistics, seat_statistics, summarise, winner_label

SNAPSHOT_EVERY = 100  # engine steps between cached snapshots (and one when a game finishes)
CACHE_GAMES = 32
MAX_BY = 80
MAX_KEY = 200
MAX_GAME_ID = 64
STATUSES = ("active", "finished")


@dataclass(frozen=True)
class Table:
    """A game as it stands: its version (the concurrency token) and the engine's replayed game.

    `game` is the caller's own copy: changing it changes nothing stored.
    """

    game_id: str
    version: int  # log entries so far (actions, undos, redos); pass it back as `base_version`
    game: Game
    config: dict[str, Any]
    status: str  # "active" | "finished"
    can_undo: bool
    can_redo: bool

    @property
    def steps(self) -> int:
        """Actions in effect (the engine's step count)."""
        return len(self.game.log)


@dataclass(frozen=True)
class Submission:
    answer: Answer
    version: int  # the game's version after this submission
    table: Table
    duplicate: bool = False  # the key was applied before: `answer` is the stored one, nothing was applied


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    colour: str | None
    team: str | None


@dataclass(frozen=True)
class GameInfo:
    id: str
    created: datetime
    updated: datetime
    finished: datetime | None
    status: str
    players: tuple[str, ...]
    winner: str | None  # a player's name, or a team id ("a" / "b") in Team mode
    version: int
    ruleset: str
    seats: tuple[Seat, ...] = ()
    winners: tuple[str, ...] = ()  # the names of the winning seats (the whole team in Team mode)


@dataclass(frozen=True)
class LogEntry:
    seq: int
    action: dict[str, Any]  # the action; for undo/redo entries {"type": "undo"|"redo", "target": seq}
    answer: dict[str, Any]  # the engine's answer (events: dice, draws, ...); for undo {"undone": seq, ...}
    submitted_by: str | None
    at: datetime
    undone: bool  # an action entry that is not in effect (undone and not redone)
    kind: str = "action"  # "action" | "undo" | "redo"
    target: int | None = None  # for undo/redo: the action entry they concern


@dataclass
class _Head:
    """A game's row as one transaction sees it; changed in memory, written back by `_save_head`."""

    id: str
    version: int
    status: str
    finished: datetime | None
    winner: str | None
    config: str


@dataclass
class _Replayed:
    """A cache entry: the game replayed at `version`, and what redo would put back (next last)."""

    version: int
    game: Game
    redo: list[int] = field(default_factory=list)


class _Conflict(Exception):
    """The game's row moved under a write transaction (a lost race): reported as StaleState."""


# The statements of the hot paths, built once: executing them only binds parameters.
_HEAD = select(GameRow.id, GameRow.version, GameRow.status, GameRow.finished, GameRow.winner,
               GameRow.config).where(GameRow.id == bindparam("game_id"))
_HEAD_LOCKED = _HEAD.with_for_update()
_BY_KEY = select(EventRow.action, EventRow.answer).where(EventRow.game_id == bindparam("game_id"),
                                                         EventRow.idempotency_key == bindparam("key"))
_ENTRY = select(EventRow.action, EventRow.answer).where(EventRow.game_id == bindparam("game_id"),
                                                        EventRow.seq == bindparam("seq"))
_ENTRIES = select(EventRow.seq, EventRow.kind, EventRow.target, EventRow.action).where(
    EventRow.game_id == bindparam("game_id"), EventRow.seq <= bindparam("upto")).order_by(EventRow.seq)
_ANSWERS_IN_EFFECT = select(EventRow.answer).where(
    EventRow.game_id == bindparam("game_id"), EventRow.kind == "action",
    EventRow.undone == False).order_by(EventRow.seq)  # noqa: E712
_INSERT_EVENT = insert(EventRow)
_SET_UNDONE = update(EventRow).where(EventRow.game_id == bindparam("of_game"),
                                     EventRow.seq == bindparam("of_seq")).values(undone=bindparam("flag"))
_SAVE_HEAD = update(GameRow).where(GameRow.id == bindparam("game_id"), GameRow.version == bindparam("before")).values(
    version=bindparam("new_version"), updated=bindparam("now"), status=bindparam("new_status"),
    finished=bindparam("new_finished"), winner=bindparam("new_winner"))


def _now() -> datetime:
    return datetime.now(UTC)


def answer_from_json(data: dict[str, Any]) -> Answer:
    """The engine's Answer rebuilt from its stored JSON (a duplicate submission's result), its
    events and offence read back into the engine's typed values."""
    violations = data.get("violations", [])
    offence = data.get("offence")
    return Answer(step=data["step"], accepted=data["accepted"],
                  violations=[Violation(v["rule"], v["key"], v.get("params", {})) for v in violations],
                  forced=any(v.get("overridden") for v in violations),
                  offence=None if offence is None else Offence.from_json(offence),
                  events=events_from_json(data.get("events", [])), pending=data.get("pending"),
                  winner=data.get("winner"))


class Store:
    """Games in one database. Thread-safe; several processes may share one database."""

    def __init__(self, url: str | None = None) -> None:
        self.db = Database(url)
        try:
            self.prepared: Prepared = prepare(self.db)
        except BaseException:
            self.db.dispose()
            raise
        self._cache: OrderedDict[str, _Replayed] = OrderedDict()
        self._lock = threading.Lock()
        self.devices = Devices(self.db)  # join links and the phones bound to seats

    @property
    def location(self) -> str:
        """The database in words (a file path, or a URL without its password)."""
        return self.db.label

    def close(self) -> None:
        with self._lock:
            self._cache.clear()
        self.db.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- creating and listing ------------------------------------------------------------------

    def create_game(self, config: dict[str, Any]) -> str:
        """A new game; the engine validates the configuration (ConfigError propagates).

        A configuration without a seed gets a random one, stored with it: every game then rolls
        its own dice, and still replays identically.
        """
        if isinstance(config, dict) and "seed" not in config:
            config = {**config, "seed": secrets.randbits(62)}
        game = Game(config)
        game_id = uuid.uuid4().hex
        with self.db.transaction(write=True) as conn:
            self._insert_game(conn, game_id, game, _now())
        self._remember(game_id, _Replayed(0, game))
        return game_id

    def list_games(self, status: str | None = None) -> list[GameInfo]:
        """Games, the most recently played first; status="active" lists the games to resume."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)} or None, not {status!r}")
        games = select(GameRow.id, GameRow.created, GameRow.updated, GameRow.finished, GameRow.status,
                       GameRow.winner, GameRow.version, GameRow.ruleset).order_by(GameRow.updated.desc(), GameRow.id)
        seats = select(SeatRow.game_id, SeatRow.seat, SeatRow.name, SeatRow.colour, SeatRow.team,
                       SeatRow.won).order_by(SeatRow.game_id, SeatRow.seat)
        if status is not None:
            games = games.where(GameRow.status == status)
            seats = seats.join(GameRow, GameRow.id == SeatRow.game_id).where(GameRow.status == status)
        with self.db.transaction() as conn:
            game_rows = conn.execute(games).all()
            seat_rows = conn.execute(seats).all()
        by_game: dict[str, list] = {}
        for seat in seat_rows:
            by_game.setdefault(seat.game_id, []).append(seat)
        out = []
        for g in game_rows:
            sits = by_game.get(g.id, [])
            out.append(GameInfo(
                id=g.id, created=g.created, updated=g.updated, finished=g.finished, status=g.status,
                players=tuple(s.name for s in sits), winner=g.winner, version=g.version, ruleset=g.ruleset,
                seats=tuple(Seat(s.seat, s.name, s.colour, s.team) for s in sits),
                winners=tuple(s.name for s in sits if s.won)))
        return out

    # --- reading a game ------------------------------------------------------------------------

    def load(self, game_id: str) -> Table:
        """The game as it stands, replayed from its log (or from the cache at the same version)."""
        with self.db.transaction() as conn:
            head = self._head(conn, game_id)
            table = self._cached_table(head)
            if table is not None:
                return table
            replayed = self._replay(conn, head)
        self._remember(game_id, replayed)
        return self._table(game_id, replayed)

    def events(self, game_id: str) -> list[LogEntry]:
        """The whole log, undone actions and undo/redo entries included, oldest first."""
        with self.db.transaction() as conn:
            head = self._head(conn, game_id)
            rows = conn.execute(select(EventRow).where(EventRow.game_id == game_id, EventRow.seq <= head.version)
                                .order_by(EventRow.seq)).all()
        return [LogEntry(seq=e.seq, action=json.loads(e.action), answer=json.loads(e.answer),
                         submitted_by=e.submitted_by, at=e.at, undone=e.undone, kind=e.kind, target=e.target)
                for e in rows]

    def export_game(self, game_id: str) -> dict[str, Any]:
        """The PROTOCOL.md file of the game: its configuration and the actions in effect."""
        with self.db.transaction() as conn:
            head = self._head(conn, game_id)
            folded = self._fold(conn, head)
        return {"config": json.loads(head.config), "actions": [json.loads(e.action) for e in folded.in_effect]}

    # --- writing -------------------------------------------------------------------------------

    def submit(self, game_id: str, action: dict[str, Any], *, base_version: int, submitted_by: str | None = None,
               key: str | None = None) -> Submission:
        """Judge one action and, if the engine accepts it, append it (one transaction).

        Order of judgement: malformed (MalformedAction, nothing read), a known idempotency key
        (the stored result, whatever `base_version` says: the retry of an applied action is
        stale by then), a stale `base_version` (StaleState), then the engine. A refused action
        writes nothing and leaves the version as it was. `submitted_by` is free text (a seat
        name, a device); `key` is any string unique per intended action of this game; a
        wrong type or size of those or of `base_version` is InvalidArgument, before anything is read.
        """
        parsed = parse_action(action)
        _check_arguments(base_version, {"submitted_by": (submitted_by, MAX_BY), "key": (key, MAX_KEY)})
        duplicate = None
        try:
            with self._writing(game_id) as (conn, head):
                if key is not None:
                    duplicate = conn.execute(_BY_KEY, {"game_id": game_id, "key": key}).first()
                    if duplicate is not None and not _same_action(duplicate.action, parsed):
                        raise KeyReused(f"idempotency key {key!r} of game {game_id} was used for another action "
                                        f"({duplicate.action}); nothing was applied")
                if duplicate is None:
                    _check_base(game_id, base_version, head)
                    replayed = self._take(conn, head)
                    answer = replayed.game.submit(parsed)
                    if answer.accepted:
                        self._append(conn, head, "action", _dump(_resolved(answer, parsed).to_json()),
                                     _dump(answer.to_json()),
                                     by=submitted_by, key=key)
                        self._advance(conn, head, replayed.game)
                        replayed.version, replayed.redo = head.version, []
        except (IntegrityError, _Conflict):
            raise self._lost_race(game_id, base_version) from None
        if duplicate is not None:
            table = self.load(game_id)
            return Submission(answer_from_json(json.loads(duplicate.answer)), table.version, table, duplicate=True)
        self._remember(game_id, replayed)
        return Submission(answer, replayed.version, self._table(game_id, replayed))

    def undo(self, game_id: str, *, base_version: int, by: str | None = None) -> Table:
        """Take back the latest action in effect: an `undo` entry; the action stays in the log.

        The state becomes the configuration replayed through the remaining actions, so every
        die rolled before the undone action is the die recorded, never a new roll.
        """
        _check_arguments(base_version, {"by": (by, MAX_BY)})
        try:
            with self._writing(game_id) as (conn, head):
                _check_base(game_id, base_version, head)
                replayed = self._take(conn, head)
                if not replayed.game.log:
                    self._remember(game_id, replayed)
                    raise NothingToUndo(game_id)
                target = self._fold(conn, head).in_effect[-1].seq
                replayed.game.undo()
                self._append(conn, head, "undo", _dump({"type": "undo", "target": target}),
                             _dump({"accepted": True, "step": replayed.game.state.step, "undone": target}),
                             by=by, target=target)
                conn.execute(_SET_UNDONE, {"of_game": game_id, "of_seq": target, "flag": True})
                self._advance(conn, head, replayed.game)
                replayed.version = head.version
                replayed.redo.append(target)
        except (IntegrityError, _Conflict):
            raise self._lost_race(game_id, base_version) from None
        self._remember(game_id, replayed)
        return self._table(game_id, replayed)

    def redo(self, game_id: str, *, base_version: int, by: str | None = None) -> Table:
        """Put back the action most recently undone (only while no new action came since).

        The stored (resolved) action is applied again to the very state it was first applied to,
        so it reads back its recorded outcomes instead of drawing new ones; if the engine's answer
        differs from the recorded one (the rules changed in between), nothing is written and
        LogDiverged says so.
        """
        _check_arguments(base_version, {"by": (by, MAX_BY)})
        try:
            with self._writing(game_id) as (conn, head):
                _check_base(game_id, base_version, head)
                replayed = self._take(conn, head)
                if not replayed.redo:
                    self._remember(game_id, replayed)
                    raise NothingToRedo(game_id)
                target = replayed.redo[-1]
                original = conn.execute(_ENTRY, {"game_id": game_id, "seq": target}).one()
                answer_json = _dump(replayed.game.submit(parse_action(json.loads(original.action))).to_json())
                if _outcome(json.loads(answer_json)) != _outcome(json.loads(original.answer)):
                    raise LogDiverged(f"cannot redo entry {target} of game {game_id}: the rules engine no longer "
                                      "gives the recorded result (dice, draws or events differ); nothing was written")
                self._append(conn, head, "redo", _dump({"type": "redo", "target": target}), answer_json,
                             by=by, target=target)
                conn.execute(_SET_UNDONE, {"of_game": game_id, "of_seq": target, "flag": False})
                self._advance(conn, head, replayed.game)
                replayed.version = head.version
                replayed.redo.pop()
        except (IntegrityError, _Conflict):
            raise self._lost_race(game_id, base_version) from None
        self._remember(game_id, replayed)
        return self._table(game_id, replayed)

    def import_game(self, data: dict[str, Any]) -> str:
        """A PROTOCOL.md file as a new game; refused (BadGameFile) unless every action replays."""
        config, actions = _game_file(data)
        try:
            game = Game(config)
        except ConfigError as error:
            raise BadGameFile(f"impossible configuration: {error.message}; nothing was imported") from None
        entries = []
        for index, raw in enumerate(actions, start=1):
            try:
                action = parse_action(raw, game.state.catalog)
            except MalformedAction as error:
                raise BadGameFile(f"action {index} is malformed: {error.message}; nothing was imported") from None
            answer = game.submit(action)
            if not answer.accepted:
                reasons = "; ".join(f"{v.rule}: {v.message}" for v in answer.violations)
                raise BadGameFile(f"action {index} ({action.TYPE}) does not replay: the engine refuses it "
                                  f"({reasons}); nothing was imported")
            entries.append((_resolved(answer, action), answer))
        game_id = uuid.uuid4().hex
        now = _now()
        with self.db.transaction(write=True) as conn:
            head = self._insert_game(conn, game_id, game, now)
            if entries:
                conn.execute(_INSERT_EVENT, [
                    {"game_id": game_id, "seq": seq, "kind": "action", "action": _dump(action.to_json()),
                     "answer": _dump(answer.to_json()), "target": None, "submitted_by": "import", "at": now,
                     "undone": False, "idempotency_key": None}
                    for seq, (action, answer) in enumerate(entries, start=1)])
                head.version = len(entries)
                self._settle(conn, head, game, now)
                self._save_head(conn, head, 0, now)
        self._remember(game_id, _Replayed(len(entries), game))
        return game_id

    # --- statistics and checks -----------------------------------------------------------------

    def statistics(self) -> Statistics:
        """Per player across finished games, and per finished game its seats (for charts).

        Reads only the games and seats tables (the figures were kept when each game finished),
        in one read transaction: two plain queries, rows unpacked as tuples.
        """
        finished = GameRow.status == "finished"
        games = (select(GameRow.id, GameRow.finished, GameRow.ruleset, GameRow.winner).where(finished)
                 .order_by(GameRow.finished, GameRow.id))
        seats = (select(SeatRow.game_id, SeatRow.seat, SeatRow.name, SeatRow.colour, SeatRow.team, SeatRow.won,
                        SeatRow.tunnel, SeatRow.beatings_taken, SeatRow.beatings_given, SeatRow.extortions_won,
                        SeatRow.extortions_lost).join(GameRow, GameRow.id == SeatRow.game_id).where(finished)
                 .order_by(SeatRow.game_id, SeatRow.seat))
        with self.db.transaction() as conn:
            game_rows = conn.execute(games).all()
            seat_rows = conn.execute(seats).all()
        by_game: dict[str, list[SeatStats]] = {}
        for game_id, seat, name, colour, team, won, tunnel, taken, given, won_x, lost_x in seat_rows:
            by_game.setdefault(game_id, []).append(SeatStats(seat, name, colour, team, bool(won), tunnel or 0,
                                                             taken or 0, given or 0, won_x or 0, lost_x or 0))
        return summarise([GameStats(game_id, at, ruleset, winner, tuple(by_game.get(game_id, ())))
                          for game_id, at, ruleset, winner in game_rows])

    def verify(self, game_id: str) -> list[str]:
        """Problems found by replaying the whole log (an empty list: the stored game is consistent).

        The check of `consistency.check_log` (numbering, undo/redo bookkeeping, every recorded
        answer and snapshot), plus what the log should keep and does not (an outcome left to the
        seed) and what an upgrade reported and left as it was.
        """
        with self.db.transaction() as conn:
            head = self._head(conn, game_id)
            rows = conn.execute(select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq)).all()
            snapshots = dict(conn.execute(select(SnapshotRow.version, SnapshotRow.state)
                                          .where(SnapshotRow.game_id == game_id)).all())
            reported = conn.execute(select(LogProblemRow.schema_version, LogProblemRow.problem)
                                    .where(LogProblemRow.game_id == game_id)).all()
        problems = [f"the upgrade to schema version {schema} left this game's log as it was: {problem}"
                    for schema, problem in reported]
        checked = check_log(head.version, head.config, rows, snapshots)
        problems += checked.problems
        if checked.config is not None:
            problems.append("the configuration does not keep the setup's draws (the seed decides them on replay)")
        if checked.resolved:
            problems.append(f"entries {sorted(checked.resolved)} do not keep their outcomes (the seed decides them "
                            "on replay)")
        return problems

    # --- internals -----------------------------------------------------------------------------

    def _insert_game(self, conn: Connection, game_id: str, game: Game, now: datetime) -> _Head:
        cfg = game.config
        head = _Head(game_id, 0, "active", None, None, _dump(cfg))
        conn.execute(insert(GameRow).values(id=game_id, created=now, updated=now, status=head.status,
                                            ruleset=cfg["ruleset"], seed=cfg["seed"], config=head.config, version=0))
        conn.execute(insert(SeatRow), [{"game_id": game_id, "seat": p.seat, "name": p.name, "colour": p.color,
                                        "team": p.team} for p in game.state.players])
        return head

    @contextmanager
    def _writing(self, game_id: str) -> Iterator[tuple[Connection, _Head]]:
        """A write transaction holding the game's row (BEGIN IMMEDIATE on SQLite, FOR UPDATE elsewhere)."""
        with self.db.transaction(write=True) as conn:
            yield conn, self._head(conn, game_id, lock=True)

    def _head(self, conn: Connection, game_id: str, lock: bool = False) -> _Head:
        if not is_clean_text(game_id, MAX_GAME_ID):  # no game has it, and the database need not hear it
            raise GameNotFound(game_id)
        found = conn.execute(_HEAD_LOCKED if lock else _HEAD, {"game_id": game_id}).first()
        if found is None:
            raise GameNotFound(game_id)
        return _Head(*found)

    def _fold(self, conn: Connection, head: _Head) -> Folded:
        entries = conn.execute(_ENTRIES, {"game_id": head.id, "upto": head.version}).all()
        try:
            return fold(Entry(*e) for e in entries)
        except ValueError as error:
            raise LogDiverged(f"the log of game {head.id} is inconsistent: {error}") from None

    def _replay(self, conn: Connection, head: _Head) -> _Replayed:
        folded = self._fold(conn, head)
        try:
            game = Game.replay(json.loads(head.config), [json.loads(e.action) for e in folded.in_effect])
        except (ValueError, ConfigError) as error:  # MalformedAction and a refused action are ValueErrors
            raise LogDiverged(f"game {head.id} no longer replays with this version of the rules engine: "
                              f"{getattr(error, 'message', error)}") from None
        return _Replayed(head.version, game, folded.redo)

    def _take(self, conn: Connection, head: _Head) -> _Replayed:
        """The game at the head's version, owned by the caller: out of the cache until put back."""
        with self._lock:
            cached = self._cache.pop(head.id, None)
        if cached is not None and cached.version == head.version:
            return cached
        return self._replay(conn, head)

    def _remember(self, game_id: str, replayed: _Replayed) -> None:
        with self._lock:
            current = self._cache.get(game_id)
            if current is None or current.version <= replayed.version:
                self._cache[game_id] = replayed
                self._cache.move_to_end(game_id)
            while len(self._cache) > CACHE_GAMES:
                self._cache.popitem(last=False)

    def _cached_table(self, head: _Head) -> Table | None:
        with self._lock:  # copied under the lock: a writer takes an entry out before changing it
            cached = self._cache.get(head.id)
            if cached is None or cached.version != head.version:
                return None
            self._cache.move_to_end(head.id)
            return self._table(head.id, cached)

    def _table(self, game_id: str, replayed: _Replayed) -> Table:
        game = copy.copy(replayed.game)
        game.state = replayed.game.state.copy()
        game.log = list(replayed.game.log)
        return Table(game_id=game_id, version=replayed.version, game=game, config=json.loads(_dump(game.config)),
                     status="active" if game.state.winner is None else "finished", can_undo=bool(game.log),
                     can_redo=bool(replayed.redo))

    def _append(self, conn: Connection, head: _Head, kind: str, action: str, answer: str, *, by: str | None,
                key: str | None = None, target: int | None = None) -> None:
        """Entry version+1; the primary key (game_id, seq) refuses it if another writer got there first."""
        conn.execute(_INSERT_EVENT, {"game_id": head.id, "seq": head.version + 1, "kind": kind, "action": action,
                                     "answer": answer, "target": target, "submitted_by": by, "at": _now(),
                                     "undone": False, "idempotency_key": key})

    def _advance(self, conn: Connection, head: _Head, game: Game) -> None:
        """The entry just appended moves the game's version on, in the same transaction."""
        now = _now()
        before = head.version
        head.version += 1
        state = game.state
        newly_finished = self._settle(conn, head, game, now)
        if newly_finished or (state.step and state.step % SNAPSHOT_EVERY == 0):
            conn.execute(insert(SnapshotRow).values(game_id=head.id, version=head.version, step=state.step,
                                                    state=_dump(state.snapshot())))
        self._save_head(conn, head, before, now)

    def _save_head(self, conn: Connection, head: _Head, before: int, now: datetime) -> None:
        """Write the game's row back, only if it is still at version `before` (else: a lost race)."""
        done = conn.execute(_SAVE_HEAD, {"game_id": head.id, "before": before, "new_version": head.version,
                                         "now": now, "new_status": head.status, "new_finished": head.finished,
                                         "new_winner": head.winner})
        if done.rowcount != 1:
            raise _Conflict(head.id)

    def _settle(self, conn: Connection, head: _Head, game: Game, now: datetime) -> bool:
        """Status, winner and seat statistics follow the state; True when the game has just finished."""
        state = game.state
        if state.winner is None:
            if head.status == "finished":  # an undo took the winning action back
                head.status, head.finished, head.winner = "active", None, None
                conn.execute(update(SeatRow).where(SeatRow.game_id == head.id).values(
                    won=False, tunnel=None, beatings_taken=None, beatings_given=None, extortions_won=None,
                    extortions_lost=None))
            return False
        newly = head.status != "finished"
        head.status, head.winner = "finished", winner_label(state)
        head.finished = now if newly else head.finished
        answers = conn.execute(_ANSWERS_IN_EFFECT, {"game_id": head.id}).scalars()
        for s in seat_statistics(state, (json.loads(a) for a in answers)):
            conn.execute(update(SeatRow).where(SeatRow.game_id == head.id, SeatRow.seat == s.seat).values(
                won=s.won, tunnel=s.tunnel, beatings_taken=s.beatings_taken, beatings_given=s.beatings_given,
                extortions_won=s.extortions_won, extortions_lost=s.extortions_lost))
        return newly

    def _lost_race(self, game_id: str, base_version: int) -> StaleState:
        """Another writer appended the same entry number first: report the version it left."""
        with self.db.transaction() as conn:
            return StaleState(game_id, base_version, self._head(conn, game_id).version)


def _check_arguments(base_version: Any, texts: dict[str, tuple[Any, int]]) -> None:
    """A write's arguments, checked before anything is read: InvalidArgument names the first bad one."""
    if not is_int(base_version):
        raise InvalidArgument(f"base_version must be a whole number (the version the caller saw), not "
                              f"{type(base_version).__name__}; nothing was written")
    for what, (value, most) in texts.items():
        if value is not None and not is_clean_text(value, most):
            raise InvalidArgument(f"{what} must be a text of at most {most} characters without control "
                                  "characters; nothing was written")


def _check_base(game_id: str, base_version: int, head: _Head) -> None:
    if base_version != head.version:
        raise StaleState(game_id, base_version, head.version)


def _resolved(answer: Answer, action: Action) -> Action:
    """The accepted action as the log keeps it: with the outcomes of its chance points."""
    return answer.action or action


def _same_action(stored: str, action: Action) -> bool:
    """A retry names the stored action (which also keeps the outcomes it led to)."""
    retried, kept = action.to_json(), json.loads(stored)
    retried.pop("outcomes", None)
    kept.pop("outcomes", None)
    return retried == kept


def _game_file(data: Any) -> tuple[Any, list[Any]]:
    """The shape PROTOCOL.md fixes for a game file, checked before anything is replayed."""
    if not isinstance(data, dict) or "config" not in data or "actions" not in data:
        raise BadGameFile('a game file must be a JSON object with "config" and "actions"')
    extra = sorted(set(data) - {"config", "actions"})
    if extra:
        raise BadGameFile(f"a game file has no field {extra[0]!r} (only \"config\" and \"actions\")")
    if not isinstance(data["actions"], list):
        raise BadGameFile('"actions" must be a list')
    return data["config"], data["actions"]
