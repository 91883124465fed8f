"""Conservation and sanity invariants of a state: every card and token is in exactly one place.

Used by the simulator after every action and by the property tests; an empty list means the
state is consistent. Totals may differ from the box only by the corrections `adjust` recorded.
"""

from __future__ import annotations

from functools import cache

from .catalog import Catalog
from .core import face_up_cards
from .ruleset import Ruleset
from .state import GameState, Player

_Box = tuple[int, tuple[tuple[str, frozenset[str]], ...], frozenset[str], frozenset[str], tuple[tuple[str, int], ...]]


@cache
def _box(catalog: Catalog) -> _Box:
    """The box's totals, computed once per catalog."""
    return (
        sum(catalog.search_deck.values()),
        tuple((gid, frozenset(g.abilities)) for gid, g in catalog.gangs.items()),
        frozenset(catalog.ability_gang),
        frozenset(catalog.action_cards) - {"action"},
        tuple(catalog.board_piles.items()),
    )


def invariant_problems(s: GameState) -> list[str]:
    """What is wrong with `s`, in words: the players first, then the cards, the Gang cards and the
    rest of the table. Each part is its own helper; the counts the players hold are passed along."""
    search_total, gang_cards, all_abilities, named_actions, board_totals = _box(s.catalog)
    problems: list[str] = []
    board_held = dict.fromkeys(s.piles, 0)
    seen = face_up_cards(s)  # the hands' Search cards are added below
    tokens_held: dict[str, int] = {}
    every_gang_card: list[str | None] = []  # a gang member without a Gang card is reported below
    unknown, traumas_held, backgrounds = _player_problems(s, board_held, seen, tokens_held, every_gang_card, problems)
    _card_problems(s, board_totals, search_total, named_actions, board_held, seen, unknown, problems)
    _gang_problems(s, gang_cards, all_abilities, every_gang_card, problems)
    _table_problems(s, backgrounds, tokens_held, traumas_held, problems)
    return problems


def _player_problems(
    s: GameState,
    board_held: dict[str, int],
    seen: dict[str, int],
    tokens_held: dict[str, int],
    every_gang_card: list[str | None],
    problems: list[str],
) -> tuple[int, int, int]:
    """Each player's own sanity; what the players hold is added to the counts passed in. Returns
    the unknown cards in hands, the Trauma tokens held and the Background cards out."""
    unknown = traumas_held = 0
    backgrounds = s.background_deck + len(s.background_discard)
    max_beatings = s.ruleset.max_beatings
    places = s.board.places
    ability_gang = s.catalog.ability_gang
    for p in s.players:
        backgrounds += p.has_background + len(p.revealed)
        if p.gang is not None:
            every_gang_card.append(p.ability)
            if p.ability is None or ability_gang.get(p.ability) != p.gang:
                problems.append(f"{p.name} is in the {p.gang} with the Gang card {p.ability}")
        hand = p.hand
        if p.beatings < 0 or p.beatings > max_beatings or p.cigarettes < 0 or hand.unknown < 0 or p.place not in places:
            problems.append(
                f"{p.name}: {p.beatings} Beatings, {p.cigarettes} cigarettes, "
                f"{hand.unknown} unknown cards, in {p.place}"
            )
        unknown += hand.unknown
        _held_cards(p, board_held, seen, problems)
        if p.tokens:
            for token, n in p.tokens.items():
                if n < 0:
                    problems.append(f"{p.name} has {n} {token} tokens")
                tokens_held[token] = tokens_held.get(token, 0) + n
        if p.skills_on_tools:
            tokens_held["skill"] = tokens_held.get("skill", 0) + p.skills_on_tools
        if p.trauma is not None:
            traumas_held += 1
    return unknown, traumas_held, backgrounds


def _held_cards(p: Player, board_held: dict[str, int], seen: dict[str, int], problems: list[str]) -> None:
    """A player's known cards and dug tools, counted: board cards apart, Search cards as seen."""
    for card, n in p.hand.known.items():
        if n <= 0:
            problems.append(f"{p.name}'s hand holds {n} {card}")
        if card in board_held:
            board_held[card] += n
        else:
            seen[card] = seen.get(card, 0) + n
    for tool in p.dug:
        board_held[tool] += 1


