"""Export as the PROTOCOL.md file format, checked by `python -m companion check`; import; the CLI."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from storage_helpers import config, next_action, play, short_finished_game, snap, unresolved

from companion.cli import main
from companion.rules import Game
from storage import BadGameFile

ROOT = Path(__file__).resolve().parents[2]


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120
    )


def check_file(path: Path) -> tuple[list[dict], dict]:
    done = companion("check", str(path))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    return lines[:-1], lines[-1]["final"]


def test_an_exported_game_replays_through_the_checker_to_the_same_state(store, tmp_path):
    cfg, actions = short_finished_game(5)
    game_id = store.create_game(cfg)
    version = 0
    for action in actions[:40]:
        version = store.submit(game_id, action, base_version=version).version
    version = store.undo(game_id, base_version=version).version  # undone actions are not exported
    version = store.undo(game_id, base_version=version).version
    forced = {
        "type": "adjust",
        "player": 0,
        "changes": [{"path": "players.1.cigarettes", "set": 4}],
        "reason": "we forgot a sale",
    }
    version = store.submit(game_id, forced, base_version=version).version
    table = store.load(game_id)
    exported = store.export_game(game_id)
    assert len(exported["actions"]) == 39 and exported["actions"][-1]["type"] == "adjust"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    answers, final = check_file(path)
    assert all(a["accepted"] for a in answers)
    assert final == table.game.state.summary()
    recorded = [e.answer for e in store.events(game_id) if e.kind == "action" and not e.undone]
    assert [a["events"] for a in answers] == [a["events"] for a in recorded]  # the same dice and draws


def test_import_then_export_round_trips(store):
    cfg, actions = short_finished_game(6)
    game_id = store.import_game({"config": cfg, "actions": actions})
    table = store.load(game_id)
    assert table.version == len(actions) and table.status == "finished"
    assert snap(table.game.state) == snap(Game.replay(cfg, actions).state)
    exported = store.export_game(game_id)
    assert unresolved(exported["actions"]) == actions
    assert exported["config"] == Game(cfg).config
    again = store.import_game(exported)
    assert again != game_id and snap(store.load(again).game.state) == snap(table.game.state)
    (first, second) = sorted(store.statistics().games, key=lambda g: g.game_id != game_id)
    assert first.seats == second.seats
    assert store.verify(game_id) == [] and store.verify(again) == []
    assert [e.submitted_by for e in store.events(game_id)][:1] == ["import"]


def test_an_imported_unfinished_game_resumes(store):
    cfg = config()
    actions = play(cfg, 25)
    game_id = store.import_game({"config": cfg, "actions": actions})
    table = store.load(game_id)
    following = next_action(table.game.state, random.Random(1))
    assert store.submit(game_id, following, base_version=table.version).version == 26


@pytest.mark.parametrize(
    "data, message",
    [
        ([], 'must be a JSON object with "config" and "actions"'),
        ({"config": {}}, '"config" and "actions"'),
        ({"config": {}, "actions": [], "moves": []}, "no field 'moves'"),
        ({"config": {}, "actions": {}}, '"actions" must be a list'),
        ({"config": {"players": [{"name": "Solo"}]}, "actions": []}, "impossible configuration: SET-1"),
        ({"config": config(), "actions": [{"type": "search"}]}, "action 1 is malformed"),
        (
            {
                "config": config(),
                "actions": [{"type": "search", "player": 0}, {"type": "dig", "player": 2, "tool": "spoon"}],
            },
            r"action 2 \(dig\) does not replay: the engine refuses it \(TURN-4",
        ),
    ],
)
def test_a_file_that_does_not_replay_is_refused_with_a_clear_message(store, data, message):
    with pytest.raises(BadGameFile, match=message):
        store.import_game(data)
    assert store.list_games() == []


def test_the_games_command_line(db_url, tmp_path, capsys):
    def run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    cfg, actions = short_finished_game(7)
    source = tmp_path / "in.json"
    source.write_text(json.dumps({"config": cfg, "actions": actions}), encoding="utf-8")
    code, out, err = run("games", "import", str(source), "--db", db_url)
    assert code == 0, err
    game_id = out.strip()
    assert len(game_id) == 32

    code, out, _ = run("games", "list", "--db", db_url)
    assert code == 0 and game_id in out and "finished" in out
    as_json = json.loads(run("games", "--db", db_url, "list", "--json", "--status", "finished")[1])
    assert [g["id"] for g in as_json] == [game_id] and as_json[0]["winner"]
    assert json.loads(run("games", "list", "--status", "active", "--json", "--db", db_url)[1]) == []

    exported = tmp_path / "out.json"
    assert run("games", "export", game_id[:8], str(exported), "--db", db_url)[0] == 0
    answers, final = check_file(exported)
    assert all(a["accepted"] for a in answers) and final == Game.replay(cfg, actions).state.summary()
    code, out, _ = run("games", "export", game_id, "--db", db_url)
    assert json.loads(out) == json.loads(exported.read_text(encoding="utf-8"))
    code, out, _ = run("games", "verify", game_id, "--db", db_url)
    assert code == 0 and "consistent" in out

    code, _, err = run("games", "export", "0000", "--db", db_url)
    assert code == 1 and err.startswith("error: there is no game")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, _, err = run("games", "import", str(bad), "--db", db_url)
    assert code == 2 and err.startswith("error:") and "not valid JSON" in err

    # The installed entry point, reading standard input, in its own process.
    again = companion("games", "import", "-", "--db", db_url, stdin=exported.read_text(encoding="utf-8"))
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() != game_id and again.stdout.strip() in run("games", "list", "--db", db_url)[1]

    # Deleting takes the whole id (a start of it could name another game), and only once.
    code, _, err = run("games", "delete", game_id[:8], "--db", db_url)
    assert (
        code == 1 and err.startswith("error: there is no game") and game_id in run("games", "list", "--db", db_url)[1]
    )
    code, out, _ = run("games", "delete", game_id, "--db", db_url)
    assert code == 0 and out == f"deleted {game_id}\n"
    assert game_id not in run("games", "list", "--db", db_url)[1]
    assert run("games", "delete", game_id, "--db", db_url)[0] == 1


def test_the_command_line_takes_the_database_from_the_environment(tmp_path, monkeypatch, capsys):
    db = tmp_path / "env.sqlite3"
    source = tmp_path / "in.json"
    source.write_text(json.dumps({"config": config(), "actions": []}), encoding="utf-8")
    monkeypatch.setenv("COMPANION_DATABASE_URL", f"sqlite:///{db}")
    assert main(["games", "import", str(source)]) == 0
    game_id = capsys.readouterr().out.strip()
    monkeypatch.delenv("COMPANION_DATABASE_URL")
    assert db.exists() and main(["games", "list", "--db", str(db)]) == 0
    assert game_id in capsys.readouterr().out
