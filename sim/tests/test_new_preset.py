"""Adding an event is adding a preset file (CONTRIBUTING, "a new preset"): a preset the
simulator has never seen runs through the whole demo — registration, pairing, games, awards,
the pages and the staff accounts — with no simulator edit; its field comes from its sections."""

from __future__ import annotations

import re
import shutil

import pytest
import yaml

from gomoku_sim import demo
from gomoku_sim.run_spec import DERIVED_FULL_FIELD, DERIVED_SMALL_FIELD, RunSpec, scaled_sizes
from registration import presets

#: a small city event, written as an organiser would (EVT-1: a fifth event by a preset file only)
CITY_OPEN = {
    "id": "city-open-2024",
    "name": "City Open 2024",
    "name_zh": "2024年城市五子棋公开赛",
    "timezone": "Asia/Shanghai",
    "registration": {"opens_at": "2024-03-01T09:00:00+08:00", "closes_at": "2024-03-20T18:00:00+08:00"},
    "units": {"individual_entries_allowed": True, "max_leaders": 1, "max_coaches": 2},
    "changes": {"freeze_days": 1},
    "insurance": {"required": False},
    "stages": [
        {
            "id": "main",
            "name": "Main",
            "name_zh": "正赛",
            "starts_on": "2024-04-06",
            "ends_on": "2024-04-07",
            "sections": [
                {
                    "id": section_id,
                    "name": name,
                    "name_zh": name_zh,
                    "gender": "mixed",
                    "track": "free",
                    **({"cap": 24} if section_id == "open" else {}),
                    "format": {"allowed": ["swiss"], "rounds": 5},
                    "clock": {"mode": "fischer", "base_s": 600, "increment_s": 5},
                    "opening": {"rule": "free"},
                    "tiebreaks": {"swiss": ["points", "buchholz", "wins"]},
                    "scoring": {"win": 2, "draw": 1, "loss": 0},
                    "no_show_minutes": 15,
                    "awards": {"places": 3},
                }
                for section_id, name, name_zh in (("open", "Open", "公开组"), ("rapid", "Rapid", "快棋组"))
            ],
        }
    ],
}


@pytest.fixture
def city_open(tmp_path, monkeypatch) -> str:
    """The shipped presets plus the city open, as if its file had been added to the presets."""
    folder = tmp_path / "presets"
    folder.mkdir()
    for shipped in presets.PRESET_DIR.glob("*.yaml"):
        shutil.copy(shipped, folder)
    (folder / "city-open-2024.yaml").write_text(yaml.safe_dump(CITY_OPEN, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(presets, "PRESET_DIR", folder)
    return "city-open-2024"


def test_evt1_a_new_presets_field_comes_from_its_sections(city_open):
    assert scaled_sizes(city_open) == {"open": DERIVED_SMALL_FIELD, "rapid": DERIVED_SMALL_FIELD}
    assert scaled_sizes(city_open, 4) == {"open": 4, "rapid": 4}
    assert scaled_sizes(city_open, full=True) == {"open": 24, "rapid": DERIVED_FULL_FIELD}
    assert RunSpec(preset_id=city_open).code == "cityopen2024"
    # the seed presets keep their tuned fields
    assert scaled_sizes("sz-2022")["women-free"] == 4


@pytest.mark.slow
async def test_evt1_the_demo_plays_a_new_preset_with_no_simulator_edit(city_open, tmp_path, capsys):
    args = demo.parse_args(
        ["--preset", city_open, "--players-per-section", "4", "--rounds", "2", "--quiet", "--port", "0"]
        + ["--out", str(tmp_path / "results")]
    )
    assert await demo.run(args) == 0
    printed = capsys.readouterr().out
    assert "City Open 2024 (city-open-2024, seed 2022, embedded)" in printed
    assert "result digest:" in printed
    played = re.search(r"(\d+) applications, (\d+) games", printed)
    assert played is not None and int(played.group(1)) >= 8 and int(played.group(2)) > 0, printed
    written = sorted(path.name for path in (tmp_path / "results").iterdir())
    assert "summary.json" in written and any(name.endswith(".csv") for name in written), written
