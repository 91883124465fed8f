"""The app and the storage use the engine only through its public API (`companion.rules`): no
`companion.rules.<submodule>` import, and only names the API lists in `__all__`."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.rules

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = ("companion/app", "storage")


def _engine_imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("companion.rules.")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("companion.rules."):
                found.append((node.lineno, node.module))
            elif node.module == "companion.rules":
                found += [
                    (node.lineno, f"companion.rules.{a.name}")
                    for a in node.names
                    if a.name not in companion.rules.__all__
                ]
            elif node.module == "companion":
                found += [(node.lineno, "companion.rules") for a in node.names if a.name == "rules"]
    return found


def test_the_app_imports_only_the_public_api():
    leaks = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for client in CLIENTS
        for path in sorted((ROOT / client).rglob("*.py"))
        for line, name in _engine_imports(path)
    ]
    assert leaks == []


def test_the_check_sees_a_submodule_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from companion.rules.handlers.basic import search_count\nfrom companion.rules import step, search_count\n",
        encoding="utf-8",
    )
    assert [name for _, name in _engine_imports(sample)] == [
        "companion.rules.handlers.basic",
        "companion.rules.search_count",
    ]
