"""Two writers racing on one game: exactly one wins each version, the other is told the state changed."""

import multiprocessing
import random
import threading

from storage_helpers import config, next_action, play, snap, unresolved

from companion.rules import Game
from storage import StaleState, Store
from storage import store as store_module

ROUNDS = 20


def _race(store: Store, game_id: str, kind: str, action: dict, base: int, key: str, barrier) -> tuple:
    """One contender: wait for the other, then try to write on top of version `base`."""
    barrier.wait()
    try:
        if kind == "undo":
            return ("won", store.undo(game_id, base_version=base).version)
        return ("won", store.submit(game_id, action, base_version=base, key=key).version)
    except StaleState as stale:
        return ("stale", stale.current_version)


def _rounds(table, rng):
    """Each round's contest: mostly two submissions of the next action, sometimes undo against it."""
    kinds = ["undo" if table.can_undo and rng.random() < 0.3 else "submit", "submit"]
    return kinds, next_action(table.game.state, rng)


def _check_one_winner_per_round(results, base):
    outcomes = sorted(results)
    assert outcomes == [("stale", base + 1), ("won", base + 1)], outcomes


def test_threads_racing_leave_one_winner_per_version(make_url):
    url = make_url()
    cfg = config(seed=31)
    rng = random.Random(31)
    with Store(url) as setup:
        game_id = setup.create_game(cfg)
    first, second = Store(url), Store(url)  # two app processes' worth of stores, in threads
    try:
        for round_ in range(ROUNDS):
            table = first.load(game_id)
            kinds, action = _rounds(table, rng)
            barrier = threading.Barrier(2)
            results: list = [None, None]

            def contend(
                index, store, kind, action=action, base=table.version, round_=round_, barrier=barrier, results=results
            ):
                results[index] = _race(store, game_id, kind, action, base, f"{index}/{round_}", barrier)

            threads = [
                threading.Thread(target=contend, args=(i, s, k))
                for i, (s, k) in enumerate(zip((first, second), kinds, strict=True))
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=60)
            _check_one_winner_per_round(results, table.version)
        assert first.load(game_id).version == second.load(game_id).version == ROUNDS
        assert first.verify(game_id) == []
    finally:
        first.close()
        second.close()


def test_many_threads_sharing_one_store_never_write_a_version_twice(store):
    cfg = config(seed=5)
    game_id = store.create_game(cfg)
    target = 60
    written: list[tuple[int, dict]] = []
    lock = threading.Lock()

    def player(seed):
        rng = random.Random(seed)
        while True:
            table = store.load(game_id)
            if table.version >= target:
                return
            action = next_action(table.game.state, rng)
            try:
                sub = store.submit(game_id, action, base_version=table.version)
            except StaleState:
                continue
            with lock:
                written.append((sub.version, action))

    threads = [threading.Thread(target=player, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    versions = sorted(v for v, _ in written)
    assert versions == list(range(1, len(versions) + 1)) and len(versions) >= target
    in_order = [action for _, action in sorted(written, key=lambda w: w[0])]
    assert unresolved(store.export_game(game_id)["actions"]) == in_order
    assert snap(store.load(game_id).game.state) == snap(Game.replay(cfg, in_order).state)
    assert store.verify(game_id) == []


def _process_contender(url, game_id, index, plan, barrier, results):
    """A separate process: its own store, racing the other on every round of the plan."""
    store = Store(url)
    try:
        for round_, (kinds, action, base) in enumerate(plan):
            results.put((round_, _race(store, game_id, kinds[index], action, base, f"{index}/{round_}", barrier)))
    finally:
        store.close()


def test_processes_racing_leave_one_winner_per_version(make_url):
    url = make_url()
    cfg = config(seed=77)
    rng = random.Random(77)
    with Store(url) as setup:
        game_id = setup.create_game(cfg)
        # The plan follows what the winners will have written: round n starts from version n.
        plan, shadow = [], Game(cfg)
        for round_ in range(ROUNDS):
            action = next_action(shadow.state, rng)
            plan.append((["submit", "submit"], action, round_))
            shadow.submit(action)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(2)
    results = context.Queue()
    workers = [
        context.Process(target=_process_contender, args=(url, game_id, i, plan, barrier, results)) for i in range(2)
    ]
    for w in workers:
        w.start()
    outcomes: dict[int, list] = {}
    for _ in range(2 * ROUNDS):
        round_, outcome = results.get(timeout=120)
        outcomes.setdefault(round_, []).append(outcome)
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    for round_, results_ in outcomes.items():
        _check_one_winner_per_round(results_, round_)
    with Store(url) as check:
        assert check.load(game_id).version == ROUNDS
        assert unresolved(check.export_game(game_id)["actions"]) == [action for _, action, _ in plan]
        assert check.verify(game_id) == []


def test_the_log_key_stops_a_writer_that_read_an_old_version(store, monkeypatch):
    """The last guard: even a writer that skipped the row lock cannot write entry n twice."""
    cfg = config()
    first, _ = play(cfg, 2)
    game_id = store.create_game(cfg)
    store.submit(game_id, first, base_version=0)
    read_row = store_module.read_head

    def as_if_unlocked(conn, game_id, lock=False):
        head = read_row(conn, game_id, lock)
        if lock:
            head.version = 0  # what it read before the other writer committed
        return head

    monkeypatch.setattr(store_module, "read_head", as_if_unlocked)
    try:
        store.submit(game_id, first, base_version=0)
    except StaleState as stale:
        assert stale.current_version == 1
    else:
        raise AssertionError("a second entry 1 was written")
    monkeypatch.undo()
    assert [e.seq for e in store.events(game_id)] == [1] and store.load(game_id).version == 1
