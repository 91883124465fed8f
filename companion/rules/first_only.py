"""A violation list that stops a judgement at its first entry: a listing only needs to know
whether a shape passes, not every rule it breaks after the first.

Checks only ever add to their list (`append`, `extend`, `+=`), so raising from those stops the
judgement where the first violation is found. Compiled checks (`compiled.py`) add to a list
without calling these methods; there `STOPS_EARLY` is False and a judgement runs to its end,
its first entry taken instead. This module stays interpreted: a compiled class cannot extend
`list`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Self

from .compiled import is_compiled
from .errors import Violation


class Refused(Exception):
    """Raised with the first violation (`args[0]`): no `__init__` of its own, as it is raised often."""


class FirstOnly(list[Violation]):
    """Never holds an entry: the first one added is raised instead."""

    def append(self, v: Violation) -> None:
        raise Refused(v)

    def extend(self, vs: Iterable[Violation]) -> None:
        for v in vs:
            raise Refused(v)

    def __iadd__(self, vs: Iterable[Violation]) -> Self:  # type: ignore[override,misc]
        for v in vs:  # not `extend`: checks add lists, mostly empty ones, to it for every shape
            raise Refused(v)
        return self


FIRST_ONLY = FirstOnly()  # never holds an entry, so one serves every judgement (and every thread)
STOPS_EARLY = not is_compiled()
