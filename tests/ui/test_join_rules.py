"""Playing from phones without a browser: what a seat may do and see, links, tokens, the rate
limit, the addresses `--lan` and `--host` serve on, and the export route's guard."""

from __future__ import annotations

import pytest

from companion.app.door.tokens import RateLimiter
from companion.app.services.joining import JoinService
from companion.app.services.sync import NotYourSeat, SeatSession
from companion.app.vm.seat import SPECTATOR
from companion.rules import new_game, view
from storage import LinkRefused, SeatTaken

GAME = {
    "players": [
        {"name": "Carmen", "hand": ["bandana", "spoon"]},
        {"name": "Nicholas", "hand": ["boots"]},
        {"name": "Yellow"},
    ],
    "seed": 4,
}


@pytest.fixture
def joined(store):
    """A game with Carmen's and Nicholas's phones seated."""
    game_id = store.create_game(GAME)
    join = JoinService(store)
    secret = store.devices.secret(game_id)
    carmen, _ = join.join(game_id, secret, "10.0.0.2", 0, "Mozilla/5.0 (Linux; Android 14) Chrome/130")
    nicholas, _ = join.join(game_id, secret, "10.0.0.3", 1, "Mozilla/5.0 (iPhone) Safari/605")
    return game_id, join, carmen, nicholas


def test_a_seat_acts_only_for_itself(store, joined) -> None:
    game_id, join, carmen, nicholas = joined
    theirs = SeatSession(store, game_id, nicholas, join)
    version = store.load(game_id).version
    for action in (
        {"type": "search", "player": 0},
        {"type": "search", "player": True},
        {"type": "search", "player": 1, "force": True},
        {"type": "adjust", "player": 1, "changes": []},
        {"type": "move", "player": 1, "outcomes": [{"die": 6}]},
        ["search"],
    ):
        with pytest.raises(NotYourSeat):
            theirs.submit(action)  # type: ignore[arg-type]
    for rewind in (theirs.undo, theirs.redo):
        with pytest.raises(NotYourSeat):
            rewind()
    assert store.load(game_id).version == version
    assert SeatSession(store, game_id, carmen, join).submit({"type": "search", "player": 0}).accepted


def test_a_stale_submission_is_refused_and_a_retry_is_not_applied_twice(store, joined) -> None:
    game_id, join, carmen, _ = joined
    phone, retry, late = (SeatSession(store, game_id, carmen, join) for _ in range(3))
    steps = len(store.events(game_id))
    assert phone.submit({"type": "search", "player": 0}).accepted
    # The same tap again on the version it was made on (a retry after a blip): the first result.
    assert retry.submit({"player": 0, "type": "search"}).accepted
    assert len(store.events(game_id)) == steps + 1 and retry.version == phone.version
    # Another action made on that old version: refused, nothing recorded, the fresh state loaded.
    stale = late.submit({"type": "end_turn", "player": 0})
    assert stale.stale and not stale.accepted and late.version == phone.version
    assert len(store.events(game_id)) == steps + 1 and store.load(game_id).game.state.active == 0


def test_a_seat_sees_only_its_own_hand(store, joined) -> None:
    game_id, *_ = joined
    state = store.load(game_id).game.state
    mine = view(state, 1)
    assert mine.players[1].hand.known == {"boots": 1}
    assert mine.players[0].hand.known == {} and mine.players[0].hand.size() == 2
    public = view(state, SPECTATOR)
    assert all(p.hand.known == {} for p in public.players)
    assert [p.hand.size() for p in public.players] == [p.hand.size() for p in state.players]
    with_michel = new_game({**GAME, "modules": {"neutrals": 2, "places": ["psychiatric_ward"]}})
    hidden = view(with_michel, 1)
    assert {"michel_deck", "trauma_stack"} <= set(with_michel.config["start"])  # the cards to come, in order
    assert "start" not in hidden.config


