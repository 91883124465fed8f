"""The viewer's language: every label, rule text and event line goes through here.

A `Tr` is bound to one language; views never hold literal user-facing text, so adding a
language is adding catalog files (companion/i18n/<lang>/), and the writing direction comes
from the catalog too (`ui.direction`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.i18n import DEFAULT_LANGUAGE, catalog, languages, name, render, text

RTL_LANGUAGES = frozenset({"fa", "ar", "he", "ur"})
SCRIPT_FONTS = {"fa": "Vazirmatn", "ar": "Vazirmatn"}
# Font files the app registers (family -> file under assets/).
FONT_FILES = {"Vazirmatn": "fonts/Vazirmatn-Regular.ttf"}


@dataclass(frozen=True)
class Tr:
    lang: str = DEFAULT_LANGUAGE

    def __call__(self, key: str, **params: Any) -> str:
        return render(key, params or None, self.lang)

    def params(self, key: str, params: Mapping[str, Any] | None) -> str:
        return render(key, dict(params or {}), self.lang)

    def has(self, key: str) -> bool:
        return key in catalog(DEFAULT_LANGUAGE) or key in catalog(self.lang)

    def raw(self, key: str) -> str:
        return text(key, self.lang)

    def name(self, space: str, ident: str | None) -> str:
        if ident is None:
            return ""
        return name(space, ident, self.lang)

    def names(self, space: str, idents: Iterable[str]) -> str:
        return self.raw("list.separator").join(self.name(space, i) for i in idents)

    def join(self, parts: Iterable[str]) -> str:
        return self.raw("list.separator").join(parts)

    @property
    def rtl(self) -> bool:
        """Right-to-left: the language's own `ui.direction`, else what the script needs."""
        own = catalog(self.lang).get("ui.direction") if self.lang in languages() else None
        return own == "rtl" if own else self.lang in RTL_LANGUAGES

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
        return render(v.key, dict(v.params), self.lang)


def available_languages() -> list[str]:
    return languages()


def card_label(tr: Tr, card: str) -> str:
    return tr.name("card", card)
