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
  it reads back its recorded outcomes; the store checks the events match before writing;
- a game leaves the database only whole, with its log and everything joined to it (`delete_game`).

Modules: `records` (what the store hands back), `rows` (a game's rows inside a transaction),
`replays` (replaying a log, and the cache of recently replayed games), `reports` (statistics
and the whole-log check, read-only).
"""

from __future__ import annotations

import json
import logging
import secrets
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Row, delete
from sqlalchemy import select as select_many  # sqlmodel's select is typed for at most four columns
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from companion.rules import Action, Answer, ConfigError, Game, MalformedAction, is_clean_text, is_int, parse_action

from .consistency import dump as _dump
from .consistency import outcome as _outcome
from .database import Database
from .devices import Devices
from .errors import (
    BadGameFile,
    InvalidArgument,
    KeyReused,
    LogDiverged,
    NothingToRedo,
    NothingToUndo,
    StaleState,
    StorageError,
)
from .files import is_kept, mark_kept
from .log import stored_config
from .migrations import Prepared, prepare
from .models import (
    DeviceRow,
    EventRow,
    GameRow,
    JoinLinkRow,
    LogProblemRow,
    ResumePageRow,
    ResumePointRow,
    SeatRow,
    SnapshotRow,
)
from .records import GameInfo, LogEntry, Seat, Submission, Table, answer_from_json
from .replays import ReplayCache, table_of
from .reports import read_statistics, verify_game
from .resume import Replayed, keep_resume_point, kept_apart, save
from .rows import (
    BY_KEY,
    ENTRY,
    INSERT_EVENT,
    SET_UNDONE,
    Conflict,
    Head,
    advance,
    append,
    fold_log,
    insert_game,
    read_head,
    save_head,
    settle,
    utc_now,
)
from .statistics import Statistics

__all__ = ["GameInfo", "LogEntry", "Seat", "Store", "Submission", "Table", "answer_from_json"]

MAX_BY = 80
MAX_KEY = 200
STATUSES = ("active", "finished")

_log = logging.getLogger(__name__)

# Said when a file that names no rules version does not replay: an app before the versions exported it.
_OLDER_EXPORT = 'a file exported before the rules had versions replays with "rules_version": 1 in its config; '


class Store:
    """Games in one database. Thread-safe; several processes may share one database."""

    def __init__(self, url: str | None = None, *, missing_ok: bool = False) -> None:
        """`missing_ok`: open (and create) a SQLite file even where games were kept and it is gone
        (a restore does; database.py says why every other opening refuses)."""
        self.db = Database(url, missing_ok=missing_ok)
        try:
            self.prepared: Prepared = prepare(self.db)
            self._kept = self.db.path is None or is_kept(self.db.path)
            if not self._kept and self._has_games():
                self._mark_kept()
        except BaseException:
            self.db.dispose()
            raise
        self._cache = ReplayCache()
        self.devices = Devices(self.db)  # join links and the phones bound to seats

    @property
    def location(self) -> str:
        """The database in words (a file path, or a URL without its password)."""
        return self.db.label

    def close(self) -> None:
        self._cache.clear()
        self.db.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _has_games(self) -> bool:
        with self.db.transaction() as conn:
            return conn.execute(select(GameRow.id).limit(1)).first() is not None

    def _mark_kept(self) -> None:
        """This SQLite file holds games now: a start that finds it gone says so (files.py)."""
        if not self._kept and self.db.path is not None:
            mark_kept(self.db.path)
            self._kept = True

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
            insert_game(conn, game_id, game, utc_now())
        self._mark_kept()
        self._cache.remember(game_id, Replayed(0, game))
        return game_id

    def list_games(self, status: str | None = None) -> list[GameInfo]:
        """Games, the most recently played first; status="active" lists the games to resume."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)} or None, not {status!r}")
        games = select_many(
            col(GameRow.id),
            col(GameRow.created),
            col(GameRow.updated),
            col(GameRow.finished),
            col(GameRow.status),
            col(GameRow.winner),
            col(GameRow.version),
            col(GameRow.ruleset),
        ).order_by(col(GameRow.updated).desc(), col(GameRow.id))
        seats = select_many(
            col(SeatRow.game_id),
            col(SeatRow.seat),
            col(SeatRow.name),
            col(SeatRow.colour),
            col(SeatRow.team),
            col(SeatRow.won),
        ).order_by(col(SeatRow.game_id), col(SeatRow.seat))
        if status is not None:
            games = games.where(col(GameRow.status) == status)
            seats = seats.join(GameRow, col(GameRow.id) == SeatRow.game_id).where(col(GameRow.status) == status)
        with self.db.transaction() as conn:
            game_rows = conn.execute(games).all()
            seat_rows = conn.execute(seats).all()
        by_game: dict[str, list[Row[str, int, str, str | None, str | None, bool]]] = {}
        for seat in seat_rows:
            by_game.setdefault(seat.game_id, []).append(seat)
        out = []
        for g in game_rows:
            sits = by_game.get(g.id, [])
            out.append(
                GameInfo(
                    id=g.id,
                    created=g.created,
                    updated=g.updated,
                    finished=g.finished,
                    status=g.status,
                    players=tuple(s.name for s in sits),
                    winner=g.winner,
                    version=g.version,
                    ruleset=g.ruleset,
                    seats=tuple(Seat(s.seat, s.name, s.colour, s.team) for s in sits),
                    winners=tuple(s.name for s in sits if s.won),
                )
            )
        return out

    # --- reading a game ------------------------------------------------------------------------

    def load(self, game_id: str) -> Table:
        """The game as it stands, replayed from its log (or from the cache: at the same version, or
        moved on by the actions another process appended since)."""
        with self.db.transaction() as conn:
            head = read_head(conn, game_id)
            table = self._cache.table(head)
            if table is not None:
                return table
            replayed = self._cache.take(conn, head)
        if replayed.due():  # a long game replayed: the next opening reads a resume point instead
            self._save_resume(game_id, replayed)
        self._cache.remember(game_id, replayed)
        return table_of(game_id, replayed)

    def events(self, game_id: str) -> list[LogEntry]:
        """The whole log, undone actions and undo/redo entries included, oldest first."""
        with self.db.transaction() as conn:
            head = read_head(conn, game_id)
            rows = conn.execute(
                select(EventRow)
                .where(EventRow.game_id == game_id, EventRow.seq <= head.version)
                .order_by(col(EventRow.seq))
            ).all()
        return [_log_entry(e) for e in rows]

    def entry(self, game_id: str, seq: int) -> LogEntry | None:
        """One log entry (None: not written), as `events` gives it: what another instance's
        notification of version `seq` reads, without the rest of the log."""
        with self.db.transaction() as conn:
            e = conn.execute(select(EventRow).where(EventRow.game_id == game_id, EventRow.seq == seq)).first()
        return None if e is None else _log_entry(e)

    def export_game(self, game_id: str) -> dict[str, Any]:
        """The PROTOCOL.md file of the game: its configuration and the actions in effect."""
        with self.db.transaction() as conn:
            head = read_head(conn, game_id)
            folded = fold_log(conn, head)
        return {"config": stored_config(head.config), "actions": [json.loads(e.action) for e in folded.in_effect]}

    # --- writing -------------------------------------------------------------------------------

    def submit(
        self,
        game_id: str,
        action: dict[str, Any],
        *,
        base_version: int,
        submitted_by: str | None = None,
        key: str | None = None,
    ) -> Submission:
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
                    duplicate = conn.execute(BY_KEY, {"game_id": game_id, "key": key}).first()
                    if duplicate is not None and not _same_action(duplicate.action, parsed):
                        raise KeyReused(
                            f"idempotency key {key!r} of game {game_id} was used for another action "
                            f"({duplicate.action}); nothing was applied"
                        )
                if duplicate is None:
                    _check_base(game_id, base_version, head)
                    replayed = self._cache.take(conn, head)
                    answer = replayed.game.submit(parsed)
                    if answer.accepted:
                        append(
                            conn,
                            head,
                            "action",
                            _dump(_resolved(answer, parsed).to_json()),
                            _dump(answer.to_json()),
                            by=submitted_by,
                            key=key,
                        )
                        advance(conn, head, replayed.game)
                        replayed.version, replayed.redo = head.version, []
                        replayed.seqs.append(head.version)
                        keep_resume_point(conn, game_id, replayed)
        except (IntegrityError, Conflict):
            raise self._lost_race(game_id, base_version) from None
        if duplicate is not None:
            table = self.load(game_id)
            return Submission(answer_from_json(json.loads(duplicate.answer)), table.version, table, duplicate=True)
        self._cache.remember(game_id, replayed)
        return Submission(answer, replayed.version, table_of(game_id, replayed))

    def undo(self, game_id: str, *, base_version: int, by: str | None = None) -> Table:
        """Take back the latest action in effect: an `undo` entry; the action stays in the log.

        The state becomes the configuration replayed through the remaining actions, so every
        die rolled before the undone action is the die recorded, never a new roll.
        """
        _check_arguments(base_version, {"by": (by, MAX_BY)})
        try:
            with self._writing(game_id) as (conn, head):
                _check_base(game_id, base_version, head)
                replayed = self._cache.take(conn, head)
                if not replayed.game.log:
                    self._cache.remember(game_id, replayed)
                    raise NothingToUndo(game_id)
                target = fold_log(conn, head).in_effect[-1].seq
                replayed.game.undo()
                append(
                    conn,
                    head,
                    "undo",
                    _dump({"type": "undo", "target": target}),
                    _dump({"accepted": True, "step": replayed.game.state.step, "undone": target}),
                    by=by,
                    target=target,
                )
                conn.execute(SET_UNDONE, {"of_game": game_id, "of_seq": target, "flag": True})
                advance(conn, head, replayed.game)
                replayed.version = head.version
                replayed.redo.append(target)
                replayed.seqs.pop()
                keep_resume_point(conn, game_id, replayed, rewound=True)
        except (IntegrityError, Conflict):
            raise self._lost_race(game_id, base_version) from None
        self._cache.remember(game_id, replayed)
        return table_of(game_id, replayed)

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
                replayed = self._cache.take(conn, head)
                if not replayed.redo:
                    self._cache.remember(game_id, replayed)
                    raise NothingToRedo(game_id)
                target = replayed.redo[-1]
                original = conn.execute(ENTRY, {"game_id": game_id, "seq": target}).one()
                answer_json = _dump(replayed.game.submit(parse_action(json.loads(original.action))).to_json())
                if _outcome(json.loads(answer_json)) != _outcome(json.loads(original.answer)):
                    raise LogDiverged(
                        f"cannot redo entry {target} of game {game_id}: the rules engine no longer "
                        "gives the recorded result (dice, draws or events differ); nothing was written"
                    )
                append(conn, head, "redo", _dump({"type": "redo", "target": target}), answer_json, by=by, target=target)
                conn.execute(SET_UNDONE, {"of_game": game_id, "of_seq": target, "flag": False})
                advance(conn, head, replayed.game)
                replayed.version = head.version
                replayed.redo.pop()
                replayed.seqs.append(target)
                keep_resume_point(conn, game_id, replayed, rewound=True)
        except (IntegrityError, Conflict):
            raise self._lost_race(game_id, base_version) from None
        self._cache.remember(game_id, replayed)
        return table_of(game_id, replayed)

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
                hint = "" if "rules_version" in config else _OLDER_EXPORT
                raise BadGameFile(
                    f"action {index} ({action.TYPE}) does not replay: the engine refuses it ({reasons}); "
                    f"{hint}nothing was imported"
                )
            entries.append((_resolved(answer, action), answer))
        game_id = uuid.uuid4().hex
        now = utc_now()
        with self.db.transaction(write=True) as conn:
            head = insert_game(conn, game_id, game, now)
            if entries:
                conn.execute(
                    INSERT_EVENT,
                    [
                        {
                            "game_id": game_id,
                            "seq": seq,
                            "kind": "action",
                            "action": _dump(action.to_json()),
                            "answer": _dump(answer.to_json()),
                            "target": None,
                            "submitted_by": "import",
                            "at": now,
                            "undone": False,
                            "idempotency_key": None,
                        }
                        for seq, (action, answer) in enumerate(entries, start=1)
                    ],
                )
                head.version = len(entries)
                settle(conn, head, game, now)
                save_head(conn, head, 0, now)
            replayed = Replayed(len(entries), game, [], list(range(1, len(entries) + 1)))
            keep_resume_point(conn, game_id, replayed)
        self._mark_kept()
        self._cache.remember(game_id, replayed)
        return game_id

    def delete_game(self, game_id: str) -> None:
        """Remove a game for good: its log, its seats and the phones joined to it go with it, and
        a finished one leaves the statistics (GameNotFound when there is no such game)."""
        with self._writing(game_id) as (conn, _):  # a write to it under way finishes first
            for row in (
                EventRow,
                SnapshotRow,
                ResumePageRow,
                ResumePointRow,
                LogProblemRow,
                JoinLinkRow,
                DeviceRow,
                SeatRow,
            ):
                conn.execute(delete(row).where(col(row.game_id) == game_id))
            conn.execute(delete(GameRow).where(col(GameRow.id) == game_id))
        self._cache.forget(game_id)

    # --- statistics and checks -----------------------------------------------------------------

    def statistics(self) -> Statistics:
        """Per player across finished games, and per finished game its seats (for charts)."""
        return read_statistics(self.db)

    def verify(self, game_id: str) -> list[str]:
        """Problems found by replaying the whole log (an empty list: the stored game is consistent)."""
        return verify_game(self.db, game_id)

    # --- internals -----------------------------------------------------------------------------

    @contextmanager
    def _writing(self, game_id: str) -> Iterator[tuple[Connection, Head]]:
        """A write transaction holding the game's row (BEGIN IMMEDIATE on SQLite, FOR UPDATE elsewhere)."""
        with self.db.transaction(write=True) as conn:
            yield conn, read_head(conn, game_id, lock=True)

    def _save_resume(self, game_id: str, replayed: Replayed) -> None:
        """Save a resume point after a read, if the database is free at once (it is only a cache)."""
        try:
            with self.db.transaction(write=True, wait=False) as conn:
                if read_head(conn, game_id, lock=True).version == replayed.version:
                    with kept_apart(conn, game_id):
                        save(conn, game_id, replayed)
        except (StorageError, IntegrityError) as error:
            _log.info("game %s: no resume point saved now (%s)", game_id, getattr(error, "message", error))

    def _lost_race(self, game_id: str, base_version: int) -> StaleState:
        """Another writer appended the same entry number first: report the version it left."""
        with self.db.transaction() as conn:
            return StaleState(game_id, base_version, read_head(conn, game_id).version)