def test_links_seats_and_tokens(store, joined) -> None:
    game_id, join, carmen, _ = joined
    secret = store.devices.secret(game_id)
    with pytest.raises(SeatTaken):
        join.join(game_id, secret, "10.0.0.4", 0, "")
    for bad in ("", "x" * 22, secret + "'", None, 7):
        assert not join.check_link(game_id, bad, "10.0.0.9").ok
    with pytest.raises(LinkRefused):
        join.join(game_id, secret, "10.0.0.5", 99, "")  # a seat the game does not have
    join.rotate(game_id)
    with pytest.raises(LinkRefused):
        join.join(game_id, secret, "10.0.0.6", 2, "")  # the old link stops
    assert join.check_link(game_id, store.devices.secret(game_id), "10.0.0.6").ok
    assert join.still_bound(carmen)  # seated phones keep their seats
    assert join.resume(game_id, "not a token", "10.0.0.7") is None
    join.free_seat(game_id, 0)
    assert not join.still_bound(carmen)


def test_repeated_bad_secrets_lock_the_address_out() -> None:
    now = [0.0]
    limiter = RateLimiter(failures=5, window=300, lockout=60, clock=lambda: now[0])
    for _ in range(4):
        assert limiter.failed("10.0.0.8") == 0
    assert limiter.failed("10.0.0.8") == 60 and limiter.wait("10.0.0.8") == 60
    assert limiter.wait("10.0.0.9") == 0  # other devices are not punished
    now[0] = 61
    assert limiter.wait("10.0.0.8") == 0


def test_locked_out_even_with_the_right_secret(store) -> None:
    game_id = store.create_game(GAME)
    join = JoinService(store, RateLimiter(failures=3))
    for _ in range(3):
        join.check_link(game_id, "y" * 22, "10.0.0.10")
    gate = join.check_link(game_id, store.devices.secret(game_id), "10.0.0.10")
    assert not gate.ok and gate.wait > 0


def test_the_export_route_is_the_hosts(store, settings_path) -> None:
    from fastapi.testclient import TestClient

    from companion.app.door.access import Access
    from companion.app.entry.web import make_asgi
    from companion.app.services.settings import SettingsFile

    game_id = store.create_game(GAME)
    access = Access(lan=True, machine=())
    client = TestClient(make_asgi(store, SettingsFile(settings_path), lan_url="http://10.0.0.1:8550/", access=access))
    refused = client.get(f"/api/games/{game_id}/export")
    assert refused.status_code == 404 and "Carmen" not in refused.text
    assert client.get(f"/api/games/{game_id}/export", params={"host": access.host_key}).json()["config"]


def test_what_just_happened_names_a_drawn_card_only_to_its_player() -> None:
    from companion.app.vm.seat import event_lines
    from companion.app.vm.text import Tr

    events = [
        {"type": "draw", "player": 0, "cards": ["golden_chain"], "why": "search"},
        {"type": "give", "player": 0, "to": 1, "card": "boots", "why": "exchange"},
    ]
    names = ["Carmen", "Nicholas", "Yellow"]
    mine = " ".join(event_lines(events, names, Tr("en"), 0))
    assert "Golden chain" in mine and "Boots" in mine
    theirs = " ".join(event_lines(events, names, Tr("en"), 2))
    assert "Golden chain" not in theirs and "Boots" not in theirs and "Carmen gives a card to Nicholas" in theirs
    assert "Boots" in " ".join(event_lines(events, names, Tr("en"), 1))


def test_a_seated_phone_comes_back_after_the_server_restarts(tmp_path) -> None:
    """Only the token's hash is stored, and it survives the process: the phone's stored token
    finds its seat in a store opened afresh (a restart), with nothing else presented."""
    from storage import Store

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    before = Store(url)
    game_id = before.create_game(GAME)
    device, token = JoinService(before).join(game_id, before.devices.secret(game_id), "10.0.0.2", 2, "phone")
    before.close()
    after = Store(url)
    try:
        back = JoinService(after).resume(game_id, token, "10.0.0.2")
        assert back is not None and (back.id, back.seat) == (device.id, 2)
        assert JoinService(after).resume(game_id, token[:-1] + ("0" if token[-1] != "0" else "1"), "10.0.0.2") is None
    finally:
        after.close()


def test_a_spys_look_is_told_to_the_spy_alone() -> None:
    """The engine's spy event carries the hand; the projection keeps it for the spy (and the target)."""
    from companion.app.vm.seat import event_lines
    from companion.app.vm.text import Tr

    events = [{"type": "spy", "player": 0, "target": 1, "hand": {"known": {"boots": 2}, "unknown": 1}}]
    names = ["Carmen", "Nicholas", "Yellow"]
    spy = " ".join(event_lines(events, names, Tr("en"), 0))
    assert "Boots" in spy and "Nicholas" in spy
    for other in (1, 2, SPECTATOR):
        assert "Boots" not in " ".join(event_lines(events, names, Tr("en"), other))


