"""The log's meaning, in one pure function: which actions are in effect and what redo restores.

Entries are never deleted. An `undo` entry takes back the latest action in effect; a `redo`
entry puts back the action most recently undone, but only while no new action has been
appended since (a new action starts a new branch, and the undone ones stay in the log as
history). Folding the entries in order gives the same answer everywhere: loading a game, the
migrations, and the consistency check of the `undone` flags.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple


class Entry(NamedTuple):
    seq: int
    kind: str  # "action" | "undo" | "redo"
    target: int | None
    action: str  # the action JSON as stored


@dataclass
class Folded:
    in_effect: list[Entry] = field(default_factory=list)  # action entries, oldest first
    redo: list[int] = field(default_factory=list)  # seqs redo would restore, the next one last
    actions: dict[int, Entry] = field(default_factory=dict)  # every action entry, by seq

    @property
    def undone(self) -> set[int]:
        """Action entries not in effect (what the `undone` flags must say)."""
        return set(self.actions) - {e.seq for e in self.in_effect}


def fold(entries: Iterable[Entry]) -> Folded:
    """Replay the undo/redo bookkeeping of a log given in `seq` order; ValueError if it does not add up."""
    out = Folded()
    for entry in entries:
        if entry.kind == "action":
            out.actions[entry.seq] = entry
            out.in_effect.append(entry)
            out.redo.clear()
        elif entry.kind == "undo":
            if not out.in_effect or out.in_effect[-1].seq != entry.target:
                raise ValueError(f"log entry {entry.seq} undoes {entry.target}, which was not the latest in effect")
            out.redo.append(out.in_effect.pop().seq)
        elif entry.kind == "redo":
            if not out.redo or out.redo[-1] != entry.target:
                raise ValueError(f"log entry {entry.seq} redoes {entry.target}, which was not the next to redo")
            out.in_effect.append(out.actions[out.redo.pop()])
        else:
            raise ValueError(f"log entry {entry.seq} has an unknown kind {entry.kind!r}")
    return out


def stored_config(raw: str) -> Any:
    """A game's stored configuration, as it replays. One stored before the engine's rules had
    versions names none: that game was played, and so replays, by the first (`RULES_VERSION`)."""
    config = json.loads(raw)
    if isinstance(config, dict):
        config.setdefault("rules_version", 1)
    return config
