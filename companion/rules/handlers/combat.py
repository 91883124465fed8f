"""Extortion and combat between players and against Michel & Michelle (EXT, CMB, MICH-3..6).

A combat is state (`GameState.combat`) plus a pending decision for whoever must play next,
so every Weapon is its own action and reactions (Background cards, Bodybuilding, teammates'
Weapons) fit in between.
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..actions import Bodybuilding, Choose, Cooperate, Extort, Fight, GiveUp, Weapon
from ..core import Ctx, Unseen, applier, checker, choice, hand_card_problems, hard, task, violation
from ..errors import Violation
from ..ops import (
    add_beatings,
    discard_cards,
    discard_laid,
    discard_random,
    draw_search,
    move_card,
    return_token,
    steal_random,
    take_from_pile,
    take_token,
)
from ..state import Combat, GameState, Pending, Player
from .common import checked, restricted, trauma_forbids, valid_seat


def as_played(card: str) -> str:
    """An unknown card played as a Weapon can only be a Blade."""
    return "blade" if card == "unknown" else card


def is_weapon(s: GameState, card: str) -> bool:
    return card in s.catalog.weapons or card == "unknown"


def can_improvise(c: Combat | None, p: Player) -> bool:
    return p.ability == "improvisation" and (c is None or p.seat not in c.improvised)


def extortable(s: GameState, attacker: Player, target: Player, out: list[Violation]) -> None:
    """EXT-1: a target in your Place, or an adjacent one with Knife Throwing (never Solitary)."""
    if target.seat == attacker.seat:
        out.append(hard("EXT-1", "v.extort_self"))
        return
    if target.place != attacker.place:
        if attacker.ability != "knife_throwing":
            out.append(violation("EXT-1", "v.target_not_here", target=target.name, place=attacker.place))
        elif target.place not in s.board.adjacent[attacker.place] or s.board.places[target.place].solitary:
            out.append(violation("ADJ-1", "v.target_not_adjacent", target=target.name, place=attacker.place))
    if target.camouflaged:
        out.append(violation("ACTC", "v.target_camouflaged", target=target.name))


@checker("extort", price=1)
def check_extort(s: GameState, a: Extort, out: list[Violation]) -> None:
    p = s.players[a.player]
    if s.flags.extorted:
        out.append(violation("EXT-1", "v.extort_once"))
    restricted(s, p, "extort", out, "EXT-1")
    trauma_forbids(p, "no_extort", out)
    if not valid_seat(s, a.target, out, "EXT-1"):
        return
    target = s.players[a.target]
    extortable(s, p, target, out)
    needed = 2 if target.ability == "sturdiness" else 1
    if len(a.weapons) != needed:
        out.append(violation("EXT-2", "v.intimidation_weapons", count=needed, target=target.name))
    improvised = [c for c in a.weapons if not is_weapon(s, c)]
    if len(improvised) > (1 if can_improvise(None, p) else 0):
        out.append(violation("SUP-7", "v.not_a_weapon", card=improvised[0]))
    if not improvised and not any(is_weapon(s, c) for c in p.hand.entries()):
        out.append(hard("HAND-1", "v.no_weapon", player=p.name))  # says more than "no Knife in hand"
    else:
        out += hand_card_problems(s, p, [as_played(c) for c in a.weapons])


@applier("extort")
def apply_extort(s: GameState, a: Extort, ctx: Ctx) -> None:
    p = s.players[a.player]
    target = s.players[a.target]
    s.flags.extorted = True
    c = Combat(attacker=a.player, defender=a.target, tool=a.tool)
    for card in a.weapons:
        card = as_played(card)
        p.hand.remove(card)
        c.laid.append((a.player, card))
        if not is_weapon(s, card):
            c.improvised.append(a.player)
    s.combat = c
    ctx.emit(ev.Extort(player=a.player, target=a.target, tool=a.tool, weapons=tuple(card for _, card in c.laid)))
    if target.hand.count(a.tool) and a.tool in s.flags.must_cooperate:
        ctx.emit(ev.MustCooperate(player=a.target, tool=a.tool))
        cooperate_with_player(s, ctx)
    elif target.hand.count(a.tool):
        spied = a.player if target.ability == "spying" else None
        s.pending = Pending(
            "extortion_answer", a.target, ["cooperate", "fight"], attacker=a.player, tool=a.tool, show_hand_of=spied
        )
    else:
        start_combat(s, ctx)


def start_combat(s: GameState, ctx: Ctx) -> None:
    c = s.combat
    assert c is not None
    c.started = True
    c.to_play = c.defender
    ctx.emit(ev.Combat(attacker=c.attacker, defender=c.defender, neutral=c.neutral))
    ask_weapon(s)


def ask_weapon(s: GameState) -> None:
    c = s.combat
    assert c is not None and c.to_play is not None
    p = s.players[c.to_play]
    options = ["weapon", "give_up"]
    if p.tokens.get("bodybuilding", 0):
        options.append("bodybuilding")
    s.pending = Pending(
        "combat",
        c.to_play,
        options,
        attacker=c.attacker,
        defender=c.defender,
        neutral=c.neutral,
        weapons_played=len(c.laid),
    )


def combat_fresh(c: Combat) -> bool:
    """No Weapon played yet in the combat itself (only the intimidation)."""
    return c.started and len(c.laid) == sum(1 for seat, _ in c.laid if seat == c.attacker) and c.to_play == c.defender


def cooperate_with_player(s: GameState, ctx: Ctx) -> None:
    c = s.combat
    assert c is not None and c.attacker is not None and c.tool is not None
    move_card(s, ctx, c.defender, c.attacker, c.tool, "cooperate")
    discard_laid(s, ctx)
    s.combat = None
    s.pending = None


@checker("cooperate")
def check_cooperate(s: GameState, a: Cooperate, out: list[Violation]) -> None:
    c = s.combat
    assert c is not None
    if c.neutral is None:
        return
    held = (s.pending.tools or []) if s.pending else []  # a view shows them to the decider only
    if a.tool is None and len(held) > 1:
        out.append(hard("MICH-4", "v.which_tool", tools=held))
    elif a.tool is not None and a.tool not in held:
        out.append(hard("MICH-4", "v.tool_not_shown", tool=a.tool, tools=held))


@applier("cooperate")
def apply_cooperate(s: GameState, a: Cooperate, ctx: Ctx) -> None:
    c = s.combat
    assert c is not None
    if c.neutral is None:
        ctx.emit(ev.Cooperate(player=a.player, to=c.attacker, tool=c.tool))
        cooperate_with_player(s, ctx)
        return
    held = checked(s.pending).tools
    assert held, "a Michel answer names the Tools it may take"
    tool = a.tool or held[0]
    ctx.emit(ev.Cooperate(player=a.player, neutral=c.neutral, tool=tool))
    discard_cards(s, ctx, a.player, [tool], "michel")
    s.combat = None
    s.pending = None


@checker("fight")
def check_fight(s: GameState, a: Fight, out: list[Violation]) -> None:
    return None


@applier("fight")
def apply_fight(s: GameState, a: Fight, ctx: Ctx) -> None:
    s.pending = None
    start_combat(s, ctx)


def helper_allowed(s: GameState, c: Combat, seat: int) -> bool:
    """TEAM-5: a teammate of the extorted player, in the same Place, may play in their place."""
    if not s.team_mode or c.to_play != c.defender or seat == c.defender:
        return False
    helper, defender = s.players[seat], s.players[c.defender]
    return helper.team == defender.team and helper.place == defender.place


@checker("weapon")
def check_weapon(s: GameState, a: Weapon, out: list[Violation]) -> None:
    c = s.combat
    assert c is not None
    if a.player != c.to_play and not helper_allowed(s, c, a.player):
        if s.team_mode and a.player not in (c.attacker, c.defender):
            out.append(hard("TEAM-5", "v.not_a_helper", player=s.players[c.defender].name))
        else:
            out.append(hard("CMB-1", "v.not_your_weapon", player=s.players[checked(c.to_play)].name))
        return
    p = s.players[a.player]
    if not is_weapon(s, a.card) and not can_improvise(c, p):
        out.append(violation("SUP-7", "v.not_a_weapon", card=a.card))
    out += hand_card_problems(s, p, [as_played(a.card)])


@applier("weapon")
def apply_weapon(s: GameState, a: Weapon, ctx: Ctx) -> None:
    c = s.combat
    assert c is not None
    card = as_played(a.card)
    s.players[a.player].hand.remove(card)
    c.laid.append((a.player, card))
    if not is_weapon(s, card):
        c.improvised.append(a.player)
    if a.player != c.defender and a.player != c.attacker and a.player not in c.helpers:
        c.helpers.append(a.player)
    ctx.emit(ev.Weapon(player=a.player, card=card))
    weapon_done(s, ctx)


def weapon_done(s: GameState, ctx: Ctx) -> None:
    """The side due to play has played (or was exempted): the other side's turn, or Michel's card."""
    c = s.combat
    assert c is not None
    s.pending = None
    if c.neutral is not None:
        card = reveal_michel(s, ctx, c.neutral, c.defender)
        if s.catalog.michel_cards[card].knife:
            ask_weapon(s)
        else:
            end_michel_combat(s, ctx, player_won=True)
        return
    c.to_play = c.attacker if c.to_play == c.defender else c.defender
    ask_weapon(s)


@checker("give_up")
def check_give_up(s: GameState, a: GiveUp, out: list[Violation]) -> None:
    return None


@applier("give_up")
def apply_give_up(s: GameState, a: GiveUp, ctx: Ctx) -> None:
    c = s.combat
    assert c is not None
    s.pending = None
    ctx.emit(ev.GiveUp(player=a.player))
    if c.neutral is not None:
        end_michel_combat(s, ctx, player_won=False)
    else:
        end_combat(s, ctx, loser=a.player)


@checker("bodybuilding")
def check_bodybuilding(s: GameState, a: Bodybuilding, out: list[Violation]) -> None:
    if s.players[a.player].tokens.get("bodybuilding", 0) < 1:
        out.append(hard("GYM-2", "v.no_token", token="bodybuilding"))


@applier("bodybuilding")
def apply_bodybuilding(s: GameState, a: Bodybuilding, ctx: Ctx) -> None:
    """GYM-2: 4+ exempts from this Weapon, a 6 also returns the token; 3 or less: play as usual."""
    return_token(s, ctx, a.player, "bodybuilding", "bodybuilding")
    roll = ctx.roll(a.player, "bodybuilding")
    if roll == 6:
        take_token(s, ctx, a.player, "bodybuilding", "bodybuilding_six")
    if roll >= 4:
        ctx.emit(ev.Exempt(player=a.player))
        weapon_done(s, ctx)
    else:
        ask_weapon(s)


def end_combat(s: GameState, ctx: Ctx, loser: int) -> None:
    """CMB-2/3 and the abilities and Backgrounds that change a combat's outcome."""
    c = s.combat
    assert c is not None and c.attacker is not None
    loser = c.attacker if loser == c.attacker else c.defender
    winner = c.defender if loser == c.attacker else c.attacker
    discard_laid(s, ctx)
    ctx.emit(ev.CombatEnd(winner=winner, loser=loser))
    w, l_ = s.players[winner], s.players[loser]
    fury = s.catalog.ability_values["fury"] if w.ability == "fury" else 1
    beatings = add_beatings(s, ctx, loser, fury, "combat")
    if loser == c.defender:
        for helper in c.helpers:
            add_beatings(s, ctx, helper, 1, "combat_helper")
    after: list[dict[str, Any]] = []
    if winner == c.defender and winner in c.knife_bonus:
        bonus = s.catalog.backgrounds["i_will_cut_you_with_your_own_blade"]["bonus"]
        after.append({"do": "take_knives", "seat": winner, "count": bonus, "why": "cut_you_bonus"})
    if l_.ability == "grudge":
        after.append(grudge(s, loser))
    s.combat = None
    if after:
        ctx.schedule_first(*after)
    card = None
    if winner == c.attacker and c.tool is not None and l_.hand.count(c.tool):
        card = c.tool
        move_card(s, ctx, loser, winner, card, "combat")
    elif l_.hand.size():
        if w.ability == "the_kings_choice":
            s.pending = Pending("kings_choice", winner, sorted(set(l_.hand.entries())), from_seat=loser)
        else:
            card = steal_random(s, ctx, loser, winner, "combat")
    open_defeat(s, loser, winner, None, beatings, card)


