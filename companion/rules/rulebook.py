"""The rule ids the referee cites, by section (their texts live in the translation catalogs)."""

from __future__ import annotations

import json
from functools import cache

from .compiled import SOURCES

RULEBOOK_FILE = SOURCES / "rulebook.json"


@cache
def rule_sections() -> tuple[tuple[str, tuple[str, ...]], ...]:
    data = json.loads(RULEBOOK_FILE.read_text(encoding="utf-8"))
    return tuple((section["id"], tuple(section["rules"])) for section in data["sections"])


def rule_ids() -> tuple[str, ...]:
    return tuple(rule for _, rules in rule_sections() for rule in rules)
