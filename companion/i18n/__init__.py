"""One translation layer for every user-facing text.

A language's catalog is the folder `<lang>/` of flat JSON files keyed by message id, one file
per domain (names, rules, messages, events, ui...); a key may appear in only one of them.
English is complete; other languages fall back to English for a missing key. The engine and
the UI only ever hand over a key and its parameters; parameters that are game ids (a Place, a
card, a Gang...) are rendered through the catalog's names, chosen by the parameter's name
(`place`, `to`, `card`, `cards`, `gang`, ...).

Standard library only: the rules engine renders its English messages through this module.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

CATALOG_DIR = Path(__file__).parent
DEFAULT_LANGUAGE = "en"

# Parameter name (without a trailing "s" or digits) -> namespace of the names in the catalog.
NAME_SPACES: dict[str, str | tuple[str, ...]] = {
    "place": "place",
    "to": "place",
    "covered": "place",
    "from": "place",
    "card": "card",
    "tool": "card",
    "product": "card",
    "material": "card",
    "discard": "card",
    "weapon": "card",
    "item": "item",
    "gang": "gang",
    "ability": "ability",
    "background": "background",
    "token": "token",
    "trauma": "trauma",
    "neutral": "neutral",
    "action": "action",
    "recipe": "recipe",
    "michel_card": "michel_card",
    "effect": "effect",
    "choice": "choice",
    "decision": "decision",
    "what": "kind",
    "option": ("option", "place", "card", "neutral", "gang", "ability", "background", "choice", "action"),
}
_SUFFIX = re.compile(r"(_?\d+|s)$")


def languages() -> list[str]:
    return sorted(p.name for p in CATALOG_DIR.iterdir() if p.is_dir() and any(p.glob("*.json")))


@cache
def catalog(lang: str) -> Mapping[str, str]:
    folder = CATALOG_DIR / lang
    if not folder.is_dir():
        raise ValueError(f"no translation catalog for language {lang!r} (have: {', '.join(languages())})")
    merged: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")):
        part = json.loads(path.read_text(encoding="utf-8"))
        twice = sorted(set(part) & set(merged))
        if twice:
            raise ValueError(f"{lang}/{path.name} repeats the key {twice[0]!r}")
        merged.update(part)
    return merged


def text(key: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The catalog's text for `key`, falling back to English, then to the key itself."""
    found = catalog(lang).get(key)
    if found is None and lang != DEFAULT_LANGUAGE:
        found = catalog(DEFAULT_LANGUAGE).get(key)
    return key if found is None else found


def name(space: str | tuple[str, ...], ident: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The name of a game id; `space` may list several namespaces to try in order."""
    english = catalog(DEFAULT_LANGUAGE)
    for one in (space,) if isinstance(space, str) else space:
        if f"{one}.{ident}" in english:
            return text(f"{one}.{ident}", lang)
    return ident


def _space(param: str) -> str | tuple[str, ...] | None:
    return NAME_SPACES.get(param) or NAME_SPACES.get(_SUFFIX.sub("", param))


class _Name(str):
    """A game id's name that also knows how running text refers to it (`{place:the}`)."""

    the: str


@cache
def _idents(space: str, lang: str) -> Mapping[str, str]:
    """Names back to ids, for a caller that passed a name already translated."""
    prefix = f"{space}."
    return {shown: key[len(prefix) :] for key, shown in catalog(lang).items() if key.startswith(prefix)}


def _named(space: str, value: str, lang: str) -> str:
    ident: str | None
    if f"{space}.{value}" in catalog(DEFAULT_LANGUAGE):
        shown, ident = name(space, value, lang), value
    else:
        shown, ident = value, _idents(space, lang).get(value)
    out = _Name(shown)
    out.the = catalog(lang).get(f"the.{space}.{ident}", shown)
    return out


def _value(param: str, value: Any, lang: str) -> Any:
    if isinstance(value, (list, tuple)):
        return text("list.separator", lang).join(str(_value(param, v, lang)) for v in value)
    space = _space(param)
    if isinstance(space, str) and isinstance(value, str):
        return _named(space, value, lang)
    if space is not None and isinstance(value, str):
        return name(space, value, lang)
    return value


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class _Formatter(string.Formatter):
    """`{n:Beating|Beatings}` picks the singular form when n is 1 (a plural choice in the catalog);
    `{place:the}` is the name as running text says it ("the Cafeteria", "Solitary Confinement")."""

    def format_field(self, value: Any, spec: str) -> str:
        if spec in ("the", "The"):
            shown: str = getattr(value, "the", str(value))
            return shown[:1].upper() + shown[1:] if spec == "The" else shown
        if "|" in spec:
            one, many = spec.split("|", 1)
            return one if value == 1 else many
        shown_value: str = super().format_field(value, spec)  # typeshed leaves it Any; format() gives a str
        return shown_value


_FORMATTER = _Formatter()


def render(key: str, params: Mapping[str, Any] | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
    if not params:
        return text(key, lang)
    kept = tuple((k, type(v), v) for k, v in params.items())  # the type too: 1, 1.0 and True differ
    try:
        hash(kept)
    except TypeError:  # a parameter that cannot be a key (a list): rendered afresh
        return _render(key, params, lang)
    return _rendered(key, kept, lang)


@lru_cache(maxsize=8192)
def _rendered(key: str, params: tuple[tuple[str, type, Any], ...], lang: str) -> str:
    """Screens redraw the same few hundred texts on every update: each is formatted once."""
    return _render(key, {k: v for k, _, v in params}, lang)


def _render(key: str, params: Mapping[str, Any], lang: str) -> str:
    values = _Params({k: _value(k, v, lang) for k, v in params.items()})
    return _FORMATTER.vformat(text(key, lang), (), values)


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}
