"""Languages without a browser: which language a device gets, Persian digits, right-to-left text,
and the rules search in any digits. (test_e2e_languages.py walks the real screens.)"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

from companion.app.services.settings import SettingsFile
from companion.app.ui.locale import PREF_KEY, DeviceLanguage, choose_language, locale_tags
from companion.app.vm.digits import fold_digits, format_number, shape_digits
from companion.app.vm.rules import rules_view
from companion.app.vm.text import RLM, Tr, available_languages, close_latin_runs, match_language, plain


class FakePrefs:
    """The browser's storage as Flet's SharedPreferences answers it."""

    def __init__(self, saved: dict[str, str] | None = None) -> None:
        self.saved = dict(saved or {})

    async def get(self, key: str) -> Any:
        return self.saved.get(key)

    async def set(self, key: str, value: str) -> bool:
        self.saved[key] = value
        return True

    async def remove(self, key: str) -> bool:
        self.saved.pop(key, None)
        return True


class FakePage:
    def __init__(self, *tags: str) -> None:
        self.tags = tags

    async def get_device_info(self) -> Any:
        return SimpleNamespace(
            locales=[
                SimpleNamespace(language_code=t.split("-")[0], country_code=(t.split("-") + [None])[1])
                for t in self.tags
            ]
        )


def device(prefs: FakePrefs, *tags: str) -> DeviceLanguage:
    return DeviceLanguage(FakePage(*tags), prefs)


class TestWhichLanguage:
    def test_italian_and_persian_are_offered(self):
        assert {"en", "it", "fa"} <= set(available_languages())

    def test_the_browsers_first_language_the_app_has(self):
        assert match_language(["de-DE", "fa-IR", "it"]) == "fa"
        assert match_language(["it_IT"]) == "it"
        assert match_language(["de", "ja"]) is None and match_language([]) is None

    def test_locale_tags_from_flet_locales(self):
        assert list(locale_tags([SimpleNamespace(language_code="fa", country_code="IR"), "it-IT"])) == [
            "fa-IR",
            "it-IT",
        ]

    def test_a_choice_kept_on_the_device_wins_over_the_browser(self):
        prefs = FakePrefs({PREF_KEY: "it"})
        assert asyncio.run(device(prefs, "fa-IR").lookup()) == "it"

    def test_without_a_choice_the_browser_decides_else_english(self):
        assert asyncio.run(device(FakePrefs(), "fa-IR", "en-US").lookup()) == "fa"
        assert asyncio.run(device(FakePrefs(), "de-DE").lookup()) == "en"
        assert asyncio.run(device(FakePrefs({PREF_KEY: "klingon"}), "it-IT").lookup()) == "it"

    def test_remember_and_forget(self):
        prefs = FakePrefs()
        d = device(prefs, "fa-IR")
        asyncio.run(d.remember("it"))
        assert prefs.saved == {PREF_KEY: "it"} and d.language == "it"
        asyncio.run(d.remember(None))
        assert prefs.saved == {}

    def test_the_picker_switches_this_session_only(self):
        """Choosing a language redraws this session in it and keeps it on this device; "like this
        device" forgets the choice."""
        prefs = FakePrefs()
        later: list[Any] = []
        shown: list[str] = []
        app = SimpleNamespace(
            page=FakePage("fa-IR"),
            language="fa",
            screen=object(),
            route="/settings",
            run_later=lambda fn, *args: later.append(fn(*args)),
            show=shown.append,
        )
        app.apply_settings = lambda: setattr(app, "tr", Tr(app.language))
        app.device_language = device(prefs, "fa-IR")
        app.device_language.preferred = "fa"
        choose_language(app, "it")
        asyncio.run(later.pop())
        assert (app.language, app.tr.lang, prefs.saved, shown) == ("it", "it", {PREF_KEY: "it"}, ["/settings"])
        choose_language(app, None)
        asyncio.run(later.pop())
        assert (app.language, prefs.saved) == ("fa", {})

    def test_the_settings_file_has_no_language(self, tmp_path):
        """An older file's table-wide language is ignored: the language is each device's."""
        path = tmp_path / "settings.json"
        path.write_text(json.dumps({"theme": "dark", "language": "fa"}), encoding="utf-8")
        settings = SettingsFile(path).load()
        assert settings.theme == "dark" and not hasattr(settings, "language")


class TestPersianText:
    def test_numbers_in_persian_digits(self):
        assert (format_number(12, "fa"), format_number(-3, "fa"), format_number(2.0, "fa")) == ("۱۲", "-۳", "۲")
        assert format_number(12, "it") == "12"

    def test_rule_ids_and_latin_names_keep_their_digits(self):
        assert shape_digits("CRAFT-1: 2 کارت، R2D2 و 10:45", "fa") == "CRAFT-1: ۲ کارت، R2D2 و ۱۰:۴۵"

    def test_catalog_texts_are_shaped_for_the_screen(self):
        fa = Tr("fa")
        shown = fa("ui.headline_turn", player="Carmen", count=2)
        assert "۲" in shown and "2" not in shown
        assert "۱" in fa.rule("CRAFT-1") and "1" not in fa.rule("CRAFT-1")  # "Craft (1 action)..."
        assert Tr("it")("ui.headline_turn", player="Carmen", count=2) == "Turno di Carmen · restano 2 azioni"

    def test_a_latin_name_is_closed_in_right_to_left_text(self):
        """A mark after each Latin run keeps "Carmen" from pulling the numbers after it along."""
        shown = Tr("fa")("ui.headline_turn", player="Carmen", count=2)
        assert f"Carmen{RLM}" in shown and plain(shown) == shown.replace(RLM, "")
        assert close_latin_runs(shown) == shown  # idempotent
        assert RLM not in Tr("it")("ui.headline_turn", player="Carmen", count=2)

    def test_digits_fold_back_for_searching(self):
        assert fold_digits("WARD-۲ ٣") == "WARD-2 3"

    def test_rules_search_in_persian_digits(self):
        """A Persian screen shows ۱۰ where the catalog has 10: either finds it, and ids too."""
        fa = Tr("fa")

        def hits(query: str) -> list[str]:
            return [r.ident for s in rules_view(fa, query) for r in s.rules]

        assert hits("۱۰") and hits("۱۰") == hits("10")
        assert "WARD-2" in hits("WARD-۲") and hits("WARD-۲") == hits("WARD-2")
