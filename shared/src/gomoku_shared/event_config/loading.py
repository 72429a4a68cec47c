"""Parsing, overrides and preset files (the package's only I/O is `load_preset`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import ConfigIssue, EventConfigError, _CrossCheckFailed
from .event import EventConfig


def _loc_to_path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _issues_from(exc: ValidationError) -> list[ConfigIssue]:
    issues: list[ConfigIssue] = []
    for err in exc.errors():
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, _CrossCheckFailed):
            issues.extend(cause.issues)
            continue
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, ") :]
        issues.append(ConfigIssue(_loc_to_path(tuple(err["loc"])), msg))
    return issues


def parse_event_config(data: Mapping[str, Any], source: str | None = None) -> EventConfig:
    """Validate a dict into an EventConfig; raise EventConfigError naming source and paths."""
    try:
        return EventConfig.model_validate(data)
    except ValidationError as exc:
        raise EventConfigError(_issues_from(exc), source) from None


def deep_merge(base: Any, overrides: Any) -> Any:
    """Merge overrides into base (neither is modified).

    dict into dict merges by key; a dict into a list of dicts with `id` merges by id
    (e.g. `{"sections": {"men-free": {"cap": 8}}}`); anything else replaces.
    """
    if isinstance(base, Mapping) and isinstance(overrides, Mapping):
        out = dict(base)
        for key, value in overrides.items():
            out[key] = deep_merge(base[key], value) if key in base else value
        return out
    if (
        isinstance(base, list)
        and isinstance(overrides, Mapping)
        and all(isinstance(x, Mapping) and "id" in x for x in base)
    ):
        ids = [x["id"] for x in base]
        unknown = [k for k in overrides if k not in ids]
        if unknown:
            raise EventConfigError([ConfigIssue("<overrides>", f"no list item with id {unknown}")])
        return [deep_merge(x, overrides[x["id"]]) if x["id"] in overrides else x for x in base]
    return overrides


def apply_overrides(
    config: EventConfig | Mapping[str, Any], overrides: Mapping[str, Any] | None, source: str | None = None
) -> EventConfig:
    """An event from a preset plus overrides: merged, then re-validated in full."""
    base = config.model_dump(mode="json") if isinstance(config, EventConfig) else config
    merged = deep_merge(base, dict(overrides or {}))
    return parse_event_config(merged, source=f"{source or 'preset'} + overrides")


def load_preset(path: str | Path) -> EventConfig:
    """Read a YAML or JSON preset file and validate it (the module's only I/O)."""
    file_path = Path(path)
    text = file_path.read_text(encoding="utf-8")
    try:
        if file_path.suffix.lower() == ".json":
            data = json.loads(text)
        else:
            import yaml

            data = yaml.safe_load(text)
    except Exception as exc:  # syntax errors: still name the file
        raise EventConfigError([ConfigIssue("<file>", f"cannot parse: {exc}")], str(file_path)) from None
    if not isinstance(data, Mapping):
        raise EventConfigError([ConfigIssue("<root>", "a preset must be a mapping")], str(file_path))
    return parse_event_config(strip_extension_keys(data), source=str(file_path))


def strip_extension_keys(data: Mapping[str, Any]) -> dict[str, Any]:
    """Drop top-level `x-…` keys: YAML anchor holders for blocks shared between sections."""
    return {k: v for k, v in data.items() if not str(k).startswith("x-")}
