"""One authority writes and tells (companion/app/services/tables.py): every write is stored, then
told to the game's screens; a failure to tell is logged and counted and the write stands; no
screen publishes or calls the off-loop lanes itself."""

from __future__ import annotations

import ast
import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from companion.app.services.news import DELETED, devices_topic, game_topic
from companion.app.services.tables import TableService
from storage import Store

APP = Path(__file__).resolve().parents[2] / "companion" / "app"
PAGE = object()  # the screen that writes (its Flet page): the service tells on its behalf


class News:
    """The news of the process, as the service uses it: what it was asked to tell."""

    def __init__(self, fails: bool = False) -> None:
        self.fails = fails
        self.told: list[tuple[Any, str, dict[str, Any], bool]] = []

    def publish(self, page: Any, topic: str, message: dict[str, Any], *, others: bool = True) -> None:
        if self.fails:
            raise RuntimeError("the session is closing")
        self.told.append((page, topic, message, others))


class Join:
    def __init__(self) -> None:
        self.freed: list[tuple[str, int]] = []

    def free_seat(self, game_id: str, seat: int) -> list[str]:
        self.freed.append((game_id, seat))
        return ["phone-1"]


@pytest.fixture
def store(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'games.db'}")
    yield s
    s.close()


def service(store: Store, news: News, join: Join | None = None) -> TableService:
    return TableService(lambda: store, lambda: news, lambda: join or Join())  # type: ignore[arg-type, return-value]


def new_game(store: Store) -> str:
    return store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "seed": 3})


def test_an_action_an_undo_and_a_redo_are_told_after_the_store_took_them(store) -> None:
    news = News()
    tables = service(store, news)
    game_id = new_game(store)
    session = tables.session(game_id, PAGE)
    outcome = asyncio.run(session.record({"type": "search", "player": 0}))
    assert outcome.accepted
    page, topic, message, others = news.told[-1]
    assert (page, topic, others) == (PAGE, game_topic(game_id), True)  # the writer's own screen has it already
    assert message["version"] == store.load(game_id).version == 1 and message["events"] == outcome.events
    asyncio.run(session.rewind("undo"))
    asyncio.run(session.rewind("redo"))
    assert [m["version"] for _, _, m, _ in news.told] == [1, 2, 3]


def test_a_refused_action_stores_nothing_and_tells_nobody(store) -> None:
    news = News()
    session = service(store, news).session(new_game(store), PAGE)
    outcome = asyncio.run(session.record({"type": "search", "player": 1}))  # not Nicholas's turn
    assert not outcome.accepted and news.told == []


def test_a_failure_to_tell_is_logged_and_counted_and_the_write_stands(store, caplog) -> None:
    tables = service(store, News(fails=True))
    game_id = new_game(store)
    session = tables.session(game_id, PAGE)
    with caplog.at_level(logging.WARNING, logger="companion.app.services.tables"):
        outcome = asyncio.run(session.record({"type": "search", "player": 0}))
    assert outcome.accepted and store.load(game_id).version == 1
    assert tables.failed_tells == 1
    assert any(game_topic(game_id) in r.getMessage() for r in caplog.records)


def test_deleting_a_game_and_freeing_a_seat_are_told(store) -> None:
    news, join = News(), Join()
    tables = service(store, news, join)
    game_id = new_game(store)
    asyncio.run(tables.free_seat(PAGE, game_id, 1))
    assert join.freed == [(game_id, 1)]
    assert news.told[-1] == (PAGE, devices_topic(game_id), {"kind": "freed", "devices": ["phone-1"]}, False)
    asyncio.run(tables.delete_game(game_id, PAGE))
    assert news.told[-1] == (PAGE, game_topic(game_id), {"kind": DELETED}, True)
    assert game_id not in [g.id for g in store.list_games()]


def calls_in(path: Path) -> list[str]:
    """What a module calls that only the service may: `.publish(`, and the off-loop lanes."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "publish":
            found.append(f"{path.relative_to(APP)}:{node.lineno}: .publish")
        if isinstance(node, ast.ImportFrom) and node.module and "offloop" in node.module:
            found.append(f"{path.relative_to(APP)}:{node.lineno}: imports offloop")
        if isinstance(node, ast.ImportFrom) and any(a.name == "offloop" for a in node.names):
            found.append(f"{path.relative_to(APP)}:{node.lineno}: imports offloop")
    return found


def test_no_screen_publishes_or_calls_the_lanes() -> None:
    found = [hit for layer in ("ui", "vm") for path in sorted((APP / layer).rglob("*.py")) for hit in calls_in(path)]
    assert found == [], "only services/tables.py (and the sessions it opens) write and tell: " + "; ".join(found)
