"""The entry module of the packaged app: `flet build` runs this file (pyproject.toml,
[tool.flet.app] module = "main"). The app is put together in companion/app/entry/packaged.py."""

from companion.app.entry.packaged import native_main as main
from companion.app.entry.packaged import run_native

__all__ = ["main"]

if __name__ == "__main__":
    run_native()
