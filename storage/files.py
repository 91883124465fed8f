"""The files beside a SQLite database: the lock that says a server serves it, and the marker that
says games were kept in it.

- `<db>.lock`: a server holds an advisory lock on it for its whole life (`hold_lock`). The lock
  belongs to the path, not to the database file: a database deleted or replaced under a running
  server leaves the lock where it was, so a second server on the same path is still refused.
  The file itself is never deleted (removing a lock file while another process opens it is how
  two processes come to hold "the" lock); it is empty.
- `<db>.kept`: written once the database has held a game (`mark_kept`). A start that finds no
  database (or an empty file) where this marker lies refuses to begin again with no games, and
  says where it looked (database.py); deleting the marker is how to start afresh on purpose.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import IO

LOCK_SUFFIX = ".lock"
KEPT_SUFFIX = ".kept"
_log = logging.getLogger(__name__)

_KEPT_TEXT = (
    "Dig Your Way Out companion: {name} beside this file has held games.\n"
    "If {name} goes missing, the companion refuses to start with no games here and says so.\n"
    "To start afresh on purpose (an empty database at this path), delete this file.\n"
)


class Held(Exception):
    """Another process holds the lock."""


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + LOCK_SUFFIX)


def kept_path(database: Path) -> Path:
    return database.with_name(database.name + KEPT_SUFFIX)


def hold_lock(database: Path) -> IO[bytes] | None:
    """Lock `<database>.lock` for as long as the returned file stays open; Held when another process
    holds it; None where advisory locks are not available (Windows) or the lock file cannot be
    made (a read-only folder, where no server could write the database anyway)."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here: SQLite's own locking still keeps the data safe
        return None
    try:
        handle = open(lock_path(database), "ab")  # noqa: SIM115 - held open by the caller
    except OSError:
        return None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise Held(str(lock_path(database))) from None
    return handle


def is_kept(database: Path) -> bool:
    return kept_path(database).exists()


def mark_kept(database: Path) -> None:
    """Write the marker (once; a failure is logged: the marker is a safeguard, not the data)."""
    marker = kept_path(database)
    if marker.exists():
        return
    try:
        temp = marker.with_name(marker.name + ".tmp")
        temp.write_text(_KEPT_TEXT.format(name=database.name), encoding="utf-8")
        os.replace(temp, marker)
    except OSError as error:
        _log.warning("cannot write %s (%s): a lost database would not be noticed at the next start", marker, error)
