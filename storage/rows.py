"""A game's rows inside one transaction: its head (the games row), the log's entries, the
snapshots and the seats' figures. The store's transactions call these; nothing here opens one.

Every write moves the head on in memory and writes it back only if the row is still at the
version it read (`save_head`): a lost race is a `Conflict`, which the store reports as stale.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, bindparam, false, insert, update
from sqlalchemy import select as select_many  # sqlmodel's select is typed for at most four columns
from sqlmodel import col, select

from companion.rules import Game, is_clean_text

from .consistency import dump
from .errors import GameNotFound, LogDiverged
from .log import Entry, Folded, fold
from .models import EventRow, GameRow, SeatRow, SnapshotRow
from .statistics import seat_statistics, winner_label

SNAPSHOT_EVERY = 100  # engine steps between cached snapshots (and one when a game finishes)
MAX_GAME_ID = 64


@dataclass
class Head:
    """A game's row as one transaction sees it; changed in memory, written back by `save_head`."""

    id: str
    version: int
    status: str
    finished: datetime | None
    winner: str | None
    config: str


class Conflict(Exception):
    """The game's row moved under a write transaction (a lost race): reported as StaleState."""


# The statements of the hot paths, built once: executing them only binds parameters.
HEAD = select_many(
    col(GameRow.id),
    col(GameRow.version),
    col(GameRow.status),
    col(GameRow.finished),
    col(GameRow.winner),
    col(GameRow.config),
).where(col(GameRow.id) == bindparam("game_id"))
HEAD_LOCKED = HEAD.with_for_update()
BY_KEY = select(EventRow.action, EventRow.answer).where(
    EventRow.game_id == bindparam("game_id"), EventRow.idempotency_key == bindparam("key")
)
ENTRY = select(EventRow.action, EventRow.answer).where(
    EventRow.game_id == bindparam("game_id"), EventRow.seq == bindparam("seq")
)
ENTRIES = (
    select(EventRow.seq, EventRow.kind, EventRow.target, EventRow.action)
    .where(EventRow.game_id == bindparam("game_id"), EventRow.seq <= bindparam("upto"))
    .order_by(col(EventRow.seq))
)
NEWER_ENTRIES = (
    select(EventRow.seq, EventRow.kind, EventRow.target, EventRow.action)
    .where(
        EventRow.game_id == bindparam("game_id"),
        EventRow.seq > bindparam("after"),
        EventRow.seq <= bindparam("upto"),
    )
    .order_by(col(EventRow.seq))
)
ANSWERS_IN_EFFECT = (
    select(EventRow.answer)
    .where(EventRow.game_id == bindparam("game_id"), EventRow.kind == "action", col(EventRow.undone) == false())
    .order_by(col(EventRow.seq))
)
INSERT_EVENT = insert(EventRow)
SET_UNDONE = (
    update(EventRow)
    .where(col(EventRow.game_id) == bindparam("of_game"), col(EventRow.seq) == bindparam("of_seq"))
    .values(undone=bindparam("flag"))
)
SAVE_HEAD = (
    update(GameRow)
    .where(col(GameRow.id) == bindparam("game_id"), col(GameRow.version) == bindparam("before"))
    .values(
        version=bindparam("new_version"),
        updated=bindparam("now"),
        status=bindparam("new_status"),
        finished=bindparam("new_finished"),
        winner=bindparam("new_winner"),
    )
)


def utc_now() -> datetime:
    return datetime.now(UTC)


def insert_game(conn: Connection, game_id: str, game: Game, now: datetime) -> Head:
    cfg = game.config
    head = Head(game_id, 0, "active", None, None, dump(cfg))
    conn.execute(
        insert(GameRow).values(
            id=game_id,
            created=now,
            updated=now,
            status=head.status,
            ruleset=cfg["ruleset"],
            seed=cfg["seed"],
            config=head.config,
            version=0,
        )
    )
    conn.execute(
        insert(SeatRow),
        [
            {"game_id": game_id, "seat": p.seat, "name": p.name, "colour": p.color, "team": p.team}
            for p in game.state.players
        ],
    )
    return head


