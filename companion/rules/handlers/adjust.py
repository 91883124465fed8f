"""`adjust`: explicit corrections of the state, always logged, never flagged.

The physical table always wins: when the app's state is wrong, players edit it. Each edit is
checked on a copy first; an edit that would leave an impossible state (negative counts, too many
Beatings, a Place not in the game) refuses the whole correction and names the bad edit. Cards
added to or removed from a hand move from or to their supply, so totals stay conserved; a pile,
deck or supply set to a new count records the difference as a correction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .. import events as ev
from ..actions import Adjust
from ..core import Ctx, applier, checker, hard, unaccounted
from ..errors import Violation
from ..hand import UNKNOWN
from ..ops import check_win, to_supply
from ..shape import is_id, is_int
from ..state import GameState, Player

OPS = ev.ADJUST_OPS
PLAYER_NUMBERS = ("cigarettes", "beatings", "tunnel")


# The rule an impossible value breaks, by the field it edits.
FIELD_RULES = {
    "cigarettes": "SUP-5",
    "beatings": "BEAT-1",
    "tunnel": "DIG-1",
    "piles": "SUP-2",
    "tokens": "SUP-6",
    "supplies": "SUP-6",
    "deck": "SUP-1",
    "actions_left": "TURN-1",
}


class _Refused(Exception):
    def __init__(self, key: str, rule: str = "ADJUST", /, **params: Any) -> None:
        self.key = key
        self.rule = rule
        self.params = params


def _number(value: Any, high: int = 10**6, field: str = "") -> int:
    if not is_int(value) or not 0 <= value <= high:
        raise _Refused("adjust.bad_number", FIELD_RULES.get(field, "ADJUST"), high=high)
    return value


def _cards(value: Any, s: GameState) -> list[str]:
    if not isinstance(value, list) or not all(is_id(c, s.catalog.all_cards) for c in value):
        raise _Refused("adjust.bad_cards")
    return value


def _take_from_supply(s: GameState, card: str) -> None:
    if card in s.piles:
        if s.piles[card] <= 0:
            raise _Refused("adjust.pile_empty", "SUP-2", card=card)
        s.piles[card] -= 1
    elif card in s.discard and s.deck == 0:
        s.discard.remove(card)
    else:
        if s.deck <= 0:
            raise _Refused("adjust.deck_empty", "SUP-1")
        _unseen_copy(s, card)
        s.deck -= 1


def _unseen_copy(s: GameState, card: str) -> None:
    """SUP-1: a card named as taken from the deck is one of its copies nobody has seen (rules 2 on;
    before, a correction could add a fourth copy of a card the box holds three of)."""
    if card != UNKNOWN and s.rules_version >= 2 and unaccounted(s, card) < 1:
        raise _Refused("v.all_copies_seen", "SUP-1", card=card)


def _edit_player(s: GameState, seat: int, field: list[str], op: str, value: Any) -> None:
    """One edit of a player: the field and the operation pick it; an edit that moves cards or
    tokens has its own helper, which takes them from or gives them back to their supply."""
    p = s.players[seat]
    name = field[0] if field else ""
    if name in PLAYER_NUMBERS and op == "set":
        high = s.ruleset.max_beatings if name == "beatings" else 10**6
        setattr(p, name, _number(value, high, name))
    elif name == "place" and op == "set":
        if not is_id(value, s.board.places):
            raise _Refused("adjust.bad_place", "DI-1", place=str(value))
        p.place = value
    elif name == "hand" and op == "identify":
        _identify(s, p, value)
    elif name == "hand" and op in ("add", "remove"):
        _edit_hand(s, p, op, value)
    elif name == "dug" and op in ("add", "remove"):
        _edit_dug(s, p, op, value)
    elif name == "tokens" and len(field) == 2 and op == "set":
        _set_tokens(s, p, field[1], value)
    elif name == "gang" and op == "set":
        _set_gang(s, p, value)
    elif name == "ability" and op == "set":
        _set_ability(s, p, value)
    elif name == "trauma" and op == "set":
        _set_trauma(s, p, value)
    elif name == "background" and op == "set":
        if value is not None and not is_id(value, s.catalog.backgrounds):
            raise _Refused("adjust.bad_background")
        p.background = value
    elif name == "camouflaged" and op == "set" and isinstance(value, bool):
        p.camouflaged = value
    else:
        raise _Refused("adjust.bad_path", path=".".join(["players", str(seat)] + field))


def _identify(s: GameState, p: Player, value: Any) -> None:
    """A card nobody entered is now known: it stays in the hand."""
    for card in _cards(value, s):
        if card == UNKNOWN or not s.catalog.is_search_card(card) or p.hand.unknown < 1:
            raise _Refused("adjust.cannot_identify", "HAND-1", card=card)
        if unaccounted(s, card) < 1:
            raise _Refused("v.all_copies_seen", "SUP-1", card=card)
        p.hand.unknown -= 1
        p.hand.add(card)


def _edit_hand(s: GameState, p: Player, op: str, value: Any) -> None:
    """Cards added to a hand come from their supply; cards removed go back to it."""
    for card in _cards(value, s):
        if op == "add":
            _take_from_supply(s, card)
            p.hand.add(card)
        else:
            if p.hand.shortfall([card], s.catalog.is_search_card):
                raise _Refused("adjust.not_in_hand", "HAND-1", card=card)
            p.hand.remove(card)
            to_supply(s, card)


def _edit_dug(s: GameState, p: Player, op: str, value: Any) -> None:
    """Tools used up digging: added from their pile, or given back to it."""
    for tool in _cards(value, s):
        if tool not in s.catalog.tools:
            raise _Refused("adjust.bad_cards")
        if op == "add":
            _take_from_supply(s, tool)
            p.dug.append(tool)
        elif tool in p.dug:
            p.dug.remove(tool)
            s.piles[tool] += 1
        else:
            raise _Refused("adjust.not_in_hand", card=tool)


def _set_tokens(s: GameState, p: Player, token: str, value: Any) -> None:
    """A player's count of a token: the difference comes from or goes back to its supply."""
    if token not in s.supplies or token == "trauma":
        raise _Refused("adjust.bad_token", token=token)
    delta = _number(value, field="tokens") - p.tokens.get(token, 0)
    if s.supplies[token] < delta:
        raise _Refused("adjust.supply_empty", "SUP-6", token=token)
    s.supplies[token] -= delta
    p.tokens[token] = value
    if not value:
        del p.tokens[token]


