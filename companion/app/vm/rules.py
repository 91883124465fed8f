"""The rules screen: every rule id with its text (rule.<ID>, written for the table), by section,
searchable by id or words (in any digits: ۲ finds 2)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules import rule_sections

from .text import Tr, search_key


@dataclass
class RuleVM:
    ident: str
    text: str
    section: str
    highlighted: bool = False


@dataclass
class SectionVM:
    ident: str
    title: str
    rules: list[RuleVM]


def rules_view(tr: Tr, query: str = "", highlight: str | None = None) -> list[SectionVM]:
    """Sections with the rules matching `query` (every word, in the id or the text), in book order."""
    words = [search_key(w) for w in query.split() if w.strip()]
    out = []
    for section, ids in rule_sections():
        title = tr.raw(f"section.{section}")
        rules = []
        for rid in ids:
            text = tr.rule(rid)
            hay = search_key(f"{rid} {text} {title}")
            if all(w in hay for w in words):
                rules.append(RuleVM(rid, text, section, rid == highlight))
        if rules:
            out.append(SectionVM(section, title, rules))
    return out


def rule_count(sections: list[SectionVM]) -> int:
    return sum(len(s.rules) for s in sections)
