"""Every third-party import is declared in pyproject.toml, so a clean install can run the code.

A module that arrives only as another package's dependency (msgpack through flet, SQLAlchemy
through sqlmodel) works until that package stops needing it; declaring what the code imports
itself keeps that from breaking an install. The app and storage must find their imports in
`[project] dependencies`, except a lazy import (inside a function) of a package of an extra
the app itself offers (`postgres`, which only hosting asks for, and `compiled`); the tools never
shipped (the `[tool.flet.app] exclude` list: the benchmarks) and the tests' drivers they import
from a checkout (tests/drivers) may also use the `bench` extra, and the tests the `test` extra,
which pulls every role's extra.

The extras are roles (browser, postgres, lint, bench, compiled) and `test` names them all by the
project's own name (`dyo-companion[browser,...]`), followed here as pip follows them.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
FIRST_PARTY = {"companion", "storage"}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _names(requirements: Iterable[str]) -> set[str]:
    out = set()
    for line in requirements:
        found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
        assert found is not None, f"unreadable requirement {line!r}"
        out.add(_canonical(found.group(1)))
    return out


def _imports(path: Path, eager_only: bool = False) -> set[str]:
    """The top-level names of the absolute imports in a file (at any depth: lazy imports count,
    unless `eager_only` asks for the ones a plain `import` of the module runs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = set()
    for node in tree.body if eager_only else ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def _undeclared(
    files: Iterable[Path], declared: set[str], local: set[str], root: Path = ROOT, lazily: set[str] = frozenset()
) -> dict[str, list[str]]:
    """Imports no declared distribution provides: module -> the files importing it. `lazily`
    names distributions that may be imported inside a function only."""
    providers = importlib.metadata.packages_distributions()
    out: dict[str, list[str]] = {}
    for path in files:
        eager = _imports(path, eager_only=True)
        for module in _imports(path) - set(sys.stdlib_module_names) - FIRST_PARTY - local:
            dists = {_canonical(d) for d in providers.get(module, [])}
            if not dists & (declared if module in eager else declared | lazily):
                out.setdefault(f"{module} ({', '.join(sorted(dists)) or 'not installed'})", []).append(
                    str(path.relative_to(root))
                )
    return out


EXTRAS: dict[str, list[str]] = PYPROJECT["project"]["optional-dependencies"]
SELF = _canonical(PYPROJECT["project"]["name"])
APP_EXTRAS = ("postgres", "compiled")  # what a user of the app installs beside it


def _extra(name: str) -> set[str]:
    """The distributions an extra installs, the project's own extras it names followed."""
    out = set()
    for line in EXTRAS[name]:
        found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?", line)
        assert found is not None, f"unreadable requirement {line!r}"
        if _canonical(found.group(1)) == SELF:
            for extra in (found.group(2) or "").split(","):
                out |= _extra(extra.strip())
        else:
            out.add(_canonical(found.group(1)))
    return out


RUNTIME = _names(PYPROJECT["project"]["dependencies"])
OPTIONAL = {name for extra in APP_EXTRAS for name in _extra(extra)}
TOOLS = RUNTIME | _extra("bench")
TEST = RUNTIME | _extra("test")
NEVER_SHIPPED = {ROOT / p for p in PYPROJECT["tool"]["flet"]["app"]["exclude"]}


def _shipped(path: Path) -> bool:
    return not any(path == p or p in path.parents for p in NEVER_SHIPPED)


def _code() -> list[Path]:
    return sorted(p for top in FIRST_PARTY for p in (ROOT / top).rglob("*.py")) + [ROOT / "main.py"]


def test_the_app_declares_what_it_imports() -> None:
    assert _undeclared([p for p in _code() if _shipped(p)], RUNTIME, set(), lazily=OPTIONAL) == {}


DRIVERS = ROOT / "tests" / "drivers"  # the benchmarks import them as `drivers` (companion/bench/checkout.py)


def test_the_tools_never_shipped_declare_what_they_import() -> None:
    tools = [p for p in _code() if not _shipped(p)] + sorted(DRIVERS.glob("*.py"))
    assert _undeclared(tools, TOOLS, {DRIVERS.name}) == {}


def test_the_tests_declare_what_they_import() -> None:
    tests = ROOT / "tests"
    files = sorted(tests.rglob("*.py"))
    local = {p.stem for p in files} | {p.name for p in tests.rglob("*") if p.is_dir()}
    assert _undeclared(files, TEST, local) == {}


def test_an_undeclared_import_is_found(tmp_path: Path) -> None:
    """The check itself: msgpack, declared for the app, is missing from a list without it."""
    module = tmp_path / "uses_msgpack.py"
    module.write_text("def f():\n    import msgpack\n    return msgpack\n", encoding="utf-8")
    found = _undeclared([module], RUNTIME - {"msgpack"}, set(), root=tmp_path)
    assert found == {"msgpack (msgpack)": ["uses_msgpack.py"]}
    assert _undeclared([module], RUNTIME, set(), root=tmp_path) == {}


def test_an_optional_package_may_only_be_imported_lazily(tmp_path: Path) -> None:
    """psycopg (the `postgres` extra) inside a function passes; at the top of a module it does not."""
    lazy, eager = tmp_path / "lazy.py", tmp_path / "eager.py"
    lazy.write_text("def f():\n    import psycopg\n    return psycopg\n", encoding="utf-8")
    eager.write_text("import psycopg\n", encoding="utf-8")
    assert _undeclared([lazy], RUNTIME, set(), root=tmp_path, lazily=OPTIONAL) == {}
    assert list(_undeclared([eager], RUNTIME, set(), root=tmp_path, lazily=OPTIONAL)) == ["psycopg (psycopg)"]


def test_every_runtime_dependency_stops_before_its_next_major() -> None:
    """An upper bound on each (or an exact pin): a new major release never reaches an install untried."""
    unbounded = [line for line in PYPROJECT["project"]["dependencies"] if not re.search(r"(==|<)", line.split(";")[0])]
    assert unbounded == []


def test_the_test_extra_pulls_every_role() -> None:
    """`pip install -e '.[test]'` installs what every role's extra installs."""
    assert {extra: sorted(_extra(extra) - _extra("test")) for extra in EXTRAS if extra != "test"} == {
        extra: [] for extra in EXTRAS if extra != "test"
    }


def test_the_drivers_own_client_is_no_runtime_dependency() -> None:
    """`websockets` serves only the bare client of tests/drivers/wire.py: the `bench` extra has it,
    the app's dependencies do not."""
    assert "websockets" not in RUNTIME and "websockets" in _extra("bench")
    assert "websockets" in _imports(DRIVERS / "wire.py")
