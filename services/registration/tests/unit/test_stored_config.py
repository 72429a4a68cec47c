"""Rolling upgrades: the configuration keys added since the previous release are stored apart
(`events.config_additions`) and merged back exactly (tests/distributed/test_old_and_new_replicas.py
runs a previous-release replica on the same database)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gomoku_shared.event_config import EventConfig
from registration import presets
from registration.adapters.stored_config import CONFIG_ADDITIONS, config_columns, stored_config


@pytest.mark.parametrize("preset", presets.list_presets())
def test_the_stored_configuration_reads_back_whole_and_the_previous_shape_lacks_the_additions(preset):
    dump = presets.load(preset).model_dump(mode="json")
    columns = config_columns(dump)
    for path in CONFIG_ADDITIONS:
        parents = [columns["config"]]
        for key in path[:-1]:  # "*": every item of a list
            parents = [item for p in parents for item in (p if key == "*" else [p.get(key)]) if item is not None]
        assert all(path[-1] not in parent for parent in parents), path
    row = SimpleNamespace(**columns)
    assert stored_config(row) == dump
    assert EventConfig.model_validate(stored_config(row)) == presets.load(preset)
    assert stored_config(SimpleNamespace(config=columns["config"], config_additions=None))["id"] == dump["id"]


def test_pair1_a_sections_max_rounds_binding_travels_apart_and_merges_back_by_position():
    """PAIR-1 (DA 七(四) 原则上不超过7轮): the new per-section key is stored apart for every section
    of every stage (a list path) and each section reads its own value back."""
    dump = presets.load("da-2023").model_dump(mode="json")
    columns = config_columns(dump)
    assert "max_rounds_binding" not in str(columns["config"])
    sections = columns["config_additions"]["stages"][0]["sections"]
    assert [s["format"]["max_rounds_binding"] for s in sections] == ["in_principle"] * 3
    back = EventConfig.model_validate(stored_config(SimpleNamespace(**columns)))
    assert back.section("open").format.max_rounds_binding == "in_principle"
