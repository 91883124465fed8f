"""Join links and devices: secrets, binding a seat, one device per seat, freeing, rotating."""

from __future__ import annotations

import threading

import pytest
from storage_helpers import config

from storage import GameNotFound, LinkRefused, SeatTaken, Store
from storage.devices import new_secret, new_token, same_secret, token_hash


def test_secrets_and_tokens_are_url_safe_and_long():
    for make, chars in ((new_secret, 22), (new_token, 43)):
        values = {make() for _ in range(200)}
        assert len(values) == 200
        for value in values:
            assert len(value) == chars and not set(value) & set("+/=% ")
            assert value.replace("-", "").replace("_", "").isalnum()
    assert len(token_hash("x")) == 64 and token_hash("x") != token_hash("y")
    assert same_secret("abc", "abc") and not same_secret("abc", "abd") and not same_secret("abc", "ab")


def test_the_secret_is_made_once_and_rotation_replaces_it(store):
    game = store.create_game(config())
    first = store.devices.secret(game)
    assert store.devices.secret(game) == first and store.devices.secret_matches(game, first)
    second = store.devices.rotate(game)
    assert second != first and store.devices.secret(game) == second
    assert not store.devices.secret_matches(game, first) and store.devices.secret_matches(game, second)
    assert not store.devices.secret_matches("nope", first)
    with pytest.raises(GameNotFound):
        store.devices.secret("nope")


def test_binding_a_seat_a_spectator_and_coming_back(store):
    game = store.create_game(config(players=3))
    secret = store.devices.secret(game)
    phone = store.devices.bind(game, secret=secret, token_hash=token_hash("p1"), seat=2, label="  Pixel\n 7 ")
    assert (phone.seat, phone.label) == (2, "Pixel 7")
    again = store.devices.find(token_hash("p1"))
    assert again is not None and (again.id, again.seat) == (phone.id, 2) and again.seen >= phone.seen
    watcher = store.devices.bind(game, secret=secret, token_hash=token_hash("w"), seat=None, label="tablet")
    also = store.devices.bind(game, secret=secret, token_hash=token_hash("w2"), seat=None, label="tablet 2")
    assert watcher.seat is None and also.seat is None  # any number of spectators
    moved = store.devices.bind(game, secret=secret, token_hash=token_hash("w"), seat=0, label="tablet")
    assert (moved.id, moved.seat) == (watcher.id, 0)  # the same device takes a seat
    assert [(d.seat, d.label) for d in store.devices.devices(game)] == [
        (0, "tablet"),
        (2, "Pixel 7"),
        (None, "tablet 2"),
    ]
    assert store.devices.find(token_hash("unknown")) is None


def test_a_seat_is_held_by_one_device(store):
    game = store.create_game(config(players=3))
    secret = store.devices.secret(game)
    store.devices.bind(game, secret=secret, token_hash=token_hash("a"), seat=1, label="a")
    with pytest.raises(SeatTaken):
        store.devices.bind(game, secret=secret, token_hash=token_hash("b"), seat=1, label="b")
    with pytest.raises(ValueError):
        store.devices.bind(game, secret=secret, token_hash=token_hash("b"), seat=7, label="b")
    other = store.create_game(config(players=3))
    with pytest.raises(ValueError):  # a token belongs to the game it joined
        store.devices.bind(other, secret=store.devices.secret(other), token_hash=token_hash("a"), seat=0, label="a")


def test_a_wrong_or_rotated_secret_binds_nothing(store):
    game = store.create_game(config())
    old = store.devices.secret(game)
    store.devices.bind(game, secret=old, token_hash=token_hash("kept"), seat=0, label="kept")
    store.devices.rotate(game)
    for wrong in (old, "", new_secret()):
        with pytest.raises(LinkRefused):
            store.devices.bind(game, secret=wrong, token_hash=token_hash("new"), seat=1, label="new")
    assert [d.label for d in store.devices.devices(game)] == ["kept"]  # bound phones stay bound
    assert store.devices.find(token_hash("kept")).seat == 0


def test_freeing_a_seat_unbinds_its_device(store):
    game = store.create_game(config())
    secret = store.devices.secret(game)
    phone = store.devices.bind(game, secret=secret, token_hash=token_hash("p"), seat=0, label="p")
    watcher = store.devices.bind(game, secret=secret, token_hash=token_hash("w"), seat=None, label="w")
    assert store.devices.free_seat(game, 0) == [phone.id]
    assert store.devices.find(token_hash("p")) is None and store.devices.free_seat(game, 0) == []
    assert store.devices.remove(game, watcher.id) and not store.devices.remove(game, watcher.id)
    assert store.devices.devices(game) == []
    again = store.devices.bind(game, secret=secret, token_hash=token_hash("q"), seat=0, label="q")
    assert again.seat == 0


def test_phones_racing_for_one_seat_leave_one_holder(make_url):
    url = make_url()
    with Store(url) as setup:
        game = setup.create_game(config(players=4))
        secret = setup.devices.secret(game)
    stores = [Store(url) for _ in range(6)]
    results: list[object] = []
    gate = threading.Barrier(len(stores))

    def grab(index: int) -> None:
        gate.wait()
        try:
            results.append(
                stores[index].devices.bind(
                    game, secret=secret, token_hash=token_hash(f"t{index}"), seat=3, label=f"phone {index}"
                )
            )
        except SeatTaken as error:
            results.append(error)

    threads = [threading.Thread(target=grab, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        won = [r for r in results if not isinstance(r, SeatTaken)]
        assert len(won) == 1 and len(results) == len(stores)
        assert [(d.seat, d.id) for d in stores[0].devices.devices(game)] == [(3, won[0].id)]
    finally:
        for s in stores:
            s.close()
