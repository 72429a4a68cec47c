"""EVT-2 / EVT-6: the SZ 2022 preset (first increment; more in test_presets.py)."""
from registration import presets


def test_evt2_evt6_sz_has_8_capped_online_sections_and_a_fed_final():
    """EVT-2, EVT-6: 8 online sections x cap 128; the final stage is fed by the qualifier."""
    ev = presets.load("sz-2022")
    online, final = ev.stages
    assert len(online.sections) == 8
    assert {s.cap for s in online.sections} == {128}
    assert final.fed_by == "online" and final.entry == "qualification"
    assert final.cap_total == 48
