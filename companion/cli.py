"""The `dyo-companion` command (also `python -m companion`)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Any

from companion.app.host.start import LOG_DATE_FORMAT, LOG_FORMAT, start_once
from companion.i18n import languages

LOG_LEVEL_ENV = "COMPANION_LOG_LEVEL"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dyo-companion",
        description="Table companion and referee for Dig Your Way Out. "
        "Without a command: run the app (web mode on localhost).",
    )
    parser.add_argument(
        "--host", default=None, help="address to serve on (default: localhost only; with --lan: this address only)"
    )
    parser.add_argument("--port", type=int, default=8550, help="port to serve on (default: 8550)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--db", default=None, help="SQLAlchemy database URL (default: the embedded SQLite file)")
    parser.add_argument("--desktop", action="store_true", help="open the native window (needs the Flet desktop client)")
    parser.add_argument("--lan", action="store_true", help="serve on the local network so phones can join")
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRS",
        default="",
        help="comma-separated addresses or networks of reverse proxies whose X-Forwarded-For "
        "is believed (default: none)",
    )
    parser.add_argument(
        "--log-level",
        type=str.upper,
        default=os.environ.get(LOG_LEVEL_ENV) or "WARNING",
        metavar="LEVEL",
        help=f"what is logged to standard error: {', '.join(LOG_LEVELS)} (default: ${LOG_LEVEL_ENV}, else WARNING)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="serve with N worker processes on one port (PostgreSQL only; default: 1)",
    )
    commands = parser.add_subparsers(dest="command")

    check = commands.add_parser("check", help="replay a game file and print the engine's answers (JSON lines)")
    check.add_argument("file", help='a {"config", "actions"} JSON file, or - for standard input')
    check.add_argument("--lang", default="en", choices=languages(), help="language of the messages")

    simulate = commands.add_parser("simulate", help="random legal self-play with invariant checks")
    simulate.add_argument("--games", type=int, default=100)
    simulate.add_argument(
        "--players",
        type=int,
        choices=range(2, 7),
        metavar="{2..6}",
        help="players per game (default: 4; with --modules any, random per game)",
    )
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument(
        "--modules",
        choices=("base", "full", "any"),
        default="base",
        help="base: the base game with Michel & Michelle; full: the Warden and all six Dig In "
        "Places too; any: random combinations of every module, Team mode included",
    )
    bench = commands.add_parser("bench", help="measure the performance figures (see docs/performance.md)")
    bench.add_argument("suites", nargs="*", help="suites to run (default: all)")
    compile_engine = commands.add_parser(
        "compile-engine",
        help="compile the rules engine to C for this Python environment (needs the compiled extra and a C compiler)",
    )
    compile_engine.add_argument(
        "--remove", action="store_true", help="delete the compiled builds instead (do it before uninstalling)"
    )
    _games_parser(commands)
    return parser


def _games_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`games list|export|import|verify|delete|backup|restore`, each taking --db (run by storage.cli,
    imported only then)."""

    def db_option(command: argparse.ArgumentParser) -> argparse.ArgumentParser:
        command.add_argument(
            "--db",
            metavar="URL",
            default=argparse.SUPPRESS,
            help="database: an SQLAlchemy URL or a SQLite file path (default: "
            "$COMPANION_DATABASE_URL, else the SQLite file in your data folder)",
        )
        return command

    games = db_option(
        commands.add_parser("games", help="list, export, import, delete, back up and restore the stored games")
    )
    group = games.add_subparsers(
        dest="games_command",
        required=True,
        metavar="{list,export,import,verify,delete,backup,restore,export-all,import-all}",
    )
    listing = db_option(group.add_parser("list", help="the games, latest first"))
    listing.add_argument("--status", choices=("active", "finished"), help="only unfinished or finished games")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    export = db_option(group.add_parser("export", help="write a game as a PROTOCOL.md file (check replays it)"))
    export.add_argument("id", help="game id (or a unique start of it)")
    export.add_argument("file", nargs="?", help="output file (default: standard output)")
    importing = db_option(group.add_parser("import", help="store a PROTOCOL.md file as a new game; prints its id"))
    importing.add_argument("file", help='a {"config", "actions"} JSON file, or - for standard input')
    verify = db_option(group.add_parser("verify", help="replay a stored game and report inconsistencies"))
    verify.add_argument("id", help="game id (or a unique start of it)")
    delete = db_option(
        group.add_parser("delete", help="remove a game with its log, for good (export it first to keep it)")
    )
    delete.add_argument("id", help="the whole game id, as `games list` prints it")
    backup = db_option(
        group.add_parser(
            "backup",
            help="write a copy of every game, whole, to FILE (safe while the app runs; SQLite: for "
            "PostgreSQL use pg_dump, see docs/storage.md)",
        )
    )
    backup.add_argument("file", help="the backup file to write (an older backup there is replaced)")
    restore = db_option(
        group.add_parser(
            "restore",
            help="bring a backup back whole (logs, undo entries, ids, phones at their seats) into a "
            "database with no games; stop the app first",
        )
    )
    restore.add_argument("file", help="a file written by `games backup`")
    restore.add_argument(
        "--replace",
        action="store_true",
        help="replace the games the database holds (they are copied aside first, next to it)",
    )
    _archive_parsers(group, db_option)


