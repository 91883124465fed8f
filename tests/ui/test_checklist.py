"""The setup checklist in the app, without a browser: its view model and ticks, the screen from
New game (the form kept while it is open) and from a game's menu, and the printable pages with
the same rights as the game's screens."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from companion.app.ui.printable import address_of, checklist_html, config_from_address
from companion.app.vm.checklist import checklist_view, ticks_from, ticks_text
from companion.app.vm.text import Tr

from .conftest import identified, make_store, show
from .test_app_offline import new_app

GAME = {"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "modules": {"warden": True, "places": ["workshop"]}}


class TestViewModel:
    def test_lines_come_in_sections_in_the_viewers_language_with_the_ticks_counted(self):
        vm = checklist_view(GAME, Tr("it"), {"warden.standee", "not.a.line"})
        assert [s.id for s in vm.sections] == ["board", "supply", "players", "goal"]
        board = vm.sections[0]
        assert board.title == "Il tabellone"
        assert [line.text for line in board.lines if line.key == "warden.standee"] == [
            "Mettete la sagoma della Direttrice nel luogo Blocco Celle."
        ]
        assert (vm.done, vm.total) == (1, len(vm.keys))
        assert vm.progress == f"1 di {vm.total} fatte"
        assert vm.players == ("Carmen", "Nicholas")

    def test_an_impossible_setup_says_why_in_the_engines_words(self):
        vm = checklist_view({"players": [{"name": "Carmen"}]}, Tr("en"))
        assert vm.sections == () and vm.problem is not None and vm.problem.startswith("This setup cannot start yet")

    def test_persian_numbers_are_written_in_persian_digits(self):
        vm = checklist_view(GAME, Tr("fa"))
        knives = next(line for s in vm.sections for line in s.lines if line.key == "pile.knife")
        assert "۲۰" in knives.text and "20" not in knives.text

    @pytest.mark.parametrize(
        "stored",
        [None, 3, "not json", json.dumps({"a": 1}), json.dumps([1, None, "pile.knife"]), "[" + '"x",' * 9000 + '"x"]'],
    )
    def test_ticks_a_browser_kept_are_read_back_only_for_this_checklists_lines(self, stored):
        found = ticks_from(stored, {"pile.knife", "goal.target"})
        assert found <= {"pile.knife"}

    def test_ticks_round_trip(self):
        assert ticks_from(ticks_text({"goal.target", "pile.knife"}), {"pile.knife", "goal.target"}) == {
            "goal.target",
            "pile.knife",
        }


class TestPrintablePage:
    def test_the_page_prints_every_line_with_an_empty_box_and_its_rule(self):
        page = checklist_html(GAME, "en")
        vm = checklist_view(GAME, Tr("en"))
        assert page.count('<span class="box">') == vm.total
        assert "Stand the Warden in the Cell Block." in page and "WARD-1" in page
        assert "@media print" in page and '<html lang="en" dir="ltr">' in page

    def test_names_are_escaped_and_persian_reads_right_to_left(self):
        config = {"players": [{"name": "<b>Carmen</b>"}, {"name": "Nicholas"}]}
        page = checklist_html(config, "fa")
        assert "<b>" not in page and "&lt;b" in page
        assert '<html lang="fa" dir="rtl">' in page and "Vazirmatn" in page

    def test_an_unknown_language_falls_back_to_english(self):
        assert '<html lang="en"' in checklist_html(GAME, "xx")

    def test_a_setup_travels_in_the_address_and_back(self):
        address = address_of(GAME, "it")
        packed = address.split("config=")[1].split("&")[0]
        assert config_from_address(packed) == GAME
        assert config_from_address("%%%") is None and config_from_address("") is None
        assert config_from_address("a" * 20_000) is None


def test_the_printable_pages_need_the_games_rights(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from companion.app.door.access import Access
    from companion.app.entry.web import make_asgi
    from companion.app.services.settings import SettingsFile

    store = make_store(tmp_path)
    game_id = store.create_game(GAME)
    access = Access(lan=True, machine=())  # this client is not the host's machine: only the key opens
    asgi = make_asgi(store, SettingsFile(tmp_path / "settings.json"), lan_url="http://10.0.0.1:8550/", access=access)
    client = TestClient(asgi)
    setup = address_of(GAME, "en")
    for path in (f"/game/{game_id}/setup.html", setup):
        refused = client.get(path)
        assert refused.status_code == 404 and "Carmen" not in refused.text
    key = {"host": access.host_key}
    page = client.get(f"/game/{game_id}/setup.html", params={"lang": "it", **key})
    assert page.status_code == 200 and "Mettete la sagoma della Direttrice" in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert page.headers["cache-control"] == "no-store"
    assert client.get(f"{setup}&host={access.host_key}").text.count('class="box"') == checklist_view(GAME, Tr()).total
    assert client.get("/game/nope/setup.html", params=key).status_code == 404
    assert client.get("/setup/checklist.html", params={"config": "!!", **key}).status_code == 400
    impossible = address_of({"players": [{"name": "Carmen"}]}, "en", access.host_key)
    assert "This setup cannot start yet" in client.get(impossible).text


def test_the_checklist_from_new_game_keeps_the_form_and_hands_its_ticks_to_the_game(tmp_path: Path) -> None:
    store = make_store(tmp_path)

    async def run() -> None:
        app = await new_app(store, tmp_path, 1280)
        await show(app, "/setup")
        setup = app.screen
        setup._set_warden(True)
        setup.form.players[0].name = "Carmen"
        [opener] = identified(app.page, "setup-checklist")
        opener.content.on_click(None)
        assert type(app.screen).__name__ == "ChecklistScreen" and app.route == "/setup/checklist"
        [line] = identified(app.page, "check-warden.standee")
        assert line.label == "Stand the Warden in the Cell Block." and not line.selected
        line.content.on_click(None)
        [line] = identified(app.page, "check-warden.standee")
        assert line.selected
        [progress] = identified(app.page, "checklist-progress")
        assert progress.content.content.controls[-1].value.startswith("1 of ")
        [printable] = identified(app.page, "checklist-print")
        assert printable.content.url.url.startswith("/setup/checklist.html?config=")
        await show(app, app.screen.back_route())
        assert app.screen.form is setup.form and app.screen.form.players[0].name == "Carmen"
        app.screen._start_game()
        while not app.route.startswith("/game/"):
            await asyncio.sleep(0.01)
        assert app.page.session.store.get("dyo.setup_draft") is None  # a new setup starts afresh

    asyncio.run(run())


def test_a_games_menu_opens_its_checklist(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    game_id = store.create_game(GAME)

    async def run() -> None:
        app = await new_app(store, tmp_path, 1280)
        await show(app, f"/game/{game_id}")
        [opener] = [c for c in app.screen.actions() if c.identifier == "nav-checklist"]
        opener.content.on_click(None)
        await app.shown()
        assert type(app.screen).__name__ == "ChecklistScreen"
        [spoons] = identified(app.page, "check-pile.spoon")
        assert spoons.label.startswith("Keep the 11 Spoon cards off the board")
        [printable] = identified(app.page, "checklist-print")
        assert printable.content.url.url == f"/game/{game_id}/setup.html?lang=en"
        assert app.screen.back_route() == f"/game/{game_id}"
        await show(app, "/game/nope/checklist")
        assert identified(app.page, "checklist-problem")

    asyncio.run(run())
