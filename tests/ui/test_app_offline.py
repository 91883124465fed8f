"""The app without a browser: every screen renders on a real Flet session (with a fake
connection, msgpack-encoded like the real transport), the table handles taps, the session
handles stale versions, and the launcher explains a busy port and a missing chromium."""

from __future__ import annotations

import asyncio
import functools
import gc
import socket
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import flet as ft
import msgpack
import pytest
from flet.controls.context import _context_page
from flet.messaging.connection import Connection
from flet.messaging.protocol import configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.app.host import launch
from companion.app.services.session import TableSession
from companion.app.services.settings import Settings, SettingsFile
from companion.app.ui.shell import App, Services

from .conftest import (
    drawn,
    expanded_without_bounds,
    identified,
    make_store,
    monkey_step,
    settled,
    show,
    until,
)
from drivers import browser


def pack(obj):
    return msgpack.packb(obj, default=configure_encode_object_for_msgpack(ft.BaseControl))


class FakeConnection(Connection):
    def __init__(self, loop):
        super().__init__()
        self.sent = []
        self.loop = loop
        self.executor = ThreadPoolExecutor()
        self.pubsubhub = PubSubHub(loop=loop, executor=self.executor)

    def send_message(self, message):
        self.sent.append(pack([message.action, message.body]))


async def new_app(store, folder: Path, width: int = 390, lan_url: str | None = None) -> App:
    session = Session(FakeConnection(asyncio.get_running_loop()))
    pack(session.get_page_patch())
    _context_page.set(session.page)
    session.page.width = width
    app = App(session.page, Services(store, SettingsFile(folder / "settings.json"), lan_url=lan_url))
    app.session_keepalive = session  # the page holds its session only weakly
    app.width = width
    app.start()
    return app


