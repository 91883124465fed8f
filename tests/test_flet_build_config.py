"""The configuration `flet build` reads from pyproject.toml names an app that is really there.

`flet build apk|ipa|linux|macos|windows` cannot run here (it needs the Flutter SDK), so what it
would read is checked the way flet-cli 1.0.5 reads it: `[tool.flet.app] path` is the folder it
packages, `module` the file it runs there (`<module>.py`, run as `__main__`), `assets/icon.png`
in that folder the icon, `exclude` paths relative to it that stay out of the package.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import re
import struct
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LARGEST_ICON = 1024  # iOS's and macOS's largest: a smaller source is enlarged (flet warns)
MAX_SOURCE = 2048  # flet_platform_assets scales a larger source down first


@pytest.fixture(scope="module")
def pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def flet(pyproject: dict[str, Any]) -> dict[str, Any]:
    assert "flet" in pyproject.get("tool", {}), "pyproject.toml has no [tool.flet] for `flet build`"
    return pyproject["tool"]["flet"]


@pytest.fixture(scope="module")
def app_dir(flet: dict[str, Any]) -> Path:
    folder = (ROOT / flet.get("app", {}).get("path", ".")).resolve()
    assert folder.is_dir(), f"[tool.flet.app] path {folder} is not a folder"
    return folder


def test_product_and_publisher(flet: dict[str, Any], pyproject: dict[str, Any]) -> None:
    assert flet.get("product") == "Dig Your Way Out"
    assert re.fullmatch(r"[a-z][a-z0-9]*(\.[a-z][a-z0-9_]*)+", flet.get("org", "")), (
        f"[tool.flet] org {flet.get('org')!r} is not a reverse domain name (com.example)"
    )
    assert flet.get("company"), "[tool.flet] company is missing"
    assert flet.get("copyright", "").startswith("Copyright"), "[tool.flet] copyright is missing"
    assert pyproject["project"].get("description"), "flet build takes the app's description from [project]"


def test_entry_module_exposes_the_native_main(flet: dict[str, Any], app_dir: Path) -> None:
    module = Path(flet["app"].get("module", "main")).stem
    entry = app_dir / f"{module}.py"
    assert entry.is_file(), f"flet build runs {entry.name} in {app_dir}, and there is none"
    spec = importlib.util.spec_from_file_location(f"flet_entry_{module}", entry)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)  # not as __main__: importing it must not start the app
    from companion.app.entry import packaged

    assert getattr(loaded, "main", None) is packaged.native_main, (
        f"{entry.name} must expose companion.app.entry.packaged.native_main as main"
    )
    assert 'if __name__ == "__main__":' in entry.read_text(encoding="utf-8"), (
        f"{entry.name} must run the app when flet's host runs it as __main__"
    )


def png_size(path: Path) -> tuple[int, int, int]:
    """Width, height and colour type from the PNG header (the IHDR chunk comes first)."""
    head = path.read_bytes()[:33]
    assert head[:8] == PNG_SIGNATURE, f"{path} is not a PNG file"
    assert head[12:16] == b"IHDR", f"{path} has no IHDR chunk first: a damaged PNG"
    width, height, _depth, colour = struct.unpack(">IIBB", head[16:26])
    return width, height, colour


def test_icon_fits_every_target(app_dir: Path) -> None:
    icon = app_dir / "assets" / "icon.png"
    assert icon.is_file(), f"flet build looks for its icon at {icon}"
    width, height, colour = png_size(icon)
    assert width == height, f"the icon is {width}x{height}: flet centres a non-square one with empty bands"
    assert LARGEST_ICON <= width <= MAX_SOURCE, (
        f"the icon is {width} px: supply {LARGEST_ICON}-{MAX_SOURCE} px so no target enlarges it"
    )
    assert colour == 6, "the icon should be RGBA (its rounded corners are transparent)"


def ignored_by_git(relative: str) -> bool:
    """Named by .gitignore: output a checkout makes (it may or may not be there yet)."""
    patterns = [
        line.strip().rstrip("/")
        for line in (ROOT / ".gitignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return any(fnmatch.fnmatch(relative, pattern) for pattern in patterns)


def test_exclusions_name_real_paths_and_leave_out_tests_benchmarks_and_ci(flet: dict[str, Any], app_dir: Path) -> None:
    excluded = flet["app"].get("exclude", [])
    for relative in excluded:
        assert (app_dir / relative).exists() or ignored_by_git(relative), (
            f"[tool.flet.app] exclude names {relative!r}, which is neither in the repository nor generated"
        )
    for needed in ("tests", ".ci"):
        assert needed in excluded, f"{needed} would ship in every package: add it to [tool.flet.app] exclude"
    assert "companion/bench" in excluded, "the benchmarks would ship: add companion/bench to [tool.flet.app] exclude"
    stray = sorted(
        str(p.relative_to(app_dir))
        for top in ("companion", "storage")
        for p in (app_dir / top).rglob("*.py")
        if p.stem in ("bench", "browser", "wire", "load", "storm") and "bench" not in p.relative_to(app_dir).parts
    )
    assert not stray, f"benchmark or test-driver modules outside companion/bench would ship: {stray}"


WEB_SERVING = ("flet_web", "fastapi", "starlette", "uvicorn")  # left out of phone packages (pyproject)


def import_without(app_dir: Path, entry: str, modules: list[str], absent: list[str]) -> None:
    """Import the entry, then `modules`, in a fresh interpreter where `absent` cannot be imported."""
    script = f"""
