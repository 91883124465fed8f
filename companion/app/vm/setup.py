"""The setup form: players, ruleset and house rules, modules, and an optional starting state.

The form is plain data; `config()` turns it into the PROTOCOL.md configuration and `problems()`
asks the engine itself (parse_config + new_game) whether that game can be played, so the reason
shown before Start is the engine's rule id and message, never a second opinion.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.rules import PRESETS, ConfigError, build_board, build_ruleset, load_catalog, new_game

from .table import COLORS
from .text import Tr

MIN_PLAYERS, MAX_PLAYERS = 2, 6
# House rules the form offers as numbers (the others keep the preset's values).
HOUSE_NUMBERS = ("target", "starting_hand", "hand_limit", "actions_per_turn")


@dataclass
class StartState:
    """A seat's state for a game already in progress (every field optional)."""

    place: str | None = None
    known: dict[str, int] = field(default_factory=dict)
    unknown: int | None = None  # None: the starting hand, all unentered
    cigarettes: int = 0
    beatings: int = 0
    tunnel: int = 0
    gang: str | None = None

    def unentered(self, starting_hand: int) -> int:
        """The hand's cards nobody named (by default the starting hand less the named ones)."""
        return self.unknown if self.unknown is not None else max(0, starting_hand - sum(self.known.values()))

    def hand_size(self, starting_hand: int) -> int:
        return sum(self.known.values()) + self.unentered(starting_hand)

    def set_card(self, card: str, count: int, starting_hand: int) -> None:
        """Name `count` copies of `card`: a card named is one of the unentered ones while any
        are left (the hand grows only beyond them), and a card un-named goes back to them."""
        unknown = self.unentered(starting_hand)
        change = max(0, count) - self.known.get(card, 0)
        self.unknown = unknown - min(change, unknown) if change > 0 else unknown - change
        if count > 0:
            self.known[card] = count
        else:
            self.known.pop(card, None)

    def hand_config(self, starting_hand: int) -> dict[str, Any]:
        """The starting hand, when the table entered anything of it (else the engine deals it)."""
        if not self.known and self.unknown is None:
            return {}
        hand = [c for c, n in sorted(self.known.items()) for _ in range(n)]
        return {"hand": hand + ["unknown"] * self.unentered(starting_hand)}

    def to_config(self, starting_hand: int) -> dict[str, Any]:
        """Everything a game already in progress starts from: the hand and the rest of the seat."""
        out: dict[str, Any] = self.hand_config(starting_hand)
        if self.place:
            out["place"] = self.place
        for name in ("cigarettes", "beatings", "tunnel"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.gang:
            out["gang"] = self.gang
        return out


@dataclass
class PlayerSetup:
    name: str = ""
    color: str = "red"
    team: str = "a"
    start: StartState = field(default_factory=StartState)


@dataclass
class ProblemVM:
    rule: str | None
    message: str
    field: str


@dataclass
class SetupForm:
    players: list[PlayerSetup] = field(default_factory=list)
    ruleset: str = "official"
    house: dict[str, int] = field(default_factory=dict)
    neutrals: int = 0
    neutral_destination: str = "ask"  # "ask" | "random"
    punishment_choice: str = "spender"  # who picks the Punishment (OFF-3): "spender" | "victim"
    warden: bool = False
    places: list[str] = field(default_factory=list)
    team: bool = False
    first_player: int = 0
    seed: int = field(default_factory=lambda: random.SystemRandom().randrange(1, 2**53))
    in_progress: bool = False
    # Rulings the table kept from earlier games (settings), each played again unless switched off.
    kept: list[dict[str, Any]] = field(default_factory=list)
    kept_off: set[int] = field(default_factory=set)

    @classmethod
    def default(
        cls, count: int = 3, neutral_destination: str = "ask", kept: list[dict[str, Any]] | None = None
    ) -> SetupForm:
        form = cls(neutral_destination=neutral_destination, kept=list(kept or ()))
        for _ in range(count):
            form.add_player()
        return form

    # --- editing ---------------------------------------------------------------------------

    def add_player(self) -> bool:
        if len(self.players) >= MAX_PLAYERS:
            return False
        used = {p.color for p in self.players}
        color = next((c for c in COLORS if c not in used), COLORS[0])
        seat = len(self.players)
        self.players.append(PlayerSetup(color=color, team="a" if seat % 2 == 0 else "b"))
        return True

    def remove_player(self, seat: int) -> bool:
        if len(self.players) <= MIN_PLAYERS or not 0 <= seat < len(self.players):
            return False
        del self.players[seat]
        self.first_player = min(self.first_player, len(self.players) - 1)
        return True

    def toggle_place(self, place: str, on: bool) -> None:
        if on and place not in self.places:
            self.places.append(place)
        elif not on and place in self.places:
            self.places.remove(place)

    # --- the configuration -------------------------------------------------------------------

    def preset_value(self, name: str) -> int:
        """The preset's number for a house rule the form shows (before the table changes it)."""
        rules = build_ruleset(self.ruleset if self.ruleset in PRESETS else "official")
        if name == "target":
            return rules.target(max(MIN_PLAYERS, min(MAX_PLAYERS, len(self.players))), self.team)
        return int(getattr(rules, name))

    def value(self, name: str) -> int:
        return self.house.get(name, self.preset_value(name))

    def house_rules(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        rules = build_ruleset(self.ruleset if self.ruleset in PRESETS else "official")
        for name, value in self.house.items():
            if value == self.preset_value(name):
                continue
            if name == "target":
                if self.team:
                    out["team_target"] = value
                else:
                    targets = {str(k): v for k, v in rules.targets.items()}
                    targets[str(len(self.players))] = value
                    out["targets"] = targets
            else:
                out[name] = value
        if self.neutral_destination != rules.neutral_destination:
            out["neutral_destination"] = self.neutral_destination
        if self.warden and self.punishment_choice != rules.punishment_choice:
            out["punishment_choice"] = self.punishment_choice
        for n, kept in enumerate(self.kept):
            if n not in self.kept_off:
                out.update(kept["house_rules"])
        return out

    def config(self, tr: Tr | None = None) -> dict[str, Any]:
        """The configuration; unnamed players get the default name in `tr`'s language."""
        starting_hand = self.value("starting_hand")
        players = []
        for p in self.players:
            entry: dict[str, Any] = {}
            if p.name.strip():
                entry["name"] = p.name.strip()
            entry["color"] = p.color
            # Starting hands are part of every setup; the rest of a seat only of a game in progress.
            entry.update(p.start.to_config(starting_hand) if self.in_progress else p.start.hand_config(starting_hand))
            players.append(entry)
        for seat, entry in enumerate(players):  # the names the form shows as hints
            entry.setdefault("name", (tr or Tr())("ui.player_default_name", number=seat + 1))
        out: dict[str, Any] = {
            "players": players,
            "ruleset": self.ruleset,
            "modules": {
                "neutrals": self.neutrals,
                "team": self.team,
                "warden": self.warden,
                "places": list(self.places),
            },
            "seed": self.seed,
            "first_player": self.first_player,
        }
        house = self.house_rules()
        if house:
            out["house_rules"] = house
        if self.team:
            out["teams"] = {t: [s for s, p in enumerate(self.players) if p.team == t] for t in ("a", "b")}
        return out

    def hand_notes(self, tr: Tr) -> list[str]:
        """Hands entered larger or smaller than the starting hand: allowed, but said."""
        starting = self.value("starting_hand")
        out = []
        for seat, p in enumerate(self.players):
            size = p.start.hand_size(starting)
            if size != starting:
                name = p.name.strip() or tr("ui.player_default_name", number=seat + 1)
                out.append(tr("ui.start_hand_differs", player=name, count=size, starting=starting))
        return out

    def problems(self, tr: Tr) -> list[ProblemVM]:
        """Why this game cannot start, in the engine's words (empty: it can)."""
        out = []
        names = [p.name.strip().casefold() for p in self.players if p.name.strip()]
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            out.append(ProblemVM("SET-1", tr("config.duplicate_name", name=dup), "players"))
            return out
        try:
            new_game(self.config(tr))
        except ConfigError as error:
            out.append(ProblemVM(error.rule, tr.params(error.key, error.params), _field_of(error)))
        return out


def _field_of(error: ConfigError) -> str:
    key = error.key
    if "team" in key:
        return "team"
    if "place" in key or "token" in key:
        return "modules"
    if "house_rule" in key or "ruleset" in key:
        return "rules"
    return "players"


def dig_in_places() -> tuple[str, ...]:
    return load_catalog().dig_in_places


def start_places(form: SetupForm) -> list[str]:
    """Places a starting state may name, for the game this form would create."""
    cat = load_catalog()
    try:
        rules = build_ruleset(form.ruleset if form.ruleset in PRESETS else "official")
        board = build_board(cat, rules, tuple(p for p in cat.dig_in_places if p in form.places), form.warden, form.team)
    except ConfigError:
        return []
    return list(board.places)


def hand_cards(in_progress: bool = True) -> list[str]:
    """Cards a hand may list, in the catalog's order: a fresh game's starting hand is drawn from
    the Search deck; a game in progress may also hold the board's Tools and Knives."""
    cat = load_catalog()
    return [c for c in cat.card_order if in_progress or cat.is_search_card(c)]


@dataclass(frozen=True)
class HandTotalVM:
    size: int
    starting: int
    named: int
    unentered: int
    line: str  # "3 of 3 cards: 1 named, 2 unentered"


def hand_total(form: SetupForm, seat: int, tr: Tr) -> HandTotalVM:
    """A seat's starting hand as entered so far, against the starting hand size."""
    starting = form.value("starting_hand")
    st = form.players[seat].start
    named, unentered = sum(st.known.values()), st.unentered(starting)
    size = named + unentered
    return HandTotalVM(
        size,
        starting,
        named,
        unentered,
        tr("ui.start_hand_total", count=size, starting=starting, named=named, unentered=unentered),
    )