def test_every_screen_renders(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    game = store.create_game(
        {"players": [{"name": "Carmen"}, {"name": "Nicholas"}], "modules": {"neutrals": 1, "warden": True}}
    )
    won = store.create_game({"players": [{"name": "A", "tunnel": 11, "hand": ["spoon"]}, {"name": "B"}]})
    store.submit(won, {"type": "dig", "player": 0, "tool": "spoon"}, base_version=store.load(won).version)

    async def run() -> None:
        for width in (390, 1280):
            app = await new_app(store, tmp_path, width)
            for route, screen in [
                ("/", "HomeScreen"),
                ("/setup", "SetupScreen"),
                (f"/game/{game}", "TableScreen"),
                (f"/game/{game}/log", "LogScreen"),
                ("/rules?rule=BEAT-2", "RulesScreen"),
                ("/history", "HistoryScreen"),
                (f"/game/{game}/correct", "CorrectScreen"),
                (f"/game/{won}/replay?step=1", "ReplayScreen"),
                ("/settings", "SettingsScreen"),
                (f"/game/{won}/win", "WinScreen"),
                (f"/game/{won}", "WinScreen"),
                ("/game/nope", "TableScreen"),
            ]:
                await show(app, route)
                assert type(app.screen).__name__ == screen, route
                assert app.page.controls, route
                assert not expanded_without_bounds(app.page), (route, width)

    asyncio.run(run())


def test_the_setup_lays_out_in_every_mode(tmp_path: Path) -> None:
    """Six players in teams, every module and Dig In Place, a game in progress with cards named
    in every hand: the browser can paint every step (a wrapping row with an expanding name
    once painted the setup grey from the starting hands down)."""
    from companion.app.vm.setup import dig_in_places

    store = make_store(tmp_path)

    async def run() -> None:
        for width in (390, 1280):
            app = await new_app(store, tmp_path, width)
            await show(app, "/setup")
            setup = app.screen
            steps = [
                *([setup._add] * 4),
                functools.partial(setup._set_team_mode, True),
                functools.partial(setup._set_warden, True),
                functools.partial(setup._set_neutrals, 2),
                *(functools.partial(setup._toggle_place, place) for place in dig_in_places()),
                functools.partial(setup._set_in_progress, True),
                *(functools.partial(setup._open_adding, seat) for seat in range(6)),
                *(functools.partial(setup._add_card, seat, "knife") for seat in range(6)),
            ]
            for change in steps:
                change()
                assert not expanded_without_bounds(app.page), (width, change)
            assert len(setup.form.players) == 6 and setup.form.in_progress

    asyncio.run(run())


def test_history_fits_the_players_statistics_to_a_phone(tmp_path: Path) -> None:
    """A phone gets one block per player (a seven-column table runs off its edge), a laptop the
    table; turning the screen across the phone width lays it out again."""
    store = make_store(tmp_path)
    won = store.create_game({"players": [{"name": "Carmen", "tunnel": 11, "hand": ["spoon"]}, {"name": "Nicholas"}]})
    store.submit(won, {"type": "dig", "player": 0, "tool": "spoon"}, base_version=store.load(won).version)
    headings = ["Games", "Wins", "Tunnel", "Beatings taken", "Beatings given", "Extortions won", "Extortions lost"]

    def laid_out(app: App) -> tuple[bool, list[str]]:
        controls = drawn(app.page)
        texts = [c.value for c in controls if isinstance(c, ft.Text) and isinstance(c.value, str)]
        return any(isinstance(c, ft.DataTable) for c in controls), texts

    async def run() -> None:
        app = await new_app(store, tmp_path, 390)
        await show(app, "/history")
        table, texts = laid_out(app)
        assert not table and all(texts.count(h) == 2 for h in headings), texts  # one block per player
        app._resized(ft.PageResizeEvent("resized", app.page, width=1280, height=800))
        table, texts = laid_out(app)
        assert table and all(texts.count(h) == 1 for h in headings), texts

    asyncio.run(run())


def test_a_finished_game_replays_from_the_history(tmp_path: Path) -> None:
    """History's row of a finished game has its Replay, as Home and the win screen do; Back
    returns to the History."""
    store = make_store(tmp_path)
    won = store.create_game({"players": [{"name": "Carmen", "tunnel": 11, "hand": ["spoon"]}, {"name": "Nicholas"}]})
    store.submit(won, {"type": "dig", "player": 0, "tool": "spoon"}, base_version=store.load(won).version)

    async def run() -> None:
        app = await new_app(store, tmp_path, 390)
        await show(app, "/history")
        [replay] = identified(app.page, f"history-replay-{won}")
        assert replay.label == "Replay the game of Carmen, Nicholas step by step"
        replay.content.on_click(None)
        await app.shown()
        assert type(app.screen).__name__ == "ReplayScreen" and app.screen.back_route() == "/history"

    asyncio.run(run())


def test_a_long_history_is_shown_a_page_at_a_time(tmp_path: Path) -> None:
    """After a year of game nights: Home lists the latest finished games and links to the rest,
    History lists a page at a time and charts the latest games; the totals count every game, and
    a game deleted leaves them."""
    import flet_charts as fch

    from companion.app.ui.screens.history import GAMES_PAGE
    from companion.app.ui.screens.home import HOME_FINISHED
    from companion.app.vm.history import CHART_GAMES

    store = make_store(tmp_path)
    played = GAMES_PAGE + 7
    for _ in range(played):
        game = store.create_game(
            {"players": [{"name": "Carmen", "tunnel": 11, "hand": ["spoon"]}, {"name": "Nicholas"}]}
        )
        store.submit(game, {"type": "dig", "player": 0, "tool": "spoon"}, base_version=store.load(game).version)

    async def run() -> None:
        app = await new_app(store, tmp_path, 390)
        await show(app, "/")
        assert len(identified(app.page, "finished-.*")) == HOME_FINISHED and identified(app.page, "home-all-finished")
        await show(app, "/history")
        assert len(identified(app.page, "history-game-.*")) == GAMES_PAGE
        first = identified(app.page, "history-game-.*")[0].identifier.removeprefix("history-game-")
        [more] = identified(app.page, "history-more")
        assert more.content.content == "Show 7 more (7 left)"
        more.content.on_click(None)
        assert len(identified(app.page, "history-game-.*")) == played and not identified(app.page, "history-more")
        app._resized(ft.PageResizeEvent("resized", app.page, width=1280, height=800))  # drawn again: all still listed
        assert len(identified(app.page, "history-game-.*")) == played
        charts = [c for c in drawn(app.page) if isinstance(c, fch.LineChart)]
        assert len(charts) == 2
        for chart in charts:
            assert [label.value for label in chart.bottom_axis.labels] == list(
                range(played - CHART_GAMES + 1, played + 1)
            )
            assert all(len(line.points) == CHART_GAMES for line in chart.data_series)
        texts = [c.value for c in drawn(app.page) if isinstance(c, ft.Text)]
        assert f"The charts show the last {CHART_GAMES} of {played} finished games" in " ".join(map(str, texts))
        assert str(played) in texts  # Carmen's games, every one counted
        # A finished game deleted here (asked first) leaves the list and the totals.
        app.confirm = lambda title, text, yes, on_yes, **kw: on_yes()
        [delete] = identified(app.page, f"history-delete-{first}")
        delete.content.on_click(None)
        # History read again and drawn: the store forgets the game a moment before that.
        await until(lambda: not identified(app.page, f"history-delete-{first}"), "list drawn without the game")
        assert len(store.list_games()) == played - 1
        assert str(played - 1) in [c.value for c in drawn(app.page) if isinstance(c, ft.Text)]

    asyncio.run(run())


def test_a_long_log_is_shown_newest_first_a_page_at_a_time(tmp_path: Path) -> None:
    """A long game's log lists its newest entries, and the earlier ones on request."""
    import random

    from companion.app.ui.screens.log import LOG_PAGE
    from companion.simulate import random_actions, random_config

    store = make_store(tmp_path)
    config = random_config(random.Random(5), 4, 5, "full")
    actions, _ = random_actions(config, 5, LOG_PAGE + 12)
    game = store.create_game(config)
    for action in actions:
        store.submit(game, action, base_version=store.load(game).version)

    def seqs(app: App) -> list[int]:
        return [int(c.identifier[4:]) for c in identified(app.page, r"log-\d+")]

    async def run() -> None:
        app = await new_app(store, tmp_path, 390)
        await show(app, f"/game/{game}/log")
        while app.screen.lines is None:
            await asyncio.sleep(0.01)
        assert seqs(app) == list(range(len(actions), len(actions) - LOG_PAGE, -1))  # the newest first
        [more] = identified(app.page, "log-more")
        assert more.content.content == "Show 12 earlier entries (12 left)"
        more.content.on_click(None)
        assert seqs(app) == list(range(len(actions), 0, -1)) and not identified(app.page, "log-more")

    asyncio.run(run())


def test_a_title_keeps_its_words_beside_a_short_name(tmp_path: Path) -> None:
    """A title such as "Carmen · turn 1": the name gives way to a long one (ellipsis) but never
    pushes the rest of the title to the bar's far end."""
    store = make_store(tmp_path)
    game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})

    async def run() -> None:
        app = await new_app(store, tmp_path, 390)
        await show(app, f"/game/{game}")
        row = app.screen.title_control().content
        [name] = [part for part in row.controls if part.value == "Carmen"]
        assert len(row.controls) > 1 and name.expand and name.expand_loose

    asyncio.run(run())


