"""The Warden's open report window (WARD-2), as the state holds it and an answer carries it.

A record (record.py), read back strictly from a stored answer, so it stays apart from state.py:
records are made at import time and stay interpreted when the engine is compiled (compiled.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from .record import Record


@dataclass(frozen=True, slots=True, eq=False, kw_only=True)
class Offence(Record):
    """A legal action the Warden saw (WARD-2): its report window is open until the next action."""

    rule: str
    action: str
    place: str
    offender: int
