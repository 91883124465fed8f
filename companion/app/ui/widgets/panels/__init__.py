"""The right-hand panels of the table: the action menu, the composer, the pending decision,
the Warden's alert and the reactions, and "what just happened".

They render view models and call back into the table screen (`ctl`), which owns the session.
One module per panel: `menu`, `compose` (and the Michel cards), `decisions`, `reactions` (with
the Warden's alert), `result`, `coach` (the tutorial round's guide); `dice` is the real die's
entry they share. The table screen reaches them as `panels.<name>`, hence the names below.
"""

from .coach import coach_panel
from .compose import card_panel, composer_panel, michel_panel
from .decisions import PendingPanel
from .menu import action_menu, action_menu_rows
from .reactions import offence_alert, reactions_panel
from .result import ResultStrip

__all__ = [
    "PendingPanel",
    "ResultStrip",
    "action_menu",
    "action_menu_rows",
    "card_panel",
    "coach_panel",
    "composer_panel",
    "michel_panel",
    "offence_alert",
    "reactions_panel",
]
