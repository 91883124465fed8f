"""What the tests drive the app with: Debian's chromium through Playwright (`browser`) and a bare
websocket client speaking Flet's protocol (`wire`).

The tests import them as `drivers` (tests/ is on their path); the benchmarks that drive the app
(`dyo-companion bench ui, sync, storm, tables`) import them from the checkout's tests/
(companion/bench/checkout.py). Nothing here ships: the package and the phone builds leave tests/
out, and the app and storage never import it (an import-linter contract in pyproject.toml).
"""
