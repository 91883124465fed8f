"""Over HTTP (no browser), the join page's own screen (companion/app/ui/phone/early_join.py):
the seats in the page to a valid link only, a wrong link counted once for the page and the
client together, and nothing of the secret, the game or its players to anyone else."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from companion.app.door.tokens import RateLimiter
from companion.app.services.joining import JoinService, SeatChoice
from companion.app.ui.phone import early_join
from companion.app.vm.table import COLORS
from companion.app.vm.text import Tr, available_languages

from .client_support import client_server
from .test_client_serving import get

NAMES = ["Carmen", 'Nico <b>"&', "Dana"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with client_server(tmp_path_factory.mktemp("early")) as (server, _):
        store = server.services.store
        game_id = store.create_game({"players": [{"name": n} for n in NAMES], "seed": 5})
        yield server, game_id


@pytest.fixture(autouse=True)
def fresh_limiter(served: Any) -> None:
    served[0].services.join.limiter = RateLimiter()


def join_page(server: Any, game_id: str, key: str) -> tuple[dict[str, str], str]:
    status, headers, body = get(f"{server.url}/join/{game_id}?key={key}")
    assert status == 200 and headers["content-type"].startswith("text/html")
    return headers, body.decode()


def own_screen(html: str) -> str:
    found = re.search(r'<div id="dyo-early".*?</script>\n</div>', html, re.S)
    return found[0] if found else ""


def test_a_valid_link_gets_the_seats_before_the_client(served: Any) -> None:
    server, game_id = served
    headers, html = join_page(server, game_id, server.services.join.secret(game_id))
    screen = own_screen(html)
    assert html.index('id="dyo-early"') < html.index("flutter_bootstrap.js"), "drawn before the client loads"
    seats = re.findall(r'<button type="button" data-seat="(\d+)" data-name="([^"]*)"', screen)
    assert seats == [("0", "Carmen"), ("1", "Nico &lt;b&gt;&quot;&amp;"), ("2", "Dana")], "every seat, escaped"
    assert '<b>"&' not in screen and 'data-seat="watch"' in screen
    assert headers["cache-control"] == "private, no-cache", "names of players: the phone's cache only"
    assert server.services.join.secret(game_id) not in screen, "the page does not repeat the secret"


def test_a_taken_seat_is_shown_taken_and_the_page_changes_with_it(served: Any) -> None:
    server, game_id = served
    join = server.services.join
    key = join.secret(game_id)
    before, _ = join_page(server, game_id, key)
    device, _ = join.join(game_id, key, "10.0.0.9", 2, "test")
    try:
        after, html = join_page(server, game_id, key)
        assert re.search(r'data-seat="2" data-name="Dana" data-state="taken" disabled>', html)
        assert re.search(r'data-seat="0" data-name="Carmen" data-state="free">', html)
        assert after["etag"] != before["etag"], "a browser never keeps an old page of the seats"
    finally:
        join.free_seat(game_id, 2)


def counted(join: JoinService, client: str) -> int:
    """How many wrong values `client` has had counted (read by counting more up to the lock-out)."""
    more = 0
    while join.limiter.wait(client) == 0:
        join.limiter.failed(client)
        more += 1
    return join.limiter.limit - more


@pytest.mark.parametrize("key", ["x" * 22, "wrong-but-well-shaped-key"])
def test_a_wrong_link_shows_nothing_and_counts_once_with_the_clients_check(served: Any, key: str) -> None:
    server, game_id = served
    join: JoinService = server.services.join
    _, html = join_page(server, game_id, key)
    assert own_screen(html) == "" and not any(name in html for name in ("Carmen", "Dana"))
    assert not join.check_link(game_id, key, "127.0.0.1").ok, "the client's own check of that link"
    assert not join.check_link(game_id, key, "127.0.0.1").ok, "and a check after that"
    assert counted(join, "127.0.0.1") == 2, "the page and the client's check counted once together"


def test_a_wrong_link_from_another_address_is_counted_there(served: Any) -> None:
    server, game_id = served
    join: JoinService = server.services.join
    join_page(server, game_id, "y" * 22)
    assert not join.check_link(game_id, "y" * 22, "10.0.0.8").ok
    assert counted(join, "10.0.0.8") == 1, "the page's count stands for its own address only"


def test_after_five_wrong_links_the_right_one_shows_nothing_either(served: Any) -> None:
    server, game_id = served
    for n in range(5):
        join_page(server, game_id, f"wrong-key-number-{n}")
    _, html = join_page(server, game_id, server.services.join.secret(game_id))
    assert own_screen(html) == "", "locked out: the page shows no seat"


@pytest.mark.parametrize(
    "path",
    [
        "/join/{game}",
        "/join/{game}?key=short",
        "/join/{game}?key=" + "%3Cscript%3E" * 3,
        "/join/0123456789abcdef0123456789abcdef?key=" + "z" * 22,
        "/join/{game}/more?key={key}",
        "/play/{game}?key={key}",
        "/?key={key}",
    ],
)
def test_no_seat_shown_off_the_join_link(served: Any, path: str) -> None:
    server, game_id = served
    key = server.services.join.secret(game_id)
    status, _, body = get(server.url + path.format(game=game_id, key=key))
    assert status == 200 and b"dyo-early" not in body and b"Carmen" not in body


def test_every_language_has_the_pages_texts_made_as_the_client_makes_them() -> None:
    seats = [SeatChoice(0, "Carmen", None, False), SeatChoice(1, "Dana", "blue", True)]
    texts = early_join.texts(seats)
    assert set(texts) == set(available_languages())
    for lang, found in texts.items():
        tr = Tr(lang)
        assert set(found) == {*early_join.TEXT_KEYS, "rtl", "seats"}, lang
        assert all(isinstance(found[key], str) and found[key] for key in early_join.TEXT_KEYS), lang
        assert found["seats"] == {
            "0": {"label": tr("join.seat_free", player="Carmen"), "taking": tr("join.taking_seat", player="Carmen")},
            "1": {"label": tr("join.seat_taken", player="Dana"), "taking": tr("join.taking_seat", player="Dana")},
        }
    assert texts["fa"]["rtl"] is True and texts["en"]["rtl"] is False


def test_the_texts_cannot_end_the_pages_script(monkeypatch: pytest.MonkeyPatch) -> None:
    real = early_join.texts
    monkeypatch.setattr(early_join, "texts", lambda seats: {**real(seats), "xx": {"pick_title": "</script><b>"}})
    screen = early_join.screen("0" * 32, [SeatChoice(0, "A", None, False)])
    data = re.search(r'id="dyo-early-texts">(.*?)</script>', screen, re.S)
    assert data is not None and json.loads(data[1])["xx"]["pick_title"] == "</script><b>"


def test_a_page_screen_that_fails_leaves_the_page_to_the_client(
    served: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    server, game_id = served
    layer = server.app.app.state.client

    async def broken(scope: Any) -> bytes:
        raise RuntimeError("the store is away")

    monkeypatch.setattr(layer, "page_extra", broken)
    headers, html = join_page(server, game_id, server.services.join.secret(game_id))
    assert own_screen(html) == "" and "flutter_bootstrap.js" in html and headers["cache-control"] == "no-cache"
    assert "could not draw the page's own screen" in caplog.text


def test_every_standee_colour_has_its_paint_on_the_page() -> None:
    assert set(early_join.STANDEE_HEX) == set(COLORS)
