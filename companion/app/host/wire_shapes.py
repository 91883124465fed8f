"""Whether a value a client sent has the shape Flet is about to give it: checked before any work.

Flet 1.0.5 turns a client's event data and property patches into Python objects by their
annotations without checking them: a route change whose data is a number reaches the app's
handler as an event with no route, garbage keyboard data raises inside Flet's own constructor,
and a patch may set any field, build controls from a dict, or set private attributes on nested
objects. Each of those ended in a traceback sent back to the client. Here each value is held
against the annotation of the field it lands in (resolved once per class): the wrong shape is
refused before Flet reads it.

Two ways a dict lands in a dataclass: an event's data builds a new object (every required field
present, no control built from client data); a patch changes an object the server already holds
(any subset of its fields; a field holding nothing cannot be filled with a new object).
"""

from __future__ import annotations

import dataclasses
import datetime
import sys
import types
import typing
from collections import abc
from collections.abc import Callable
from enum import Enum
from functools import cache
from typing import Any, ForwardRef, TypeVar, Union, get_args, get_origin

DEPTH = 8  # deeper values are refused (no client sends more than four levels)
_UNIONS = (Union, types.UnionType)
_SCALARS = (str, int, float, bool, type(None))


Check = Callable[[object, int], bool]  # a value, and how deep it sits


@dataclasses.dataclass(frozen=True)
class Field:
    """A dataclass field as a client's value meets it: the check of its values (compiled once
    from its annotation, Flet's own names resolved), whether an event must carry it, whether it
    holds an object by default, and the dataclass a dict sent to it lands in."""

    fits: Check
    required: bool
    made_by_default: bool
    nested: type | None
    builds_items: bool


def scalar(value: object) -> bool:
    return isinstance(value, _SCALARS)


def plain(value: object, depth: int = 0) -> bool:
    """A value for an `Any` annotation: what a JSON document holds (and bytes), nothing deeper than DEPTH."""
    if isinstance(value, (*_SCALARS, bytes)):
        return True
    if depth >= DEPTH:
        return False
    if isinstance(value, list):
        return all(plain(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v, depth + 1) for k, v in value.items())
    return False


def conforms(annotation: Any, value: object, depth: int = 0) -> bool:
    """Whether `value` fits `annotation` where Flet would build it afresh (event data)."""
    return checker(annotation)(value, depth)


def checker(annotation: Any) -> Check:
    """The check of an annotation's values (made once per annotation)."""
    try:
        return _checker(annotation)
    except TypeError:  # an unhashable annotation
        return _compile(annotation)


@cache
def _checker(annotation: Any) -> Check:
    return _compile(annotation)


def _compile(annotation: Any) -> Check:
    if annotation is Any:
        return plain
    if annotation is None or annotation is type(None):
        return lambda value, depth: value is None
    origin = get_origin(annotation)
    if origin in _UNIONS:
        arms = [checker(arm) for arm in get_args(annotation)]
        return lambda value, depth: any(arm(value, depth) for arm in arms)
    if origin is typing.Literal:
        allowed = frozenset(get_args(annotation))
        return lambda value, depth: scalar(value) and value in allowed
    if origin is not None:
        return _generic(origin, get_args(annotation))
    if isinstance(annotation, ForwardRef | str | TypeVar):
        return lambda value, depth: scalar(value)  # a name Flet itself could not resolve: passed on as it is
    return _simple(annotation)


def _generic(origin: Any, args: tuple[Any, ...]) -> Check:
    if origin in (list, tuple, typing.Sequence, typing.MutableSequence, abc.Sequence, abc.MutableSequence):
        item = checker(args[0] if args else Any)
        return lambda value, depth: depth < DEPTH and isinstance(value, list) and all(item(v, depth + 1) for v in value)
    if origin in (dict, typing.Mapping, typing.MutableMapping, abc.Mapping, abc.MutableMapping):
        key, each = (checker(args[0]), checker(args[1])) if len(args) == 2 else (plain, plain)
        return lambda value, depth: (
            depth < DEPTH
            and isinstance(value, dict)
            and all(key(k, depth + 1) and each(v, depth + 1) for k, v in value.items())
        )
    if isinstance(origin, type) and dataclasses.is_dataclass(origin):
        return _simple(origin)  # a generic dataclass (Event[Page]): as its class
    return lambda value, depth: False  # a callable, or a shape no client sends


def _simple(annotation: Any) -> Check:
    if annotation is bool:
        return lambda value, depth: isinstance(value, bool)
    if annotation in (int, float):
        return lambda value, depth: isinstance(value, int | float) and not isinstance(value, bool)
    if annotation is str:
        return lambda value, depth: isinstance(value, str)
    if not isinstance(annotation, type):
        return lambda value, depth: scalar(value)
    if issubclass(annotation, Enum):
        values = frozenset(member.value for member in annotation)
        return lambda value, depth: scalar(value) and value in values
    if annotation in (datetime.datetime, datetime.time) or annotation.__name__ == "Duration":
        return lambda value, depth: isinstance(value, annotation)  # Flet's msgpack extensions decode to these
    if dataclasses.is_dataclass(annotation):
        if _is_control(annotation):
            return lambda value, depth: value is None  # a control is the server's; a client never sends one
        return lambda value, depth: isinstance(value, dict) and builds(annotation, value, depth + 1)
    return lambda value, depth: scalar(value)


