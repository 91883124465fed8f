"""Numbers as a language writes them: Persian shows ۰۱۲۳۴۵۶۷۸۹, Italian and English 0123456789.

The catalogs keep plain placeholders and ASCII digits (the checker prints them as they are);
shaping happens here, in the UI layer, on text that is about to be shown. Digits that belong to
a Latin token stay ASCII: rule ids (`CRAFT-1`, `WARD-2`), a typed name like `R2D2`, anything
glued to a Latin letter. Everything else a Persian screen shows (scores, dice, turn numbers,
counts in rule texts, dates) reads in Persian digits.
"""

from __future__ import annotations

import re

# Languages whose screens use their own digits, with those digits for 0-9.
NATIVE_DIGITS = {"fa": "۰۱۲۳۴۵۶۷۸۹"}
_TO_NATIVE = {lang: str.maketrans("0123456789", digits) for lang, digits in NATIVE_DIGITS.items()}
_TO_ASCII = str.maketrans(
    {native: str(i) for digits in [*NATIVE_DIGITS.values(), "٠١٢٣٤٥٦٧٨٩"] for i, native in enumerate(digits)}
)
# A run of Latin letters and digits, joined by - _ . (a rule id, a version, a name with digits).
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*")
_LATIN = re.compile(r"[A-Za-z]")


def uses_native_digits(lang: str) -> bool:
    return lang in _TO_NATIVE


def shape_digits(text: str, lang: str) -> str:
    """`text` with its ASCII digits in `lang`'s own digits, Latin tokens left as they are."""
    table = _TO_NATIVE.get(lang)
    if table is None or not text or not any("0" <= ch <= "9" for ch in text):
        return text

    def one(match: re.Match[str]) -> str:
        token = match.group(0)
        return token if _LATIN.search(token) else token.translate(table)

    return _TOKEN.sub(one, text)


def format_number(value: int | float, lang: str) -> str:
    """A number for the screen: `12` -> `۱۲` in Persian; `-3` keeps its sign."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return shape_digits(str(value), lang)


def fold_digits(text: str) -> str:
    """Any Persian or Arabic-Indic digits back to ASCII (for searching what the screen shows)."""
    return text.translate(_TO_ASCII)


_TYPED = re.compile(r"-?[0-9]{1,7}")


def typed_number(text: str, low: int, high: int) -> int | None:
    """A number typed by hand, in any digits a screen shows (ASCII, Persian, Arabic-Indic), when it
    lies within `low`..`high`; None for anything else (empty, a word, out of bounds), so a
    wrong entry changes nothing and the field says what it takes."""
    folded = fold_digits(text or "").strip()
    if not _TYPED.fullmatch(folded):
        return None
    value = int(folded)
    return value if low <= value <= high else None
