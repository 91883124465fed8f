"""The ways an input can be wrong, kept apart on purpose.

- `BadJson`: a file's bytes are not JSON at all (not UTF-8, bad syntax, a 5,000-digit number).
- `ConfigError`: an impossible game configuration (7 players, Team mode with 5, ...).
- `MalformedAction`: the action itself is not well-formed (unknown type, missing field).
- `Violation`: a well-formed action that breaks a rule; it is data, not an exception, so
  `check` can return every broken rule at once.

Each carries a rule id, a message key and its parameters; the English text is rendered from
the translation catalog on demand, so the UI can render the same key in another language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.i18n import render


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    forceable: bool = True  # False: the app cannot represent it; fix the state with `adjust`

    @property
    def message(self) -> str:
        return render(self.key, self.params)

    def to_json(self, overridden: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "message": self.message, "key": self.key}
        if self.params:
            out["params"] = self.params
        if overridden:
            out["overridden"] = True
        if not self.forceable:
            out["forceable"] = False
        return out


class _Problem(ValueError):
    def __init__(self, rule: str | None, key: str, /, **params: Any) -> None:  # any parameter name, `key` too
        self.rule = rule
        self.key = key
        self.params = params
        super().__init__(self.message)

    @property
    def message(self) -> str:
        text = render(self.key, self.params)
        return f"{self.rule}: {text}" if self.rule else text


class ConfigError(_Problem):
    """The game configuration cannot be played; names the rule it breaks."""


class MalformedAction(_Problem):
    """The action is not well-formed JSON for the protocol (not a rule question)."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(None, key, **params)


class BadJson(_Problem):
    """A file's bytes do not decode to JSON."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(None, key, **params)
