"""The entry module of the packaged app: `flet build` runs this file (pyproject.toml,
[tool.flet.app] module = "main"). The app itself is companion/app/host/native.py."""

from companion.app.host.native import main, run

__all__ = ["main"]

if __name__ == "__main__":
    run()
