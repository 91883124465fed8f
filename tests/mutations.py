"""A seeded mutator of game files for the fuzz tests: one seed always gives the same mutant.

A mutant is made in two steps. First one to three edits of the decoded document: a value of
another type, a huge integer, deep nesting, NaN, a deleted, duplicated or unknown key, odd
unicode, a huge list, reordered actions, or a plausible edit that keeps the file well-formed
(see `Mutator`). Then, sometimes, one edit of the encoded bytes (truncation, a flipped byte,
invalid UTF-8). A mutant carries both the Python value (what an API caller could hand over:
real huge ints, real NaN) and the file's bytes (what a command reads). Values JSON cannot
encode directly (a 5,000-digit number, 3,000 nested lists, a duplicated key) are written into
the text through markers.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from typing import Any

NodePath = tuple[str | int, ...]

IDS = (
    "cafeteria",
    "cell_block",
    "showers",
    "solitary",
    "gambling_cells",
    "cell_block_a",
    "knife",
    "blade",
    "spoon",
    "shovel",
    "unknown",
    "rare",
    "bikers",
    "triad",
    "master_key",
    "michel",
    "michelle",
    "corruption",
    "spy",
    "trauma",
    "search",
    "move",
    "adjust",
    "official",
    "online-simplified",
    "players.0.hand",
    "players.1.cigarettes",
    "neutrals.michel",
    "piles.spoon",
    "deck",
    "warden",
    "a",
    "b",
    "ask",
    "random",
)
ODD_TEXTS = (
    "",
    " ",
    "\ud800",
    "a\udfffb",
    "\x00",
    "cafeteria\x00",
    "cafe\u0301",
    "e" + "\u0301" * 3000,
    "x" * 100_000,
    "\u202ecafeteria",
    "ｃａｆｅｔｅｒｉａ",
    "knife\u200b",
    "\u2028",
    "line\nbreak",
    "\x85",
    "😀" * 50,
    "²",
    "٣",
    "players.².cigarettes",
    "players.٣.hand",
    "players.00.beatings",
    "players.-1.tunnel",
    "CAFETERIA",
    "Cafeteria ",
    "ǅ",
    "\ufeff",
    "\U0010ffff",
    "%s{0}{name}",
    "\\u0000",
)
ODD_VALUES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    7,
    1.5,
    -0.0,
    1e300,
    10**6 + 1,
    2**63,
    -(2**63) - 1,
    "",
    "x",
    [],
    {},
    ["knife"],
    [["knife"]],
    {"place": "cafeteria"},
    [None],
    [1, 2],
    {"": None},
    [[]],
    {"a": [0, 2], "b": [1, 3]},
)
UNKNOWN_KEYS = (
    "zzz",
    "Players",
    "type ",
    "",
    "__proto__",
    "players.0",
    "\x00",
    "ключ",
    "\ud800",
    "name",
    "hand",
    "to",
    "set",
    "add",
    "path",
    "seed",
)
ADJUST_PATHS = (
    "players.0.cigarettes",
    "players.1.beatings",
    "players.0.tunnel",
    "players.2.place",
    "players.0.hand",
    "players.1.dug",
    "players.0.tokens.spy",
    "players.0.gang",
    "players.0.ability",
    "players.1.trauma",
    "players.0.background",
    "players.0.camouflaged",
    "piles.spoon",
    "supplies.spy",
    "deck",
    "discard",
    "warden",
    "neutrals.michel",
    "actions_left",
    "players.9.place",
    "players.².hand",
    "players.0",
)
BAD_BYTES = (
    b"\xff",
    b"\xfe",
    b"\xc0",
    b"\x80",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\xf4\x90\x80\x80",
    b"\x00",
    b"\xef\xbb\xbf",
)


@dataclass(frozen=True)
class Special:
    """A value with its own JSON text (one json.dumps could not or would not write)."""

    value: Any
    text: str

    def __deepcopy__(self, memo: dict[int, Any]) -> Special:
        return self  # immutable, and its value may be nested too deep to copy


@dataclass(frozen=True)
class Mutant:
    seed: int
    edits: tuple[str, ...]
    value: Any  # the mutated document as Python values (None when only the bytes make sense)
    data: bytes  # the file

    def describe(self) -> str:
        shown = self.data[:600].decode("utf-8", "backslashreplace")
        more = f" ... ({len(self.data)} bytes)" if len(self.data) > 600 else ""
        return f"mutant seed {self.seed}, edits {', '.join(self.edits)}: {shown}{more}"


def _nodes(value: Any, path: NodePath = ()) -> list[NodePath]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _nodes(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _nodes(item, path + (index,))
    return out


def _parent(doc: Any, path: NodePath) -> Any:
    for step in path[:-1]:
        doc = doc[step]
    return doc


def _get(doc: Any, path: NodePath) -> Any:
    return _parent(doc, path)[path[-1]] if path else doc


def _nested(inner: Any, depth: int, as_dict: bool) -> Special:
    value = inner.value if isinstance(inner, Special) else inner
    text = inner.text if isinstance(inner, Special) else json.dumps(inner)
    for _ in range(depth):
        value = {"k": value} if as_dict else [value]
    opening, closing = ('{"k": ', "}") if as_dict else ("[", "]")
    return Special(value, opening * depth + text + closing * depth)


def _huge_int(rng: random.Random) -> Special:
    """A number of more digits than Python converts to or from text (its default limit is 4,300)."""
    digits = rng.choice((4301, 5000, 20_000))
    sign = rng.choice((1, -1))
    return Special(sign * (10**digits - 1), ("-" if sign < 0 else "") + "9" * digits)


def _replacement(rng: random.Random, old: Any) -> tuple[str, Any]:
    """One replacement value for a node, and the name of the edit."""
    kind = rng.choice(
        ("retype", "retype", "id", "id", "int", "huge_int", "deep", "nan", "text", "text", "wrap", "huge_list")
    )
    if kind == "retype":
        return kind, copy.deepcopy(rng.choice(ODD_VALUES))
    if kind == "id":
        return kind, rng.choice(IDS)
    if kind == "int":
        base = old if isinstance(old, int) and not isinstance(old, bool) else 0
        return kind, rng.choice((base + 1, base - 1, -base, base * 10, 2**31, 2**63 - 1, 2**64, 10**6, -(10**6) - 1))
    if kind == "huge_int":
        return kind, _huge_int(rng)
    if kind == "deep":
        inner = old if not isinstance(old, (dict, list)) else rng.choice(IDS)
        return kind, _nested(inner, rng.choice((20, 100, 900, 3000)), rng.random() < 0.3)
    if kind == "nan":
        return kind, Special(
            *rng.choice(((float("nan"), "NaN"), (float("inf"), "Infinity"), (float("-inf"), "-Infinity")))
        )
    if kind == "text":
        return kind, rng.choice(ODD_TEXTS)
    if kind == "wrap":
        return kind, rng.choice(([old], {"value": old}, [old, old]))
    item = (
        old
        if old is None or isinstance(old, (bool, int, float)) or (isinstance(old, str) and len(old) < 40)
        else "unknown"
    )  # a short item: the file stays small enough to write
    return kind, [item] * rng.choice((1001, 100_000))


def _edit(doc: Any, rng: random.Random, duplicates: dict[str, str]) -> tuple[Any, str]:
    """Apply one edit to `doc` (changed in place where possible); the new document and the edit's name."""
    paths = _nodes(doc)
    in_actions = [p for p in paths if len(p) > 2 and p[0] == "actions"]
    path = rng.choice(in_actions if in_actions and rng.random() < 0.5 else paths)  # actions reach the rules
    target = _get(doc, path)
    roll = rng.random()
    container = _parent(doc, path) if path else None
    if roll < 0.12 and path:  # delete a key or an item
        del container[path[-1]]
        return doc, "delete"
    if roll < 0.20 and isinstance(target, dict):  # an unknown key
        target[rng.choice(UNKNOWN_KEYS)] = copy.deepcopy(rng.choice(ODD_VALUES + IDS))
        return doc, "unknown_key"
    if roll < 0.26 and isinstance(target, dict) and target:  # a key written twice (JSON text only)
        key = rng.choice(list(target))
        marker = f"\x01dup{len(duplicates)}\x01"
        duplicates[marker] = key
        target[marker] = copy.deepcopy(rng.choice(ODD_VALUES + IDS))
        return doc, "duplicate_key"
    if roll < 0.32 and isinstance(target, list) and target:  # an item twice, or items reordered
        if rng.random() < 0.5:
            index = rng.randrange(len(target))
            target.insert(index, copy.deepcopy(target[index]))
            return doc, "duplicate_item"
        rng.shuffle(target)
        return doc, "shuffle"
    if roll < 0.37 and isinstance(container, dict):  # an odd key name
        value = container.pop(path[-1])
        container[rng.choice(ODD_TEXTS)] = value
        return doc, "odd_key"
    kind, new = _replacement(rng, target)
    if not path:
        return new, kind
    container[path[-1]] = new
    return doc, kind