def open_defeat(
    s: GameState, loser: int, winner: int | None, neutral: str | None, beatings: int, card: str | None
) -> None:
    """Keep a lost combat open to a Background revealed after the loss, until the next action starts.

    Its consequences are applied at once, so play never waits on a card few players hold; the
    Background then takes back what the loss cost (the Beatings, with its bonus the card).
    """
    if not s.players[loser].has_background:
        return
    s.defeats = [d for d in s.defeats if d["loser"] != loser]
    s.defeats.append({"loser": loser, "winner": winner, "neutral": neutral, "beatings": beatings, "card": card})


def defeat_of(s: GameState, seat: int) -> dict[str, Any] | None:
    return next((d for d in s.defeats if d["loser"] == seat), None)


def note_defeat_card(s: GameState, seat: int, card: str) -> None:
    """The card a lost combat cost, once it is chosen (The King's Choice, a Tool for Michel)."""
    d = defeat_of(s, seat)
    if d is not None:
        d["card"] = card


def grudge(s: GameState, seat: int) -> dict[str, Any]:
    """Grudge: after losing a combat, draw Knives (once the combat's spoils are settled)."""
    return {"do": "take_knives", "seat": seat, "count": s.catalog.ability_values["grudge"], "why": "grudge"}


@task("take_knives")
def take_knives(s: GameState, item: dict[str, Any], ctx: Ctx) -> None:
    take_from_pile(s, ctx, item["seat"], "knife", item["count"], item["why"])


