"""The tests' drivers, for the benchmarks that drive the app: found in the checkout's tests/.

`ui`, `sync`, `storm` and `tables` drive the app as the tests do, with Debian's chromium or bare
websocket clients (tests/drivers). Those drivers ship in no package (the wheel and the phone
builds leave tests/ out), so these suites run from a checkout only; `engine` and `storage` run
anywhere. The package is registered under the name the tests import it by, `drivers`, without
putting tests/ on the path, where its folders (tests/storage) would shadow the real packages.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

NAME = "drivers"
ROOT = Path(__file__).resolve().parents[2]  # the checkout, when this file is in one
PACKAGE = ROOT / "tests" / NAME


def in_checkout() -> bool:
    """Whether this package runs from a checkout of the repository, with the tests' drivers in it."""
    return (ROOT / "pyproject.toml").is_file() and (PACKAGE / "__init__.py").is_file()


def find_drivers() -> bool:
    """Make `import drivers` find the checkout's tests/drivers (already imported: as it is).

    False outside a checkout (an installed package), where the suites that need them cannot run.
    """
    if NAME in sys.modules:
        return True
    if not in_checkout():
        return False
    spec = importlib.util.spec_from_file_location(
        NAME, PACKAGE / "__init__.py", submodule_search_locations=[str(PACKAGE)]
    )
    assert spec is not None and spec.loader is not None  # a file that exists, by its path
    module = importlib.util.module_from_spec(spec)
    sys.modules[NAME] = module
    spec.loader.exec_module(module)
    return True


def needs_checkout(error: ModuleNotFoundError) -> bool:
    """Whether importing a suite failed for want of the tests' drivers."""
    return error.name is not None and (error.name == NAME or error.name.startswith(f"{NAME}."))


def message(suite: str) -> str:
    """The one line saying so."""
    return (
        f"dyo-companion bench: the {suite} suite drives the app with the tests' drivers (tests/drivers), "
        "so it runs from a checkout of the repository only; here: dyo-companion bench engine storage"
    )
