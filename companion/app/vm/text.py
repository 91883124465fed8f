"""The viewer's language: every label, rule text and event line goes through here.

A `Tr` is bound to one language; views never hold literal user-facing text, so adding a
language is adding catalog files (companion/i18n/<lang>/), and the writing direction comes
from the catalog too (`ui.direction`). Numbers are shaped here for the screen (Persian digits in
Persian, see `digits.py`); the catalogs keep plain placeholders.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.i18n import CATALOG_DIR, DEFAULT_LANGUAGE, catalog, languages, name, render, text

from .digits import fold_digits, format_number, shape_digits, uses_native_digits

RTL_LANGUAGES = frozenset({"fa", "ar", "he", "ur"})
SCRIPT_FONTS = {"fa": "Vazirmatn", "ar": "Vazirmatn"}
# Font files the app registers (family -> file under assets/).
FONT_FILES = {"Vazirmatn": "fonts/Vazirmatn-Regular.ttf"}
RLM = "\u200f"  # RIGHT-TO-LEFT MARK: invisible, closes a Latin run inside right-to-left text
# A Latin run: words (a name, a rule id like CRAFT-1) and the spaces between them.
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9'’_.-]*(?: +[A-Za-z][A-Za-z0-9'’_.-]*)*")


@dataclass(frozen=True)
class Tr:
    lang: str = DEFAULT_LANGUAGE

    def __call__(self, key: str, **params: Any) -> str:
        return self._shown(render(key, params or None, self.lang))

    def params(self, key: str, params: Mapping[str, Any] | None) -> str:
        return self._shown(render(key, dict(params or {}), self.lang))

    def has(self, key: str) -> bool:
        return key in catalog(DEFAULT_LANGUAGE) or key in catalog(self.lang)

    def raw(self, key: str) -> str:
        return self._shown(text(key, self.lang))

    def name(self, space: str, ident: str | None) -> str:
        if ident is None:
            return ""
        return self._shown(name(space, ident, self.lang))

    def names(self, space: str, idents: Iterable[str]) -> str:
        return self.raw("list.separator").join(self.name(space, i) for i in idents)

    def join(self, parts: Iterable[str]) -> str:
        return self.raw("list.separator").join(parts)

    def num(self, value: int | float) -> str:
        """A number as this language writes it (Persian digits in Persian)."""
        return format_number(value, self.lang)

    def digits(self, shown: str) -> str:
        """Text built outside the catalogs (a date, `#12`), with this language's digits."""
        return self._shown(shown)

    def _shown(self, out: str) -> str:
        if uses_native_digits(self.lang):
            out = shape_digits(out, self.lang)
        return close_latin_runs(out) if self.rtl else out

    @property
    def rtl(self) -> bool:
        return _right_to_left(self.lang)

    @property
    def font(self) -> str | None:
        """A bundled font for scripts the offline web build's Roboto lacks (assets/fonts)."""
        return SCRIPT_FONTS.get(self.lang)

    def rule(self, rule_id: str) -> str:
        """The rule's text as written for the table (rule.<ID>), or a plain fallback."""
        key = f"rule.{rule_id}"
        return self.raw(key) if self.has(key) else self("ui.rule_missing", rule=rule_id)

    def violation(self, v: Any) -> str:
        """A violation's message in this language (the engine gives its key and parameters)."""
        return self._shown(render(v.key, dict(v.params), self.lang))


@cache  # asked for every text shown: the catalog folder is read once
def _right_to_left(lang: str) -> bool:
    """Right-to-left: the language's own `ui.direction`, else what the script needs."""
    own = catalog(lang).get("ui.direction") if lang in languages() else None
    return own == "rtl" if own else lang in RTL_LANGUAGES


def close_latin_runs(shown: str) -> str:
    """Right-to-left text with a mark after each Latin run (a player's name, a rule id).

    Without it the Unicode bidi algorithm glues the numbers and punctuation that follow a Latin
    name to it: "نوبت Carmen · ۲ عمل مانده" would read "turn 2 · Carmen actions left". Idempotent.
    """
    if not shown or not any("A" <= ch <= "z" for ch in shown):
        return shown
    return _LATIN_RUN.sub(lambda m: m.group(0) if shown[m.end() : m.end() + 1] == RLM else m.group(0) + RLM, shown)


def plain(shown: str) -> str:
    """Shown text without its invisible direction marks (for comparing and searching)."""
    return shown.replace(RLM, "")


def available_languages() -> list[str]:
    """The languages the app can be used in: those with a complete set of screen texts."""
    return [lang for lang in languages() if (CATALOG_DIR / lang / "ui").with_suffix(".json").is_file()]


def match_language(tags: Iterable[str]) -> str | None:
    """The first of the client's preferred languages (BCP 47 tags, best first) the app has."""
    have = available_languages()
    for tag in tags:
        primary = str(tag or "").replace("_", "-").split("-")[0].strip().casefold()
        if primary in have:
            return primary
    return None


def search_key(shown: str) -> str:
    """Text as the rules search compares it: case-folded, digits in ASCII whatever the language."""
    return fold_digits(plain(shown)).casefold()


def card_label(tr: Tr, card: str) -> str:
    return tr.name("card", card)
