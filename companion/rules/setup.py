"""Setting up a game (SET-1, SET-2, SUP-1..6), also from a state already in progress."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .board import Board, build_board
from .catalog import Catalog, load_catalog
from .chance import OutcomeMismatch, arranged, drawing_order
from .config import GameConfig, parse_config
from .errors import ConfigError
from .hand import UNKNOWN, Hand
from .rng import Rng
from .shape import is_id, is_int
from .state import GameState, Player, TurnFlags


def new_game(config: Any, catalog: Catalog | None = None) -> GameState:
    """A fresh state from a PROTOCOL.md configuration (a dict) or a parsed GameConfig."""
    cat = catalog or load_catalog()
    cfg = config if isinstance(config, GameConfig) else parse_config(config, cat)
    board = build_board(cat, cfg.ruleset, cfg.places, cfg.warden, cfg.team)
    rng = Rng(cfg.seed)
    team_of = {seat: team for team, seats in (cfg.teams or {}).items() for seat in seats}
    players = [_player(seat, entry, cfg, board, cat, team_of.get(seat)) for seat, entry in enumerate(cfg.players)]
    state = GameState(
        catalog=cat,
        ruleset=cfg.ruleset,
        board=board,
        config=dict(cfg.normalised),
        players=players,
        rng=rng,
        team_mode=cfg.team,
        warden_module=cfg.warden,
        neutral_names=cat.neutrals[: cfg.neutrals],
    )
    _deal_piles(state, cfg.start)
    draws = _deal_gangs(state, cfg.start)
    _deal_backgrounds(state)
    draws.update(_deal_tokens(state, cfg))
    state.config["start"] = {**cfg.start, **draws}  # the setup's draws: a stored game starts the same
    _place_standees(state, cfg)
    if any(p.tunnel >= state.target() for p in players) or (
        cfg.team and any(state.team_tunnel(t) >= state.target() for t in ("a", "b"))
    ):
        raise ConfigError("WIN-1", "config.already_won", target=state.target())
    first = players[cfg.first_player]
    state.active = first.seat
    state.flags = TurnFlags(started_in_solitary=board.places[first.place].one_action)
    rules = cfg.ruleset
    state.actions_left = rules.solitary_actions if state.flags.started_in_solitary else rules.actions_per_turn
    return state


def _count(value: Any, what: str, seat: int, high: int = 1000) -> int:
    if not is_int(value) or not 0 <= value <= high:
        raise ConfigError("SET-2", "config.bad_start_value", what=what, seat=seat, high=high)
    return value


def _beatings(value: Any, seat: int, most: int) -> int:
    if not is_int(value) or not 0 <= value <= most:
        raise ConfigError("BEAT-1", "config.bad_beatings", seat=seat, high=most)
    return value


def _player(
    seat: int, entry: Mapping[str, Any], cfg: GameConfig, board: Board, cat: Catalog, team: str | None
) -> Player:
    home = board.by_role["cell_block"][0] if team is None else f"cell_block_{team}"
    place = entry.get("place", home)
    if not is_id(place, board.places):
        raise ConfigError("DI-1", "config.place_not_in_game", place=str(place), seat=seat)
    hand_cards = entry.get("hand")
    if hand_cards is None:
        hand = Hand(unknown=cfg.ruleset.starting_hand)
    else:
        if not isinstance(hand_cards, list) or not all(is_id(c, cat.all_cards) for c in hand_cards):
            raise ConfigError("HAND-1", "config.bad_hand", seat=seat)
        hand = Hand()
        for card in hand_cards:
            hand.add(card)
    dug = entry.get("dug", [])
    if not isinstance(dug, list) or not all(is_id(t, cat.tools) for t in dug):
        raise ConfigError("DIG-1", "config.bad_dug", seat=seat)
    tunnel = _count(entry.get("tunnel", sum(cat.tools[t] for t in dug)), "tunnel", seat)
    gang = entry.get("gang")
    ability = entry.get("ability")
    if gang is not None and not is_id(gang, cat.gangs):
        raise ConfigError("GANG-1", "config.bad_gang", seat=seat)
    if ability is not None and (gang is None or not is_id(ability, cat.gangs[gang].abilities)):
        raise ConfigError("GANG-1", "config.bad_ability", seat=seat)
    tokens = entry.get("tokens", {})
    if not isinstance(tokens, dict) or any(t not in cat.tokens or t == "trauma" for t in tokens):
        raise ConfigError("SUP-6", "config.bad_tokens", seat=seat)
    counts = {t: _count(n, f"tokens.{t}", seat) for t, n in tokens.items()}
    background = entry.get("background")
    if background is not None and not is_id(background, cat.backgrounds):
        raise ConfigError("BG", "config.bad_background", seat=seat)
    trauma = entry.get("trauma")
    if trauma is not None and (not is_id(trauma, cat.traumas) or "psychiatric_ward" not in board.places):
        raise ConfigError("PSY-2", "config.bad_trauma", seat=seat)
    color = entry.get("color")
    if color is not None and (not isinstance(color, str) or len(color) > 20):
        raise ConfigError("SET-1", "config.bad_color", seat=seat)
    return Player(
        seat=seat,
        name=entry["name"],
        place=place,
        hand=hand,
        team=team,
        color=color,
        cigarettes=_count(entry.get("cigarettes", cfg.ruleset.starting_cigarettes), "cigarettes", seat),
        beatings=_beatings(entry.get("beatings", 0), seat, cfg.ruleset.max_beatings),
        tunnel=tunnel,
        dug=list(dug),
        gang=gang,
        ability=ability,
        background=background,
        tokens={t: n for t, n in counts.items() if n},
        trauma=trauma,
    )


def _deal_piles(state: GameState, start: Mapping[str, Any]) -> None:
    cat = state.catalog
    discard = start.get("discard", [])
    if not isinstance(discard, list) or not all(is_id(c, cat.search_cards) or c == UNKNOWN for c in discard):
        raise ConfigError("SUP-1", "config.bad_discard")
    state.discard = list(discard)
    held: Counter[str] = Counter()
    for p in state.players:
        held.update(p.hand.known)
        held.update(p.dug)
    for card, total in cat.board_piles.items():
        left = total - held[card]
        if left < 0:
            raise ConfigError("SUP-2", "config.too_many", card=card, total=total)
        state.piles[card] = left
    search_in_hands = sum(p.hand.size() for p in state.players) - sum(held[c] for c in cat.board_piles)
    total = sum(cat.search_deck.values())
    state.deck = total - search_in_hands - len(discard)
    if state.deck < 0:
        raise ConfigError("SUP-1", "config.too_many_search", total=total)
    known = Counter(discard)
    for p in state.players:
        known.update({c: n for c, n in p.hand.known.items() if c not in cat.board_piles})
    for card, n in known.items():
        kind = "action" if card in cat.action_cards else card
        if card != UNKNOWN and n > cat.search_deck[kind] and kind != "action":
            raise ConfigError("SUP-1", "config.too_many", card=card, total=cat.search_deck[kind])
    actions = sum(n for c, n in known.items() if c in cat.action_cards)
    if actions > cat.search_deck["action"]:
        raise ConfigError("SUP-1", "config.too_many", card="action", total=cat.search_deck["action"])


def _arranged(
    state: GameState, items: list[str], recorded: Any, what: str, rule: str, top_last: bool = False
) -> list[str]:
    """A pile shuffled at setup, or in the order the configuration recorded (first drawn first)."""
    if recorded is not None and not (isinstance(recorded, list) and all(isinstance(c, str) for c in recorded)):
        raise ConfigError(rule, "config.bad_start_order", what=what)
    try:
        return arranged(state.rng, items, recorded, top_last)
    except OutcomeMismatch:
        raise ConfigError(rule, "config.bad_start_order", what=what) from None


def _deal_gangs(state: GameState, start: Mapping[str, Any]) -> dict[str, Any]:
    cat = state.catalog
    recorded = start.get("gang_piles")
    if recorded is not None and not (isinstance(recorded, dict) and set(recorded) == set(cat.gangs)):
        raise ConfigError("GANG-2", "config.bad_start_order", what="gang_piles")
    for gid in sorted(cat.gangs):
        state.gang_piles[gid] = _arranged(
            state,
            list(cat.gangs[gid].abilities),
            None if recorded is None else recorded[gid],
            f"gang_piles.{gid}",
            "GANG-2",
        )
    draws = {"gang_piles": {gid: list(pile) for gid, pile in state.gang_piles.items()}}
    for p in state.players:
        if p.gang is None:
            continue
        pile = state.gang_piles[p.gang]
        if p.ability is None:
            p.ability = pile[0]
        if p.ability not in pile:
            raise ConfigError("GANG-2", "config.ability_taken", ability=p.ability)
        pile.remove(p.ability)
    return draws


def _deal_backgrounds(state: GameState) -> None:
    seen = [p.background for p in state.players if p.background is not None]
    if len(seen) != len(set(seen)):
        raise ConfigError("BG", "config.duplicate_background")
    state.background_deck = state.catalog.background_deck_size - len(state.players)


def _deal_tokens(state: GameState, cfg: GameConfig) -> dict[str, Any]:
    cat = state.catalog
    draws: dict[str, Any] = {}
    for token, spec in cat.tokens.items():
        in_game = spec["place"] in state.board.places
        held = sum(p.tokens.get(token, 0) for p in state.players)
        if held and not in_game:
            raise ConfigError("DI-1", "config.token_not_in_game", token=token)
        if in_game:
            state.supplies[token] = spec["supply"] - held
            if state.supplies[token] < 0:
                raise ConfigError("SUP-6", "config.too_many_tokens", token=token, total=spec["supply"])
    if "psychiatric_ward" in state.board.places:
        stack = list(cat.traumas)
        for p in state.players:
            if p.trauma is not None:
                if p.trauma not in stack:
                    raise ConfigError("PSY-2", "config.duplicate_trauma")
                stack.remove(p.trauma)
        state.trauma_stack = _arranged(state, stack, cfg.start.get("trauma_stack"), "trauma_stack", "PSY-2")
        state.supplies["trauma"] = len(stack)
        draws["trauma_stack"] = list(state.trauma_stack)
    elif "trauma_stack" in cfg.start:
        raise ConfigError("PSY-2", "config.bad_start_order", what="trauma_stack")
    deck = [card for card, n in sorted(state.ruleset.michel_deck.items()) for _ in range(n)]
    if state.neutral_names:
        state.michel_deck = _arranged(state, deck, cfg.start.get("michel_deck"), "michel_deck", "MICH-7", top_last=True)
        draws["michel_deck"] = drawing_order(state.michel_deck, top_last=True)
    elif "michel_deck" in cfg.start:
        raise ConfigError("MICH-7", "config.bad_start_order", what="michel_deck")
    return draws


def _place_standees(state: GameState, cfg: GameConfig) -> None:
    board = state.board
    neutral_start = board.first(state.catalog.places[state.ruleset.neutral_start].role) or board.first("showers")
    places = cfg.start.get("neutrals", {})
    if not isinstance(places, dict) or any(n not in state.neutral_names for n in places):
        raise ConfigError("MICH-1", "config.bad_neutrals")
    for name in state.neutral_names:
        start = places.get(name, neutral_start)
        if not is_id(start, board.places):
            raise ConfigError("DI-1", "config.place_not_in_game", place=str(start), seat="-")
        state.neutrals[name] = start
    if cfg.warden:
        home = board.first(state.catalog.warden_start["team" if cfg.team else "standard"])
        warden = cfg.start.get("warden", home)
        if not is_id(warden, board.places):
            raise ConfigError("DI-1", "config.place_not_in_game", place=str(warden), seat="-")
        state.warden = warden
    elif "warden" in cfg.start:
        raise ConfigError("WARD-1", "config.warden_not_in_game")