def read_head(conn: Connection, game_id: str, lock: bool = False) -> Head:
    if not is_clean_text(game_id, MAX_GAME_ID):  # no game has it, and the database need not hear it
        raise GameNotFound(game_id)
    found = conn.execute(HEAD_LOCKED if lock else HEAD, {"game_id": game_id}).first()
    if found is None:
        raise GameNotFound(game_id)
    return Head(*found)


def fold_log(conn: Connection, head: Head) -> Folded:
    entries = conn.execute(ENTRIES, {"game_id": head.id, "upto": head.version}).all()
    try:
        return fold(Entry(*e) for e in entries)
    except ValueError as error:
        raise LogDiverged(f"the log of game {head.id} is inconsistent: {error}") from None


def append(
    conn: Connection,
    head: Head,
    kind: str,
    action: str,
    answer: str,
    *,
    by: str | None,
    key: str | None = None,
    target: int | None = None,
) -> None:
    """Entry version+1; the primary key (game_id, seq) refuses it if another writer got there first."""
    conn.execute(
        INSERT_EVENT,
        {
            "game_id": head.id,
            "seq": head.version + 1,
            "kind": kind,
            "action": action,
            "answer": answer,
            "target": target,
            "submitted_by": by,
            "at": utc_now(),
            "undone": False,
            "idempotency_key": key,
        },
    )


def advance(conn: Connection, head: Head, game: Game) -> None:
    """The entry just appended moves the game's version on, in the same transaction."""
    now = utc_now()
    before = head.version
    head.version += 1
    state = game.state
    newly_finished = settle(conn, head, game, now)
    if newly_finished or (state.step and state.step % SNAPSHOT_EVERY == 0):
        conn.execute(
            insert(SnapshotRow).values(
                game_id=head.id, version=head.version, step=state.step, state=dump(state.snapshot())
            )
        )
    save_head(conn, head, before, now)


def save_head(conn: Connection, head: Head, before: int, now: datetime) -> None:
    """Write the game's row back, only if it is still at version `before` (else: a lost race)."""
    done = conn.execute(
        SAVE_HEAD,
        {
            "game_id": head.id,
            "before": before,
            "new_version": head.version,
            "now": now,
            "new_status": head.status,
            "new_finished": head.finished,
            "new_winner": head.winner,
        },
    )
    if done.rowcount != 1:
        raise Conflict(head.id)


def settle(conn: Connection, head: Head, game: Game, now: datetime) -> bool:
    """Status, winner and seat statistics follow the state; True when the game has just finished."""
    state = game.state
    if state.winner is None:
        if head.status == "finished":  # an undo took the winning action back
            head.status, head.finished, head.winner = "active", None, None
            conn.execute(
                update(SeatRow)
                .where(col(SeatRow.game_id) == head.id)
                .values(
                    won=False,
                    tunnel=None,
                    beatings_taken=None,
                    beatings_given=None,
                    extortions_won=None,
                    extortions_lost=None,
                )
            )
        return False
    newly = head.status != "finished"
    head.status, head.winner = "finished", winner_label(state)
    head.finished = now if newly else head.finished
    answers = conn.execute(ANSWERS_IN_EFFECT, {"game_id": head.id}).scalars()
    for s in seat_statistics(state, (json.loads(a) for a in answers)):
        conn.execute(
            update(SeatRow)
            .where(col(SeatRow.game_id) == head.id, col(SeatRow.seat) == s.seat)
            .values(
                won=s.won,
                tunnel=s.tunnel,
                beatings_taken=s.beatings_taken,
                beatings_given=s.beatings_given,
                extortions_won=s.extortions_won,
                extortions_lost=s.extortions_lost,
            )
        )
    return newly
