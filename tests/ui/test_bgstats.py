"""Log in BG Stats (services/bgstats.py): the push link's fields parsed back, the file held to
BG Stats' JSON format (services/bgstats_format.py, itself shown to catch a wrong file), the
download with the game's rights, and the buttons on the win screen and in History."""

from __future__ import annotations

import asyncio
import copy
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.app.services.bgstats import (
    SOURCE_GAME_ID,
    SOURCE_NAME,
    NotFinished,
    play_file,
    play_of,
    push_data,
    push_link,
    read_play,
)
from companion.app.services.bgstats_format import file_problems, link_problems, push_problems
from storage import LogEntry

from .conftest import identified, make_store, show
from .test_app_offline import new_app

WON = {"players": [{"name": "Carmen", "tunnel": 11, "hand": ["spoon"]}, {"name": "Nicholas", "tunnel": 4}]}
DIG = {"type": "dig", "player": 0, "tool": "spoon"}


def finished(store, config=None, action=None) -> str:
    game_id = store.create_game(config or WON)
    store.submit(game_id, action or DIG, base_version=store.load(game_id).version)
    return game_id


def carried(link: str) -> dict:
    """The JSON a push link carries, read back as BG Stats reads it."""
    [data] = parse_qs(urlsplit(link).query)["data"]
    return json.loads(data)


class TestPushLink:
    def test_the_links_fields_read_back(self, tmp_path: Path):
        store = make_store(tmp_path)
        game_id = finished(store)
        play = read_play(store, game_id)
        link = push_link(play)
        assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
        assert push_link(play, scheme=True).startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
        data = carried(link)
        assert link_problems(link) == [] and link_problems(push_link(play, scheme=True)) == []
        assert (data["sourceName"], data["sourcePlayId"]) == (SOURCE_NAME, game_id)
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", data["playDate"])
        assert data["game"] == {
            "name": "Dig Your Way Out",
            "sourceGameId": SOURCE_GAME_ID,
            "highestWins": True,
            "noPoints": False,
        }
        assert data["board"] == "Official" and "comments" not in data
        assert data["players"] == [
            {
                "name": "Carmen",
                "sourcePlayerId": "player:carmen",
                "startPlayer": True,
                "rank": 1,
                "score": 12,
                "role": "",
                "winner": True,
            },
            {
                "name": "Nicholas",
                "sourcePlayerId": "player:nicholas",
                "startPlayer": False,
                "rank": 2,
                "score": 4,
                "role": "",
                "winner": False,
            },
        ]

    def test_expansions_modules_and_duration(self, tmp_path: Path):
        store = make_store(tmp_path)
        config = {
            **copy.deepcopy(WON),
            "modules": {"neutrals": 2, "warden": True, "places": ["library"]},
        }
        game_id = store.create_game(config)
        store.submit(game_id, {"type": "search", "player": 0}, base_version=0)
        store.submit(game_id, DIG, base_version=1)
        table, entries = store.load(game_id), store.events(game_id)
        start = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
        entries = [
            LogEntry(e.seq, e.action, e.answer, e.submitted_by, start + timedelta(minutes=36 * i), e.undone)
            for i, e in enumerate(entries)
        ]
        data = push_data(play_of(table, entries, "it"), "it")
        assert data["durationMin"] == 36 and data["playDate"] == "2026-03-01 20:00:00"
        assert data["board"] == "Ufficiale · Michel e Michelle · la Direttrice · Biblioteca"
        assert data["comments"] == "Espansioni: Dig Your Way Out: Dig In"
        assert [p["startPlayer"] for p in data["players"]] == [True, False]
        assert push_problems(data) == []

    def test_team_mode_names_the_teams_and_both_winners(self, tmp_path: Path):
        store = make_store(tmp_path)
        players = [{"name": n} for n in ("Carmen", "Nicholas", "Yellow", "Dana")]
        players[0].update(tunnel=9, hand=["spoon"])
        game_id = finished(store, {"players": players, "modules": {"team": True}})
        data = push_data(read_play(store, game_id))
        assert [(p["name"], p["team"], p["winner"], p["rank"]) for p in data["players"]] == [
            ("Carmen", "A", True, 1),
            ("Nicholas", "B", False, 3),
            ("Yellow", "A", True, 1),
            ("Dana", "B", False, 3),
        ]
        file = play_file(read_play(store, game_id))
        assert file_problems(file) == [] and file["plays"][0]["usesTeams"]

    def test_an_unfinished_game_is_no_play(self, tmp_path: Path):
        store = make_store(tmp_path)
        with pytest.raises(NotFinished):
            read_play(store, store.create_game(WON))

    @pytest.mark.parametrize(
        "broken",
        [
            lambda d: d["players"][0].pop("startPlayer"),
            lambda d: d.update(playDate="2026-03-01T20:00:00Z"),
            lambda d: d["game"].pop("name"),
            lambda d: d.update(players=[]),
            lambda d: d["players"][1].update(score="12"),
        ],
    )
    def test_the_check_catches_a_wrong_link(self, tmp_path: Path, broken):
        store = make_store(tmp_path)
        data = push_data(read_play(store, finished(store)))
        broken(data)
        assert push_problems(data)