import importlib, importlib.abc, sys
ABSENT = {absent!r}
class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == a or name.startswith(a + ".") for a in ABSENT):
            raise ModuleNotFoundError(f"{{name}} is not in the package")
        return None
sys.meta_path.insert(0, Absent())
import {entry}
for name in {modules!r}:
    importlib.import_module(name)
print("imported", len({modules!r}))
"""
    run = subprocess.run([sys.executable, "-c", script], cwd=app_dir, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "imported" in run.stdout, (
        f"the packaged app would need something it does not ship:\n{run.stderr[-3000:]}"
    )


def kept_modules(app_dir: Path, excluded: list[str]) -> list[str]:
    names = sorted(
        ".".join(p.relative_to(app_dir).with_suffix("").parts)
        for folder in ("companion", "storage")
        for p in (app_dir / folder).rglob("*.py")
        if not any(str(p.relative_to(app_dir)).startswith(x) for x in excluded)
    )
    return [n.removesuffix(".__init__") for n in names if not n.endswith("__main__")]


def test_the_packaged_app_needs_nothing_excluded(flet: dict[str, Any], app_dir: Path) -> None:
    """Every module left in the package imports with the excluded ones absent, as in a package."""
    excluded = flet["app"].get("exclude", [])
    absent = [p.removesuffix(".py").replace("/", ".") for p in excluded]
    entry = Path(flet["app"].get("module", "main")).stem
    import_without(app_dir, entry, kept_modules(app_dir, excluded), absent)


def test_a_phone_package_needs_no_web_server(flet: dict[str, Any], app_dir: Path, pyproject: dict[str, Any]) -> None:
    """flet-web is left out of phone packages (its marker); the app must not need it there."""
    marker = next(d for d in pyproject["project"]["dependencies"] if d.startswith("flet-web"))
    assert "platform_system != 'Android'" in marker and "platform_system != 'iOS'" in marker, marker
    excluded = flet["app"].get("exclude", [])
    # the web server itself (with the supervisor of its workers), and the app it serves
    web = ("companion.app.host.server", "companion.app.host.workers", "companion.app.entry.web")
    modules = [m for m in kept_modules(app_dir, excluded) if m not in web]
    entry = Path(flet["app"].get("module", "main")).stem
    import_without(app_dir, entry, modules, list(WEB_SERVING))
