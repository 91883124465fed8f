"""The tables, as SQLModel classes: what the store reads and writes.

The log (`events`) is the truth; everything else is either a fact fixed at creation (a game's
configuration and seats) or derived from the log and kept only to answer quickly (a game's
version, status and winner; the per-seat statistics of finished games; snapshots).

These classes describe the *current* schema. They never create tables: `migrations.py` does,
one frozen step per schema version, and a test checks that the migrated database and these
classes agree. JSON is stored as text the store encodes itself, so SQLite and PostgreSQL hold
byte-identical documents.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Column, Text
from sqlmodel import Field, SQLModel

APP = "dyo-companion"


class SchemaInfo(SQLModel, table=True):
    """One row naming the application that owns the database and its schema version."""

    __tablename__ = "companion_schema"

    id: int = Field(default=1, primary_key=True)
    app: str = Field(max_length=40)
    version: int
    updated: datetime


class GameRow(SQLModel, table=True):
    __tablename__ = "games"

    id: str = Field(primary_key=True, max_length=36)
    created: datetime
    updated: datetime  # last change: the resume list shows the latest game first
    finished: datetime | None = None
    status: str = Field(max_length=16)  # "active" | "finished"
    ruleset: str = Field(max_length=40)
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    config: str = Field(sa_column=Column(Text, nullable=False))  # the engine's normalised configuration
    version: int  # log entries so far; every entry (action, undo, redo) adds one
    winner: str | None = Field(default=None, max_length=80)  # a player's name or a team id ("a"/"b")


class SeatRow(SQLModel, table=True):
    """A seat at the table; the statistics columns are filled once the game is finished."""

    __tablename__ = "seats"

    game_id: str = Field(primary_key=True, foreign_key="games.id", max_length=36)
    seat: int = Field(primary_key=True)
    name: str = Field(max_length=80)
    colour: str | None = Field(default=None, max_length=20)
    team: str | None = Field(default=None, max_length=1)
    won: bool = False
    tunnel: int | None = None
    beatings_taken: int | None = None
    beatings_given: int | None = None
    extortions_won: int | None = None
    extortions_lost: int | None = None


class EventRow(SQLModel, table=True):
    """One log entry. (game_id, seq) is the primary key: two writers cannot both append entry n.

    `kind` is "action" (an accepted action, resolved: with the outcomes of its chance points, and
    the engine's answer),
    "undo" or "redo" (naming in `target` the action entry they take back or put back). `undone`
    on an action entry mirrors the undo/redo entries so queries can pick the actions in effect.
    """

    __tablename__ = "events"

    game_id: str = Field(primary_key=True, foreign_key="games.id", max_length=36)
    seq: int = Field(primary_key=True)
    kind: str = Field(max_length=8)
    action: str = Field(sa_column=Column(Text, nullable=False))
    answer: str = Field(sa_column=Column(Text, nullable=False))
    target: int | None = None
    submitted_by: str | None = Field(default=None, max_length=80)
    at: datetime
    undone: bool = False
    idempotency_key: str | None = Field(default=None, max_length=200)


class SnapshotRow(SQLModel, table=True):
    """A cache only: the full engine state after some entry, checked against a replay of the log."""

    __tablename__ = "snapshots"

    game_id: str = Field(primary_key=True, foreign_key="games.id", max_length=36)
    version: int = Field(primary_key=True)
    step: int
    state: str = Field(sa_column=Column(Text, nullable=False))


class ResumePointRow(SQLModel, table=True):
    """A cache only: a game's replayed state after entry `version`, so a long game opens without
    replaying its whole log (resume.py). `engine` names the engine that wrote it (the rules
    version and a digest of the engine): another engine ignores it and writes its own."""

    __tablename__ = "resume_points"

    game_id: str = Field(primary_key=True, foreign_key="games.id", max_length=36)
    version: int
    engine: str = Field(max_length=80)
    state: str = Field(sa_column=Column(Text, nullable=False))  # the state, the last actions, as resume.py packs them


class ResumePageRow(SQLModel, table=True):
    """A cache only: one page of a game's actions in effect (resume.py), valid while the action at
    its end is still entry `last_seq`."""

    __tablename__ = "resume_pages"

    game_id: str = Field(primary_key=True, foreign_key="games.id", max_length=36)
    page: int = Field(primary_key=True)
    last_seq: int
    actions: str = Field(sa_column=Column(Text, nullable=False))


class LogProblemRow(SQLModel, table=True):
    """A game an upgrade found inconsistent and left exactly as it was (`games verify` shows it)."""

    __tablename__ = "log_problems"

    game_id: str = Field(primary_key=True, foreign_key="games.id", max_length=36)
    schema_version: int  # the schema version whose upgrade found it
    found: datetime
    problem: str = Field(sa_column=Column(Text, nullable=False))


class JoinLinkRow(SQLModel, table=True):
    """The secret in a game's join link (its QR code). Kept readable: the table screen shows it.

    Rotating the link replaces the secret (old links stop working) and counts the rotation.
    """

    __tablename__ = "join_links"

    game_id: str = Field(primary_key=True, foreign_key="games.id", max_length=36)
    secret: str = Field(max_length=64)
    created: datetime
    rotations: int = 0


class DeviceRow(SQLModel, table=True):
    """A browser that joined a game: a seat (or none: a spectator), found by its token's hash.

    The token itself lives only in that browser's storage; a stolen database cannot act as
    the device. (game_id, seat) is unique, so two phones can never hold one seat.
    """

    __tablename__ = "devices"

    id: str = Field(primary_key=True, max_length=16)
    game_id: str = Field(foreign_key="games.id", max_length=36)
    token_hash: str = Field(max_length=64)
    seat: int | None = None
    label: str = Field(max_length=80)
    joined: datetime
    seen: datetime


class ServerSecretRow(SQLModel, table=True):
    """A secret of the server rather than of a game (`host`: the host key), made once and shared
    by every instance serving this database."""

    __tablename__ = "server_secrets"

    name: str = Field(primary_key=True, max_length=40)
    secret: str = Field(max_length=64)
    created: datetime
