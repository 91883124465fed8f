"""The shape of input, checked once at the boundary before any parser reads it.

A game file or an API caller can hand over values no game holds, some of which make later code
fail far from the cause: a 5,000-digit number (Python will not print it), lists nested 900 deep
(recursion), NaN (not JSON once stored), a lone surrogate (cannot be written as UTF-8), a control
character (breaks a one-line message), a list where an id belongs (unhashable). `misshapen` walks
a decoded value once and names the first such part with its path, so the configuration and action
parsers can refuse it with their own error and then only check types and vocabulary, with
`is_int` and `is_id`. `decode_json` turns a file's bytes into that decoded value.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Container
from dataclasses import dataclass
from typing import Any, TypeGuard

from .errors import BadJson

MAX_DEPTH = 10  # lists and objects inside one another (real input needs 4)
MAX_ITEMS = 1_000  # entries of one list or object
MAX_VALUES = 20_000  # values in one walked document
MAX_TEXT = 1_000  # characters of one text, object keys included
INT_LIMIT = 2**63  # integers lie in -2^63 .. 2^63 - 1 (a seed needs them all)
_ODD_CHARACTER = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")  # controls, line breaks, surrogates
_PATH_KEY = 24  # characters of a key shown in a path


@dataclass(frozen=True)
class Misshapen:
    """What is out of shape (a message key and its parameters, `where` among them)."""

    key: str
    params: dict[str, Any]


class _Refusal(Exception):
    def __init__(self, key: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(key)
        self.key = key
        self.params = params or {}
        self.path: list[str | int] = []  # innermost first, filled in while unwinding


def is_int(value: Any) -> TypeGuard[int]:
    """An integer that is not a bool (JSON's `true` is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_id(value: Any, vocabulary: Container[str]) -> TypeGuard[str]:
    """A text id from `vocabulary` (tested for type first: a list is never looked up in a dict)."""
    return isinstance(value, str) and value in vocabulary


def is_clean_text(value: Any, most: int = MAX_TEXT) -> TypeGuard[str]:
    """A text of at most `most` characters without control characters or unpaired surrogates."""
    return isinstance(value, str) and len(value) <= most and _ODD_CHARACTER.search(value) is None


def misshapen(value: Any, root: str) -> Misshapen | None:
    """The first part of `value` no game input has, or None; `root` names `value` in the path."""
    try:
        _walk(value, 0, [MAX_VALUES])
    except _Refusal as refusal:
        where = root + "".join(
            f"[{step}]" if isinstance(step, int) else f".{_shown(step)}" for step in reversed(refusal.path)
        )
        return Misshapen(refusal.key, {"where": where, **refusal.params})
    return None


def _shown(key: str) -> str:
    return key if len(key) <= _PATH_KEY else key[: _PATH_KEY - 1] + "…"


def _walk(value: Any, depth: int, budget: list[int]) -> None:
    budget[0] -= 1
    if budget[0] < 0:
        raise _Refusal("shape.too_many_values", {"limit": MAX_VALUES})
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if not -INT_LIMIT <= value < INT_LIMIT:
            raise _Refusal("shape.number_out_of_range")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise _Refusal("shape.not_finite")
    elif isinstance(value, str):
        _text(value)
    elif isinstance(value, (list, dict)):
        if depth >= MAX_DEPTH:
            raise _Refusal("shape.too_deep", {"limit": MAX_DEPTH})
        if len(value) > MAX_ITEMS:
            raise _Refusal("shape.too_many_items", {"limit": MAX_ITEMS})
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            if isinstance(value, dict):
                if not isinstance(key, str):
                    raise _Refusal("shape.key_not_text")
                _text(key)
            try:
                _walk(item, depth + 1, budget)
            except _Refusal as refusal:
                refusal.path.append(key)
                raise
    else:
        raise _Refusal("shape.not_json", {"type": type(value).__name__})


def _text(value: str) -> None:
    if len(value) > MAX_TEXT:
        raise _Refusal("shape.text_too_long", {"limit": MAX_TEXT})
    if _ODD_CHARACTER.search(value):
        raise _Refusal("shape.odd_character")


def decode_json(data: bytes) -> Any:
    """The JSON value of a file's bytes, or BadJson saying why there is none.

    Besides bad syntax, the decoder itself fails on a number of more than 4,300 digits (Python's
    limit on int/str conversion) and on nesting deeper than the interpreter's stack: both are
    bad files too. What decodes is still to be checked by `misshapen`.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadJson("json.not_utf8", offset=error.start) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise BadJson("json.syntax", error=error.msg, line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise BadJson("json.too_deep") from None
    except ValueError:  # int() refused a literal of too many digits
        raise BadJson("json.number_too_long", limit=sys.get_int_max_str_digits()) from None
