"""Table rulings: when the referee overrules a refusal, the table may say why, and where the
ruleset has a setting for that refusal, keep the ruling as a house rule for its next games.

The engine says which refusals a setting governs (`refusal_house_rules`); the reason travels
with the action (its `ruling`), so the log, the replay and the export keep it. A kept ruling is
offered again in the next game's setup and never changes a game already stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules import refusal_house_rules

from .reasons import ReasonVM
from .text import Tr


@dataclass(frozen=True)
class Ruling:
    """What the table says as it records a refused action anyway."""

    text: str = ""
    keep: bool = False  # play so in the next games (only where a setting governs the refusal)


def keepable(reasons: Iterable[ReasonVM]) -> dict[str, Any] | None:
    """The house rules under which these refusals are legal, or None when a refusal has no setting."""
    keys = [r.key for r in reasons]
    return refusal_house_rules(keys) if keys and all(keys) else None


def house_rule_words(rules: Mapping[str, Any], tr: Tr) -> str:
    """A kept ruling's house rules, in words ("Craft more than once per turn")."""
    return tr.join(tr(f"ui.house_rule.{name}.{str(value).lower()}") for name, value in sorted(rules.items()))
