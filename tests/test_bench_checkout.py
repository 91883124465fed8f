"""The benchmarks and the tests' drivers, in a checkout and in an installed package.

The drivers live in tests/drivers, which no package ships. From a checkout, `dyo-companion bench`
finds them there (companion/bench/checkout.py); from an installed wheel, the suites that need
them say so in one line before anything runs, and `engine` and `storage` still run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What a checkout holds besides its files: environments, caches and what builds and tests leave.
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "test-artifacts", "__pycache__", ".*cache", ".hypothesis"
)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of this checkout, unpacked as pip installs it."""
    folder = tmp_path_factory.mktemp("wheel")
    source, wheels, site = folder / "source", folder / "wheels", folder / "site"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels), "."],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def python(code: str, path: Path | None, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter, with `path` first on its module path."""
    env = {**os.environ, "PYTHONPATH": str(path) if path else ""}
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def bench(site: Path, cwd: Path, *suites: str) -> subprocess.CompletedProcess[str]:
    """`dyo-companion bench SUITES...` run from the unpacked wheel at `site`."""
    code = (
        "import sys, companion; assert companion.__file__.startswith(sys.argv[1]), companion.__file__\n"
        "from companion.cli import main; sys.exit(main(['bench', *sys.argv[2:]]))"
    )
    return python(code, site, cwd, str(site), *suites)


def test_the_wheel_ships_no_tests_and_no_drivers(installed: Path) -> None:
    tops = sorted(p.name for p in installed.iterdir() if not p.name.endswith((".dist-info", ".data")))
    assert tops == ["companion", "storage"]
    assert not list(installed.rglob("browser.py")) and not list(installed.rglob("wire.py"))


def test_outside_a_checkout_a_suite_that_drives_the_app_says_it_needs_one(installed: Path, tmp_path: Path) -> None:
    for suites in (["ui"], ["engine", "storm"], []):  # asked alone, after a suite that could run, or all
        done = bench(installed, tmp_path, *suites)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stdout == "", "nothing is measured when one suite asked for cannot run"
        (line,) = done.stderr.splitlines()
        assert "checkout" in line and "tests/drivers" in line and "bench engine storage" in line, line


def test_outside_a_checkout_engine_and_storage_still_run(installed: Path, tmp_path: Path) -> None:
    done = python(
        "import companion.bench as b; s = b.resolve(['engine', 'storage']); print(sorted(s))", installed, tmp_path
    )
    assert done.returncode == 0 and done.stdout.strip() == "['engine', 'storage']", done.stdout + done.stderr


def test_in_a_checkout_the_suites_find_the_tests_drivers(tmp_path: Path) -> None:
    """tests/ is not on the path of `dyo-companion bench`: the drivers are found all the same, and
    its folders (tests/storage) shadow nothing."""
    done = python(
        "import sys, companion.bench as b\n"
        "s = b.resolve(['ui', 'sync', 'storm', 'tables']); assert not isinstance(s, str), s\n"
        "import drivers.wire, storage.store\n"
        "print(drivers.__file__); print(storage.store.__file__)",
        None,
        tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    drivers, storage = done.stdout.split()
    assert Path(drivers) == ROOT / "tests" / "drivers" / "__init__.py"
    assert Path(storage) == ROOT / "storage" / "store.py"
