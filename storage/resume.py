"""Resume points: a long game opens from its state saved after some entry, not from its whole log.

Replaying is the truth and stays it: a resume point is a cache of what a replay gives, written
by the store from a game it replayed (or moved on, action by action, from one it replayed), and
`games verify` compares it with a replay. Opening a game of 240,000 actions by replaying them
took 9.7 s every time; from its resume point it reads the state, the actions in effect and the
few entries written since, and replays only those (docs/performance.md has the figures).

What is kept, per game:
- `resume_points`: one row, the version (log entry) it was taken after, the engine that wrote
  it, and a packed record: the engine's state, the seqs of the actions in effect, what redo
  would put back, and the actions in effect after the last full page;
- `resume_pages`: the actions in effect by pages of PAGE, each valid while the action at its end
  is the entry it names (`last_seq`): the actions in effect form a stack, and the entry on top of
  a page fixes everything below it, so an undo reaching into a page makes it stale, and a later
  save writes it again. Saving a resume point writes only the pages that changed: a game's
  resume points cost about what its log costs, not the square of it.

When: a write saves one once RESUME_EVERY entries came since the last (and after an undo or a
redo of a long game, whose next opening would otherwise replay it all); an opening that had to
replay a long game saves one for the next (without waiting for a busy database).

Read only if it was written by this very engine: the key holds the rules version and a digest of
the engine's sources and data, and whether it runs compiled. The compiled engine's classes cannot
be rebuilt without their constructors: with it there are no resume points (`usable`), and long
games open by replaying, which it does several times faster. Another engine, a record that does
not unpack, that does not add up (its pages, its seqs, the state's step), or entries after it
that are not plain actions: the store replays the log, as it always could, and saves a new one.
The records are Python's pickles of the engine's own classes, read back by an unpickler that
builds nothing but the engine's classes (and the plain values inside them): a database that
someone else wrote can make a game wrong (as it can through its log), not run code.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import logging
import pickle
import sys
import zlib
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeGuard

from sqlalchemy import Connection, bindparam, delete, insert
from sqlalchemy import select as select_many
from sqlmodel import col

import companion.rules
from companion.rules import Action, Game, GameState, parse_config

from .consistency import dump
from .log import Entry, fold, stored_config
from .models import ResumePageRow, ResumePointRow
from .rows import NEWER_ENTRIES, Head

RESUME_EVERY = 200  # log entries since the last resume point before a write saves another
PAGE = 1000  # actions in effect per stored page
_SHARED = ("catalog", "ruleset", "board", "config")  # a state's parts that come from its configuration
_log = logging.getLogger(__name__)

POINT = select_many(col(ResumePointRow.version), col(ResumePointRow.engine), col(ResumePointRow.state)).where(
    col(ResumePointRow.game_id) == bindparam("game_id")
)
PAGES = (
    select_many(col(ResumePageRow.page), col(ResumePageRow.last_seq), col(ResumePageRow.actions))
    .where(col(ResumePageRow.game_id) == bindparam("game_id"), col(ResumePageRow.page) < bindparam("pages"))
    .order_by(col(ResumePageRow.page))
)
PAGE_KEYS = select_many(col(ResumePageRow.page), col(ResumePageRow.last_seq)).where(
    col(ResumePageRow.game_id) == bindparam("game_id")
)


@dataclass
class Replayed:
    """A game replayed at `version` (the replay cache's entry, replays.py): what redo would put
    back (the next one last), the log entry of each action in effect, and the version of the
    stored resume point (0: none this engine can read)."""

    version: int
    game: Game
    redo: list[int] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    saved: int = 0

    def due(self) -> bool:
        """Whether a resume point should be saved now."""
        return self.version - self.saved >= RESUME_EVERY and usable()


class Unreadable(Exception):
    """A resume point or page that this engine cannot use: the log is replayed instead."""


@cache
def usable() -> bool:
    """Whether this engine's state packs and unpacks as it was (the interpreted engine's does; the
    compiled engine's classes cannot be rebuilt without running their constructors, so with it
    long games open by replaying, which it does several times faster)."""
    state = Game({"players": [{"name": "a"}, {"name": "b"}], "seed": 1}).state
    try:
        packed = _pickle(state, {id(getattr(state, name)): name for name in _SHARED})
        back = _unpickle(packed, {name: getattr(state, name) for name in _SHARED})
        return isinstance(back, GameState) and dump(back.snapshot()) == dump(state.snapshot())
    except Exception as error:
        _log.info("resume points are off with this engine (%s): long games open by replaying", error)
        return False


@cache
def engine_key() -> str:
    """The engine as resume points name it: rules version, sources and data, compiled or not."""
    latest = parse_config({"players": [{"name": "a"}, {"name": "b"}]}).normalised["rules_version"]
    folder = Path(companion.rules.__file__).parent
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(p for p in folder.rglob("*") if p.suffix in (".py", ".json")):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    module = getattr(sys.modules.get(GameState.__module__), "__file__", "") or ""
    return f"rules {latest} {digest.hexdigest()[:24]} {'source' if module.endswith('.py') else 'compiled'}"


# --- reading -----------------------------------------------------------------------------------


def resumed(conn: Connection, head: Head) -> Replayed | None:
    """The game at the head's version from its resume point and the entries since; None when
    there is none this engine can use (the caller replays the log)."""
    if not usable():
        return None
    point = conn.execute(POINT, {"game_id": head.id}).first()
    if point is None or point.engine != engine_key() or point.version > head.version:
        return None
    newer = conn.execute(NEWER_ENTRIES, {"game_id": head.id, "after": point.version, "upto": head.version}).all()
    if len(newer) != head.version - point.version or any(e.kind != "action" for e in newer):
        return None  # an undo or redo since: the replay works it out
    try:
        game, seqs, redo = _unpacked(conn, head, point.state)
    except Exception as error:  # anything at all: the cache is never the truth
        _log.warning("game %s: its resume point at version %s is ignored (%s)", head.id, point.version, error)
        return None
    for e in newer:
        if not game.submit(json.loads(e.action)).accepted:
            return None
        seqs.append(e.seq)
    return Replayed(head.version, game, redo if not newer else [], seqs, point.version)


def _unpacked(conn: Connection, head: Head, packed: str) -> tuple[Game, list[int], list[int]]:
    base = Game(stored_config(head.config)).state
    record = _unpickle(packed, {name: getattr(base, name) for name in _SHARED})
    if not isinstance(record, dict):
        raise Unreadable("not a record")
    state, tail, redo = record.get("state"), record.get("tail"), record.get("redo")
    seqs = array("q")
    seqs.frombytes(record.get("seqs", b""))
    if not isinstance(state, GameState) or not _actions(tail) or not isinstance(redo, list):
        raise Unreadable("a part is missing")
    pages = len(seqs) // PAGE
    log: list[Action] = []
    for page, last_seq, actions in conn.execute(PAGES, {"game_id": head.id, "pages": pages}).all():
        part = _unpickle(actions, {})
        if page * PAGE != len(log) or last_seq != seqs[len(log) + PAGE - 1] or not _actions(part, PAGE):
            raise Unreadable(f"page {page} is stale")
        log.extend(part)
    log.extend(tail)
    if len(log) != len(seqs) or state.step != len(log) or not all(isinstance(s, int) for s in redo):
        raise Unreadable("its parts do not add up")
    return Game(base.config, state=state, log=log), seqs.tolist(), redo


def _actions(value: Any, size: int | None = None) -> TypeGuard[list[Action]]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        return False
    return all(isinstance(a, Action) for a in value)


def checked(conn: Connection, head: Head, rows: list[Any]) -> tuple[list[str], dict[int, str]]:
    """What `games verify` says of the resume point (rows: the whole log, in order), and its
    state as a snapshot to compare with the replay at its version (consistency.check_log)."""
    point = conn.execute(POINT, {"game_id": head.id}).first() if usable() else None
    if point is None or point.engine != engine_key():
        return [], {}
    where = f"the resume point at version {point.version}"
    try:
        game, seqs, redo = _unpacked(conn, head, point.state)
    except Exception as error:
        return [f"{where} cannot be read ({error}): the game opens by replaying its log, then saves another"], {}
    try:
        folded = fold(Entry(e.seq, e.kind, e.target, e.action) for e in rows if e.seq <= point.version)
    except ValueError:
        return [], {}  # the log itself does not add up: check_log says so
    problems = []
    if seqs != [e.seq for e in folded.in_effect] or [a.to_json() for a in game.log] != [
        json.loads(e.action) for e in folded.in_effect
    ]:
        problems.append(f"{where} holds other actions in effect than the log")
    if redo != folded.redo:
        problems.append(f"{where} would redo {redo}, the log {folded.redo}")
    return problems, {point.version: dump(game.state.snapshot())}


# --- writing -----------------------------------------------------------------------------------


def save(conn: Connection, game_id: str, replayed: Replayed) -> None:
    """Store `replayed` as the game's resume point: the pages that changed, then the record."""
    log, seqs = replayed.game.log, replayed.seqs
    if len(seqs) != len(log):  # never expected: then there is nothing true to save
        raise Unreadable(f"{len(seqs)} seqs for {len(log)} actions")
    pages = len(log) // PAGE
    stored: dict[int, int] = {page: last for page, last in conn.execute(PAGE_KEYS, {"game_id": game_id}).all()}
    for page in range(pages):
        last_seq = seqs[(page + 1) * PAGE - 1]
        if stored.get(page) != last_seq:
            conn.execute(
                delete(ResumePageRow).where(col(ResumePageRow.game_id) == game_id, col(ResumePageRow.page) == page)
            )
            actions = _pickle(_interned(log[page * PAGE : (page + 1) * PAGE]), {})
            conn.execute(insert(ResumePageRow).values(game_id=game_id, page=page, last_seq=last_seq, actions=actions))
    if any(page >= pages for page in stored):
        conn.execute(
            delete(ResumePageRow).where(col(ResumePageRow.game_id) == game_id, col(ResumePageRow.page) >= pages)
        )
    state = replayed.game.state
    record = {
        "state": state,
        "tail": _interned(log[pages * PAGE :]),
        "seqs": array("q", seqs).tobytes(),
        "redo": list(replayed.redo),
    }
    packed = _pickle(record, {id(getattr(state, name)): name for name in _SHARED})
    conn.execute(delete(ResumePointRow).where(col(ResumePointRow.game_id) == game_id))
    conn.execute(
        insert(ResumePointRow).values(game_id=game_id, version=replayed.version, engine=engine_key(), state=packed)
    )
    replayed.saved = replayed.version