def _python(value: Any, duplicates: dict[str, str]) -> Any:
    if isinstance(value, Special):
        return value.value
    if isinstance(value, dict):
        return {k: _python(v, duplicates) for k, v in value.items() if k not in duplicates}
    if isinstance(value, list):
        return [_python(v, duplicates) for v in value]
    return value


def _encode(value: Any, duplicates: dict[str, str]) -> bytes:
    specials: list[str] = []

    def marker(special: Any) -> str:
        if not isinstance(special, Special):
            raise TypeError(type(special).__name__)
        specials.append(special.text)
        return f"\x02special{len(specials) - 1}\x02"

    text = json.dumps(value, default=marker)  # ASCII: lone surrogates travel as \ud800 escapes
    for index, raw in enumerate(specials):
        text = text.replace(json.dumps(f"\x02special{index}\x02"), raw)
    for mark, key in duplicates.items():
        text = text.replace(json.dumps(mark), json.dumps(key))
    return text.encode("ascii")


def _byte_edit(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    at = rng.randrange(len(data) + 1)
    kind = rng.choice(("truncate", "flip", "insert", "bom", "cut"))
    if kind == "truncate":
        return data[:at], kind
    if kind == "flip" and data:
        at = min(at, len(data) - 1)
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :], kind
    if kind == "bom":
        return b"\xef\xbb\xbf" + data, kind
    if kind == "cut":
        return data[:at] + data[at + rng.randint(1, 40) :], kind
    return data[:at] + rng.choice(BAD_BYTES) + data[at:], "insert"


