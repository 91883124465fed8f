"""A game as the table plays it: its configuration, its log of accepted actions, its state.

The log is the truth: the state is always the configuration replayed through the accepted
actions, so undo is "replay one fewer", and a game saved anywhere resumes identically.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .actions import Action, parse_action
from .chance import OutcomeMismatch
from .engine import Answer, step
from .errors import Violation
from .setup import new_game
from .state import GameState


class Game:
    def __init__(self, config: Any, *, state: GameState | None = None, log: Iterable[Action] = ()) -> None:
        """A new game of `config` (as given: `new_game` judges it), or one under way: its state and
        the actions that made it."""
        self.state: GameState = new_game(config) if state is None else state
        self.config = self.state.config
        self.log: list[Action] = list(log)

    def copy(self) -> Game:
        """The same game, whose state and log can change without touching this one's."""
        return Game(self.config, state=self.state.copy(), log=self.log)

    @classmethod
    def replay(cls, config: Any, actions: Iterable[Any]) -> Game:
        """Rebuild a game from its configuration and its accepted actions."""
        game = cls(config)
        for raw in actions:
            answer = game.submit(raw)
            if not answer.accepted:
                raise ValueError(
                    f"action {len(game.log) + 1} of the log is no longer accepted: "
                    + "; ".join(v.message for v in answer.violations)
                )
        return game

    def submit(self, action: Any) -> Answer:
        """Judge and apply one action (an `Action`, or its JSON as given: `parse_action` judges it);
        an internal error leaves the game as it was."""
        if not isinstance(action, Action):
            action = parse_action(action, self.state.catalog)
        try:
            answer = step(self.state, action)
        except Exception as error:  # a bug (or a log the engine cannot follow) must never corrupt a game
            self.state = Game.replay(self.config, self.log).state
            refusal = (
                Violation("ENGINE", "v.outcome_mismatch", {"problem": str(error)}, forceable=False)
                if isinstance(error, OutcomeMismatch)
                else Violation("ENGINE", "v.internal_error", {"error": type(error).__name__}, forceable=False)
            )
            return Answer(step=self.state.step, accepted=False, violations=[refusal])
        if answer.accepted:
            self.log.append(answer.action or action)  # resolved: its outcomes replay as they happened
        return answer

    def undo(self) -> Action | None:
        """Drop the last accepted action; replaying the rest recreates every die and draw exactly."""
        if not self.log:
            return None
        last = self.log.pop()
        self.state = Game.replay(self.config, self.log).state
        return last

    def summary(self) -> dict[str, Any]:
        return self.state.summary()

    def to_json(self) -> dict[str, Any]:
        """The PROTOCOL.md file format: configuration and accepted actions."""
        return {"config": self.config, "actions": [a.to_json() for a in self.log]}