def keep_resume_point(conn: Connection, game_id: str, replayed: Replayed, *, rewound: bool = False) -> None:
    """In a write's transaction: save a resume point when one is due, or after an undo or a redo
    of a long game (whose next opening would replay the whole log otherwise)."""
    long_game = len(replayed.game.log) >= RESUME_EVERY and replayed.saved != replayed.version
    if (replayed.due() or (rewound and long_game)) and usable():
        with kept_apart(conn, game_id):
            save(conn, game_id, replayed)


@contextmanager
def kept_apart(conn: Connection, game_id: str) -> Iterator[None]:
    """Run a save inside the caller's write transaction, in a savepoint of its own: a save that
    fails is rolled back alone and logged, and the write it follows stands."""
    try:
        with conn.begin_nested():
            yield
    except Exception as error:
        _log.warning("game %s: no resume point saved (%s); it opens by replaying its log", game_id, error)


def _interned(actions: list[Action]) -> list[Action]:
    """The same actions, equal ones given as one object (they are frozen values): a page of a
    game that repeats itself packs, and unpacks, its repeated actions once."""
    seen: dict[Action, Action] = {}
    out = []
    for action in actions:
        try:
            out.append(seen.setdefault(action, action))
        except TypeError:  # a field holds a dict (an outcome): kept as it is
            out.append(action)
    return out