def _card_problems(
    s: GameState,
    board_totals: tuple[tuple[str, int], ...],
    search_total: int,
    named_actions: frozenset[str],
    board_held: dict[str, int],
    seen: dict[str, int],
    unknown: int,
    problems: list[str],
) -> None:
    """The board's piles and the Search deck add up to the box (plus the recorded corrections), and
    no card kind was seen more often than the deck holds it."""
    piles = s.piles
    corrections = s.corrections
    for card, total in board_totals:
        expected = total + corrections.get(card, 0) if corrections else total
        if piles[card] < 0 or piles[card] + board_held[card] + seen.pop(card, 0) != expected:
            problems.append(f"{card}: pile {piles[card]} + held {board_held[card]} != {expected}")
    search_held = unknown + sum(seen.values())
    expected = search_total + corrections.get("deck", 0) if corrections else search_total
    if s.deck < 0 or s.deck + search_held != expected:
        problems.append(f"Search cards: deck {s.deck} + elsewhere {search_held} != {expected}")
    if not named_actions.isdisjoint(seen):
        seen["action"] = seen.get("action", 0) + sum(seen.pop(card, 0) for card in named_actions)
    seen.pop("unknown", None)
    composition = s.catalog.search_deck.get
    for kind, n in seen.items():
        if n > composition(kind, 0):
            problems.append(f"{n} {kind} cards seen, the deck has {composition(kind, 0)}")


def _gang_problems(
    s: GameState,
    gang_cards: tuple[tuple[str, frozenset[str]], ...],
    all_abilities: frozenset[str],
    every_gang_card: list[str | None],
    problems: list[str],
) -> None:
    """Every Gang card is once in the game: in its Gang's pile or with one member."""
    gang_piles = s.gang_piles
    for gid, abilities in gang_cards:
        pile = gang_piles[gid]
        every_gang_card += pile
        if not abilities.issuperset(pile):
            problems.append(f"the {gid} pile holds {pile}")
    if len(every_gang_card) != len(all_abilities) or set(every_gang_card) != all_abilities:
        problems.append(f"Gang cards out of place: {sorted(map(str, every_gang_card))}")


def _table_problems(
    s: GameState, backgrounds: int, tokens_held: dict[str, int], traumas_held: int, problems: list[str]
) -> None:
    """The rest of the table: Backgrounds, the Michel deck, the tokens, the standees, the turn."""
    cat = s.catalog
    places = s.board.places
    if s.background_deck < 0 or backgrounds != cat.background_deck_size:
        problems.append(f"{backgrounds} Background cards instead of {cat.background_deck_size}")
    if s.neutral_names:
        michel = len(s.michel_deck) + len(s.michel_discard)
        if michel != _michel_total(s.ruleset):
            problems.append(f"{michel} Michel cards instead of {sum(s.ruleset.michel_deck.values())}")
    if s.supplies:
        _token_problems(s, tokens_held, traumas_held, problems)
    for name, place in s.neutrals.items():
        if place not in places:
            problems.append(f"{name} stands in {place}")
    if s.warden is not None and s.warden not in places:
        problems.append(f"the Warden stands in {s.warden}")
    if s.actions_left < 0:
        problems.append(f"{s.actions_left} actions left")
    if s.winner is not None:
        score = s.team_tunnel(s.winner) if isinstance(s.winner, str) else s.players[s.winner].tunnel
        if score < s.target():
            problems.append(f"winner {s.winner} has {score} Tunnel points, the target is {s.target()}")
    if s.pending is not None and not 0 <= s.pending.player < len(s.players):
        problems.append(f"pending decision for seat {s.pending.player}")


@cache
def _michel_total(ruleset: Ruleset) -> int:
    return sum(ruleset.michel_deck.values())


def _token_problems(s: GameState, held: dict[str, int], traumas: int, problems: list[str]) -> None:
    tokens = s.catalog.tokens
    corrections = s.corrections
    for token, supply in s.supplies.items():
        if token == "trauma":
            if len(s.trauma_stack) + traumas != tokens[token]["supply"] or supply != len(s.trauma_stack):
                problems.append(f"Trauma tokens: stack {len(s.trauma_stack)} + held {traumas}")
            continue
        expected = tokens[token]["supply"] + corrections.get(f"token:{token}", 0)
        if supply < 0 or supply + held.get(token, 0) != expected:
            problems.append(f"{token} tokens: supply {supply} + held {held.get(token, 0)} != {expected}")
    stray = set(held) - set(s.supplies)
    if stray:
        problems.append(f"tokens without a supply in this game: {sorted(stray)}")