def test_table_taps_record_actions_and_flags(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    game = store.create_game(
        {"players": [{"name": "Carmen", "beatings": 1, "place": "cafeteria"}, {"name": "Nicholas"}], "seed": 2}
    )

    async def run() -> None:
        app = await new_app(store, tmp_path)
        flags = []
        app.flag = lambda title, reasons, **kw: flags.append((title, [r.rule for r in reasons]))
        await show(app, f"/game/{game}")
        table = app.screen
        table.control.start_action("craft")  # refused: one Beating
        assert flags == [("Not allowed: Craft", ["BEAT-2"])]
        table.control.start_action("cautious_move")
        assert table.control.composer is not None and table.control.composer.step().field == "to"
        table.control.answer("to", "infirmary")
        await settled(table)
        state = store.load(game).game.state
        assert state.players[0].place == "infirmary" and state.active == 0 and state.actions_left == 0
        assert "Carmen moves from the Cafeteria to the Infirmary (Cautious move)." in table.control.result
        table.control.start_action("steal_spoon")  # not here: the menu does not offer it, a tap would flag it
        assert "SPOON-1" in flags[-1][1]
        table.control.undo()
        await settled(table)
        assert store.load(game).game.state.players[0].place == "cafeteria"
        table.control.redo()
        await settled(table)
        assert store.load(game).game.state.players[0].place == "infirmary"

    asyncio.run(run())


def test_a_stale_screen_reloads_instead_of_writing(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
    first, second = TableSession(store, game), TableSession(store, game)
    assert first.submit({"type": "search", "player": 0}).accepted
    outcome = second.submit({"type": "search", "player": 0})
    assert outcome.stale and not outcome.accepted
    assert second.version == first.version  # reloaded: it now shows what the other screen wrote
    refused = second.submit({"type": "search", "player": 0})
    assert not refused.accepted and [v.rule for v in refused.violations] == ["SRCH-1"]


def test_a_tap_answered_after_the_screen_was_left_draws_nothing(tmp_path: Path, monkeypatch) -> None:
    """A tap's write ends after the table was left for another screen, still being read: the
    left table draws nothing (it drew the app, which had no screen yet, and that failed)."""
    from companion.app.ui import shell

    failures: list[str] = []
    monkeypatch.setattr(shell.log, "exception", lambda msg, *args: failures.append(msg % args))
    store = make_store(tmp_path)
    game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})

    async def run() -> None:
        app = await new_app(store, tmp_path, 1280)
        await show(app, f"/game/{game}")
        table = app.screen
        table.control.submit({"type": "search", "player": 0})
        app.show(f"/game/{game}/log")  # read after the write: the same game's lane
        await settled(table)
        await app.shown()
        assert type(app.screen).__name__ == "LogScreen" and store.load(game).version == 1

    asyncio.run(run())
    assert not failures, failures


