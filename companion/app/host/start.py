"""What the command settles before it imports the app, so that it starts once.

Importing the app (Flet, the web server, storage, the screens) is most of a launch. The C
allocator for Python objects (`PYTHONMALLOC=malloc`, memory.py says why) can only be chosen
when the interpreter starts, so the command decides it here, from the environment alone, and
runs itself again at once if it must: before anything heavy is imported, never after. The
format of the log lines is here too: the command sets up its own logging with it
(companion/cli.py), and its workers', which are new interpreters (workers.py).

Only the standard library's lightest modules are imported here.
"""

from __future__ import annotations

import os
import sys

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_DATE_FORMAT = "%H:%M:%S"


def restart_needed() -> dict[str, str] | None:
    """The environment this process should have been started with, when it differs: the C
    allocator on Linux (where it can hand freed memory back), unless the variable is already
    set (by a previous start, or by whoever started us, who then chose)."""
    if not sys.platform.startswith("linux") or "PYTHONMALLOC" in os.environ:
        return None
    return dict(os.environ, PYTHONMALLOC="malloc")


def start_once(argv: list[str]) -> None:
    """Run this command again at once with what `restart_needed` asks for; call it before the
    app is imported. The new process finds the variable set and goes on."""
    env = restart_needed()
    if env is None:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(sys.executable, [sys.executable, "-m", "companion", *argv], env)
    except OSError:  # cannot run again (an unusual interpreter): serve as we are
        pass
