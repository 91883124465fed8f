"""Storage for the companion: every game as an event-sourced log in SQLite (default) or PostgreSQL.

    from storage import Store, StaleState
    store = Store()                       # $COMPANION_DATABASE_URL, else the default SQLite file
    game_id = store.create_game(config)
    table = store.load(game_id)
    sub = store.submit(game_id, action, base_version=table.version, key="phone-1/42")

Modules: `models` (tables), `database` (where and how: URL, SQLite WAL, transactions, errors),
`migrations` (schema versions), `log` (what undo/redo entries mean), `store` (the API),
`statistics` (history per player), `cli` (`dyo-companion games ...`), `bench` (figures).
The rules engine never imports this package.
"""

from .errors import (
                     BadGameFile,
                     CorruptDatabase,
                     DatabaseProblem,
                     DiskFull,
                     ForeignDatabase,
                     GameNotFound,
                     KeyReused,
                     LogDiverged,
                     NewerSchema,
                     NothingToRedo,
                     NothingToUndo,
                     ReadOnly,
                     StaleState,
                     StorageError,
                     Unreachable,
)
from .statistics import GameStats, PlayerStats, SeatStats, Statistics
from .store import GameInfo, LogEntry, Seat, Store, Submission, Table

__all__ = [
    "BadGameFile", "CorruptDatabase", "DatabaseProblem", "DiskFull", "ForeignDatabase", "GameInfo", "GameNotFound",
    "GameStats", "KeyReused", "LogDiverged", "LogEntry", "NewerSchema", "NothingToRedo", "NothingToUndo",
    "PlayerStats", "ReadOnly", "Seat", "SeatStats", "StaleState", "Statistics", "StorageError", "Store",
    "Submission", "Table", "Unreachable",
]