def _set_gang(s: GameState, p: Player, value: Any) -> None:
    """Another Gang (or none): the old Gang card goes back to its pile, the new Gang's top card
    comes with it."""
    if value is not None and not is_id(value, s.catalog.gangs):
        raise _Refused("adjust.bad_gang")
    if p.gang is not None and p.ability is not None:
        s.gang_piles[p.gang].append(p.ability)
    p.gang, p.ability = value, None
    if value is not None:
        if not s.gang_piles[value]:
            raise _Refused("adjust.gang_pile_empty", gang=value)
        p.ability = s.gang_piles[value].pop(0)


def _set_ability(s: GameState, p: Player, value: Any) -> None:
    """Another Gang card of the player's Gang, swapped with the one held."""
    if p.gang is None or not is_id(value, s.gang_piles[p.gang]):
        raise _Refused("adjust.bad_ability")
    s.gang_piles[p.gang].remove(value)
    if p.ability is not None:
        s.gang_piles[p.gang].insert(0, p.ability)
    p.ability = value


def _set_trauma(s: GameState, p: Player, value: Any) -> None:
    """Another Trauma token (or none), swapped through the stack, whose count is the supply's."""
    if value is not None and not is_id(value, s.trauma_stack):
        raise _Refused("adjust.bad_trauma")
    if p.trauma is not None:
        s.trauma_stack.append(p.trauma)
    if value is not None:
        s.trauma_stack.remove(value)
    p.trauma = value
    s.supplies["trauma"] = len(s.trauma_stack)


