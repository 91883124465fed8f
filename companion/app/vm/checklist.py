"""The setup checklist as a screen and a printed page show it: the engine's lines
(`setup_checklist`) in the viewer's language, grouped by section, with the table's ticks.

The ticks are the table's own progress with the box, not a fact of the game: they are kept by
the browser (the screen says where), by each line's stable key, and a stored list of ticks is
read back only for the keys this checklist has (`ticks_from`).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from companion.rules import ConfigError, setup_checklist

from .text import Tr

SECTION_ORDER = ("board", "supply", "players", "neutrals", "goal")
MAX_TICKS_TEXT = 20_000  # a stored list of ticks longer than this is not one this app wrote


@dataclass(frozen=True)
class LineVM:
    key: str
    text: str
    rule: str | None
    done: bool


@dataclass(frozen=True)
class SectionVM:
    id: str
    title: str
    lines: tuple[LineVM, ...]


@dataclass(frozen=True)
class ChecklistVM:
    sections: tuple[SectionVM, ...] = ()
    players: tuple[str, ...] = ()
    done: int = 0
    total: int = 0
    progress: str = ""
    problem: str | None = None  # why there is no checklist (an impossible setup), in the viewer's words

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(line.key for section in self.sections for line in section.lines)


def checklist_view(config: Any, tr: Tr, ticked: Collection[str] = ()) -> ChecklistVM:
    """The checklist of `config` (a PROTOCOL.md configuration) in `tr`'s language."""
    try:
        lines = setup_checklist(config)
    except ConfigError as error:
        return ChecklistVM(problem=tr("checklist.not_ready", problem=tr.params(error.key, error.params)))
    sections = []
    for section in SECTION_ORDER:
        shown = tuple(
            LineVM(line.key, tr.params(line.text, line.params), line.rule, line.key in ticked)
            for line in lines
            if line.section == section
        )
        if shown:
            sections.append(SectionVM(section, tr(f"checklist.section_{section}"), shown))
    done = sum(line.done for s in sections for line in s.lines)
    total = len(lines)
    players = tuple(str(p.get("name", "")) for p in config.get("players", ()) if isinstance(p, dict))
    return ChecklistVM(tuple(sections), players, done, total, tr("checklist.progress", done=done, total=total))


def ticks_from(stored: Any, keys: Collection[str]) -> set[str]:
    """The ticks a browser kept (a JSON list of line keys), only those of this checklist: a
    stored value is the browser's word, so anything else in it is dropped."""
    if not isinstance(stored, str) or len(stored) > MAX_TICKS_TEXT:
        return set()
    try:
        found = json.loads(stored)
    except ValueError:
        return set()
    if not isinstance(found, list):
        return set()
    return {key for key in found if isinstance(key, str) and key in keys}


def ticks_text(ticked: Collection[str]) -> str:
    """The ticks as the browser keeps them."""
    return json.dumps(sorted(ticked))