@choice("kings_choice")
def choose_kings_card(s: GameState, a: Choose, ctx: Ctx) -> None:
    loser = checked(checked(s.pending).from_seat)
    s.pending = None
    move_card(s, ctx, loser, a.player, a.option, "the_kings_choice")
    note_defeat_card(s, loser, a.option)


# --- Michel & Michelle -----------------------------------------------------------------------


def reveal_michel(s: GameState, ctx: Ctx, neutral: str, seat: int) -> str:
    try:
        card, source = ctx.next_michel_card()
    except Unseen as unseen:  # a state that cannot see the deck: say whom the card was for
        unseen.drawn_for = (neutral, seat)
        raise
    ctx.emit(ev.MichelCard(neutral=neutral, player=seat, card=card, source=source))
    return card


@task("neutral_extort")
def neutral_extort(s: GameState, item: dict[str, Any], ctx: Ctx) -> None:
    """MICH-3/4: a neutral extorts one player, unless they left, or the Warden watches (MICH-8)."""
    neutral, seat = item["neutral"], item["seat"]
    p = s.players[seat]
    if s.neutrals.get(neutral) != p.place:
        return
    if s.warden is not None and s.warden == p.place:
        ctx.emit(ev.NeutralCalm(neutral=neutral, player=seat, place=p.place))
        return
    if p.camouflaged:
        ctx.emit(ev.Camouflaged(neutral=neutral, player=seat))
        return
    card = reveal_michel(s, ctx, neutral, seat)
    info = s.catalog.michel_cards[card]
    if not info.knife:
        return
    s.combat = Combat(attacker=None, defender=seat, tool=None, neutral=neutral, first_card=card)
    held = [t for t in info.tools if p.hand.count(t)]
    if held:
        s.pending = Pending("michel_answer", seat, ["cooperate", "fight"], neutral=neutral, card=card, tools=held)
    else:
        start_combat(s, ctx)


