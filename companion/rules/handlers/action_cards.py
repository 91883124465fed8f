"""Playing an Action card (ACT-1, ACTC): known effects applied, any other one entered as edits."""

from __future__ import annotations

from .. import events as ev
from ..actions import PlayAction
from ..core import Ctx, applier, checker, hand_card_problems, hard, violation
from ..errors import Violation
from ..ops import discard_cards, draw_search, place_standee, steal_random, take_from_pile
from ..state import GameState, Player
from .adjust import apply_changes, check_changes
from .basic import check_entered_cards
from .common import checked, trauma_forbids, valid_seat
from .places import pile_has


def untouchable(s: GameState, target: Player, out: list[Violation]) -> None:
    """Untouchable: on other players' turns, no Action card may target this player."""
    if target.ability == "untouchable" and target.seat != s.active:
        out.append(violation("GA", "v.untouchable", target=target.name))


@checker("play_action", price=1)
def check_play_action(s: GameState, a: PlayAction, out: list[Violation]) -> None:
    p = s.players[a.player]
    card = s.catalog.action_cards[a.card]
    effect = card["effect"]
    trauma_forbids(p, "no_action_cards", out)
    out += hand_card_problems(s, p, [a.card])
    wants_target = card.get("target") is not None
    if wants_target:
        if valid_seat(s, a.target, out, "ACT-1"):
            target = s.players[checked(a.target)]  # valid_seat has refused a missing one
            untouchable(s, target, out)
            if effect == "steal_random":
                if target.seat == p.seat:
                    out.append(violation("ACTC", "v.target_self"))
                elif target.place != p.place:
                    out.append(violation("ACTC", "v.target_not_here", target=target.name, place=p.place))
    elif a.target is not None:
        out.append(violation("ACTC", "v.no_target_needed", card=a.card))
    if effect == "take_spoon":
        pile_has(s, "spoon", 1, out)
    if effect == "draw" and a.cards is not None:
        if len(a.cards) > card["count"]:
            out.append(hard("ACTC", "v.too_many_drawn", count=card["count"], place=p.place))
        check_entered_cards(s, a.cards, out, "ACTC")
    if effect == "other":
        check_changes(s, a.changes, out)
    elif a.changes:
        out.append(violation("ACTC", "v.known_card_no_changes", card=a.card))


@applier("play_action")
def apply_play_action(s: GameState, a: PlayAction, ctx: Ctx) -> None:
    card = s.catalog.action_cards[a.card]
    effect = card["effect"]
    discard_cards(s, ctx, a.player, [a.card], "play_action")
    ctx.emit(ev.ActionCard(player=a.player, card=a.card, target=a.target))
    if effect == "send_to_solitary":
        place_standee(s, ctx, checked(a.target), s.board.solitary, "action_card")
        if a.target == s.active:
            from .turns import end_turn_now

            end_turn_now(s, ctx, "action_card")
    elif effect == "take_spoon":
        take_from_pile(s, ctx, a.player, "spoon", 1, "action_card")
    elif effect == "draw":
        draw_search(s, ctx, a.player, card["count"], a.cards or (), why="action_card")
    elif effect == "camouflage":
        s.players[a.player].camouflaged = True
    elif effect == "steal_random":
        steal_random(s, ctx, checked(a.target), a.player, "action_card")
    elif effect == "other":
        apply_changes(s, a.changes, ctx)
