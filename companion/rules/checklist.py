"""What to lay out before the first turn, drawn from the configuration and the catalog.

`setup_checklist(config)` sets the game up as the engine would (`new_game`), then says, line by
line, what the table puts where: the board's side, the Dig In tiles and what each covers, the
Warden and her Office, every pile and token supply with its count (Trauma face down), the
standees, the hands, the Background cards, the cigarettes, the first player, the teams, Michel
and Michelle and their deck, and the Tunnel target. Every number comes from the state the game
starts from, so the checklist and the game the app referees never disagree.

A line is a message key (`checklist.*`, translated by the app) with its parameters, the rule it
comes from and a stable key: a table's ticks are kept by that key, and the same configuration
always gives the same keys in the same order.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .catalog import Catalog, load_catalog
from .config import GameConfig, parse_config
from .setup import new_game
from .state import GameState

SECTIONS = ("board", "supply", "players", "neutrals", "goal")


@dataclass(frozen=True, eq=True)
class ChecklistLine:
    """One thing to lay out: `text` is the message key, `params` its parameters (game ids are
    rendered through the catalog's names), `rule` the rule id it comes from."""

    key: str
    section: str
    text: str
    params: Mapping[str, Any] = field(default_factory=dict)
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "section": self.section,
            "text": self.text,
            "params": dict(self.params),
            "rule": self.rule,
        }


def _line(key: str, section: str, text: str, rule: str | None, **params: Any) -> ChecklistLine:
    return ChecklistLine(key, section, text, params, rule)


def setup_checklist(config: Any, catalog: Catalog | None = None) -> list[ChecklistLine]:
    """The lines, in the order a table lays them out (ConfigError for an impossible
    configuration, as `new_game` raises it)."""
    cat = catalog or load_catalog()
    cfg = config if isinstance(config, GameConfig) else parse_config(config, cat)
    state = new_game(cfg, cat)
    return [*_board(state, cfg), *_supply(state, cfg), *_players(state, cfg), *_neutrals(state), *_goal(state, cfg)]


def _board(state: GameState, cfg: GameConfig) -> Iterator[ChecklistLine]:
    """The board's side, each Dig In tile over the Place it covers (DI-1), the Warden's Office
    beside its Place and the Warden in hers (OFF-1, WARD-1; Team mode: TEAM-7)."""
    cat, board = state.catalog, state.board
    mode = "team" if cfg.team else "standard"
    side = cat.setup["board_side"][mode]
    yield _line(f"board.{side}", "board", f"checklist.board_{side}", "TEAM-1" if cfg.team else "SET-1")
    for place in cfg.places:
        yield _line(
            f"place.{place}", "board", "checklist.place_tile", "DI-1", place=place, covered=cat.places[place].role
        )
    if board.office is not None:
        beside = board.by_role[cat.office_beside[mode]][0]
        yield _line("warden.office", "board", "checklist.office", "TEAM-7" if cfg.team else "OFF-1", place=beside)
        yield _line(
            "warden.standee", "board", "checklist.warden", "TEAM-7" if cfg.team else "WARD-1", place=state.warden
        )


def _supply(state: GameState, cfg: GameConfig) -> Iterator[ChecklistLine]:
    """The board's piles (SUP-2; a Place may keep one off the board), the decks (SUP-1, SUP-3,
    SUP-4), the tokens every game uses (SUP-5) and each Dig In Place's supply (SUP-6)."""
    cat = state.catalog
    kept = cat.setup["off_board_piles"]
    off_board = {card: place for place, cards in kept.items() if place in cfg.places for card in cards}
    for card in cat.board_piles:
        count = state.piles[card]
        if card in off_board:
            yield _line(
                f"pile.{card}",
                "supply",
                "checklist.pile_off_board",
                "DI-1",
                count=count,
                card=card,
                place=off_board[card],
            )
        else:
            yield _line(f"pile.{card}", "supply", "checklist.pile", "SUP-2", count=count, card=card)
    yield _line("deck.search", "supply", "checklist.search_deck", "SUP-1", count=sum(cat.search_deck.values()))
    cards = max(len(g.abilities) for g in cat.gangs.values())
    yield _line(
        "deck.gangs",
        "supply",
        "checklist.gang_piles",
        "SUP-3",
        count=len(cat.gangs),
        cards=cards,
        gangs=list(cat.gangs),
    )
    yield _line("deck.backgrounds", "supply", "checklist.background_deck", "SUP-4", count=cat.background_deck_size)
    yield _line("supply.tokens", "supply", "checklist.common_tokens", "SUP-5", most=state.ruleset.max_beatings)
    yield _line("supply.die", "supply", "checklist.die", "MOVE-1")
    for token, spec in cat.tokens.items():
        if token in state.supplies:  # a Dig In supply: its Place is in play
            face_down = bool(spec.get("face_down"))
            text = "checklist.tokens_face_down" if face_down else "checklist.tokens"
            rule = "PSY-2" if face_down else "SUP-6"
            yield _line(
                f"tokens.{token}", "supply", text, rule, count=state.supplies[token], token=token, place=spec["place"]
            )


