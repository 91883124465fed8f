"""Lint, format and type checks, run with the tests so the README's one test command covers them.

Each check runs the tool the `test` extra installs (pyproject.toml pins its range) in a
subprocess from the repository root, with the settings pyproject.toml gives it, and fails
with the tool's own report.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(module: str, *args: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.fail(f"{module} is not installed: pip install -e '.[test]' installs it with the other test tools")
    done = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True, timeout=540)
    if done.returncode != 0:
        pytest.fail(
            f"{module} {' '.join(args)} failed (exit {done.returncode}):\n{done.stdout}{done.stderr}", pytrace=False
        )


def test_ruff_check() -> None:
    _run("ruff", "check", "--no-cache", ".")


def test_ruff_format() -> None:
    _run("ruff", "format", "--check", "--no-cache", ".")


def test_mypy_strict_rules() -> None:
    """The engine is held to --strict on its own, whatever the configuration says."""
    _run("mypy", "--strict", "companion/rules")


def test_mypy_strict_everything() -> None:
    """The configured run (pyproject.toml, [tool.mypy]): all of `companion` and `storage` under --strict."""
    _run("mypy")


def test_import_layers_and_no_cycle() -> None:
    """The layers contract (pyproject.toml, [tool.importlinter]): companion/app's folders import only
    downward (entry, ui, vm, services, door, host), the engine and storage never import the app or a
    benchmark, and no package has an import cycle, function-local imports included."""
    if importlib.util.find_spec("importlinter") is None:
        pytest.fail("import-linter is not installed: pip install -e '.[test]' installs it with the other test tools")
    lint_imports = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"lint-imports failed (exit {done.returncode}):\n{done.stdout}{done.stderr}", pytrace=False)
