"""A refusal as a screen shows it: the rule, its message in the table's language, and whether a
house rule may force the action anyway. Shared by the menu, the composer and the corrections."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .text import Tr


@dataclass
class ReasonVM:
    rule: str
    message: str
    forceable: bool = True
    key: str = ""  # the engine's violation key (which refusal it is, whatever the language)


def reasons(violations: Iterable[Any], tr: Tr) -> list[ReasonVM]:
    return [ReasonVM(v.rule, tr.violation(v), v.forceable, v.key) for v in violations]
