"""Game files are bounded (companion/gamefile.py): the checker, `games import` and the app's import
refuse a file over the limit with one clear line, after reading no more than the limit."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.app.host.launch import WS_MAX_BYTES
from companion.gamefile import MAX_BYTES, TooLarge, read_bounded

ROOT = Path(__file__).resolve().parents[1]


def companion(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], cwd=ROOT, input=stdin, capture_output=True, timeout=120
    )


@pytest.fixture(scope="module")
def too_large(tmp_path_factory) -> Path:
    """A well-formed game file one byte over the limit (spaces inside its JSON)."""
    path = tmp_path_factory.mktemp("big") / "big.json"
    head = b'{"config": {"players": [{"name": "A"}, {"name": "B"}]}, "actions": []'
    path.write_bytes(head + b" " * (MAX_BYTES + 1 - len(head) - 1) + b"}")
    assert path.stat().st_size == MAX_BYTES + 1
    return path


def test_the_limit_fits_in_what_a_browser_may_send():
    assert MAX_BYTES <= WS_MAX_BYTES


@pytest.mark.parametrize("lang", ["en", "it", "fa"])
def test_the_checker_refuses_a_file_over_the_limit_in_one_line(too_large, lang):
    done = companion("check", str(too_large), "--lang", lang)
    assert done.returncode == 2 and done.stdout == b""
    err = done.stderr.decode()
    assert err.count("\n") == 1 and str(too_large) in err and "8" in err and "Traceback" not in err


def test_an_endless_input_is_refused_quickly_not_read_to_the_end():
    started = time.monotonic()
    done = companion("check", "/dev/zero")
    assert done.returncode == 2 and b"larger than 8 MB" in done.stderr
    assert time.monotonic() - started < 30  # it read 8 MiB, not until memory ran out
    done = companion("check", "-", stdin=b"[" * (MAX_BYTES + 10))
    assert done.returncode == 2 and b"larger than 8 MB" in done.stderr


def test_a_file_at_the_limit_is_read(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b" " * MAX_BYTES)
    assert len(read_bounded(str(path), sys.stdin.buffer)) == MAX_BYTES
    path.write_bytes(b" " * (MAX_BYTES + 1))
    with pytest.raises(TooLarge):
        read_bounded(str(path), sys.stdin.buffer)


def test_games_import_refuses_a_file_over_the_limit(too_large, tmp_path):
    done = companion("games", "import", str(too_large), "--db", str(tmp_path / "g.sqlite3"))
    assert done.returncode == 2
    err = done.stderr.decode()
    assert err.count("\n") == 1 and "larger than 8 MB" in err and "nothing was imported" in err
