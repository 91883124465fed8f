"""Small frozen values that travel as JSON: events, the Warden's offence.

A `Record` writes its fields in the order they are declared (`from_` is written `from`; a
field made with `omitted()` only when it is set) and reads them back strictly: every field
of its declared type, nothing else. It is also a read-only mapping over that JSON, so code
that reads the protocol's objects (PROTOCOL.md: "each an object with `type`") keeps working.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar


def omitted() -> Any:
    """A field written only when it is not None (the JSON of the variants that have it)."""
    return dataclasses.field(default=None, metadata={"omit_none": True})


class MalformedRecord(ValueError):
    """JSON that is not a value the engine writes (unknown type, missing or extra field, wrong value)."""


R = TypeVar("R", bound="Record")


class Record:
    """The common reading of every record: its JSON. Fields are read as attributes, never by key."""

    __slots__ = ()
    # Set by @dataclass on every concrete record; declared so `dataclasses.fields` accepts the class.
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields_of(type(self)):
            value = getattr(self, f.name)
            if value is None and f.metadata.get("omit_none"):
                continue
            out[json_name(f.name)] = plain(value)
        return out

    @classmethod
    def from_json(cls: type[R], data: Mapping[str, Any]) -> R:
        return read(cls, data)


def fields_of(cls: type[Record]) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(cls)


def json_name(name: str) -> str:
    return name.rstrip("_")  # `from_` -> "from"


def plain(value: Any) -> Any:
    """A field's value as JSON (tuples become lists)."""
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    return value


def frozen(value: Any) -> Any:
    """A JSON value as a field holds it (lists become tuples)."""
    return tuple(frozen(v) for v in value) if isinstance(value, list) else value


def read(cls: type[R], data: Mapping[str, Any], also: frozenset[str] = frozenset()) -> R:
    """The generic strict reading: every field the class declares, of its type, and nothing else
    (`also`: keys the caller has read already, such as an event's `type`)."""
    if not isinstance(data, Mapping):
        raise MalformedRecord(f"not an object: {data!r:.80}")
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    names = set(also)
    for f in fields_of(cls):
        key = json_name(f.name)
        names.add(key)
        if key not in data:
            if not f.metadata.get("omit_none"):
                raise MalformedRecord(f"{cls.__name__}: missing {key!r}")
            continue
        value = data[key]
        if not fits(value, hints[f.name]):
            raise MalformedRecord(f"{cls.__name__}: bad {key!r}: {value!r:.80}")
        values[f.name] = frozen(value)
    extra = set(data) - names
    if extra:
        raise MalformedRecord(f"{cls.__name__}: unexpected {sorted(extra)}")
    return cls(**values)


def fits(value: Any, hint: Any) -> bool:
    """Whether a JSON value is of a field's declared type (the few shapes records use)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (str, bool):
        return isinstance(value, hint)
    if origin is tuple:
        item = typing.get_args(hint)[0]
        return isinstance(value, list) and all(fits(v, item) for v in value)
    if origin is Mapping or hint is Mapping:
        return isinstance(value, Mapping)
    return False
