"""Every finished game in one portable file (storage/archive.py) and back, all or nothing, from
the API and from `dyo-companion games export-all|import-all`."""

import json

import pytest
from storage_helpers import config, short_finished_game

from companion.cli import main
from storage import BadGameFile
from storage.archive import ARCHIVE_FORMAT, export_finished, import_archive, is_archive


def finished_games(store, count):
    ids = []
    for seed in range(1, count + 1):
        cfg, actions = short_finished_game(seed)
        ids.append(store.import_game({"config": cfg, "actions": actions}))
    return ids


def test_finished_games_go_to_one_file_and_come_back_as_new_games(store, make_url):
    from storage import Store

    ids = finished_games(store, 2)
    store.create_game(config())  # an unfinished game stays out of the archive
    archive = export_finished(store)
    assert is_archive(archive) and archive["format"] == ARCHIVE_FORMAT and archive["version"] == 1
    assert [g["config"]["seed"] for g in archive["games"]] == [store.export_game(i)["config"]["seed"] for i in ids]

    with Store(make_url()) as other:  # another database: every game comes in, finished as it was
        done = import_archive(other, json.loads(json.dumps(archive)))
        assert (len(done.games), done.skipped) == (2, 0)
        assert [g.status for g in other.list_games()] == ["finished", "finished"]
        assert export_finished(other)["games"] == archive["games"]
        again = import_archive(other, archive)  # imported twice: nothing twice
        assert (again.games, again.skipped) == ((), 2)
    assert import_archive(store, archive).skipped == 2  # the database it came from has them all


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"config": {}, "actions": []}, "an archive of finished games"),
        ({"format": ARCHIVE_FORMAT, "version": 2, "games": []}, "version 1"),
        ({"format": ARCHIVE_FORMAT, "version": 1, "games": {}}, "must be a list"),
        ({"format": ARCHIVE_FORMAT, "version": 1, "games": [], "extra": 1}, "no field 'extra'"),
    ],
)
def test_a_file_that_is_no_archive_is_refused(store, data, message):
    with pytest.raises(BadGameFile, match=message):
        import_archive(store, data)


def test_a_game_that_does_not_replay_leaves_nothing_stored(store, make_url):
    from storage import Store

    finished_games(store, 1)
    archive = export_finished(store)
    cfg, actions = short_finished_game(2)
    archive["games"].append({"config": cfg, "actions": actions[:3] + [{"type": "dig", "player": 9}]})
    with Store(make_url()) as other:
        with pytest.raises(BadGameFile, match="game 2 of the archive"):
            import_archive(other, archive)
        assert other.list_games() == []


def test_the_command_line(db_url, tmp_path, capsys, make_url):
    from storage import Store

    def run(*args):
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    with Store(db_url) as store:
        finished_games(store, 2)
    backup = tmp_path / "finished.json"
    assert run("games", "export-all", str(backup), "--db", db_url)[0] == 0
    assert len(json.loads(backup.read_text(encoding="utf-8"))["games"]) == 2
    code, out, _ = run("games", "export-all", "--db", db_url)
    assert code == 0 and json.loads(out) == json.loads(backup.read_text(encoding="utf-8"))

    target = make_url()
    code, out, err = run("games", "import-all", str(backup), "--db", target)
    assert code == 0, err
    assert out.splitlines()[-1] == "2 game(s) imported, 0 already here" and len(out.splitlines()[0]) == 32
    assert run("games", "import-all", str(backup), "--db", target)[1] == "0 game(s) imported, 2 already here\n"
    single = tmp_path / "single.json"
    single.write_text(json.dumps({"config": config(), "actions": []}), encoding="utf-8")
    code, _, err = run("games", "import-all", str(single), "--db", target)
    assert code == 2 and err.startswith("error: an archive of finished games")