def test_a_tap_made_before_the_news_is_drawn_is_stale(tmp_path: Path) -> None:
    """News of another screen's action arrive headline first; a tap made before the rest of the
    table is redrawn was made on the old table: refused as stale, never judged against a table
    its player did not see."""
    store = make_store(tmp_path)
    game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})

    async def run() -> None:
        here, there = await new_app(store, tmp_path), await new_app(store, tmp_path)
        for app in (here, there):
            await show(app, f"/game/{game}")
        there.screen.control.submit({"type": "search", "player": 0})
        await settled(there.screen)
        version = store.load(game).version
        screen = here.screen
        assert screen.session.refresh_if_behind(version)
        screen.news.show([])  # as the game's topic delivers it: the banner now, the rest a moment later
        assert screen.control.shown_version == version - 1
        screen.control.submit({"type": "search", "player": 0})
        await settled(screen)
        assert store.load(game).version == version  # nothing recorded
        assert screen.control.shown_version == version  # the whole table redrawn, fresh

    asyncio.run(run())


async def reconnect_at(app: App, route: str) -> FakeConnection:
    """The browser of `app`'s dropped session registers again on `route`, which Flet reports as
    a route change once it has reconnected; returns once the screen asked for is drawn."""
    session = app.session_keepalive
    session.apply_page_patch({"route": route})
    back = FakeConnection(asyncio.get_running_loop())
    back.page_url = "http://127.0.0.1:8550"
    await session.connect(back)
    await session.page._trigger_event("route_change", {"route": route})  # as flet_web reports it
    await app.shown()
    for _ in range(20):
        await asyncio.sleep(0)
    return back


@pytest.mark.parametrize("ask", ["show", "go"])
@pytest.mark.parametrize("screen", ["TableScreen", "SettingsScreen"])  # one reads a game first, one reads nothing
def test_a_screen_asked_for_while_disconnected_opens_on_reconnect(tmp_path: Path, ask: str, screen: str) -> None:
    """A phone whose socket dropped (its screen locked) may still be sent elsewhere by the
    server; the screen opens when it reconnects, and no opening is left half-started. The
    browser comes back on the address it had, which Flet reports as a route change once it has
    reconnected: the screen asked for meanwhile stays, and the browser is sent to its address."""
    store = make_store(tmp_path)
    game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
    route = f"/game/{game}" if screen == "TableScreen" else "/settings"

    async def run() -> None:
        app = await new_app(store, tmp_path)
        await show(app, "/")
        session = app.session_keepalive
        await session.disconnect(60)
        getattr(app, ask)(route)
        assert app.opening is None and app.screen is None
        back = await reconnect_at(app, "/")  # the browser registers again, on its own address
        assert type(app.screen).__name__ == screen and app.route == route
        asked = [m for m in back.sent if b"push_route" in m]  # the browser is asked to show that address
        assert asked and route.encode() in asked[-1]

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # a coroutine made and never awaited
        asyncio.run(run())
        gc.collect()


