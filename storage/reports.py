"""Read-only reports over the stored games: statistics across finished games, and a check of
one game's whole log. Each reads in one read transaction and writes nothing."""

from __future__ import annotations

import json

from sqlalchemy import select as select_many  # sqlmodel's select is typed for at most four columns
from sqlmodel import col, select

from .consistency import check_log
from .database import Database
from .models import EventRow, GameRow, LogProblemRow, SeatRow, SnapshotRow
from .resume import checked as resume_checked
from .rows import read_head
from .statistics import GameStats, SeatStats, Statistics, summarise


def read_statistics(db: Database) -> Statistics:
    """Per player across finished games, and per finished game its seats (for charts).

    Reads only the games and seats tables (the figures were kept when each game finished),
    in one read transaction: two plain queries, rows unpacked as tuples.
    """
    finished = col(GameRow.status) == "finished"
    games = (
        select(GameRow.id, GameRow.finished, GameRow.ruleset, GameRow.winner)
        .where(finished)
        .order_by(col(GameRow.finished), col(GameRow.id))
    )
    seats = (
        select_many(
            col(SeatRow.game_id),
            col(SeatRow.seat),
            col(SeatRow.name),
            col(SeatRow.colour),
            col(SeatRow.team),
            col(SeatRow.won),
            col(SeatRow.tunnel),
            col(SeatRow.beatings_taken),
            col(SeatRow.beatings_given),
            col(SeatRow.extortions_won),
            col(SeatRow.extortions_lost),
        )
        .join(GameRow, col(GameRow.id) == SeatRow.game_id)
        .where(finished)
        .order_by(col(SeatRow.game_id), col(SeatRow.seat))
    )
    with db.transaction() as conn:
        game_rows = conn.execute(games).all()
        seat_rows = conn.execute(seats).all()
    by_game: dict[str, list[SeatStats]] = {}
    for game_id, seat, name, colour, team, won, tunnel, taken, given, won_x, lost_x in seat_rows:
        by_game.setdefault(game_id, []).append(
            SeatStats(seat, name, colour, team, bool(won), tunnel or 0, taken or 0, given or 0, won_x or 0, lost_x or 0)
        )
    return summarise(
        [
            GameStats(game_id, at, ruleset, winner, tuple(by_game.get(game_id, ())))
            for game_id, at, ruleset, winner in game_rows
        ]
    )


def verify_game(db: Database, game_id: str) -> list[str]:
    """Problems found by replaying the whole log (an empty list: the stored game is consistent).

    The check of `consistency.check_log` (numbering, undo/redo bookkeeping, every recorded
    answer and snapshot, the resume point's state among them), the resume point's actions,
    plus what the log should keep and does not (an outcome left to the seed) and what an
    upgrade reported and left as it was.
    """
    with db.transaction() as conn:
        head = read_head(conn, game_id)
        rows = conn.execute(select(EventRow).where(EventRow.game_id == game_id).order_by(col(EventRow.seq))).all()
        snapshots = dict(
            conn.execute(select(SnapshotRow.version, SnapshotRow.state).where(SnapshotRow.game_id == game_id)).all()
        )
        reported = conn.execute(
            select(LogProblemRow.schema_version, LogProblemRow.problem).where(LogProblemRow.game_id == game_id)
        ).all()
        resume_problems, resume_snapshot = resume_checked(conn, head, list(rows))
    problems = [
        f"the upgrade to schema version {schema} left this game's log as it was: {problem}"
        for schema, problem in reported
    ]
    problems += resume_problems
    for version, state in resume_snapshot.items():
        if version in snapshots and json.loads(snapshots[version]) != json.loads(state):
            problems.append(f"the resume point at version {version} differs from the snapshot there")
        snapshots.setdefault(version, state)  # check_log compares it with the replay there
    checked = check_log(head.version, head.config, rows, snapshots)
    problems += checked.problems
    if checked.config is not None:
        problems.append("the configuration does not keep the setup's draws (the seed decides them on replay)")
    if checked.resolved:
        problems.append(
            f"entries {sorted(checked.resolved)} do not keep their outcomes (the seed decides them on replay)"
        )
    return problems