def end_michel_combat(s: GameState, ctx: Ctx, player_won: bool) -> None:
    """MICH-5: a win draws 1 Search card; a loss costs 1 Beating and a Tool shown on the first card."""
    c = s.combat
    assert c is not None and c.neutral is not None and c.first_card is not None
    seat = c.defender
    p = s.players[seat]
    discard_laid(s, ctx)
    ctx.emit(
        ev.CombatEnd(winner=None if not player_won else seat, loser=seat if not player_won else None, neutral=c.neutral)
    )
    s.combat = None
    if player_won:
        draw_search(s, ctx, seat, 1, why="michel_win")
        return
    beatings = add_beatings(s, ctx, seat, 1, "michel")
    for helper in c.helpers:
        add_beatings(s, ctx, helper, 1, "combat_helper")
    if p.ability == "grudge":
        ctx.schedule_first(grudge(s, seat))
    held = [t for t in s.catalog.michel_cards[c.first_card].tools if p.hand.count(t)]
    lost: list[str] = []
    if len(held) > 1:
        s.pending = Pending("michel_tool", seat, held, neutral=c.neutral)
    elif held:
        lost = discard_cards(s, ctx, seat, held, "michel")
    else:
        lost = discard_random(s, ctx, seat, 1, "michel")
    open_defeat(s, seat, None, c.neutral, beatings, lost[0] if lost else None)


@choice("michel_tool")
def choose_michel_tool(s: GameState, a: Choose, ctx: Ctx) -> None:
    s.pending = None
    discard_cards(s, ctx, a.player, [a.option], "michel")
    note_defeat_card(s, a.player, a.option)
