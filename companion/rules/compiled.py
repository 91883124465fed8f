"""The engine compiled to C with mypyc: built on request, used only while it matches its sources.

`build` (`dyo-companion compile-engine`) compiles the engine into a folder named after a digest
of its sources and of the Python that runs it. Importing `companion.rules` imports this module
first, and when that folder exists it goes ahead of the sources on the package's path, so the
compiled modules load instead of theirs. An edited or upgraded engine has another digest: it
runs from its sources until it is compiled again, never from a build of older sources.
COMPANION_ENGINE=python ignores any build; COMPANION_ENGINE_DIR moves the builds elsewhere.

The compiled engine gives the same answers (tests/engine/test_compiled.py plays both and
compares); it only runs faster.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from pathlib import Path

SOURCES = Path(__file__).parent  # the engine's sources and data files (a compiled module lies elsewhere)
# Modules that stay interpreted, for what mypyc cannot compile: the package's door and this
# module, which run before a build is found; the actions, events and records, classes made by
# decorators at import time; the errors, whose parameters are positional-only beside any
# keyword; first_only.py, a subclass of `list`.
INTERPRETED = frozenset(
    {
        "__init__.py",
        "compiled.py",
        "actions.py",
        "events.py",
        "record.py",
        "offence.py",
        "errors.py",
        "first_only.py",
    }
)
_BUILD_NAME = re.compile(r"[0-9a-f]{16}(\.part)?")  # a digest: what `build` names its folders
GROUP = "companion.rules.native"  # the shared library that holds every compiled module
_SETUP = """
import os, sys
from mypyc.build import mypycify
from setuptools import setup
modules = mypycify(sys.argv[2:], opt_level="3", group_name=sys.argv[1])
setup(name="companion-engine", ext_modules=modules,
      script_args=["build_ext", "--inplace", "--parallel", str(os.cpu_count() or 1)])
"""


class BuildError(RuntimeError):
    """The engine could not be compiled; the message says what to install or what failed."""


def sources() -> list[Path]:
    """Every Python source of the engine (the digest covers them all, compiled or not)."""
    return sorted(SOURCES.rglob("*.py"))


def compiled_sources() -> list[Path]:
    return [p for p in sources() if p.relative_to(SOURCES).as_posix() not in INTERPRETED]


def digest() -> str:
    """What a build is for: these sources, on this Python and platform (its modules' suffix)."""
    h = hashlib.sha256(EXTENSION_SUFFIXES[0].encode())
    for path in sources():
        h.update(path.relative_to(SOURCES).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def builds_root() -> Path:
    """Where builds are kept: with the Python environment that runs them, unless told otherwise."""
    return Path(os.environ.get("COMPANION_ENGINE_DIR") or Path(sys.prefix, "share", "dyo-companion", "engine"))


def build_folder(root: Path | None = None) -> Path:
    """The package folder of the build for these sources (it may not exist)."""
    return (root or builds_root()) / digest() / "companion" / "rules"


def require_tools() -> None:
    """Raise BuildError unless this Python has what `build` runs (a C compiler is found only then)."""
    for needed in ("mypyc", "setuptools"):
        if find_spec(needed) is None:
            raise BuildError(f"{needed} is missing: pip install 'dyo-companion[compiled]'")


def build(root: Path | None = None) -> Path:
    """Compile the engine and keep the build under `root`; returns its package folder.

    Needs mypy (its mypyc), setuptools and a C compiler with Python's headers. The build is
    made aside and moved in whole, so an interrupted one is never used.
    """
    require_tools()
    target = build_folder(root).parent.parent
    with tempfile.TemporaryDirectory(prefix="dyo-engine-") as work:
        tree = Path(work)
        for path in [SOURCES.parent / "__init__.py", *SOURCES.parent.joinpath("i18n").glob("*.py"), *sources()]:
            copy = tree / "companion" / path.relative_to(SOURCES.parent)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
        files = [str(p.relative_to(SOURCES.parent.parent)) for p in compiled_sources()]
        done = subprocess.run(
            [sys.executable, "-c", _SETUP, GROUP, *files], cwd=tree, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            lines = (done.stdout + done.stderr).strip().splitlines()
            found = [line for line in lines if "error:" in line] or lines[-1:] or [f"exit {done.returncode}"]
            raise BuildError(f"mypyc failed: {found[0].strip()}")
        staged = target.with_name(target.name + ".part")
        shutil.rmtree(staged, ignore_errors=True)
        for module in (tree / "companion" / "rules").rglob("*" + EXTENSION_SUFFIXES[0]):
            kept = staged / module.relative_to(tree)
            kept.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(module, kept)
        shutil.rmtree(target, ignore_errors=True)
        staged.rename(target)
    for older in _builds(target.parent):  # builds of other sources: never loaded again
        if older != target:
            shutil.rmtree(older, ignore_errors=True)
    return target / "companion" / "rules"


def _builds(root: Path) -> list[Path]:
    """The folders `build` made under `root`, whole or interrupted."""
    return [p for p in root.iterdir() if p.is_dir() and _BUILD_NAME.fullmatch(p.name)] if root.is_dir() else []


def remove(root: Path | None = None) -> int:
    """Delete every build under `root` (the engine then runs from its sources); how many there were.

    A build is made after installing, so uninstalling the package leaves it: a host removes it first.
    """
    found = _builds(root or builds_root())
    for folder in found:
        shutil.rmtree(folder)
    return len(found)


def _activate() -> bool:
    """Put this source's build, if there is one, ahead of the sources on the package's path."""
    root = builds_root()
    if os.environ.get("COMPANION_ENGINE") == "python" or not root.is_dir():
        return False  # nothing compiled here: no need to read every source for a digest
    folder = build_folder(root)
    if not folder.is_dir():
        return False
    sys.modules[__name__.rpartition(".")[0]].__path__.insert(0, str(folder))
    return True


_ACTIVE = _activate()


def is_compiled() -> bool:
    """Whether this process runs the compiled engine."""
    return _ACTIVE
