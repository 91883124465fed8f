"""The compiled engine (companion/rules/compiled.py) is the same engine, only faster.

One build, made in a temporary folder (about a minute), serves every test here. A process that
loads it runs the engine's own tests, and random games played by it and by the sources give
the same answer to every action and the same final state.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules import compiled

ROOT = Path(__file__).resolve().parents[2]
# The tests of the engine itself, and of what reads and writes its answers.
ENGINE_TESTS = (
    "tests/engine",
    "tests/rules",
    "tests/test_rule_matrix.py",
    "tests/test_dig_in_example.py",
    "tests/test_tutorial.py",
    "tests/test_bad_input.py",
    "tests/test_fuzz_input.py",
    "tests/test_check_cli_config.py",
    "tests/storage",
)
# Random games of every module mix, each action's answer and the final state written as JSON.
PLAY = """
import json, random, sys
from companion.rules import compiled, legal_actions, new_game, step
from companion.simulate import random_config
games = []
for seed in range(1, 61):
    modules = ("base", "full", "any")[seed % 3]
    rng = random.Random(seed)
    state = new_game(random_config(random.Random(seed), None if modules == "any" else 2 + seed % 5, seed, modules))
    answers = []
    for _ in range(400):
        if state.winner is not None:
            break
        answers.append(step(state, rng.choice(legal_actions(state))).to_json())
    games.append({"answers": answers, "state": state.snapshot()})
json.dump({"compiled": compiled.is_compiled(), "games": games}, sys.stdout, sort_keys=True, default=repr)
"""


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        compiled.require_tools()  # what the command checks first
    except compiled.BuildError as missing:
        pytest.fail(f"{missing} (the test extra has it too: pip install -e '.[test]')")
    root = tmp_path_factory.mktemp("engine")
    done = _run(["-m", "companion", "compile-engine"], root, 300)  # the command a host runs
    if done.returncode != 0:
        pytest.fail(f"{done.stderr.strip()} (a C compiler and Python's headers are needed; on Debian: gcc python3-dev)")
    assert str(compiled.build_folder(root)) in done.stdout
    return root


def _run(args: list[str], root: Path | None, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run Python with the build under `root` (None: the sources only)."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("COMPANION_ENGINE")}
    env.update({"COMPANION_ENGINE_DIR": str(root)} if root else {"COMPANION_ENGINE": "python"})
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def test_a_build_is_loaded_only_for_its_own_sources(build: Path, tmp_path: Path):
    assert compiled.build_folder(build).is_dir()
    probe = ["-c", "from companion.rules import compiled, engine; print(compiled.is_compiled(), engine.__file__)"]
    used, ignored = _run(probe, build, 60), _run(probe, None, 60)
    assert used.stdout.startswith(f"True {build}"), used.stderr
    assert ignored.stdout.startswith("False "), ignored.stderr
    other = tmp_path / "0123456789abcdef"  # the same build, filed under other sources' digest
    shutil.copytree(compiled.build_folder(build).parent.parent, other)
    assert _run(probe, tmp_path, 60).stdout.startswith("False "), "a build of other sources is not loaded"


def test_compiled_and_interpreted_games_give_the_same_answers(build: Path):
    played = {}
    for name, root in (("compiled", build), ("sources", None)):
        done = _run(["-c", PLAY], root, 300)
        assert done.returncode == 0, done.stderr[-2000:]
        played[name] = json.loads(done.stdout)
    assert played["compiled"]["compiled"] and not played["sources"]["compiled"]
    compiled_games, source_games = played["compiled"]["games"], played["sources"]["games"]
    assert sum(len(g["answers"]) for g in source_games) > 2000
    for seed, (mine, theirs) in enumerate(zip(compiled_games, source_games, strict=True), start=1):
        assert mine == theirs, f"game {seed} differs"


# Left out under the compiled engine: the thousand random games the interpreted engine plays in the
# same run; the compiled one plays sixty against it, answer by answer and to the final state (above).
SIMULATIONS = (
    "tests/engine/test_simulate.py::test_five_hundred_base_games_keep_every_invariant",
    "tests/engine/test_simulate.py::test_five_hundred_games_of_random_module_combinations",
)


def test_the_compiled_engine_passes_the_engine_tests(build: Path):
    here = str(Path(__file__).relative_to(ROOT))
    left_out = [f"--deselect={test}" for test in SIMULATIONS]
    done = _run(
        ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", f"--ignore={here}", *left_out, *ENGINE_TESTS], build, 540
    )
    assert done.returncode == 0, done.stdout[-4000:]


def test_without_the_compiler_the_command_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setattr(compiled, "find_spec", lambda name: None)
    assert main(["compile-engine"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "the engine was not compiled: mypyc is missing: pip install 'dyo-companion[compiled]'\n"


def test_the_command_removes_the_builds(tmp_path: Path):
    """Before uninstalling (a build is not a file pip knows of), a host removes the builds."""
    kept = tmp_path / "0123456789abcdef" / "companion" / "rules"
    kept.mkdir(parents=True)
    (tmp_path / "notes").mkdir()  # not a build: left alone
    done = _run(["-m", "companion", "compile-engine", "--remove"], tmp_path, 60)
    said = f"removed 1 compiled build(s) under {tmp_path}: the engine runs from its sources\n"
    assert done.returncode == 0 and done.stdout == said, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes"]