class Mutator:
    """Mutants of a few game files; a third of them stay well-formed, to reach the rules too.

    Those plausible edits use values seen in the files themselves: another value found under the
    same key, another file's action, a random correction (`adjust`).
    """

    def __init__(self, documents: list[Any]) -> None:
        self.documents = documents
        self.seen: dict[str, list[Any]] = {}
        for document in documents:
            self._collect(document)
        self.actions = [a for d in documents for a in d["actions"]]
        self.edit_values = self.seen["to"] + [0, 1, 3, 7, -1, True, None, ["knife"], ["spoon", "unknown"], "bikers"]

    def _collect(self, value: Any) -> None:
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, item in items:
            if isinstance(key, str):
                self.seen.setdefault(key, []).append(item)
            self._collect(item)

    def mutant(self, seed: int, document: Any = None) -> Mutant:
        """A mutant of `document`, by default of one of the files (chosen by `seed`, as is all else)."""
        rng = random.Random(seed)
        doc = copy.deepcopy(self.documents[seed % len(self.documents)] if document is None else document)
        duplicates: dict[str, str] = {}
        edits = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            if rng.random() < 0.35:
                doc, name = self._plausible(doc, rng), "plausible"
            else:
                doc, name = _edit(doc, rng, duplicates)
            edits.append(name)
        data = _encode(doc, duplicates)
        value = _python(doc, duplicates)
        if rng.random() < 0.15:
            data, name = _byte_edit(data, rng)
            edits.append(name)
            value = None
        return Mutant(seed, tuple(edits), value, data)

    def _plausible(self, doc: Any, rng: random.Random) -> Any:
        actions = doc.get("actions") if isinstance(doc, dict) else None
        roll = rng.random()
        if isinstance(actions, list) and roll < 0.5:  # another file's action, or a correction
            if roll < 0.3:
                action = copy.deepcopy(rng.choice(self.actions))
                action["player"] = rng.randrange(7)
            else:
                op = rng.choice(("set", "set", "add", "remove", "identify"))
                action = {
                    "type": "adjust",
                    "player": rng.randrange(4),
                    "changes": [{"path": rng.choice(ADJUST_PATHS), op: rng.choice(self.edit_values)}],
                }
            actions.insert(rng.randrange(len(actions) + 1), action)
            return doc
        paths = [p for p in _nodes(doc) if p and isinstance(p[-1], str) and p[-1] in self.seen]
        if paths:  # another value seen under the same key
            path = rng.choice(paths)
            _parent(doc, path)[path[-1]] = copy.deepcopy(rng.choice(self.seen[path[-1]]))
        return doc