def _archive_parsers(group: Any, db_option: Any) -> None:
    """`games export-all FILE` / `games import-all FILE`: every finished game in one portable file."""
    export_all = db_option(
        group.add_parser("export-all", help="write every finished game to one file (import-all reads it back)")
    )
    export_all.add_argument("file", nargs="?", help="output file (default: standard output)")
    import_all = db_option(
        group.add_parser("import-all", help="store every game of an export-all file as new games; prints their ids")
    )
    import_all.add_argument("file", help="an export-all file, or - for standard input")


def _compile_engine(remove_builds: bool) -> int:
    from companion.rules.compiled import BuildError, build, builds_root, remove, require_tools

    if remove_builds:
        print(f"removed {remove()} compiled build(s) under {builds_root()}: the engine runs from its sources")
        return 0
    try:
        require_tools()
        print(f"compiling the engine under {builds_root()} (about a minute)...", flush=True)
        folder = build()
    except BuildError as error:
        print(f"the engine was not compiled: {error}", file=sys.stderr)
        return 1
    print(f"done: {folder}\nthe engine runs compiled in this environment until its sources change")
    return 0


def configure_logging(level: str) -> None:
    """The one logging set-up of the process (library modules only get their loggers): records
    at `level` and above go to standard error, one line each (the workers of `--workers` get
    the same from companion/app/host/workers.py)."""
    logging.basicConfig(level=level, format=LOG_FORMAT, datefmt=LOG_DATE_FORMAT)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.log_level not in LOG_LEVELS:
        parser.error(f"--log-level (or ${LOG_LEVEL_ENV}): {args.log_level.lower()} is none of {', '.join(LOG_LEVELS)}")
    configure_logging(args.log_level)
    if args.command == "check":
        from companion.checker import run_check

        return run_check(args.file, lang=args.lang)
    if args.command == "simulate":
        from companion.simulate import BrokenInvariant, simulate

        try:
            players = args.players or (None if args.modules == "any" else 4)
            simulate(args.games, players, args.seed, args.modules)
        except BrokenInvariant as error:
            print(f"broken invariant: {error}", file=sys.stderr)
            return 1
        return 0
    if args.command == "bench":
        from companion.bench import run

        return run(args.suites)
    if args.command == "compile-engine":
        return _compile_engine(args.remove)
    if args.command == "games":
        from storage.cli import run_games

        return run_games(args)
    if argv is None and not args.desktop:  # the command itself, serving: decided before the app is imported
        start_once(sys.argv[1:])
    from companion.app.entry.web import serve

    return serve(args)
