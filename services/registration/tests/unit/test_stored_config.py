"""Rolling upgrades: the configuration keys added since the previous release are stored apart
(`events.config_additions`) and merged back exactly (tests/distributed/test_old_and_new_replicas.py
runs a previous-release replica on the same database)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gomoku_shared.event_config import EventConfig
from registration import presets
from registration.adapters.repository import CONFIG_ADDITIONS, config_columns, stored_config


@pytest.mark.parametrize("preset", presets.list_presets())
def test_the_stored_configuration_reads_back_whole_and_the_previous_shape_lacks_the_additions(preset):
    dump = presets.load(preset).model_dump(mode="json")
    columns = config_columns(dump)
    for path in CONFIG_ADDITIONS:
        parent = columns["config"]
        for key in path[:-1]:
            parent = parent[key]
        assert path[-1] not in parent, path
    row = SimpleNamespace(**columns)
    assert stored_config(row) == dump
    assert EventConfig.model_validate(stored_config(row)) == presets.load(preset)
    assert stored_config(SimpleNamespace(config=columns["config"], config_additions=None))["id"] == dump["id"]
