"""The rulings a table kept as house rules for its next games, as its settings file holds them.

A kept ruling is {"ruling": why the table said so, "house_rules": the settings it sets}; read
back, an entry that no longer makes a valid house rule is dropped, never trusted (the file is
the user's to edit or damage).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules import PRESETS, RULING_MAX, ConfigError, build_ruleset, is_clean_text

MAX_KEPT = 20  # kept rulings a table's settings hold (the oldest go first)


def clean_text(text: str) -> str:
    """The ruling the table typed, trimmed; '' when it is not one the engine would take."""
    text = text.strip()
    return text if text and is_clean_text(text, RULING_MAX) else ""


def valid_kept(entries: Any) -> list[dict[str, Any]]:
    """The kept rulings of a settings file that still make a valid house rule (a damaged or older
    entry is dropped, not trusted): each {"ruling": text, "house_rules": {...}}, newest last."""
    out: dict[str, dict[str, Any]] = {}
    for entry in entries if isinstance(entries, list) else ():
        if not isinstance(entry, dict):
            continue
        rules, text = entry.get("house_rules"), entry.get("ruling", "")
        if not isinstance(rules, dict) or not rules or not isinstance(text, str) or (text and not clean_text(text)):
            continue
        try:
            build_ruleset(PRESETS[0], rules)
        except ConfigError:
            continue
        key = repr(sorted(rules.items()))
        out.pop(key, None)
        out[key] = {"ruling": text.strip(), "house_rules": dict(rules)}
    return list(out.values())[-MAX_KEPT:]


def kept_with(entries: list[dict[str, Any]], rules: Mapping[str, Any], text: str) -> list[dict[str, Any]]:
    """The kept rulings with this one added (the same house rules once, with the newest reason)."""
    return valid_kept([*entries, {"ruling": clean_text(text), "house_rules": dict(rules)}])