def test_a_phone_walks_into_michels_place(tmp_path) -> None:
    """Before a tap is recorded a phone asks the engine what it would do (an offence, a win, the
    Michel cards to draw), from its own view: that dry run stops at the Michel card the view does
    not hold, instead of failing the tap."""
    import asyncio

    from companion.bench.instance import Instance

    async def run() -> list[str]:
        instance = Instance(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path, "michel")
        try:
            store = instance.store
            game = store.create_game(
                dict(
                    GAME,
                    modules={"neutrals": 1},
                    players=[{"name": "Carmen", "place": "infirmary"}, {"name": "Nicholas"}, {"name": "Yellow"}],
                )
            )
            device, _ = instance.services.join.join(game, store.devices.secret(game), "127.0.0.1", 0, "phone")
            phone = await instance.open_screen(f"/play/{game}", device)
            phone.screen.control.submit_checked({"type": "move", "player": 0, "die": [5], "to": "showers"})
            while phone.screen.writing is None or not phone.screen.writing.done():
                await asyncio.sleep(0.01)
            return [e["type"] for e in store.events(game)[-1].answer["events"]]
        finally:
            instance.close()

    assert "michel_card" in asyncio.run(run())


@pytest.mark.parametrize("seed,physical", [(2, False), (3, False), (10, False), (4, True), (5, True)])
def test_random_taps_on_every_phone_never_break_a_screen(tmp_path, seed: int, physical: bool, monkeypatch) -> None:
    """A monkey at each seat's phone: whoever must act taps at random on their own phone (its
    menu, decisions and reactions only), every seat has one, and the table view watches, on
    games with random modules, the app's dice and cards or the real ones entered. No screen may
    fail to draw, every tap a phone made is its seat's, and every screen ends at the stored game."""
    import asyncio
    import random

    from companion.app.ui import shell
    from companion.bench.instance import Instance
    from companion.simulate import random_config

    from .conftest import expanded_without_bounds, monkey_step, until, write_settings

    failures: list[str] = []
    monkeypatch.setattr(shell.log, "exception", lambda msg, *args: failures.append(msg % args))
    rng = random.Random(seed)

    if physical:  # the table rolls its real die and draws the real Michel cards; the phones enter them
        write_settings(tmp_path / "settings-monkey.json", die_mode="physical", michel_mode="physical")

    async def run() -> int:
        instance = Instance(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path, "monkey")
        try:
            store = instance.store
            game = store.create_game(random_config(rng, None, seed, "any"))
            secret = store.devices.secret(game)
            players = len(store.load(game).game.state.players)
            phones = []
            for seat in range(players):
                device, _ = instance.services.join.join(game, secret, "127.0.0.1", seat, f"phone {seat}")
                phones.append(await instance.open_screen(f"/play/{game}", device))
            watcher = await instance.open_screen(f"/game/{game}/table")
            for phone in phones:
                phone.flag = lambda *a, **k: None
                phone.confirm = lambda title, text, yes, on_yes, **k: on_yes()

            async def caught_up() -> None:
                """Every screen at the stored game (the news of the last tap reached them all)."""
                version = store.load(game).version
                for screen in [*phones, watcher]:  # however long a loaded machine takes: 60 s is "never"
                    await until(lambda s=screen: s.screen.session.version >= version, "news at every screen")
                    failures.extend(expanded_without_bounds(screen.page))

            for _ in range(150):
                await caught_up()
                state = store.load(game).game.state
                if state.winner is not None:
                    break
                seat = state.pending.player if state.pending is not None else state.active
                reacting = rng.choice(phones)  # another seat's reactions (a Background, a report)
                if not await monkey_step(reacting, rng) and not await monkey_step(phones[seat], rng):
                    break
            await caught_up()
            entries = store.events(game)
            by = [(e.action.get("player"), (e.submitted_by or "").rpartition(" seat ")[2]) for e in entries]
            assert all(str(player) == seat for player, seat in by), by  # every entry a phone's, for its seat
            return len(entries)
        finally:
            instance.close()

    played = asyncio.run(run())
    assert not failures, failures
    assert played > 20