def _log_entry(e: Row[EventRow]) -> LogEntry:
    """A log row as the store gives it (the engine's JSON read back)."""
    return LogEntry(
        seq=e.seq,
        action=json.loads(e.action),
        answer=json.loads(e.answer),
        submitted_by=e.submitted_by,
        at=e.at,
        undone=e.undone,
        kind=e.kind,
        target=e.target,
    )


def _check_arguments(base_version: object, texts: dict[str, tuple[object, int]]) -> None:
    """A write's arguments, checked before anything is read: InvalidArgument names the first bad one."""
    if not is_int(base_version):
        raise InvalidArgument(
            f"base_version must be a whole number (the version the caller saw), not "
            f"{type(base_version).__name__}; nothing was written"
        )
    for what, (value, most) in texts.items():
        if value is not None and not is_clean_text(value, most):
            raise InvalidArgument(
                f"{what} must be a text of at most {most} characters without control characters; nothing was written"
            )


def _check_base(game_id: str, base_version: int, head: Head) -> None:
    if base_version != head.version:
        raise StaleState(game_id, base_version, head.version)


def _resolved(answer: Answer, action: Action) -> Action:
    """The accepted action as the log keeps it: with the outcomes of its chance points."""
    return answer.action or action


def _same_action(stored: str, action: Action) -> bool:
    """A retry names the stored action (which also keeps the outcomes it led to)."""
    retried = action.to_json()
    kept: dict[str, Any] = json.loads(stored)
    retried.pop("outcomes", None)
    kept.pop("outcomes", None)
    return retried == kept


def _game_file(data: Any) -> tuple[Any, list[Any]]:
    """The shape PROTOCOL.md fixes for a game file, checked before anything is replayed."""
    if not isinstance(data, dict) or "config" not in data or "actions" not in data:
        raise BadGameFile('a game file must be a JSON object with "config" and "actions"')
    extra = sorted(set(data) - {"config", "actions"})
    if extra:
        raise BadGameFile(f'a game file has no field {extra[0]!r} (only "config" and "actions")')
    if not isinstance(data["actions"], list):
        raise BadGameFile('"actions" must be a list')
    return data["config"], data["actions"]
