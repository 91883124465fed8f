"""The table screen's interaction state without a browser or Flet (vm/interaction.py).

A fake screen (the `TablePort`) records what the controller asks of it; a real store holds the
game, so stale writes, refusals, confirmations and undo prompts are the real ones.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from companion.app.services.session import Outcome, TableSession
from companion.app.vm.dice import TableChance
from companion.app.vm.interaction import REVEAL_SECONDS, TableControl
from companion.app.vm.log import recent_lines
from companion.app.vm.rulings import Ruling
from companion.app.vm.seat import SPECTATOR
from companion.app.vm.table import build_table, names_of
from companion.app.vm.text import Tr
from companion.app.vm.viewers import Referee
from companion.rules import Event, Game, GameState, view
from storage import Store

TR = Tr("en")


class FakeScreen:
    """What a screen would do, written down."""

    def __init__(self, session: TableSession, physical: TableChance = TableChance()) -> None:
        self.session = session
        self.said: list[tuple[str, Any]] = []
        self.confirming: list[Callable[[], Any]] = []
        self.dice = physical
        self.timers: list[tuple[float, Callable[[], Any]]] = []
        self._steps: list[tuple[Callable[..., Any], tuple[Any, ...]]] | None = None

    def show(self) -> None:
        self.said.append(("show", None))

    def refresh(self) -> None:
        self.said.append(("refresh", None))

    def flag(self, title: str, found: list[Any], on_force: Callable[[Ruling], Any] | None = None) -> None:
        self.said.append(("flag", (title, [r.rule for r in found], on_force)))

    def keep_ruling(self, house_rules: dict[str, Any], ruling: str) -> None:
        self.said.append(("keep", (house_rules, ruling)))

    def confirm(self, title: str, text: str, yes: str, on_yes: Callable[[], Any], danger: bool = False) -> None:
        self.said.append(("confirm", title))
        self.confirming.append(on_yes)

    def toast(self, text: str) -> None:
        self.said.append(("toast", text))

    def open_rule(self, rule: str) -> None:
        self.said.append(("rule", rule))

    def recorded(self, outcome: Outcome) -> None:
        self.said.append(("recorded", [e.TYPE for e in outcome.events]))

    def lines_for(self, events: Sequence[Event]) -> list[str]:
        return recent_lines(events, names_of(self.session.state), TR)

    def physical(self) -> TableChance:
        return self.dice

    def after(self, seconds: float, fn: Callable[[], Any]) -> None:
        """A timer, kept to be fired by the test (a real screen waits `seconds` on its loop)."""
        self.timers.append((seconds, fn))

    def later(self, coro_fn: Callable[..., Any], *args: Any) -> bool:
        """A step awaiting the store, run to its end (a real screen runs it on the session's loop);
        a step a step asks for (a turn ended, then a neutral moved in the same tap) runs after it."""
        queue = self._steps
        if queue is not None:
            queue.append((coro_fn, args))
            return True
        self._steps = queue = [(coro_fn, args)]
        try:
            while queue:
                fn, fn_args = queue.pop(0)
                asyncio.run(fn(*fn_args))
        finally:
            self._steps = None
        return True

    def kinds(self) -> list[str]:
        return [kind for kind, _ in self.said]


class Phone(Referee):
    """A seat's policy, as far as taps go: its own menu only, no force, no rewind."""

    may_force = False
    may_rewind = False
    stale_text = "join.stale"

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def menu_seat(self, state: GameState) -> int | None:
        return self.seat if state.active == self.seat and state.pending is None else None

    def answers_for(self, seat: int) -> bool:
        return seat == self.seat


@pytest.fixture
def store(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'games.db'}")
    yield s
    s.close()


def game(store: Store, **extra: Any) -> str:
    return store.create_game(
        {"players": [{"name": "Carmen", "hand": ["spoon"]}, {"name": "Nicholas"}], "seed": 3, **extra}
    )


class Told:
    """The other screens of the game, as a session's teller tells them (services/tables.py)."""

    def __init__(self) -> None:
        self.versions: list[int] = []

    def changed(self, version: int, events: Sequence[Event], table: Any) -> None:
        self.versions.append(version)


def control(store: Store, game_id: str, viewer: Any = None, physical=TableChance()) -> tuple[TableControl, FakeScreen]:
    session = TableSession(store, game_id, teller=Told())
    screen = FakeScreen(session, physical)
    return TableControl(session, TR, screen, viewer or Referee()), screen


def test_a_move_asks_its_destination_then_records_it_with_the_version_on_screen(store) -> None:
    gid = game(store)
    ctl, screen = control(store, gid, physical=TableChance(dice=True))
    ctl.start_action("move")
    assert ctl.composer is not None and screen.kinds() == ["show"]  # the real die is asked first
    step = ctl.composer.step()
    assert step is not None and step.field == "die"
    ctl.answer_die(step, 4)
    assert store.load(gid).version == 1 and ctl.composer is None and ctl.result
    assert ctl.result_die == 4 and not ctl.result_die_rolls  # the table's die does not tumble
    assert screen.said[-1][0] == "recorded"


def test_a_tap_on_a_table_that_moved_on_is_stale_and_records_nothing(store) -> None:
    gid = game(store)
    ctl, screen = control(store, gid)
    other, _ = control(store, gid)
    other.submit({"type": "end_turn", "player": 0})
    ctl.submit({"type": "end_turn", "player": 0})
    assert store.load(gid).version == 1
    assert ("toast", TR("ui.stale")) in screen.said and ctl.composer is None


def test_a_refusal_is_flagged_with_its_rules_and_the_referee_may_force_it(store) -> None:
    gid = game(store, players=[{"name": "Carmen", "beatings": 1}, {"name": "Nicholas"}])
    ctl, screen = control(store, gid)
    ctl.submit({"type": "craft", "player": 0, "recipe": "shovel"})
    kind, (title, rules, on_force) = screen.said[-1]
    assert kind == "flag" and "BEAT-2" in rules and store.load(gid).version == 0
    assert on_force is not None  # a house rule may overrule it: recorded anyway, with the rule kept
    on_force(Ruling())
    assert store.load(gid).version == 1
    gid = game(store, players=[{"name": "Carmen", "beatings": 1}, {"name": "Nicholas"}])
    phone, said = control(store, gid, Phone(0))
    phone.submit({"type": "craft", "player": 0, "recipe": "shovel"})
    assert said.said[-1][1][2] is None  # a phone names the rules, never offers to record anyway


def test_a_phone_neither_forces_nor_rewinds_nor_answers_another_seat(store) -> None:
    gid = game(store)
    ctl, screen = control(store, gid, Phone(1))
    ctl.start_action("move")  # not this phone's turn: the menu is redrawn, nothing composed
    assert ctl.composer is None and screen.kinds() == ["refresh"]
    ctl.undo()
    ctl.redo()
    assert screen.kinds() == ["refresh"] and store.load(gid).version == 0


def test_undo_across_a_roll_asks_first_and_names_what_it_took_back(store) -> None:
    gid = game(store)
    ctl, screen = control(store, gid)
    ctl.submit({"type": "move", "player": 0, "die": [4]})
    pend = ctl.state.pending
    if pend is not None:  # a choice of destination
        ctl.choose_place(pend.options[0])
    version = store.load(gid).version
    ctl.undo()
    assert screen.said[-1][0] in ("confirm", "show")
    if screen.confirming:
        screen.confirming.pop()()
    assert store.load(gid).version == version + 1
    assert ctl.session.teller.versions[-1] == version + 1  # the other screens were told of the undo
    assert ctl.result and ctl.result_die is None


def test_escape_cancels_what_is_being_composed(store) -> None:
    gid = game(store)
    ctl, _ = control(store, gid, physical=TableChance(dice=True))
    ctl.start_action("move")
    assert ctl.asking
    ctl.cancel_action()
    assert not ctl.asking and ctl.draft == {}


def test_show_my_hand_lasts_until_the_next_action_or_its_time(store) -> None:
    gid = game(store)
    ctl, screen = control(store, gid)
    assert ctl.revealed_seat() is None
    ctl.reveal(0)
    assert ctl.revealed_seat() == 0 and screen.kinds()[-1] == "refresh"
    assert [seconds for seconds, _ in screen.timers] == [REVEAL_SECONDS]
    ctl.reveal(1)  # another player asks meanwhile: the first timer must not hide this hand
    screen.timers[0][1]()
    assert ctl.revealed_seat() == 1
    screen.timers[1][1]()
    assert ctl.revealed_seat() is None
    ctl.reveal(0)
    ctl.submit({"type": "end_turn", "player": 0})
    assert store.load(gid).version == 1 and ctl.revealed_seat() is None  # the next action hides it
    ctl.reveal(1)
    ctl.hide()
    assert ctl.revealed_seat() is None


def test_a_shared_table_shows_hand_sizes_and_only_the_hand_asked_for() -> None:
    full = Game({"players": [{"name": "Carmen", "hand": ["spoon", "ring"]}, {"name": "Nicholas", "hand": ["cap"]}]})
    state = full.state
    public = build_table(view(state, SPECTATOR), TR, viewer=SPECTATOR, shared=True)
    for p in public.players:
        assert p.hand_hidden and p.hand_known == [] and p.reveal == "show"
    assert [p.hand_size for p in public.players] == [2, 1]
    carmen = build_table(view(state, 0), TR, viewer=0, shared=True)
    assert carmen.players[0].hand_known == [("Ring", 1), ("Spoon", 1)] and carmen.players[0].reveal == "hide"
    assert carmen.players[1].hand_hidden and carmen.players[1].hand_known == [] and carmen.players[1].reveal == "show"
    referee = build_table(state, TR)
    assert all(p.reveal is None and not p.hand_hidden for p in referee.players)


def test_the_referee_screen_stays_as_the_table_set_it_when_phones_join() -> None:
    """Phones taking seats never turn a shared screen into one that lists every hand; an older
    settings file's "auto" (which did) reads as shared."""
    from companion.app.services.settings import Settings

    assert Settings().shared_screen and Settings(screen="auto").valid().shared_screen
    assert Settings(screen="mirror").valid().screen == "shared"
    assert not Settings(screen="private").valid().shared_screen
