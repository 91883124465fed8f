"""`python -m companion check FILE`: replay a game file and print the engine's answers.

The file is `{"config": {...}, "actions": [...]}`. Output: one JSON object per line, the answer
to each action in order, then `{"final": SUMMARY}`. Rejected actions are answers, not errors:
the exit status is 0 for any well-formed file and 2, with a one-line message, for a malformed
one (the whole file is validated before anything is printed).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from companion.i18n import render
from companion.rules import Action, Answer, ConfigError, MalformedAction, new_game, parse_action, step
from companion.rules.config import parse_config

EXIT_MALFORMED = 2


class BadFile(Exception):
    """The file cannot be replayed; the message is the one line the user sees."""


def load_game_file(path: str) -> tuple[dict[str, Any], list[Action]]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise BadFile(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise BadFile(f"{path} is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise BadFile(f"{path} is not valid JSON: {getattr(error, 'msg', 'too deeply nested')}"
                      f"{f' (line {error.lineno})' if hasattr(error, 'lineno') else ''}") from None
    if not isinstance(data, dict) or "config" not in data or "actions" not in data:
        raise BadFile(f'{path} must be a JSON object with "config" and "actions"')
    extra = sorted(set(data) - {"config", "actions"})
    if extra:
        raise BadFile(f"{path} has an unknown top-level field {extra[0]!r}")
    if not isinstance(data["actions"], list):
        raise BadFile('"actions" must be a list')
    try:
        config = parse_config(data["config"])
    except ConfigError as error:
        raise BadFile(f"impossible configuration: {error.message}") from None
    actions: list[Action] = []
    for index, raw in enumerate(data["actions"], start=1):
        try:
            actions.append(parse_action(raw))
        except MalformedAction as error:
            raise BadFile(f"action {index} is malformed: {error.message}") from None
    return config.normalised, actions


def answer_json(answer: Answer, lang: str) -> dict[str, Any]:
    out = answer.to_json()
    if lang != "en":
        for v in out["violations"]:
            v["message"] = render(v["key"], v.get("params"), lang)
    return out


def run_check(path: str, out: TextIO = sys.stdout, err: TextIO = sys.stderr, lang: str = "en") -> int:
    try:
        config, actions = load_game_file(path)
        state = new_game(config)
    except BadFile as error:
        print(f"error: {error}", file=err)
        return EXIT_MALFORMED
    except ConfigError as error:
        print(f"error: impossible configuration: {error.message}", file=err)
        return EXIT_MALFORMED
    for action in actions:
        out.write(json.dumps(answer_json(step(state, action), lang), ensure_ascii=False) + "\n")
    out.write(json.dumps({"final": state.summary()}, ensure_ascii=False) + "\n")
    return 0