# --- packing -----------------------------------------------------------------------------------


class _Packer(pickle.Pickler):
    def __init__(self, file: io.BytesIO, shared: dict[int, str]) -> None:
        super().__init__(file, protocol=5)
        self._shared = shared

    def persistent_id(self, obj: Any) -> str | None:
        return self._shared.get(id(obj))


class _Unpacker(pickle.Unpickler):
    """Builds the engine's classes and plain values, nothing else."""

    def __init__(self, file: io.BytesIO, shared: dict[str, Any]) -> None:
        super().__init__(file)
        self._shared = shared

    def persistent_load(self, pid: Any) -> Any:
        if not isinstance(pid, str) or pid not in self._shared:
            raise pickle.UnpicklingError(f"unknown shared part {pid!r}")
        return self._shared[pid]

    def find_class(self, module: str, name: str) -> Any:
        if module.startswith("companion.rules.") and module in sys.modules:
            found = getattr(sys.modules[module], name, None)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not one of the engine's classes")


def _pickle(value: Any, shared: dict[int, str]) -> str:
    buffer = io.BytesIO()
    _Packer(buffer, shared).dump(value)
    return base64.b64encode(zlib.compress(buffer.getvalue(), 1)).decode("ascii")


def _unpickle(text: str, shared: dict[str, Any]) -> Any:
    try:
        raw = zlib.decompress(base64.b64decode(text, validate=True))
    except (ValueError, zlib.error) as error:
        raise Unreadable(f"damaged: {error}") from None
    return _Unpacker(io.BytesIO(raw), shared).load()
