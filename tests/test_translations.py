"""The translated catalogs (companion/i18n/<lang>/) against the English source.

Italian and Persian have every domain English has (names, rules, messages, the screens' `ui`
and the log's `events`, and any domain added later): the same keys as the English file of that
domain (none missing, none extra), the same placeholder names in each template (a plural choice
`{n:a|b}` counts as the field `n`), and every template renders with sample parameters. A text
left in English by mistake is caught too: a translation equal to its English text must be a
name or symbol on the short list below, and every Persian text is written in Persian script.
Then the checker itself answers in Italian and in Persian with the same rule ids as in English.
(The browser tests walk every screen in both languages for English left on screen.)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.i18n import CATALOG_DIR, DEFAULT_LANGUAGE, NAME_SPACES, catalog, languages, placeholders, render

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = Path(__file__).resolve().parent / "scenarios" / "tutorial.json"

ENGINE_DOMAINS = ("names", "rules", "messages")
SCREEN_DOMAINS = ("ui", "events")
TRANSLATED = [lang for lang in languages() if lang != DEFAULT_LANGUAGE]
# Texts that are the same in English and in a translation on purpose: names of things (the
# game's title, the languages, Michel...), symbols and templates made only of placeholders.
SAME_AS_ENGLISH = {
    "it": {
        "ui.app_name",
        "ui.ok",
        "ui.neutrals_1",
        "ui.col_tunnel",
        "ui.start_gang",
        "ui.background_known",
        "ui.flag.craft.bandage.no",
        "ui.flag.cautious_move.planning.no",
        "ui.stat_trauma",
        "why.trauma",
        "gang.bratva",
        "gang.crew",
        "gang.queers",
        "card.bandana",
        "token.trauma",
        "trauma.max_five",
        "neutral.michel",
        "neutral.michelle",
        "kind.gang",
        "list.separator",
    },
    "fa": {"list.separator"},
}
LANGUAGE_NAMES = {"ui.language_en", "ui.language_it", "ui.language_fa"}  # each written in itself
SETTINGS_KEYS = {"ui.direction"}  # not a text: the writing direction ("ltr"/"rtl")
ARABIC_SCRIPT = re.compile(r"[\u0600-\u06FF]")


def domains(lang: str) -> list[str]:
    return sorted(path.stem for path in (CATALOG_DIR / lang).glob("*.json"))


def load(lang: str, domain: str) -> dict[str, str]:
    return json.loads((CATALOG_DIR / lang / f"{domain}.json").read_text(encoding="utf-8"))


PAIRS = [(lang, domain) for lang in TRANSLATED for domain in domains(lang)]


def fields(template: str) -> set[str]:
    """The parameter names a template uses (not literal braces such as `{"a": [...]}`)."""
    return {name for name in placeholders(template) if name.isidentifier()}


# One sample game id per namespace, so rendering goes through the names of each language.
SAMPLE_IDS = {
    "place": "recreational_area",
    "card": "knife",
    "item": "two_knives",
    "gang": "bikers",
    "ability": "the_kings_choice",
    "background": "i_know_a_guy",
    "token": "bodybuilding",
    "trauma": "max_five",
    "neutral": "michelle",
    "action": "cautious_move",
    "recipe": "knives",
    "michel_card": "knife_spoon",
    "effect": "freepass",
    "choice": "discard_half",
    "decision": "brawl_response",
    "option": "reroll",
    "kind": "michel_card",
}
PLURAL_IDS = {"place": ["cell_block", "cafeteria"], "card": ["boots", "ring"], "option": ["lose", "reroll"]}


def sample(param: str, number: int):
    """A value for a parameter: a game id (a list of two for a plural name) or a number."""
    space, plural = NAME_SPACES.get(param), False
    if space is None:
        space = NAME_SPACES.get(re.sub(r"(_?\d+|s)$", "", param))
        plural = space is not None
    if space is None:
        return number
    first = space if isinstance(space, str) else space[0]
    return PLURAL_IDS.get(first, [SAMPLE_IDS[first]] * 2) if plural else SAMPLE_IDS[first]


class TestCatalogFiles:
    def test_italian_and_persian_have_every_domain(self):
        assert set(ENGINE_DOMAINS + SCREEN_DOMAINS) <= set(domains(DEFAULT_LANGUAGE))
        for lang in ("it", "fa"):
            assert lang in TRANSLATED, f"no {lang} catalog"
            lacking = set(domains(DEFAULT_LANGUAGE)) - set(domains(lang))
            assert not lacking, f"{lang} lacks the domains {sorted(lacking)} (translate companion/i18n/en/*.json)"

    def test_every_domain_of_a_language_exists_in_english(self):
        for lang in TRANSLATED:
            assert set(domains(lang)) <= set(domains(DEFAULT_LANGUAGE)), lang

    @pytest.mark.parametrize(("lang", "domain"), PAIRS)
    def test_same_keys_as_english(self, lang, domain):
        english, translated = load(DEFAULT_LANGUAGE, domain), load(lang, domain)
        missing = sorted(set(english) - set(translated))
        extra = sorted(set(translated) - set(english))
        assert not missing, f"{lang}/{domain}.json lacks {missing[:10]}"
        assert not extra, f"{lang}/{domain}.json has keys English does not: {extra[:10]}"

    @pytest.mark.parametrize(("lang", "domain"), PAIRS)
    def test_same_placeholders_as_english(self, lang, domain):
        english, translated = load(DEFAULT_LANGUAGE, domain), load(lang, domain)
        wrong = {
            key: (sorted(placeholders(english[key])), sorted(placeholders(text)))
            for key, text in translated.items()
            if placeholders(text) != placeholders(english.get(key, text))
        }
        assert not wrong, f"{lang}/{domain}.json: placeholders differ from English (English, {lang}): {wrong}"

    @pytest.mark.parametrize(("lang", "domain"), PAIRS)
    def test_no_empty_or_untrimmed_text(self, lang, domain):
        """No empty text; spaces at the edges only where English has them (a suffix like " ({why})")."""
        english = load(DEFAULT_LANGUAGE, domain)
        for key, text in load(lang, domain).items():
            assert text.strip(), f"{lang} {key}: empty"
            source = english[key]
            edges = (source[: len(source) - len(source.lstrip())], source[len(source.rstrip()) :])
            assert (text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]) == edges, (
                f"{lang} {key}: {text!r} (English {source!r})"
            )

    @pytest.mark.parametrize(("lang", "domain"), PAIRS)
    def test_nothing_left_in_english(self, lang, domain):
        english = load(DEFAULT_LANGUAGE, domain)
        allowed = SAME_AS_ENGLISH.get(lang, set()) | LANGUAGE_NAMES | SETTINGS_KEYS
        same = sorted(
            key
            for key, text in load(lang, domain).items()
            if text == english[key]
            and key not in allowed
            and re.search(r"[A-Za-z]{2,}", re.sub(r"\{[^{}]*\}", "", text))
        )
        assert not same, f"{lang}/{domain}.json keeps the English text of {same}"

    @pytest.mark.parametrize("domain", [d for lang, d in PAIRS if lang == "fa"])
    def test_persian_is_written_in_persian(self, domain):
        """Every Persian text with words has Persian letters (ids and symbols aside)."""
        ids_only = ("config.", "malformed.", "check.")
        wrong = sorted(
            key
            for key, text in load("fa", domain).items()
            if key not in LANGUAGE_NAMES | SETTINGS_KEYS
            and not key.startswith(ids_only)
            and re.search(r"[A-Za-z]{3,}", re.sub(r"\{[^{}]*\}|[A-Z]+-\d+", "", text))
            and not ARABIC_SCRIPT.search(text)
        )
        assert not wrong, f"fa/{domain}.json: texts without Persian letters: {wrong}"

    def test_the_merged_catalogs_load(self):
        """A key may sit in one domain file only (catalog() raises otherwise)."""
        for lang in TRANSLATED:
            merged = catalog(lang)
            assert len(merged) == sum(len(load(lang, domain)) for domain in domains(lang))


class TestRendering:
    @pytest.mark.parametrize("lang", [DEFAULT_LANGUAGE, *TRANSLATED])
    def test_every_template_renders_with_sample_parameters(self, lang):
        english = catalog(DEFAULT_LANGUAGE)
        keys = [key for domain in domains(lang) for key in load(lang, domain)]
        assert keys
        for key in keys:
            names = fields(english[key])
            for number in (0, 1, 2, 7):
                params = {name: sample(name, number) for name in names}
                out = render(key, params or None, lang)
                assert isinstance(out, str) and out, key
                left = {name for name in names if "{" + name in out}
                assert not left, f"{lang} {key}: unrendered {left} in {out!r}"

    @pytest.mark.parametrize("lang", TRANSLATED)
    def test_names_are_rendered_in_the_language(self, lang):
        out = render(
            "v.wrong_place", {"action": "buy", "place": "cafeteria", "places": ["recreational_area", "gymnasium"]}, lang
        )
        for space, ident in (
            ("action", "buy"),
            ("place", "cafeteria"),
            ("place", "recreational_area"),
            ("place", "gymnasium"),
        ):
            assert catalog(lang)[f"{space}.{ident}"] in out, (lang, out)
        assert catalog(lang)["list.separator"] in out

    def test_plural_choices(self):
        assert render("v.beaten_no_craft", {"beatings": 1}, "it") == "Hai 1 Pestaggio: niente Fabbricazione."
        assert render("v.beaten_no_craft", {"beatings": 2}, "it") == "Hai 2 Pestaggi: niente Fabbricazione."
        assert render("v.no_actions_left", {"cost": 2, "left": 1}, "it") == "Costa 2 azioni; te ne resta 1."
        # Persian: a noun after a number stays singular.
        assert render("v.beaten_no_dig", {"beatings": 2}, "fa") == "2 کتک خورده‌اید: حفر تونل ممنوع است."

    def test_a_text_rendered_again_is_the_same_and_equal_parameters_of_other_types_stay_apart(self):
        """Rendered texts are kept (a redraw asks for the same ones): the kept one must be the text
        those very parameters give, and 1, 1.0 and True (one key to a dict) give three texts."""
        first = render("ui.round_number", {"round": 3}, "it")
        assert render("ui.round_number", {"round": 3}, "it") == first
        assert render("ui.round_number", {"round": 3}, "en") != first
        shown = [render("ui.round_number", {"round": value}) for value in (1, 1.0, True)]
        assert shown == ["Round 1", "Round 1.0", "Round True"]
        assert render("ui.hand_line", {"cards": ["a", "b"]}) == render("ui.hand_line", {"cards": ("a", "b")})

    def test_background_names_keep_their_quotes(self):
        english = catalog(DEFAULT_LANGUAGE)
        quoted = [key for key, text in english.items() if "“{background}”" in text]
        assert quoted
        for key in quoted:
            assert "“{background}”" in catalog("it")[key], key
            assert "«{background}»" in catalog("fa")[key], key

    def test_persian_writing(self):
        """Persian punctuation and quotes; digits stay ASCII (the UI shapes them)."""
        for key, text in catalog("fa").items():
            if key.startswith("config.") or key.startswith("malformed.") or key not in catalog(DEFAULT_LANGUAGE):
                continue
            prose = re.sub(r"\{[^{}]*\}", "", text)
            assert not re.search(r"[,;?]", prose), f"fa {key}: Latin punctuation in {text!r}"
            assert not re.search(r"[۰-۹٠-٩]", text), f"fa {key}: hard-coded Persian digits in {text!r}"
            assert '"' not in prose, f"fa {key}: straight quotes in {text!r}"


NEXT_TURN = [  # after the tutorial round: Carmen (1 Beating) is refused a Craft, and more refusals
    {"type": "end_turn", "player": 2},
    {"type": "craft", "player": 0, "recipe": "pickaxe"},
    {"type": "dig", "player": 1, "tool": "spoon"},
    {"type": "move", "player": 0, "die": [1], "to": "showers"},
    {"type": "extort", "player": 0, "target": 1, "tool": "spoon", "weapons": ["knife"]},
    {"type": "buy", "player": 0, "item": "shovel"},
    {"type": "heal", "player": 0},
]
EXPECTED_CRAFT = {
    "en": "You have 1 Beating: no Craft.",
    "it": "Hai 1 Pestaggio: niente Fabbricazione.",
    "fa": "1 کتک خورده‌اید: ساخت ممنوع است.",
}


def run_check(path: Path, lang: str) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "check", str(path), "--lang", lang],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    """The checker's answers to the tutorial round plus NEXT_TURN, in English, Italian and Persian."""
    data = json.loads(TUTORIAL.read_text(encoding="utf-8"))
    data["actions"] += NEXT_TURN
    path = tmp_path_factory.mktemp("translations") / "next_turn.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return {lang: run_check(path, lang) for lang in ("en", "it", "fa")}


