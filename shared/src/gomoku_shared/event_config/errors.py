"""What a broken configuration reports: one issue per path."""

from __future__ import annotations

from typing import NamedTuple


class ConfigIssue(NamedTuple):
    path: str
    message: str


class _CrossCheckFailed(ValueError):
    def __init__(self, issues: list[ConfigIssue]):
        super().__init__("; ".join(f"{p}: {m}" for p, m in issues))
        self.issues = issues


class EventConfigError(ValueError):
    """Raised by `parse_event_config` / `load_preset`: names the file, each path and problem."""

    def __init__(self, issues: list[ConfigIssue], source: str | None = None):
        self.issues = issues
        self.source = source
        head = f"invalid event configuration{f' in {source}' if source else ''}"
        super().__init__(head + ":\n" + "\n".join(f"  {p or '<root>'}: {m}" for p, m in issues))
