"""The lint step of the test command, and what it rests on.

`./tests/run` (the README's test command) lints and type-checks before any test runs, with the
tools of the `lint` extra and the settings in pyproject.toml: `ruff check`, `ruff format --check`,
`mypy` as configured, `mypy --strict companion/rules` (the engine, whatever the configuration
says) and `lint-imports` (import-linter's contracts). These tests make sure that step still runs
every check and that the quick run leaves out exactly the markers conftest.py gives; the checks
themselves run once, in that step, not again here.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "tests" / "run"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _lint_commands() -> list[str]:
    """The commands of the lint step: each `lint ...` line of tests/run, without the interpreter."""
    return [
        re.sub(r'^"\$py" -m |^\.venv/bin/', "", line.strip()[len("lint ") :]).split("  #")[0].strip()
        for line in RUN.read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("lint ")
    ]


def test_the_lint_step_runs_every_check() -> None:
    assert _lint_commands() == [
        "ruff check --no-cache .",
        "ruff format --check --no-cache .",
        "mypy",
        "mypy --strict companion/rules",
        "lint-imports --no-cache",
    ]


def test_the_lint_tools_come_from_the_lint_extra() -> None:
    names = {
        re.match(r"[A-Za-z0-9._-]+", req).group(0) for req in PYPROJECT["project"]["optional-dependencies"]["lint"]
    }
    assert {"ruff", "mypy", "import-linter"} <= names


def test_the_checks_read_their_settings_from_pyproject() -> None:
    tools = PYPROJECT["tool"]
    assert {"ruff", "mypy", "importlinter"} <= tools.keys()
    assert tools["mypy"]["files"] == ["companion", "storage"] and tools["mypy"]["strict"], (
        "a bare `mypy` checks all of companion and storage under --strict"
    )


def test_the_quick_run_leaves_out_every_registered_marker() -> None:
    registered = {line.split(":")[0] for line in PYPROJECT["tool"]["pytest"]["ini_options"]["markers"]}
    selection = re.search(r'^QUICK_SELECTION="(.*)"$', RUN.read_text(encoding="utf-8"), re.M)
    assert selection is not None
    assert selection.group(1) == f"not ({' or '.join(sorted(registered))})"


def test_the_script_runs() -> None:
    assert RUN.stat().st_mode & 0o111, "tests/run is executable"
    done = subprocess.run(["bash", "-n", str(RUN)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


def test_the_markers_follow_what_a_test_needs() -> None:
    """The quick selection keeps the engine and SQLite storage tests and leaves out chromium's,
    PostgreSQL's, the scale tests and the compiled engine's build."""
    files = [
        "tests/engine/test_hand.py",
        "tests/storage/test_store_basics.py",
        "tests/ui/test_e2e_phones.py",
        "tests/scale/test_workers.py",
        "tests/engine/test_compiled.py",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-m", _quick(), *files],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    kept = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    assert kept == {"tests/engine/test_hand.py", "tests/storage/test_store_basics.py"}
    assert "[sqlite]" in done.stdout and "[postgresql]" not in done.stdout


def _quick() -> str:
    found = re.search(r'^QUICK_SELECTION="(.*)"$', RUN.read_text(encoding="utf-8"), re.M)
    assert found is not None
    return found.group(1)
