"""Logging is set up once, by the command (`companion/cli.py`): its level from --log-level or
$COMPANION_LOG_LEVEL (WARNING when neither says), one line per record on standard error. No
library module configures logging itself."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import LOG_LEVEL_ENV, _parser

ROOT = Path(__file__).resolve().parent.parent

# Sets up logging as `dyo-companion` does, then logs one record at each level.
SCRIPT = """
import logging, sys
from companion import cli
parser = cli._parser()
cli.configure_logging(parser.parse_args(sys.argv[1:]).log_level)
for level in ("debug", "info", "warning", "error"):
    getattr(logging.getLogger("companion.somewhere"), level)(f"a {level} record")
"""


def _logged(*args: str, env_level: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != LOG_LEVEL_ENV}
    if env_level is not None:
        env[LOG_LEVEL_ENV] = env_level
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_warnings_and_worse_by_default() -> None:
    logged = _logged()
    assert "a warning record" in logged and "a error record" in logged
    assert "a info record" not in logged and "a debug record" not in logged
    assert re.search(r"^\d\d:\d\d:\d\d WARNING companion\.somewhere: a warning record$", logged, re.M), logged


def test_the_option_sets_the_level() -> None:
    assert "a debug record" in _logged("--log-level", "debug")
    assert "a warning record" not in _logged("--log-level", "ERROR")


def test_the_environment_sets_the_level_and_the_option_wins() -> None:
    assert "a info record" in _logged(env_level="info")
    assert "a info record" not in _logged("--log-level", "warning", env_level="info")


def test_an_unknown_level_is_refused(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["--log-level", "chatty", "check", "-"])
    assert stopped.value.code == 2 and "chatty is none of DEBUG" in capsys.readouterr().err
    monkeypatch.setenv(LOG_LEVEL_ENV, "info")
    assert _parser().parse_args([]).log_level == "INFO"


def test_only_the_command_configures_logging() -> None:
    calls = sorted(
        str(path.relative_to(ROOT))
        for package in ("companion", "storage")
        for path in (ROOT / package).rglob("*.py")
        if re.search(r"basicConfig\(|dictConfig\(|fileConfig\(", path.read_text(encoding="utf-8"))
    )
    assert calls == ["companion/cli.py"]
