"""The game state: plain data, mutated only by the engine's `apply` step.

Everything that decides a later outcome lives here, the random source included, so that a
state plus the same actions always gives the same result. `summary()` is the public view
(PROTOCOL.md SUMMARY); `snapshot()` is the complete state for equality checks and caches.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field, fields, replace
from typing import Any

from .board import Board
from .catalog import Catalog
from .hand import Hand
from .offence import Offence
from .rng import Rng
from .ruleset import Ruleset


@dataclass(slots=True)
class Player:
    seat: int
    name: str
    place: str
    hand: Hand
    team: str | None = None
    color: str | None = None
    cigarettes: int = 0
    beatings: int = 0
    tunnel: int = 0
    dug: list[str] = field(default_factory=list)  # Tools laid on the player's board
    skills_on_tools: int = 0  # Skill tokens fixed on dug Tools (WORK-3)
    gang: str | None = None
    ability: str | None = None
    background: str | None = None  # the hidden Background if somebody entered it
    has_background: bool = True  # holds an unrevealed Background card
    revealed: list[str] = field(default_factory=list)  # Backgrounds revealed (spent)
    tokens: dict[str, int] = field(default_factory=dict)
    trauma: str | None = None
    camouflaged: bool = False  # Camouflage: nobody may extort them until their next turn

    def copy(self) -> Player:
        return Player(
            self.seat,
            self.name,
            self.place,
            self.hand.copy(),
            self.team,
            self.color,
            self.cigarettes,
            self.beatings,
            self.tunnel,
            list(self.dug),
            self.skills_on_tools,
            self.gang,
            self.ability,
            self.background,
            self.has_background,
            list(self.revealed),
            dict(self.tokens),
            self.trauma,
            self.camouflaged,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "place": self.place,
            "tunnel": self.tunnel,
            "beatings": self.beatings,
            "cigarettes": self.cigarettes,
            "hand": self.hand.to_json(),
            "gang": self.gang,
            "ability": self.ability,
            "tokens": {k: v for k, v in sorted(self.tokens.items()) if v},
            "trauma": self.trauma,
            "team": self.team,
            "dug": list(self.dug),
            "background_held": self.has_background,
            "revealed": list(self.revealed),
        }


@dataclass(slots=True)
class TurnFlags:
    """What the active player has done this turn (the once-per-turn rules and card effects)."""

    searched: bool = False
    extorted: bool = False
    crafted: bool = False
    started_in_solitary: bool = False
    buy_anywhere: bool = False  # I Know a Guy
    buy_discount: int = 0
    cell_block_crafts: tuple[str, ...] = ()  # I Never Liked Rules: products craftable in the Cell Block
    must_cooperate: tuple[str, ...] = ()  # Don't Think About Saying No to Me: Tools a target must give

    def copy(self) -> TurnFlags:
        return TurnFlags(
            self.searched,
            self.extorted,
            self.crafted,
            self.started_in_solitary,
            self.buy_anywhere,
            self.buy_discount,
            self.cell_block_crafts,
            self.must_cooperate,
        )


_FLAGS = tuple(f.name for f in fields(TurnFlags))

# What each kind of decision tells beside its options: the fields of `Pending` it sets, in JSON
# order. A kind not listed carries nothing more. (`from_seat` is written as "from".)
PENDING_FIELDS: dict[str, tuple[str, ...]] = {
    "destination": ("die", "effects"),
    "neutral_destination": ("neutral", "die"),
    "hand_limit": ("discard", "limit"),
    "extortion_answer": ("attacker", "tool", "show_hand_of"),
    "combat": ("attacker", "defender", "neutral", "weapons_played"),
    "kings_choice": ("from_seat",),
    "michel_answer": ("neutral", "card", "tools"),
    "michel_tool": ("neutral",),
    "give_weapon": ("to",),
    "punishment_choice": ("by", "target"),
}
_OPTIONAL_PENDING = frozenset({"show_hand_of"})  # written only when set (Spying)
_PENDING_JSON = {"from_seat": "from"}


@dataclass(slots=True)
class Pending:
    """A decision the game waits for: who decides, what kind, the legal answers, and the facts
    that kind of decision is about (PENDING_FIELDS says which; the others stay None)."""

    kind: str
    player: int
    options: list[Any] = field(default_factory=list)
    die: int | None = None  # the face rolled (a move's destination, a neutral's)
    effects: bool | None = None  # destination: the roll's effects already took place
    neutral: str | None = None
    discard: int | None = None  # hand_limit: how many cards go
    limit: int | None = None  # hand_limit: the hand size allowed
    attacker: int | None = None  # None in a combat: a neutral attacks
    defender: int | None = None
    tool: str | None = None  # the Tool an extortion asks for
    show_hand_of: int | None = None  # Spying: the extorter's hand is shown to the decider
    weapons_played: int | None = None
    card: str | None = None  # the Michel card revealed
    tools: list[str] | None = None  # michel_answer: the decider's Tools the card names
    from_seat: int | None = None  # kings_choice: the loser whose card the winner picks
    to: int | None = None  # give_weapon: who receives it
    by: int | None = None  # punishment_choice: who spent the Corruption token
    target: int | None = None  # punishment_choice: the victim

    def copy(self) -> Pending:
        return replace(self, options=list(self.options), tools=None if self.tools is None else list(self.tools))

    def details(self) -> dict[str, Any]:
        """This kind's facts by field name (unset optional ones left out)."""
        return {
            name: getattr(self, name)
            for name in PENDING_FIELDS.get(self.kind, ())
            if name not in _OPTIONAL_PENDING or getattr(self, name) is not None
        }

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player, "options": list(self.options)}
        for name, value in self.details().items():
            out[_PENDING_JSON.get(name, name)] = list(value) if isinstance(value, list) else value
        return out