def test_a_browser_back_on_another_address_gets_that_screen_only(tmp_path: Path) -> None:
    """A reload on another address (the browser's own navigation) reconnects the session there:
    that address's screen is drawn, and the table it left is not drawn first only to be
    replaced (two big redraws back to back hung headless Chromium's renderer about once in
    70 such navigations)."""
    store = make_store(tmp_path)
    game = store.create_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})

    async def run() -> None:
        app = await new_app(store, tmp_path)
        await show(app, f"/game/{game}")
        session = app.session_keepalive
        await session.disconnect(60)
        rendered: list[str] = []
        render = app.render
        app.render = lambda: (rendered.append(type(app.screen).__name__), render())[-1]
        await reconnect_at(app, f"/game/{game}/log")  # the browser registers again, there
        assert type(app.screen).__name__ == "LogScreen" and app.route == f"/game/{game}/log"
        assert set(rendered) == {"LogScreen"}  # drawn again once its log is read, if that came first

    asyncio.run(run())


def test_settings_survive_a_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{not json")
    assert SettingsFile(path).load() == Settings()
    SettingsFile(path).save(Settings(theme="dark", die_mode="physical"))
    assert SettingsFile(path).load().physical_dice


def test_a_busy_port_is_explained(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        problem = launch._port_problem("127.0.0.1", port)
    assert problem and f"port {port}" in problem and f"--port {port + 1}" in problem


def test_no_browser_without_a_display(monkeypatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(launch.sys, "platform", "linux")
    assert not launch.browser_available()


def test_missing_chromium_fails_with_the_install_command(monkeypatch) -> None:
    monkeypatch.setattr(browser, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    with pytest.raises(AssertionError, match=r"apt-get install chromium"):
        browser.require_chromium()


def test_hand_limit_decision_discards_the_chosen_cards(tmp_path: Path) -> None:
    """Reported mid-turn with 11 cards: the turn ends at once and the hand limit is a decision."""
    store = make_store(tmp_path)
    game = store.create_game(
        {
            "players": [{"name": "Carmen", "hand": ["spoon"] + ["unknown"] * 11}, {"name": "Nicholas"}],
            "modules": {"warden": True},
        }
    )

    async def run() -> None:
        app = await new_app(store, tmp_path, 1280)
        await show(app, f"/game/{game}")
        table = app.screen
        app.confirm = lambda title, text, yes, on_yes, **kw: on_yes()  # "Warden here: WARD-2": dig anyway
        table.control.start_action("dig")
        await settled(table)  # a tap made while the store is still writing the last one is dropped
        table.control.submit({"type": "report", "player": 1})
        await settled(table)
        state = store.load(game).game.state
        assert state.pending.kind == "hand_limit" and state.pending.player == 0
        app.render()  # the pending panel with the card picker draws
        table.control.set_pick("unknown", 1)
        table.control.submit_pick()
        await settled(table)
        state = store.load(game).game.state
        assert state.players[0].hand.size() == 10 and state.pending is None and state.active == 1

    asyncio.run(run())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_taps_never_break_a_screen(tmp_path: Path, seed: int, monkeypatch) -> None:
    """A monkey at the table: random menu actions, composer answers, decisions and reactions,
    through the screen's own handlers, on games with every module. No screen may fail to draw,
    nor hold a layout the browser cannot paint (`expanded_without_bounds`)."""
    import random

    from companion.app.ui import shell
    from companion.simulate import random_config

    failures: list[str] = []
    monkeypatch.setattr(shell.log, "exception", lambda msg, *args: failures.append(msg % args))
    rng = random.Random(seed)
    store = make_store(tmp_path)
    game = store.create_game(random_config(rng, None, seed, "any"))

    async def run() -> None:
        app = await new_app(store, tmp_path, rng.choice([390, 1280]))
        app.flag = lambda *a, **k: None
        app.confirm = lambda title, text, yes, on_yes, **k: on_yes()
        await show(app, f"/game/{game}")
        table = app.screen
        for _ in range(160):
            await settled(table)
            failures.extend(expanded_without_bounds(app.page))
            if table.session.state.winner is not None or not await monkey_step(app, rng):
                break
        await settled(table)
        app.render()

    asyncio.run(run())
    assert not failures, failures
    assert store.load(game).version > 20
