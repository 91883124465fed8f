"""`python -m companion check FILE`: replay a game file and print the engine's answers.

The file is `{"config": {...}, "actions": [...]}`. Output: one JSON object per line, the answer
to each action in order, then `{"final": SUMMARY}`. Rejected actions are answers, not errors:
the exit status is 0 for any well-formed file and 2, with a one-line message, for a malformed
one (the whole file is validated before anything is printed). The engine's parsers check the
shape of each part before reading it (`companion.rules.shape`: depth, sizes, numbers, text);
before them, a file over `companion.gamefile.MAX_BYTES` is refused after reading that much.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any, BinaryIO, TextIO

from companion.gamefile import TooLarge, read_bounded
from companion.i18n import render
from companion.rules import Action, Answer, BadJson, ConfigError, Game, MalformedAction, new_game, parse_action
from companion.rules.config import parse_config
from companion.rules.shape import decode_json

EXIT_MALFORMED = 2


class BadFile(Exception):
    """The file cannot be replayed: a message key, its parameters, and the problem inside (if any)."""

    def __init__(
        self, key: str, inner: BadJson | ConfigError | MalformedAction | None = None, /, **params: Any
    ) -> None:
        super().__init__(key)
        self.key = key
        self.inner = inner
        self.params = params

    def render(self, lang: str) -> str:
        params = dict(self.params)
        if self.inner is not None:
            detail = render(self.inner.key, self.inner.params, lang)
            params["problem"] = f"{self.inner.rule}: {detail}" if self.inner.rule else detail
        return render(self.key, params, lang)


def load_game_file(path: str, stdin: BinaryIO | None = None) -> tuple[Mapping[str, Any], list[Action]]:
    """The configuration and actions of a game file ("-": `stdin`, by default standard input)."""
    try:
        raw = read_bounded(path, stdin or sys.stdin.buffer)
    except TooLarge as error:
        raise BadFile("check.too_large", path=path, megabytes=error.megabytes) from None
    except OSError as error:
        raise BadFile("check.cannot_read", path=path, error=error.strerror or str(error)) from None
    try:
        data = decode_json(raw)
    except BadJson as error:
        raise BadFile("check.not_json", error, path=path) from None
    if not isinstance(data, dict) or "config" not in data or "actions" not in data:
        raise BadFile("check.not_game_file", path=path)
    extra = sorted(set(data) - {"config", "actions"})
    if extra:
        raise BadFile("check.unknown_field", path=path, field=extra[0])
    if not isinstance(data["actions"], list):
        raise BadFile("check.actions_not_list", path=path)
    try:
        config = parse_config(data["config"])
        new_game(config)
    except ConfigError as error:
        raise BadFile("check.impossible_config", error) from None
    actions: list[Action] = []
    for index, raw in enumerate(data["actions"], start=1):
        try:
            actions.append(parse_action(raw))
        except MalformedAction as error:
            raise BadFile("check.malformed_action", error, index=index) from None
    return config.normalised, actions


def answer_json(answer: Answer, lang: str) -> dict[str, Any]:
    out = answer.to_json()
    if lang != "en":
        for v in out["violations"]:
            v["message"] = render(v["key"], v.get("params"), lang)
    return out


def run_check(
    path: str, out: TextIO = sys.stdout, err: TextIO = sys.stderr, lang: str = "en", stdin: BinaryIO | None = None
) -> int:
    try:
        config, actions = load_game_file(path, stdin)
    except BadFile as error:
        print(" ".join(error.render(lang).splitlines()), file=err)  # one line, whatever the message holds
        return EXIT_MALFORMED
    game = Game(config)  # answers a recorded outcome that cannot happen as a refusal, never a traceback
    for action in actions:
        out.write(json.dumps(answer_json(game.submit(action), lang), ensure_ascii=False) + "\n")
    out.write(json.dumps({"final": game.summary()}, ensure_ascii=False) + "\n")
    return 0
