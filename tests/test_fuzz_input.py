"""Bad input never crashes: mutated game files through the checker and through the store.

10,000 mutants (seeded from the scenario files: the tutorial, the Dig In examples, a Team-mode
game and a Michel game) go through `python -m companion check` in-process: exit 0 or 2, exactly
one line on standard error for 2, nothing raised. 1,500 more go through `Store.import_game` (byte
mutants read as `games import` reads a file; an imported game must then verify), a third of
their configurations through `Store.create_game`, and 1,500 mutated actions through
`Store.submit`, some with a bad `base_version`, `submitted_by` or `key`: only the documented
typed errors are raised, and after every refused write the stored games are exactly as before
(ids, versions, log lengths). A failure names each failing mutant's seed and shows its file;
replay one with `Mutator(seed_files()).mutant(SEED)` from `tests/mutations.py`.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from mutations import Mutant, Mutator
from sqlalchemy import func
from sqlmodel import select

from companion.checker import run_check
from companion.rules import ConfigError, MalformedAction
from storage import BadGameFile, InvalidArgument, KeyReused, StaleState, Store
from storage.cli import _read_file
from storage.models import EventRow, GameRow

SCENARIOS = Path(__file__).parent / "scenarios"
SEED_FILES = ("tutorial", "dig_in_example", "dig_in_example_psychiatric_ward", "team_game", "michel_game")
CHECKER_MUTANTS = 10_000
STORE_MUTANTS = 1_500  # each is imported once and, as an action, submitted once
SUBMIT_ERRORS = (MalformedAction, InvalidArgument, StaleState, KeyReused)
FIRST_SEED = 20_261_201  # any seed will do; a fixed one makes a failure reproducible


def seed_files() -> list[dict[str, Any]]:
    return [json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8")) for name in SEED_FILES]


@pytest.fixture(scope="module")
def mutator() -> Mutator:
    return Mutator(seed_files())


def check_in_process(data: bytes) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_check("-", out, err, stdin=io.BytesIO(data))
    return code, out.getvalue(), err.getvalue()


def failures_report(failures: list[tuple[Mutant, str]]) -> str:
    shown = "\n".join(f"- {problem}\n  {mutant.describe()}" for mutant, problem in failures[:5])
    return f"{len(failures)} mutant(s) failed, the first ones:\n{shown}"


def test_the_seed_files_replay_with_every_action_accepted():
    """The mutants start from files that reach deep into the rules (else the fuzzing is shallow)."""
    for name, document in zip(SEED_FILES, seed_files(), strict=True):
        code, out, err = check_in_process(json.dumps(document).encode())
        assert code == 0 and err == "", (name, err)
        answers = [json.loads(line) for line in out.splitlines()[:-1]]
        assert answers and all(a["accepted"] for a in answers), name


def test_mutated_files_through_the_checker(mutator):
    failures: list[tuple[Mutant, str]] = []
    exits = {0: 0, 2: 0}
    for seed in range(FIRST_SEED, FIRST_SEED + CHECKER_MUTANTS):
        mutant = mutator.mutant(seed)
        try:
            code, out, err = check_in_process(mutant.data)
        except BaseException as error:  # noqa: B036 - anything escaping is the failure looked for
            failures.append((mutant, f"raised {type(error).__name__}: {error}"[:300]))
            continue
        if code not in exits:
            failures.append((mutant, f"exit status {code}"))
            continue
        exits[code] += 1
        if code == 2 and (len(err.splitlines()) != 1 or not err.endswith("\n") or out):
            failures.append((mutant, f"exit 2 without exactly one line on stderr: {err[:300]!r}"))
        elif code == 0:
            out.encode("utf-8")  # what is printed can be written out (no lone surrogates)
    assert not failures, failures_report(failures)
    assert exits[0] > CHECKER_MUTANTS // 10, f"too few well-formed mutants reach the rules: {exits}"


class StoredGames:
    """What the database holds, read in one transaction: each game's version and log length."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def now(self) -> dict[str, tuple[int, int]]:
        with self.store.db.transaction() as conn:
            versions = dict(conn.execute(select(GameRow.id, GameRow.version)).all())
            logs = dict(conn.execute(select(EventRow.game_id, func.count()).group_by(EventRow.game_id)).all())
        return {game_id: (version, logs.get(game_id, 0)) for game_id, version in versions.items()}


