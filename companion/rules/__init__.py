"""The rules engine of Dig Your Way Out: pure Python, standard library only.

    from companion.rules import new_game, parse_action, check, step, legal_actions
    state = new_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
    answer = step(state, parse_action({"type": "search", "player": 0}))

`check` lists every rule an action breaks (rule ids from RULES.md), `apply`/`step` change the
state, `legal_actions` lists what the deciding player can do now (through `check`); `view` and
`redact_events` give what one seat, or the public table, may know of the state and its events.
"""

from .actions import ACTION_TYPES, Action, parse_action
from .catalog import Catalog, load_catalog
from .config import GameConfig, parse_config
from .engine import Answer, IllegalAction, apply, check, step
from .errors import BadJson, ConfigError, MalformedAction, Violation
from .events import Event, event_from_json, events_from_json
from .game import Game
from .invariants import invariant_problems
from .options import ActionOption, action_options, legal_actions
from .ruleset import Ruleset, build_ruleset
from .setup import new_game
from .state import GameState
from .views import redact_events, view

__all__ = [
    "ACTION_TYPES", "Action", "ActionOption", "Answer", "BadJson", "Catalog", "ConfigError", "Event", "Game",
    "GameConfig", "GameState", "IllegalAction", "MalformedAction", "Ruleset", "Violation", "action_options", "apply",
    "build_ruleset", "check", "event_from_json", "events_from_json", "invariant_problems", "legal_actions",
    "load_catalog", "new_game", "parse_action", "parse_config", "redact_events", "step", "view",
]