def _edit(s: GameState, change: Mapping[str, Any]) -> None:
    path = change.get("path")
    ops = [op for op in OPS if op in change]
    if not isinstance(path, str) or len(ops) != 1 or set(change) - {"path", *OPS}:
        raise _Refused("adjust.bad_change")
    op, value = ops[0], change[ops[0]]
    parts = path.split(".")
    head = parts[0]
    seat = parts[1] if len(parts) >= 3 else ""
    if head == "players" and seat.isascii() and seat.isdigit() and int(seat) < len(s.players):
        _edit_player(s, int(seat), parts[2:], op, value)
    elif head == "piles" and len(parts) == 2 and parts[1] in s.piles and op == "set":
        s.corrections[parts[1]] = s.corrections.get(parts[1], 0) + _number(value, field="piles") - s.piles[parts[1]]
        s.piles[parts[1]] = value
    elif head == "supplies" and len(parts) == 2 and parts[1] in s.supplies and parts[1] != "trauma" and op == "set":
        key = f"token:{parts[1]}"
        s.corrections[key] = s.corrections.get(key, 0) + _number(value, field="supplies") - s.supplies[parts[1]]
        s.supplies[parts[1]] = value
    elif path == "deck" and op == "set":
        s.corrections["deck"] = s.corrections.get("deck", 0) + _number(value, field="deck") - s.deck
        s.deck = value
    elif path == "discard" and op in ("add", "remove"):
        for card in _cards(value, s):
            if not s.catalog.is_search_card(card) and card != UNKNOWN:
                raise _Refused("adjust.bad_cards")
            if op == "add":
                if s.deck <= 0:
                    raise _Refused("adjust.deck_empty")
                _unseen_copy(s, card)
                s.deck -= 1
                s.discard.append(card)
            elif card in s.discard:
                s.discard.remove(card)
                s.deck += 1
            else:
                raise _Refused("adjust.not_in_discard", card=card)
    elif path == "warden" and op == "set":
        if not s.warden_module:
            raise _Refused("v.no_warden", "WARD-1")
        if not is_id(value, s.board.places):
            raise _Refused("adjust.bad_place", "DI-1", place=str(value))
        s.warden = value
    elif head == "neutrals" and len(parts) == 2 and parts[1] in s.neutrals and op == "set":
        if not is_id(value, s.board.places):
            raise _Refused("adjust.bad_place", "DI-1", place=str(value))
        s.neutrals[parts[1]] = value
    elif path == "actions_left" and op == "set":
        s.actions_left = _number(value, 10, "actions_left")
    else:
        raise _Refused("adjust.bad_path", path=path)


def check_changes(s: GameState, changes: Iterable[Mapping[str, Any]], out: list[Violation]) -> None:
    if not changes:  # nothing to try (an Action card played without edits): no copy of the state
        return
    trial = s.copy()
    for change in changes:
        try:
            _edit(trial, change)
        except _Refused as refused:
            out.append(hard(refused.rule, refused.key, **{"path": str(change.get("path")), **refused.params}))
            return


def _edit_event(change: Mapping[str, Any]) -> ev.Adjust:
    """The event of an edit `_edit` accepted: its path and its one operation."""
    op = next(op for op in OPS if op in change)
    value = change[op]
    return ev.Adjust(path=change["path"], op=op, value=tuple(value) if isinstance(value, list) else value)


def apply_changes(s: GameState, changes: Iterable[Mapping[str, Any]], ctx: Ctx) -> None:
    for change in changes:
        _edit(s, change)
        ctx.emit(_edit_event(change))
    check_win(s, ctx)


@checker("adjust")
def check_adjust(s: GameState, a: Adjust, out: list[Violation]) -> None:
    if not a.changes:
        out.append(hard("ADJUST", "adjust.nothing"))
        return
    if not 0 <= a.player < len(s.players):
        out.append(hard("SET-1", "v.no_such_seat", seat=a.player, count=len(s.players)))
        return
    check_changes(s, a.changes, out)


@applier("adjust")
def apply_adjust(s: GameState, a: Adjust, ctx: Ctx) -> None:
    ctx.emit(ev.Adjusted(player=a.player, reason=a.reason))
    apply_changes(s, a.changes, ctx)
