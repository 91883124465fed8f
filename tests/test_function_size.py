"""No function of the product (`companion/`, `storage/`) is longer than 80 lines: past that, it
does more than one job and is split at the seams its sections already show (one per section, per
kind of step, per part of a panel). Ruff caps a function's complexity, branches and statements
(pyproject.toml, [tool.ruff.lint]); it has no rule for its length, so this test counts lines."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "storage")
MOST_LINES = 80


def too_long(root: Path, paths: list[Path], most: int = MOST_LINES) -> dict[str, int]:
    """Each function or method in `paths` longer than `most` lines, from its `def` to its last line
    (a nested function counts on its own and within its parent), as `path:line name` -> lines."""
    found: dict[str, int] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > most:
                    found[f"{path.relative_to(root)}:{node.lineno} {node.name}"] = lines
    return found


def test_every_function_is_at_most_80_lines() -> None:
    modules = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    assert len(modules) > 100  # the whole product is read, not a folder that moved
    long = too_long(ROOT, modules)
    assert long == {}, f"split these functions (lines): {long}"


def _function(name: str, lines: int, indent: str = "") -> str:
    return f"{indent}def {name}():\n" + "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 1))


def test_a_function_of_81_lines_is_named(tmp_path: Path) -> None:
    """80 lines pass, 81 fail, a method's too."""
    path = tmp_path / "module.py"
    path.write_text(
        _function("fits", 80) + _function("over", 81) + "class C:\n" + _function("method", 81, "    "),
        encoding="utf-8",
    )
    assert too_long(tmp_path, [path]) == {"module.py:81 over": 81, "module.py:163 method": 81}