class TestFile:
    def test_the_file_is_in_bg_stats_format_with_its_expansion(self, tmp_path: Path):
        store = make_store(tmp_path)
        game_id = finished(store, {**WON, "modules": {"places": ["workshop"]}})
        file = play_file(read_play(store, game_id))
        assert file_problems(file) == []
        [base, expansion] = file["games"]
        assert (base["name"], base["isBaseGame"], expansion["name"], expansion["isExpansion"]) == (
            "Dig Your Way Out",
            1,
            "Dig Your Way Out: Dig In",
            1,
        )
        [play] = file["plays"]
        assert play["expansionPlays"] == [{"gameRefId": expansion["id"], "bggId": 0}]
        scores = {file["players"][s["playerRefId"] - 1]["name"]: s for s in play["playerScores"]}
        assert (scores["Carmen"]["score"], scores["Carmen"]["winner"], scores["Nicholas"]["rank"]) == ("12", True, 2)
        assert play_file(read_play(store, game_id)) == file  # the same uuids every time: an import again updates

    @pytest.mark.parametrize(
        "broken",
        [
            lambda f: f["plays"][0]["playerScores"][0].update(playerRefId=9),
            lambda f: f["plays"][0].update(gameRefId=2),
            lambda f: f["players"][0].update(uuid="not-a-uuid"),
            lambda f: f["games"][0].update(surprise=1),
            lambda f: f.pop("plays"),
            lambda f: f["plays"][0]["expansionPlays"].append({"gameRefId": 1, "bggId": 0}),
            lambda f: f["plays"][0]["playerScores"][0].update(score=12),
        ],
    )
    def test_the_check_catches_a_wrong_file(self, tmp_path: Path, broken):
        store = make_store(tmp_path)
        file = play_file(read_play(store, finished(store, {**WON, "modules": {"warden": True}})))
        broken(file)
        assert file_problems(file)


def test_the_download_has_the_games_rights(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from companion.app.door.access import Access
    from companion.app.entry.web import make_asgi
    from companion.app.services.settings import SettingsFile

    store = make_store(tmp_path)
    game_id, open_game = finished(store), store.create_game(WON)
    access = Access(lan=True, machine=())
    client = TestClient(
        make_asgi(store, SettingsFile(tmp_path / "settings.json"), lan_url="http://10.0.0.1:8550/", access=access)
    )
    refused = client.get(f"/api/games/{game_id}/bgstats.json")
    assert refused.status_code == 404 and "Carmen" not in refused.text
    served = client.get(f"/api/games/{game_id}/bgstats.json", params={"host": access.host_key, "lang": "fa"})
    assert served.status_code == 200 and file_problems(served.json()) == []
    assert served.headers["content-disposition"].startswith('attachment; filename="bgstats-dig-your-way-out-')
    assert client.get(f"/api/games/{open_game}/bgstats.json", params={"host": access.host_key}).status_code == 404


def test_the_win_screen_and_history_offer_bg_stats(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    game_id = finished(store)

    async def run() -> None:
        app = await new_app(store, tmp_path, 1280)
        await show(app, f"/game/{game_id}/win")
        shown = []
        app.page.show_dialog = shown.append
        [opener] = identified(app.page, "win-bgstats")
        opener.content.on_click(None)
        while not shown:
            await asyncio.sleep(0.01)
        dialog = shown[0]
        ids = {c.identifier for c in dialog.content.controls if getattr(c, "identifier", None)}
        assert ids == {"bgstats-qr", "bgstats-file"}  # a laptop: the QR code for the phone, and the file
        [file] = [c for c in dialog.content.controls if getattr(c, "identifier", None) == "bgstats-file"]
        assert file.content.url.url == f"/api/games/{game_id}/bgstats.json?lang=en"
        await show(app, "/history")
        assert identified(app.page, f"history-bgstats-{game_id}") and identified(app.page, "history-export-all")

    asyncio.run(run())


def test_history_imports_an_archive_and_a_single_game(tmp_path: Path) -> None:
    from storage.archive import export_finished

    source = make_store(tmp_path / "source")
    finished(source)
    archive = json.dumps(export_finished(source)).encode("utf-8")
    single = json.dumps(source.export_game(source.list_games()[0].id)).encode("utf-8")
    store = make_store(tmp_path)

    async def run() -> None:
        from companion.app.ui.screens.archive import import_bytes

        app = await new_app(store, tmp_path, 1280)
        await show(app, "/history")
        said = []
        app.toast = said.append
        await import_bytes(app, archive)
        assert said[-1] == "1 game imported, 0 already here" and len(store.list_games("finished")) == 1
        await import_bytes(app, archive)
        assert said[-1] == "0 games imported, 1 already here"
        await import_bytes(app, b'{"format": "dyo-companion finished games", "version": 7, "games": []}')
        assert said[-1].startswith("The file was not imported: this app reads archives of version 1")
        await import_bytes(app, single)  # a single game file, as Home imports it
        assert len(store.list_games("finished")) == 2

    (tmp_path / "source").mkdir(exist_ok=True)
    asyncio.run(run())