@dataclass(slots=True)
class Combat:
    """An extortion in progress, by a player or by Michel/Michelle (MICH-3..6)."""

    attacker: int | None  # None: a neutral extorts
    defender: int
    tool: str | None  # requested Tool (player extortion)
    neutral: str | None = None
    first_card: str | None = None  # the first Michel card (its Tools)
    laid: list[tuple[int, str]] = field(default_factory=list)  # (seat, card) Weapons played or laid
    to_play: int | None = None  # whose Weapon is due; None before the defender has answered
    started: bool = False  # combat (not just the intimidation) has begun
    improvised: list[int] = field(default_factory=list)  # seats that used Improvisation
    knife_bonus: list[int] = field(default_factory=list)  # "I Will Cut You..." with its bonus
    helpers: list[int] = field(default_factory=list)  # teammates who played for the defender (TEAM-5)

    def copy(self) -> Combat:
        return Combat(
            self.attacker,
            self.defender,
            self.tool,
            self.neutral,
            self.first_card,
            list(self.laid),
            self.to_play,
            self.started,
            list(self.improvised),
            list(self.knife_bonus),
            list(self.helpers),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "tool": self.tool,
            "neutral": self.neutral,
            "first_card": self.first_card,
            "laid": [list(x) for x in self.laid],
            "to_play": self.to_play,
            "started": self.started,
            "improvised": list(self.improvised),
            "knife_bonus": list(self.knife_bonus),
            "helpers": list(self.helpers),
        }


@dataclass(slots=True, kw_only=True)
class Occasion:
    """The last finished action, open to Corruption effects (OFF-3): each effect once per occasion."""

    action: str
    player: int
    place: str | None
    used: list[str] = field(default_factory=list)  # the effects already claimed
    moved: int | None = None  # after a Move action: whose (the Warden may then be moved)

    def copy(self) -> Occasion:
        return Occasion(
            action=self.action, player=self.player, place=self.place, used=list(self.used), moved=self.moved
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action,
            "player": self.player,
            "place": self.place,
            "used": list(self.used),
        }
        if self.moved is not None:
            out["moved"] = self.moved
        return out


# What the table saw of a lost combat; the card the winner took stays between the two players.
PUBLIC_DEFEAT = ("loser", "winner", "neutral")


