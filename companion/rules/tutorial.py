"""The tutorial round: the Italian guide's "Mini tutorial", as data (tutorial.json), and where a
game of it stands.

A tutorial game is an ordinary game of the tutorial's configuration. Its progress is read from
the actions in effect, never stored: the guide's next step is the first one the log has not
followed, so undo, redo, a reload or another screen always agree. An action that does not do
what the guide's did puts the table off the guide's path; it plays on as a normal game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from .actions import Action
from .compiled import SOURCES
from .game import Game
from .setup import new_game

TUTORIAL_FILE = SOURCES / "tutorial.json"
NOT_COMPARED = ("rules_version",)  # a tutorial started under older rules is still the tutorial


@dataclass(frozen=True)
class TutorialStep:
    number: int  # from 1
    action: Mapping[str, Any]  # the guide's action, as PROTOCOL.md writes it
    rules: tuple[str, ...]  # the rules this step shows


@dataclass(frozen=True)
class TutorialProgress:
    total: int
    done: int  # the guide's steps the log has followed so far
    next: TutorialStep | None  # the guide's next step (None: over, or off the guide's path)
    off_path: bool  # an action that does not do what the guide's did is in effect
    played_on: bool = False  # the guide is over and the table went on playing: a normal game now


@cache
def _data() -> Mapping[str, Any]:
    data: dict[str, Any] = json.loads(TUTORIAL_FILE.read_text(encoding="utf-8"))
    return MappingProxyType(data)


def tutorial_config() -> dict[str, Any]:
    """The configuration of a new tutorial game (a fresh copy)."""
    config: dict[str, Any] = json.loads(json.dumps(_data()["config"]))
    return config


def tutorial_steps() -> tuple[TutorialStep, ...]:
    return tuple(
        TutorialStep(n, MappingProxyType(dict(s["action"])), tuple(s["rules"]))
        for n, s in enumerate(_data()["steps"], start=1)
    )


def is_tutorial(config: Mapping[str, Any]) -> bool:
    """Whether a game's (parsed) configuration is the tutorial's."""
    mine = {k: v for k, v in new_game(tutorial_config()).config.items() if k not in NOT_COMPARED}
    return {k: v for k, v in config.items() if k not in NOT_COMPARED} == mine


def tutorial_progress(log: Iterable[Action | Mapping[str, Any]]) -> TutorialProgress:
    """Where the tutorial stands after the actions in effect (`Game.log`, or their JSON).

    An action follows the guide when it leaves the table as the guide's step does (the same
    summary), however it was entered: the destination the engine chose by itself, the real die
    or the app's roll of the guide's face."""
    steps = tutorial_steps()
    guide, taken = Game(tutorial_config()), Game(tutorial_config())
    done = 0
    for action in log:
        if done == len(steps):
            return TutorialProgress(len(steps), done, None, off_path=False, played_on=True)
        guided, answer = guide.submit(dict(steps[done].action)), taken.submit(action)
        if not (guided.accepted and answer.accepted) or guide.summary() != taken.summary():
            return TutorialProgress(len(steps), done, None, off_path=True)
        done += 1
    return TutorialProgress(len(steps), done, steps[done] if done < len(steps) else None, off_path=False)
