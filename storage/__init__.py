"""Storage for the companion: every game as an event-sourced log in SQLite (default) or PostgreSQL.

    from storage import Store, StaleState
    store = Store()                       # $COMPANION_DATABASE_URL, else the default SQLite file
    game_id = store.create_game(config)
    table = store.load(game_id)
    sub = store.submit(game_id, action, base_version=table.version, key="phone-1/42")

Modules: `models` (tables), `database` (where and how: URL, SQLite WAL, transactions, errors,
the watched file), `files` (the lock and the marker beside a SQLite file), `migrations` (schema
versions), `log` (what undo/redo entries mean), `store` (the API), with `records` (what it hands
back), `rows` (a game's rows in a transaction), `replays` (the cache) and `resume` (resume
points: long games open without replaying their whole log), `statistics` (history per player),
`devices` (join links and the phones bound to seats), `backups` (`games backup` and `restore`),
`cli` (`dyo-companion games ...`); its benchmark is `companion/bench/storage.py`.
The rules engine never imports this package.
"""

from .devices import Device, Devices
from .errors import (
    BackupRefused,
    BadGameFile,
    CorruptDatabase,
    DatabaseGone,
    DatabaseMissing,
    DatabaseProblem,
    DiskFull,
    ForeignDatabase,
    GameNotFound,
    InvalidArgument,
    KeyReused,
    LinkRefused,
    LogDiverged,
    NewerSchema,
    NothingToRedo,
    NothingToUndo,
    ReadOnly,
    SeatTaken,
    StaleState,
    StorageError,
    Unreachable,
)
from .statistics import GameStats, PlayerStats, SeatStats, Statistics
from .store import GameInfo, LogEntry, Seat, Store, Submission, Table

__all__ = [
    "BackupRefused",
    "BadGameFile",
    "CorruptDatabase",
    "DatabaseGone",
    "DatabaseMissing",
    "DatabaseProblem",
    "Device",
    "Devices",
    "DiskFull",
    "ForeignDatabase",
    "GameInfo",
    "GameNotFound",
    "GameStats",
    "InvalidArgument",
    "KeyReused",
    "LinkRefused",
    "LogDiverged",
    "LogEntry",
    "NewerSchema",
    "NothingToRedo",
    "NothingToUndo",
    "PlayerStats",
    "ReadOnly",
    "Seat",
    "SeatStats",
    "SeatTaken",
    "StaleState",
    "Statistics",
    "StorageError",
    "Store",
    "Submission",
    "Table",
    "Unreachable",
]
