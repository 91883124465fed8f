"""What can go wrong in storage, as types the UI and the CLI can tell apart.

Every message is a sentence a player can act on: it says what happened, that nothing was lost
(or what was), and what to do. The engine's own errors (`ConfigError`, `MalformedAction`) pass
through unchanged: they are about the game, not about where it is kept.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class: the message is the one line the user sees."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameNotFound(StorageError):
    def __init__(self, game_id: str) -> None:
        shown = repr(game_id[:80]) if isinstance(game_id, str) else f"of type {type(game_id).__name__}"
        super().__init__(f"there is no game with id {shown} in this database")
        self.game_id = game_id


class StaleState(StorageError):
    """The game changed since the caller looked at it: nothing was written; reload and decide again."""

    def __init__(self, game_id: str, base_version: int, current_version: int) -> None:
        super().__init__(
            f"game {game_id} changed: it is at version {current_version}, "
            f"the request was based on version {base_version}; nothing was written"
        )
        self.game_id = game_id
        self.base_version = base_version
        self.current_version = current_version


class NothingToUndo(StorageError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id} has no action left to undo")


class NothingToRedo(StorageError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id} has nothing to redo (no undo since the last action)")


class LinkRefused(StorageError):
    """A join link's secret is not (or no longer) the game's: nothing was bound."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"the join link of game {game_id} is not valid (any more); nothing was bound")
        self.game_id = game_id


class SeatTaken(StorageError):
    """Another device holds that seat: nothing was bound."""

    def __init__(self, game_id: str, seat: int) -> None:
        super().__init__(f"seat {seat} of game {game_id} is taken by another device; nothing was bound")
        self.game_id = game_id
        self.seat = seat


class KeyReused(StorageError):
    """An idempotency key came back with a different action: a client bug, never applied."""


class InvalidArgument(StorageError):
    """A caller passed a value of the wrong type or size (a version, a name, a key): nothing was read or written."""


class BadGameFile(StorageError):
    """An imported file is not a game this engine can replay."""


class LogDiverged(StorageError):
    """The stored log no longer replays as recorded (the rules engine changed under it)."""


class DatabaseProblem(StorageError):
    """The database cannot be used as it is; the user's file was left untouched."""


class CorruptDatabase(DatabaseProblem):
    pass


class ForeignDatabase(DatabaseProblem):
    pass


class NewerSchema(DatabaseProblem):
    def __init__(self, message: str, found: int, supported: int) -> None:
        super().__init__(message)
        self.found = found
        self.supported = supported


class DiskFull(DatabaseProblem):
    pass


class DatabaseGone(DatabaseProblem):
    """The SQLite file this store opened was deleted, moved or replaced while the app ran: nothing
    more is written (or acknowledged) until the app is restarted on the right file."""


class DatabaseMissing(DatabaseProblem):
    """No database where games were kept (its `.kept` marker lies there): nothing was created."""


class BackupRefused(StorageError):
    """A backup or restore that cannot be done as asked (a PostgreSQL database, a target that
    holds games, a file that is no backup): nothing was changed."""


class ReadOnly(DatabaseProblem):
    pass


class Unreachable(DatabaseProblem):
    """A database server did not answer (PostgreSQL down, wrong host or password)."""