def attempt(write: Callable[[], Any], allowed: tuple[type[BaseException], ...]) -> tuple[Any, str | None]:
    """The result of a write, or None and a problem when it raised anything but an allowed error."""
    try:
        return write(), None
    except allowed:
        return None, None
    except BaseException as error:  # noqa: B036 - anything else escaping is the failure looked for
        return None, f"raised {type(error).__name__}: {error}"[:300]


def imported(store: Store, mutant: Mutant, tmp_path: Path) -> Callable[[], str]:
    """The import of a mutant: its value as an API caller hands it, or its bytes as a file."""
    if mutant.value is not None:
        return lambda: store.import_game(mutant.value)
    path = tmp_path / "mutant.json"
    path.write_bytes(mutant.data)
    return lambda: store.import_game(_read_file(str(path)))


def test_mutated_files_and_actions_through_the_store(mutator, tmp_path):
    failures: list[tuple[Mutant, str]] = []
    documents = seed_files()
    with Store(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}") as store:
        stored = StoredGames(store)
        tables: dict[tuple[int, int], str] = {}  # (file, actions replayed) -> a game at that point
        for seed in range(FIRST_SEED, FIRST_SEED + STORE_MUTANTS):
            rng = random.Random(seed)
            mutant = mutator.mutant(seed)
            before = stored.now()
            game_id, problem = attempt(imported(store, mutant, tmp_path), (BadGameFile,))
            after = stored.now()
            expected = before if game_id is None else {**before, game_id: after.get(game_id)}
            if problem or after != expected or (game_id is not None and game_id in before):
                failures.append((mutant, problem or "an import changed what was stored before it"))
            elif game_id is not None and store.verify(game_id):
                failures.append((mutant, f"the imported game does not verify: {store.verify(game_id)}"))
            if seed % 3 == 0 and isinstance(mutant.value, dict) and "config" in mutant.value:
                game_id, problem = attempt(partial(store.create_game, mutant.value["config"]), (ConfigError,))
                expected = after if game_id is None else {**after, game_id: (0, 0)}
                if problem or stored.now() != expected:
                    failures.append((mutant, problem or "a refused configuration changed what was stored"))

            which = seed % len(documents)
            document = documents[which]
            done = rng.randrange(len(document["actions"]))
            if (which, done) not in tables:
                tables[which, done] = store.import_game(
                    {"config": document["config"], "actions": document["actions"][:done]}
                )
            game_id = tables[which, done]
            action = mutator.mutant(seed, document["actions"][done])
            if action.value is None:
                continue
            before = stored.now()
            version, log = before[game_id]
            base = rng.choice((version,) * 6 + (version + 1, -1, "1", None, True, 1.0, 2**70))
            by = rng.choice((None,) * 4 + ("phone", "x" * 81, 5, ["a"], "\ud800", "a\x00b", b"by"))
            key = rng.choice((None,) * 4 + ("retry", 7, "\udfff", "k" * 201))
            submit = partial(store.submit, game_id, action.value, base_version=base, submitted_by=by, key=key)
            submission, problem = attempt(submit, SUBMIT_ERRORS)
            after = stored.now()
            if submission is not None and submission.answer.accepted and not submission.duplicate:
                expected = {**before, game_id: (version + 1, log + 1)}
                tables.pop((which, done))  # that game moved on
            else:
                expected = before
            if problem or after != expected:
                failures.append((action, problem or "a refused submission changed what was stored"))
    assert not failures, failures_report(failures)
