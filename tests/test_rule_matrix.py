"""Every rule id has a test that breaks it and one that follows it."""

import importlib
import pkgutil

import pytest

from companion.i18n import catalog
from companion.rules.rulebook import rule_ids, rule_sections

import rules as rule_tests
from support import RULE_TESTS

for module in pkgutil.iter_modules(rule_tests.__path__):
    importlib.import_module(f"rules.{module.name}")

ENGINE_SECTIONS = (
    "supply",
    "setup",
    "turn",
    "basic",
    "beatings",
    "place_actions",
    "places",
    "gangs",
    "backgrounds",
    "action_cards",
    "michel",
    "variants",
)
EXPANSION_SECTIONS = ("team", "dig_in")


def _ids(sections):
    return [rule for section, rules in rule_sections() if section in sections for rule in rules]


@pytest.mark.parametrize("rule", _ids(ENGINE_SECTIONS + EXPANSION_SECTIONS))
def test_rule_has_breaking_and_following_tests(rule):
    assert rule in RULE_TESTS, f"no @rule_test({rule!r}) class in tests/rules/"


def test_every_rule_has_a_text():
    texts = catalog("en")
    missing = [rule for rule in rule_ids() if f"rule.{rule}" not in texts]
    assert not missing


def test_no_test_for_an_unknown_rule():
    assert set(RULE_TESTS) <= set(rule_ids())
