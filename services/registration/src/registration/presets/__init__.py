"""Event presets shipped with the registration service (EVT-1..EVT-6).

A preset is one YAML/JSON file whose `id` equals its file stem. An organiser runs a new event
by adding a file (here or in any directory passed as `directory`), never by changing code.

    list_presets()                      -> ["da-2023", "nt-2023", "ny-2022", "sz-2022"]
    load("sz-2022")                     -> EventConfig
    load("sz-2022", overrides={...})    -> EventConfig (merged, then validated again)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gomoku_shared.event_config import (
    ConfigIssue,
    EventConfig,
    EventConfigError,
    apply_overrides,
    load_preset,
)

__all__ = ["PRESET_DIR", "PresetNotFound", "list_presets", "load", "preset_path"]

PRESET_DIR = Path(__file__).resolve().parent
_SUFFIXES = (".yaml", ".yml", ".json")


class PresetNotFound(LookupError):
    pass


def _files(directory: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for preset_file in sorted(directory.iterdir()):
        if preset_file.suffix.lower() in _SUFFIXES and not preset_file.name.startswith(("_", ".")):
            if preset_file.stem in found:
                raise EventConfigError(
                    [ConfigIssue("<file>", f"preset id {preset_file.stem!r} defined twice")], str(preset_file)
                )
            found[preset_file.stem] = preset_file
    return found


def list_presets(directory: str | Path | None = None) -> list[str]:
    """Ids of the presets in `directory` (default: the shipped ones), sorted."""
    return sorted(_files(Path(directory) if directory else PRESET_DIR))


def preset_path(preset_id: str, directory: str | Path | None = None) -> Path:
    files = _files(Path(directory) if directory else PRESET_DIR)
    if preset_id not in files:
        raise PresetNotFound(f"no preset {preset_id!r}; known: {sorted(files)}")
    return files[preset_id]


def load(
    preset_id: str, overrides: Mapping[str, Any] | None = None, directory: str | Path | None = None
) -> EventConfig:
    """Load a preset by id, apply `overrides` (nested dict; lists of items with `id` merge by
    id, e.g. `{"stages": {"online": {"sections": {"men-free": {"cap": 8}}}}}`), validate."""
    path = preset_path(preset_id, directory)
    config = load_preset(path)
    if config.id != preset_id:
        raise EventConfigError(
            [ConfigIssue("id", f"{config.id!r} differs from the file name {preset_id!r}")], str(path)
        )
    if overrides:
        config = apply_overrides(config, overrides, source=str(path))
    return config
