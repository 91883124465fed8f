"""The table app: a Flet UI over the rules engine and the game store.

Its folders are its layers, lowest first; each imports only the ones below it (pyproject.toml's
import-linter contract holds them to it, and to no import cycle anywhere):
- `host/`: serving the process, whatever app it is handed: the web server and the command that
  starts it, the packaged app's runner, the web manifest, worker processes, Flet's patches, memory;
- `door/`: who a device is, from its connection and its secrets (peer, access, tokens, device storage);
- `services/`: the application services, with no Flet: a table's session, the off-loop lanes, the
  news between screens and instances, the settings, phones joining;
- `vm/`: view models, plain data built from engine state (no Flet), unit-tested without a browser;
- `ui/`: the browser tab: its frame (shell, routes, locale, sound), the widgets, the host's
  screens and the phone's (`ui/phone`);
- `entry/`: the app put together, the only layer that knows every other: the web app
  `dyo-companion` serves (`web`), the packaged app (`packaged`).
The benchmarks and the drivers the tests and benchmarks use live apart, in `companion/bench`.
"""