class TestCheckerLanguages:
    def test_the_tutorial_replays_identically_in_every_language(self):
        english = run_check(TUTORIAL, "en")
        for lang in ("it", "fa"):
            assert run_check(TUTORIAL, lang) == english, lang

    def test_the_craft_refusal_is_translated(self, answers):
        for lang, expected in EXPECTED_CRAFT.items():
            craft = answers[lang][12]
            assert craft["accepted"] is False
            assert [(v["rule"], v["message"]) for v in craft["violations"]] == [("BEAT-2", expected)], lang

    @pytest.mark.parametrize("lang", ["it", "fa"])
    def test_same_answers_and_rule_ids_as_english_other_messages(self, answers, lang):
        english, translated = answers["en"], answers[lang]
        assert len(translated) == len(english) == 11 + len(NEXT_TURN) + 1
        seen = 0
        for en_line, line in zip(english, translated, strict=True):
            if "final" in en_line:
                assert line == en_line
                continue
            assert [v["rule"] for v in line["violations"]] == [v["rule"] for v in en_line["violations"]]
            assert {k: v for k, v in line.items() if k != "violations"} == {
                k: v for k, v in en_line.items() if k != "violations"
            }
            for en_v, v in zip(en_line["violations"], line["violations"], strict=True):
                seen += 1
                assert v["key"] == en_v["key"] and v.get("params") == en_v.get("params")
                assert v["message"] == render(v["key"], v.get("params"), lang)
                assert v["message"] != en_v["message"], (lang, v["message"])
                if lang == "fa":
                    assert re.search(r"[\u0600-\u06FF]", v["message"]), v["message"]
        assert seen >= 6