def builds(cls: type, data: dict[Any, Any], depth: int = 0, *, given: frozenset[str] = frozenset()) -> bool:
    """Whether `data` builds a `cls` (an event's or a nested value's): known fields fit, required
    ones present (but `given`, which Flet fills itself), no private keys."""
    if depth > DEPTH:
        return False
    table = fields_of(cls)
    for key, value in data.items():
        if not isinstance(key, str) or key.startswith("_") or key in given:
            return False
        found = table.get(key)
        if found is not None and not found.fits(value, depth):
            return False
    return all(name in data for name, found in table.items() if found.required and name not in given)


def patches(target: object, patch: dict[Any, Any], depth: int = 0) -> bool:
    """Whether `patch` changes `target` (an object, or a class standing for a fresh one) as Flet's
    `patch_dataclass` would without surprise: known, public, non-handler fields of fitting
    values; a nested dict only into an object the field already holds; no control built."""
    if depth > DEPTH:
        return False
    fresh = isinstance(target, type)
    table = fields_of(target if fresh else type(target))
    for key, value in patch.items():
        if not isinstance(key, str) or key.startswith(("_", "on_")):
            return False
        found = table.get(key)
        if found is None:
            return False
        if found.nested is not None and isinstance(value, dict):
            if fresh:  # a fresh object holds what its defaults and arguments made
                held: object = found.nested if found.made_by_default or found.required else None
            else:
                held = getattr(target, key, None)
            if held is None or not patches(held, value, depth + 1):
                return False
        elif found.builds_items and isinstance(value, list):
            return False  # Flet would build each item: a list of objects is the server's to set
        elif not found.fits(value, depth):
            return False
    return True


def _dataclass_in(annotation: Any) -> type | None:
    """The dataclass an annotation holds (alone or in an Optional), if any."""
    if get_origin(annotation) in _UNIONS:
        found = [arm for arm in get_args(annotation) if arm is not type(None)]
        annotation = found[0] if len(found) == 1 else None
    return annotation if isinstance(annotation, type) and dataclasses.is_dataclass(annotation) else None


def _dataclass_items(annotation: Any) -> bool:
    for arm in get_args(annotation) if get_origin(annotation) in _UNIONS else (annotation,):
        if get_origin(arm) is list and any(_dataclass_in(a) is not None for a in get_args(arm)):
            return True
    return False


@cache
def _is_control(cls: type) -> bool:
    from flet.controls.base_control import BaseControl

    return issubclass(cls, BaseControl)


@cache
def fields_of(cls: type) -> dict[str, Field]:
    """The fields of a dataclass by the name a client uses for them (Flet's `data_field`)."""
    table: dict[str, Field] = {}
    for field in dataclasses.fields(cls):
        if not field.init and field.name.startswith("_"):
            continue
        required = field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
        made = field.default_factory is not dataclasses.MISSING or dataclasses.is_dataclass(field.default)
        name = field.metadata.get("data_field", field.name)
        annotation = _resolved(field.type, cls)
        table[name] = Field(
            checker(annotation), required and field.init, made, _dataclass_in(annotation), _dataclass_items(annotation)
        )
    return table


def _resolved(annotation: Any, cls: type) -> Any:
    """An annotation with Flet's forward references replaced by what they name (unresolvable
    ones stay, and accept only plain values)."""
    if isinstance(annotation, str):
        annotation = ForwardRef(annotation)
    if isinstance(annotation, ForwardRef):
        found = _names(cls).get(annotation.__forward_arg__)
        return annotation if found is None else _resolved(found, cls)
    origin = get_origin(annotation)
    if origin is None:
        return annotation
    if origin is typing.Annotated:
        return _resolved(get_args(annotation)[0], cls)
    args = tuple(_resolved(arg, cls) for arg in get_args(annotation))
    if origin in _UNIONS:
        return Union[args]  # noqa: UP007 (built from a tuple)
    if origin is typing.Literal:
        return annotation
    try:
        return origin[args]
    except Exception:  # an origin that takes no arguments this way (a callable's): kept as written
        return annotation


@cache
def _names(cls: type) -> dict[str, Any]:
    """The names Flet's annotations use: its public names, then each class's module."""
    import flet
    import flet.controls.keys

    found: dict[str, Any] = {**vars(flet), **vars(flet.controls.keys)}
    for base in reversed(cls.__mro__):
        module = sys.modules.get(base.__module__)
        if module is not None:
            found.update(vars(module))
    return found
