"""What a table screen is in the middle of: the Flet-free half of the table screen.

A tap starts a `Composer` (asking only what that action still needs), answers a pending
decision, enters the real die or the real Michel cards, or rewinds the log. `TableControl`
holds that state and turns each tap into the next question or a write, judged by the engine
and recorded with the version on screen, off the event loop (offloop.py). It draws nothing: it asks its `TablePort` (the
screen) to show, flag, confirm or toast, so it is tested without a browser.

Whose eyes the screen is for is its `Viewer` policy (viewers.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.rules import ANSWERS, Event, GameState, MichelDraw, PickAsk, action_options, refusal_house_rules
from companion.rules import events as ev

from ..services.kept_rulings import clean_text
from ..services.session import Outcome, TableSession
from .actions import ActionVM, ChoiceVM, Composer, StepVM, confirm_view, reasons
from .dice import TableChance, dry_run, next_draw
from .pending import AnswerVM
from .rulings import Ruling
from .text import Tr
from .undo import redo_view, undo_view
from .viewers import Viewer

DESTINATIONS = ("destination", "neutral_destination")  # decisions a tap on the map answers
REVEAL_SECONDS = 10.0  # how long "show my hand" shows a hand on a shared screen, at most


class TablePort(Protocol):
    """What the controller asks of its screen."""

    def show(self) -> None: ...  # redraw, the panel scrolled back to its top
    def refresh(self) -> None: ...  # redraw in place
    def flag(self, title: str, found: list[Any], on_force: Callable[[Ruling], Any] | None = None) -> None: ...
    def confirm(self, title: str, text: str, yes: str, on_yes: Callable[[], Any], danger: bool = False) -> None: ...
    def toast(self, text: str) -> None: ...
    def open_rule(self, rule: str) -> None: ...
    def recorded(self, outcome: Outcome) -> None: ...  # an accepted action: tell, sound, and won?
    def lines_for(self, events: Sequence[Event]) -> list[str]: ...
    def physical(self) -> TableChance: ...  # what the table takes from the real box itself
    def later(self, coro_fn: Callable[..., Any], *args: Any) -> bool: ...
    def after(self, seconds: float, fn: Callable[[], Any]) -> None: ...  # call `fn` then, if still open
    def keep_ruling(self, house_rules: dict[str, Any], ruling: str) -> None: ...  # for the next games


class TableControl:
    """One screen's interaction with one game: what is being composed, asked or shown."""

    def __init__(self, session: TableSession, tr: Tr, port: TablePort, viewer: Viewer) -> None:
        self.session = session
        self.tr = tr
        self.port = port
        self.viewer = viewer
        # The version the whole screen shows: a tap is made on it, even when news of a later one
        # is arriving (it is then refused as stale, never judged against a table nobody saw).
        self.shown_version = session.version
        self.composer: Composer | None = None
        self.draft: dict[str, Any] = {}
        self.die_for: AnswerVM | None = None  # a decision waiting for the real die
        self.pick: list[str] = []  # cards chosen to discard down to the hand limit
        self.result: list[str] = []  # what just happened, in words
        self.result_die: int | None = None
        self.result_die_rolls = False  # the app rolled it just now: the die tumbles
        self.busy = False  # a write is on its way: another tap meanwhile is dropped
        self.bg_open: int | None = None  # whose combat Backgrounds are listed
        self.refused_open = False  # the actions not possible now are folded away
        # An action waiting for the real Michel cards, and those entered for it so far.
        self.michel_for: dict[str, Any] | None = None
        self.michel_drawn: list[str] = []
        self.michel_next: MichelDraw | None = None  # whom the card asked for extorts, and the table then
        # An action waiting for a card the table draws at random from a real hand, and which.
        self.card_for: dict[str, Any] | None = None
        self.card_asked: PickAsk | None = None
        self.result_events: list[Event] = []  # what `result` tells, to tell again through other eyes
        # End the turn in one tap: what to record once the turn is ended (a neutral's move), the
        # events of the end already told, and whose die pad End the turn shows (a real die).
        self.then: dict[str, Any] | None = None
        self._chained: list[Event] = []
        self.pad_neutral: str | None = None
        self.ruling = Ruling()  # what the table said as it overruled a refusal, for the forced action
        # A shared screen showing one hand: (the seat, the version it was asked on, which ask).
        self._revealed: tuple[int, int, int] | None = None
        self._reveals = 0

    @property
    def state(self) -> GameState:
        return self.session.state

    @property
    def board(self) -> GameState | None:
        """The table as it stands when the Michel card asked for is drawn (the neutral arrived):
        what the map shows while the table draws it. None: the stored state."""
        return self.michel_next.state if self.michel_for is not None and self.michel_next is not None else None

    @property
    def drawing(self) -> bool:
        """An action waits for what the table draws from the box (a Michel card, a random card):
        only that question is offered until it is answered or cancelled."""
        return self.michel_for is not None or self.card_for is not None

    @property
    def asking(self) -> bool:
        """Something is being composed or asked (Escape cancels it)."""
        return any(x is not None for x in (self.composer, self.die_for, self.michel_for, self.card_for))

    def reset(self) -> None:
        """Forget what was being composed or asked (the table moved on)."""
        self.bg_open = None
        self.michel_for = None
        self.card_for = None
        self.composer = None
        self.draft = {}
        self.die_for = None
        self.pick = []
        self.then = None
        self.pad_neutral = None
        self.ruling = Ruling()

    def tell(self, lines: list[str], events: Sequence[Event] = (), rolled_here: bool = False) -> None:
        """What just happened: its words, and the last die rolled (tumbling when rolled here)."""
        self.result = lines
        self.result_events = list(events)
        rolls = [e for e in events if isinstance(e, ev.Roll)]
        self.result_die = rolls[-1].die if rolls else None
        self.result_die_rolls = rolled_here and bool(rolls) and rolls[-1].source != "table"

    # --- "show my hand" on a shared screen ---------------------------------------------------

    def revealed_seat(self) -> int | None:
        """The seat whose hand a shared screen shows now: until the next action, or until
        `REVEAL_SECONDS` have passed (then `hide` forgets it)."""
        if self._revealed is None or self._revealed[1] != self.session.version:
            return None
        return self._revealed[0]

    def reveal(self, seat: int) -> None:
        """A player asked to see their own hand on the shared screen."""
        self._reveals += 1
        ask = self._reveals
        self._revealed = (seat, self.session.version, ask)
        self._retell()
        self.port.refresh()
        self.port.after(REVEAL_SECONDS, lambda: self._expire(ask))

    def hide(self) -> None:
        """Hide the hand shown (its player tapped "hide", or its time ran out)."""
        if self._revealed is not None:
            self._revealed = None
            self._retell()
            self.port.refresh()

    def _retell(self) -> None:
        """What just happened, told again for the eyes the screen now has: a player who shows
        their hand on a shared screen also reads which card they gave or got."""
        if self.result_events:
            self.result = self.port.lines_for(self.result_events)

    def _expire(self, ask: int) -> None:
        if self._revealed is not None and self._revealed[2] == ask:  # not a later "show my hand"
            self.hide()

    def clear_result(self) -> None:
        self.result = []
        self.result_die = None
        self.port.refresh()

    # --- starting and composing actions -----------------------------------------------------

    def start_action(self, kind: str, force: bool = False, quick: bool = False, ruling: Ruling | None = None) -> None:
        if self.busy:
            return
        self.ruling = ruling or Ruling()
        seat = self.viewer.menu_seat(self.state)
        if seat is None:  # a tap on a menu the table has moved past
            self.port.refresh()
            return
        composer = Composer(
            self.state,
            seat,
            kind,
            self.tr,
            physical_dice=self.port.physical().dice,
            force=force and self.viewer.may_force,
            quick=quick,
        )
        if not composer.possible:
            self.port.flag(self.tr("ui.not_allowed", action_label=self.tr.name("action", kind)), self.reasons_for(kind))
            return
        self.composer = composer
        self.draft = {}
        if composer.step() is None:
            self._submit_composed()
        else:
            self.port.show()

    def end_turn(self, then: dict[str, Any] | None = None) -> None:
        """End the turn; with `then`, answer in the same tap the decision ending it leaves (a
        neutral moved, with the real die's face and Place, or left where it is: turn_end.py)."""
        if self.busy:
            return
        self.then = then
        self.start_action("end_turn")

    def show_pad(self, neutral: str) -> None:
        """End the turn shows this neutral's die pad (a real die: one neutral's at a time)."""
        self.pad_neutral = neutral
        self.port.refresh()

    def reasons_for(self, kind: str) -> list[Any]:
        """Why `kind` cannot be done now: the engine's violations for it."""
        seat = self.viewer.menu_seat(self.state)
        if seat is None:
            return []
        for option in action_options(self.state, seat):
            if option.type == kind:
                return reasons(option.violations, self.tr)
        return []

    def toggle_refused(self) -> None:
        """Open or fold the actions that are not possible now."""
        self.refused_open = not self.refused_open
        self.port.refresh()

    def explain_refused(self, a: ActionVM) -> None:
        """A disabled action was tapped: show the flag with each rule, and the override."""
        may = a.forceable and self.viewer.may_force
        on_force = (lambda ruling: self.start_action(a.type, force=True, ruling=ruling)) if may else None
        self.port.flag(self.tr("ui.not_allowed", action_label=a.label), a.reasons, on_force)

    def explain_choice(self, c: ChoiceVM) -> None:
        composer = self.composer
        on_force = None
        if composer is not None and self.viewer.may_force and c.reasons and all(r.forceable for r in c.reasons):

            def force(ruling: Ruling) -> None:
                self.ruling = ruling
                composer.force = True
                composer.pool = list(composer.all)
                composer.answer(self._step_field(), c.value)
                self._continue()

            on_force = force
        self.port.flag(self.tr("ui.not_allowed", action_label=c.label), c.reasons, on_force)

    def _step_field(self) -> str:
        step = self.composer.step() if self.composer is not None else None
        return step.field if step is not None else ""

    def answer(self, field: str, value: Any) -> None:
        if self.composer is None:
            return
        self.composer.answer(field, value)
        self.draft.pop(field, None)
        self._continue()

    def answer_all(self, *answers: tuple[str, Any]) -> None:
        """Several questions answered by one tap (a sale's cards and its printed total)."""
        if self.composer is None:
            return
        for field, value in answers:
            self.composer.answer(field, value)
            self.draft.pop(field, None)
        self._continue()

    def keep(self, field: str, value: Any) -> None:
        """A value typed into a question, kept for its Done without redrawing the field being typed in."""
        self.draft[field] = value

    def answer_die(self, step: StepVM, value: int) -> None:
        got = list(self.draft.get("die_progress", [])) + [value]
        if len(got) >= (step.exact or 1):
            self.draft.pop("die_progress", None)
            self.answer("die", got)
        else:
            self.draft["die_progress"] = got
            self.port.show()

    def set_draft(self, field: str, value: Any) -> None:
        self.draft[field] = value
        self.port.show()

    def set_count(self, field: str, value: Any, count: int, chosen: list[Any]) -> None:
        rest = [c for c in chosen if c != value]
        self.draft[field] = rest + [value] * max(0, count)
        self.port.show()

    def back_action(self) -> None:
        if self.composer is not None and self.composer.back():
            self.port.show()
        else:
            self.cancel_action()

    def cancel_action(self) -> None:
        self.ruling = Ruling()
        self.composer = None
        self.draft = {}
        self.then = None
        self._chained = []
        self.die_for = None
        self.michel_for = None
        self.card_for = None
        self.port.show()

    def pick_michel(self, card: str) -> None:
        """The table says which Michel card came up: the action goes on with it (asking for the
        next one, when that card calls for another)."""
        if self.michel_for is None:
            return
        action = dict(self.michel_for, michel_cards=[*self.michel_drawn, card])
        self.michel_for = None
        self.submit_checked(action)

    def pick_card(self, card: str) -> None:
        """The table says which card it drew at random from a hand ("unknown": one never entered)."""
        if self.card_for is None:
            return
        action = dict(self.card_for, picks=[*self.card_for.get("picks", ()), card])
        self.card_for = None
        self.submit_checked(action)

    def _continue(self) -> None:
        if self.composer is not None and self.composer.step() is None:
            self._submit_composed()
        else:
            self.port.show()

    def _submit_composed(self) -> None:
        if self.composer is not None:
            self.submit_checked(self.composer.action())

    def submit_checked(self, action: dict[str, Any]) -> None:
        """Record `action`, asking first what the table drew from the real box for it (Michel
        cards, cards taken at random from hands) and, once, whether to go on when the engine
        says it wins or is an offence."""
        if self._asks_the_table(action):
            return
        ask = confirm_view(self.state, action, self.tr)
        if ask is None:
            self.submit(action)
            return
        self.port.confirm(ask.title, ask.text, self.tr("ui.confirm_record"), lambda: self.submit(action))

    def _asks_the_table(self, action: dict[str, Any]) -> bool:
        """Whether `action` waits for what the table draws itself: the engine's dry run, with
        what was entered so far, says whether it would draw a Michel card or pick a card at
        random from a hand; the table is asked for one at a time (one can call for another)."""
        chance = self.port.physical()
        if not (chance.michel or chance.cards):
            return False
        dry = dry_run(self.state, action)
        if dry is None:
            return False
        if chance.michel and dry.michel_draws:
            self.michel_for, self.michel_drawn = action, list(action.get("michel_cards", ()))
            self.michel_next = next_draw(self.state, action)
        elif chance.cards and dry.pick is not None:
            self.card_for, self.card_asked = action, dry.pick
        else:
            return False
        self.port.show()
        return True

    # --- pending decisions and reactions --------------------------------------------------------

    def choose_answer(self, a: AnswerVM) -> None:
        if a.needs_die and self.port.physical().dice:
            self.die_for = a
            self.port.show()
            return
        self.submit_checked(a.action)

    def answer_with_die(self, a: AnswerVM, value: int) -> None:
        self.die_for = None
        self.submit_checked(dict(a.action, die=[value]))

    def cancel_die(self) -> None:
        self.die_for = None
        self.port.show()

    def choose_place(self, place: str) -> None:
        """A highlighted Place was tapped: it answers a destination decision."""
        pend = self.state.pending
        if (
            pend is not None
            and pend.kind in DESTINATIONS
            and place in pend.options
            and self.viewer.answers_for(pend.player)
        ):
            self.submit_checked({"type": "choose", "player": pend.player, "option": place})

    def set_pick(self, card: str, count: int) -> None:
        self.pick = [c for c in self.pick if c != card] + [card] * max(0, count)
        self.port.show()

    def submit_pick(self) -> None:
        pend = self.state.pending
        if pend is not None:
            self.submit({"type": "end_turn", "player": pend.player, "discard": list(self.pick)})

    def open_backgrounds(self, seat: int | None) -> None:
        self.bg_open = seat
        self.port.refresh()

    def open_rule(self, rule: str) -> None:
        self.port.open_rule(rule)

    # --- writing ---------------------------------------------------------------------------------

    def submit(self, action: dict[str, Any]) -> None:
        """Record `action` off the event loop (offloop.py); a tap meanwhile is dropped. A forced
        action carries the table's ruling, when it gave one."""
        if self.busy:
            return
        text = clean_text(self.ruling.text)
        if action.get("force") and text:
            action = dict(action, ruling=text)
        self.busy = True
        if not self.port.later(self._record, action):
            self.busy = False

    async def _record(self, action: dict[str, Any]) -> None:
        try:
            outcome = await self.session.record(action, self.shown_version)
        except Exception as error:
            if self.viewer.refused_before_store(error):
                return
            raise
        finally:
            self.busy = False
        self.after(outcome)

    def after(self, outcome: Outcome) -> None:
        tr = self.tr
        then, self.then = self.then, None  # recorded only after this write, if it was taken
        if not outcome.accepted:
            self._chained = []
        if outcome.stale:  # another screen was first: nothing was recorded, here is the table now
            self.reset()
            self.port.toast(tr(self.viewer.stale_text))
            self.port.show()
            return
        if outcome.error:
            self.port.toast(tr("ui.store_problem", problem=outcome.error))
            self.port.show()
            return
        if not outcome.accepted:
            self.port.show()  # what was asked for it (a card drawn, a die) is no longer asked
            action = outcome.action or {}
            label = tr.name("action", str(action.get("type", "")))
            found = reasons(outcome.violations, tr)
            retry = None
            if self.viewer.may_force and found and all(r.forceable for r in found) and not action.get("force"):

                def retry(ruling: Ruling) -> None:
                    self.ruling = ruling
                    self.submit(dict(action, force=True))

            self.port.flag(tr("ui.not_allowed", action_label=label), found, retry)
            return
        self._keep_ruling(outcome)
        self.reset()
        events = [*self._chained, *outcome.events]  # a turn ended in the same tap is told with it
        self._chained = []
        if then is not None and self._answers_now(then):
            # The turn ended: its answer follows at once, and the screen is drawn once, after it
            # (the session told the other screens already), with both told as what just happened.
            self._chained = events
            self.shown_version = self.session.version  # this screen wrote it: the next write follows it
            self.submit_checked(then)
            return
        self.tell(self.port.lines_for(events), events, rolled_here=True)
        self.port.recorded(outcome)

    def _answers_now(self, action: dict[str, Any]) -> bool:
        """Whether `action` answers the decision the game now waits for, for its player (the turn
        ended and left the neutrals' move to its player, as the menu's dry run foresaw)."""
        pend = self.state.pending
        return (
            pend is not None
            and pend.player == action.get("player")
            and action.get("type") in ANSWERS.get(pend.kind, ())
        )

    def _keep_ruling(self, outcome: Outcome) -> None:
        """A forced action the table asked to play so next time: its house rules, to the settings."""
        overruled = [v.key for v in outcome.violations]
        house = refusal_house_rules(overruled) if self.ruling.keep and overruled else None
        if house:
            self.port.keep_ruling(house, clean_text(self.ruling.text))

    # --- undo / redo ---------------------------------------------------------------------------

    def undo(self) -> None:
        if self.viewer.may_rewind:
            self.port.later(self._undo)

    async def _undo(self) -> None:
        tr = self.tr
        vm = undo_view(await self.session.read_events(), self.state, tr, self.session.can_redo)
        if not vm.can_undo:
            self.port.toast(tr("ui.nothing_to_undo"))
        elif vm.confirm:
            self.port.confirm(
                tr("ui.undo_confirm_title", what=vm.last),
                vm.confirm,
                tr("ui.undo"),
                lambda: self.rewind("undo", vm.last),
                danger=True,
            )
        else:
            await self._rewind("undo", vm.last)

    def redo(self) -> None:
        if self.viewer.may_rewind:
            self.port.later(self._redo)

    async def _redo(self) -> None:
        tr = self.tr
        vm = redo_view(await self.session.read_events(), self.state, tr)
        if not self.session.can_redo or not vm.can_redo:
            self.port.toast(tr("ui.nothing_to_redo"))
        elif vm.confirm:
            self.port.confirm(
                tr("ui.redo_confirm_title", what=vm.last),
                vm.confirm,
                tr("ui.redo"),
                lambda: self.rewind("redo", vm.last),
                danger=True,
            )
        else:
            await self._rewind("redo", vm.last)

    def rewind(self, which: str, what: str) -> None:
        self.port.later(self._rewind, which, what)

    async def _rewind(self, which: str, what: str) -> None:
        tr = self.tr
        outcome = await self.session.rewind(which)
        if outcome.stale:
            self.port.toast(tr("ui.stale"))
        elif outcome.error:
            self.port.toast(outcome.error)
        else:
            self.reset()
            self.tell([tr("ui.undone" if which == "undo" else "ui.redone", what=what)])
        self.port.show()