@dataclass(slots=True)
class GameState:
    catalog: Catalog
    ruleset: Ruleset
    board: Board
    config: dict[str, Any]  # the normalised configuration (saved with the game)
    players: list[Player]
    rng: Rng
    team_mode: bool = False
    warden_module: bool = False
    neutral_names: tuple[str, ...] = ()
    turn: int = 1
    active: int = 0
    actions_left: int = 2
    flags: TurnFlags = field(default_factory=TurnFlags)
    piles: dict[str, int] = field(default_factory=dict)
    deck: int = 0  # Search deck: a count; nobody sees its cards
    discard: list[str] = field(default_factory=list)  # Search discard pile, face up: top last
    gang_piles: dict[str, list[str]] = field(default_factory=dict)  # face up: top first, bottom last
    background_deck: int = 0
    background_discard: list[str] = field(default_factory=list)
    neutrals: dict[str, str] = field(default_factory=dict)
    michel_deck: list[str] = field(default_factory=list)  # top last
    michel_discard: list[str] = field(default_factory=list)
    michel_queue: list[str] = field(default_factory=list)  # Michel cards the table drew, not yet revealed
    warden: str | None = None
    supplies: dict[str, int] = field(default_factory=dict)  # Dig In token supplies
    trauma_stack: list[str] = field(default_factory=list)  # top first
    pending: Pending | None = None
    combat: Combat | None = None
    agenda: list[dict[str, Any]] = field(default_factory=list)  # what happens once `pending` is answered
    offence: Offence | None = None  # the Warden offence whose report window is open
    occasion: Occasion | None = None  # the last finished action, for Corruption effects (OFF-3)
    # Combats lost since the last action started, open to a Background revealed after a loss (BG).
    defeats: list[dict[str, Any]] = field(default_factory=list)
    winner: int | str | None = None
    step: int = 0  # accepted actions so far (the game's version)
    corrections: dict[str, int] = field(default_factory=dict)  # totals changed by `adjust`

    def player(self, seat: int) -> Player:
        return self.players[seat]

    @property
    def round(self) -> int:
        """The round the current turn belongs to (`round_of`)."""
        return round_of(self.turn, len(self.players))

    def target(self) -> int:
        return self.ruleset.target(len(self.players), self.team_mode)

    @property
    def rules_version(self) -> int:
        """The rules this game is judged by (`config.RULES_VERSION` says what each one changed)."""
        return int(self.config["rules_version"])

    def team_tunnel(self, team: str) -> int:
        return sum(p.tunnel for p in self.players if p.team == team)

    def hand_limit(self, p: Player) -> int:
        limited = p.trauma in self.catalog.hand_limit_traumas
        return self.ruleset.trauma_hand_limit if limited else self.ruleset.hand_limit

    def copy(self) -> GameState:
        """An independent copy (catalog, ruleset, board and config are immutable and shared)."""
        pending = self.pending
        return GameState(
            catalog=self.catalog,
            ruleset=self.ruleset,
            board=self.board,
            config=self.config,
            players=[p.copy() for p in self.players],
            rng=_copy_rng(self.rng),
            team_mode=self.team_mode,
            warden_module=self.warden_module,
            neutral_names=self.neutral_names,
            turn=self.turn,
            active=self.active,
            actions_left=self.actions_left,
            flags=self.flags.copy(),
            piles=dict(self.piles),
            deck=self.deck,
            discard=list(self.discard),
            gang_piles={g: list(c) for g, c in self.gang_piles.items()},
            background_deck=self.background_deck,
            background_discard=list(self.background_discard),
            neutrals=dict(self.neutrals),
            michel_deck=list(self.michel_deck),
            michel_discard=list(self.michel_discard),
            michel_queue=list(self.michel_queue),
            warden=self.warden,
            supplies=dict(self.supplies),
            trauma_stack=list(self.trauma_stack),
            pending=None if pending is None else pending.copy(),
            combat=None if self.combat is None else self.combat.copy(),
            agenda=deepcopy(self.agenda),
            offence=self.offence,
            occasion=None if self.occasion is None else self.occasion.copy(),
            defeats=deepcopy(self.defeats),
            winner=self.winner,
            step=self.step,
            corrections=dict(self.corrections),
        )

    def pending_json(self) -> dict[str, Any] | None:
        """The decision the game waits for, as the protocol shows it.

        An open Warden report window (WARD-3) is shown too, although it blocks nothing: any other
        player may `report`, and the offender's next action closes it.
        """
        if self.pending is not None:
            return self.pending.to_json()
        if self.offence is not None and self.winner is None:
            offender = self.offence.offender
            return {
                "kind": "report_window",
                "player": offender,
                "options": ["report"],
                "reporters": [p.seat for p in self.players if p.seat != offender],
                **self.offence.to_json(),
            }
        return None

    def summary(self) -> dict[str, Any]:
        """The public SUMMARY of PROTOCOL.md (plus a few fields the protocol allows adding)."""
        return {
            "turn": self.turn,
            "active": self.active,
            "actions_left": self.actions_left,
            "pending": self.pending_json(),
            "winner": self.winner,
            "warden": self.warden,
            "neutrals": dict(self.neutrals),
            "piles": dict(self.piles),
            "deck": self.deck,
            "discard": list(self.discard),
            "discard_top": self.discard[-1] if self.discard else None,
            "gang_tops": {g: pile[0] if pile else None for g, pile in sorted(self.gang_piles.items())},
            "step": self.step,
            "target": self.target(),
            "offence": None if self.offence is None else self.offence.to_json(),
            "combat_lost": [{k: d[k] for k in PUBLIC_DEFEAT} for d in self.defeats],
            "supplies": dict(self.supplies),
            "players": [p.to_json() for p in self.players],
        }

    def snapshot(self) -> dict[str, Any]:
        """Every field that matters, for byte-for-byte replay comparisons."""
        out = self.summary()
        out.update(
            {
                "rng": self.rng.state,
                "flags": {k: getattr(self.flags, k) for k in _FLAGS},
                "gang_piles": {g: list(c) for g, c in sorted(self.gang_piles.items())},
                "background_deck": self.background_deck,
                "background_discard": list(self.background_discard),
                "background_known": [p.background for p in self.players],
                "michel_deck": list(self.michel_deck),
                "michel_discard": list(self.michel_discard),
                "michel_queue": list(self.michel_queue),
                "trauma_stack": list(self.trauma_stack),
                "combat": None if self.combat is None else self.combat.to_json(),
                "agenda": deepcopy(self.agenda),
                "corrections": dict(sorted(self.corrections.items())),
                "occasion": None if self.occasion is None else self.occasion.to_json(),
                "defeats": deepcopy(self.defeats),
                "camouflaged": [p.camouflaged for p in self.players],
                "skills_on_tools": [p.skills_on_tools for p in self.players],
            }
        )
        return out


def round_of(turn: int, players: int) -> int:
    """The round of the `turn`-th turn of a game of `players`: play goes clockwise from the first
    player and every turn passes to the next seat (SET-2, `next_turn`), so each round is one turn
    of every player, the first player's opening it."""
    return (max(1, turn) - 1) // max(1, players) + 1


def _copy_rng(rng: Rng) -> Rng:
    copy = Rng(0)
    copy.state = rng.state
    return copy