def _players(state: GameState, cfg: GameConfig) -> Iterator[ChecklistLine]:
    """Prisoners and standees (SET-1, TEAM-1), hands and Backgrounds (SET-2), cigarettes, what a
    game in progress already holds, the teams (TEAM-1, TEAM-6) and the first player (SET-2)."""
    names = [p.name for p in state.players]
    yield _line("players.prisoners", "players", "checklist.prisoners", "SET-1", count=len(names), players=names)
    for place in state.board.places:
        here = [p.name for p in state.players if p.place == place]
        if here:
            rule = "TEAM-1" if cfg.team else "SET-1"
            yield _line(f"standees.{place}", "players", "checklist.standees", rule, players=here, place=place)
    yield from _per_player(state, "hands", [p.hand.size() for p in state.players], "SET-2")
    yield _line("players.backgrounds", "players", "checklist.backgrounds", "SET-2")
    yield from _per_player(state, "cigarettes", [p.cigarettes for p in state.players], "SUP-5")
    yield from _in_progress(state)
    for team, seats in (cfg.teams or {}).items():
        home = next(pid for pid, info in state.board.places.items() if info.team == team)
        yield _line(
            f"team.{team}", "players", f"checklist.team_{team}", "TEAM-6", players=[names[s] for s in seats], place=home
        )
    token = state.catalog.setup["first_player_token"]
    first = state.players[cfg.first_player].name
    yield _line("players.first", "players", f"checklist.first_player_{token}", "SET-2", player=first)


def _per_player(state: GameState, what: str, counts: list[int], rule: str) -> Iterator[ChecklistLine]:
    """One line when every player starts with the same count, else one per player (none for 0)."""
    if len(set(counts)) == 1:
        text = f"checklist.{what}_none" if counts[0] == 0 else f"checklist.{what}"
        yield _line(f"players.{what}", "players", text, rule, count=counts[0])
        return
    for p, count in zip(state.players, counts, strict=True):
        if count:
            yield _line(f"players.{what}.{p.seat}", "players", f"checklist.{what}_of", rule, count=count, player=p.name)


def _in_progress(state: GameState) -> Iterator[ChecklistLine]:
    """What a game entered part-way through already has on each player's board."""
    for p in state.players:
        seat = p.seat
        if p.beatings:
            yield _line(
                f"players.beatings.{seat}",
                "players",
                "checklist.beatings_of",
                "BEAT-1",
                count=p.beatings,
                player=p.name,
            )
        if p.tunnel:
            yield _line(
                f"players.tunnel.{seat}", "players", "checklist.tunnel_of", "DIG-1", count=p.tunnel, player=p.name
            )
        if p.gang is not None:
            params = {"player": p.name, "ability": p.ability, "gang": p.gang}
            yield _line(f"players.gang.{seat}", "players", "checklist.gang_of", "GANG-1", **params)


def _neutrals(state: GameState) -> Iterator[ChecklistLine]:
    """Michel and Michelle in their Place (MICH-1) and the Michel deck, card by card (MICH-7)."""
    if not state.neutral_names:
        return
    for name in state.neutral_names:
        yield _line(
            f"neutral.{name}", "neutrals", "checklist.neutral", "MICH-1", neutral=name, place=state.neutrals[name]
        )
    deck = state.ruleset.michel_deck
    yield _line("michel.deck", "neutrals", "checklist.michel_deck", "MICH-7", count=sum(deck.values()))
    for card in state.catalog.michel_cards:
        if deck.get(card):
            yield _line(
                f"michel.{card}", "neutrals", "checklist.michel_cards", "MICH-7", count=deck[card], michel_card=card
            )


def _goal(state: GameState, cfg: GameConfig) -> Iterator[ChecklistLine]:
    """The Tunnel target (WIN-1), pooled per team in Team mode (TEAM-3)."""
    text, rule = ("checklist.team_target", "TEAM-3") if cfg.team else ("checklist.target", "WIN-1")
    yield _line("goal.target", "goal", text, rule, target=state.target(), count=len(state.players))
