"""The rules engine of Dig Your Way Out: pure Python, standard library only.

    from companion.rules import new_game, parse_action, check, step, legal_actions
    state = new_game({"players": [{"name": "Carmen"}, {"name": "Nicholas"}]})
    answer = step(state, parse_action({"type": "search", "player": 0}))

`check` lists every rule an action breaks (rule ids from RULES.md), `apply`/`step` change the
state, `legal_actions` lists what the deciding player can do now (through `check`) and
`legal_reactions` what any seat may do out of turn; `view` and `redact_events` give what one
seat, or the public table, may know of the state and its events.
`action_options` also carries what each type still needs (its price, a move's die table), and
`action_inputs` the free inputs of one candidate, and `setup_checklist` what a table lays out
before the first turn. An app imports these names only, never a
submodule: `events` (the event vocabulary) is part of this API by name.
"""

from . import compiled  # noqa: F401  (first: a compiled build of the engine, if any, loads ahead of its sources)

# isort: split
from . import actions, events
from .actions import ACTION_TYPES, RULING_MAX, Action, parse_action
from .board import build_board
from .catalog import Catalog, load_catalog
from .checklist import ChecklistLine, setup_checklist
from .config import GameConfig, parse_config
from .engine import ANSWERS, Answer, IllegalAction, apply, check, step
from .errors import BadJson, ConfigError, MalformedAction, Violation
from .events import EVENTS, Event, event_from_json, events_from_json
from .game import Game
from .hand import UNKNOWN
from .inputs import Inputs, action_cost, action_inputs, die_destinations, neutral_destinations
from .invariants import invariant_problems
from .offence import Offence
from .options import (
    WEAPON_SEARCH_CARD,
    ActionOption,
    MichelDraw,
    PickAsk,
    Preview,
    action_options,
    candidates,
    legal_actions,
    legal_reactions,
    next_michel_draw,
    preview,
    weapon_types,
)
from .rulebook import rule_ids, rule_sections
from .ruleset import PRESETS, PUNISHMENT_CHOOSERS, Ruleset, build_ruleset, refusal_house_rules
from .setup import new_game
from .shape import decode_json, is_clean_text, is_int
from .state import GameState, round_of
from .tutorial import TutorialProgress, TutorialStep, is_tutorial, tutorial_config, tutorial_progress, tutorial_steps
from .views import redact_events, view

__all__ = [
    "ACTION_TYPES",
    "ANSWERS",
    "EVENTS",
    "PRESETS",
    "PUNISHMENT_CHOOSERS",
    "UNKNOWN",
    "WEAPON_SEARCH_CARD",
    "Action",
    "ActionOption",
    "Answer",
    "BadJson",
    "Catalog",
    "ChecklistLine",
    "ConfigError",
    "Event",
    "Game",
    "GameConfig",
    "GameState",
    "IllegalAction",
    "Inputs",
    "MalformedAction",
    "MichelDraw",
    "Offence",
    "PickAsk",
    "RULING_MAX",
    "Preview",
    "Ruleset",
    "TutorialProgress",
    "TutorialStep",
    "Violation",
    "action_cost",
    "action_inputs",
    "action_options",
    "actions",
    "apply",
    "build_board",
    "build_ruleset",
    "candidates",
    "check",
    "decode_json",
    "die_destinations",
    "event_from_json",
    "events",
    "events_from_json",
    "invariant_problems",
    "is_tutorial",
    "is_clean_text",
    "is_int",
    "legal_actions",
    "legal_reactions",
    "load_catalog",
    "neutral_destinations",
    "new_game",
    "next_michel_draw",
    "parse_action",
    "parse_config",
    "preview",
    "redact_events",
    "refusal_house_rules",
    "round_of",
    "rule_ids",
    "rule_sections",
    "setup_checklist",
    "step",
    "tutorial_config",
    "tutorial_progress",
    "tutorial_steps",
    "view",
    "weapon_types",
]
