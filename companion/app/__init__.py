"""The table app: a Flet UI over the rules engine and the game store.

Layers, each importing only the ones before it:
- `vm/`: view models, plain data built from engine state (no Flet), unit-tested without a browser;
- `session.py`: one table's game in the store (versions, stale states, undo/redo);
- `offloop.py`: store calls off the event loop, in order per game;
- `settings.py`: the table's settings file (theme, dice, neutral destinations);
- `locale.py`: this device's language (remembered in the browser), direction, fonts;
- `widgets/`, `screens/`: Flet controls that render view models and forward taps;
- `shell.py`: one browser tab's frame: routes, theme, language, shared dialogs;
- `server.py`/`launch.py`: serving it (`dyo-companion`), `manifest.py`: what the served web app says
  it is (manifest, theme colour); `native.py`: packaged phone/desktop builds (run by main.py);
- `browser.py`: driving it in Chromium (end-to-end tests); `bench.py`: the `ui` benchmark.
"""
