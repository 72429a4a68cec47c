"""Issue 34: which applications of a seed's field the simulator makes on the public entry form,
and what it sends there (offline, fast)."""

from __future__ import annotations

from gomoku_sim.field import build_field
from gomoku_sim.form_entries import acting_role, by_form, form_body
from gomoku_sim.run_spec import FULL_FIELDS, SMALL_FIELDS, load_config


def chosen(preset_id: str, sizes: dict[str, int]) -> list:
    config = load_config(preset_id)
    out: list = []
    for app in build_field(config, 11, sizes):
        if by_form(config, app, len(out)):
            out.append(app)
    return out


def test_sz_13_1_the_players_entering_alone_are_entered_on_the_form_one_per_section_of_five():
    """SZ 十三(一) (网上报名): the lone players (no unit) of the small field, eligible ones only."""
    apps = chosen("sz-2022", SMALL_FIELDS["sz-2022"])
    assert sorted(a.section_id for a in apps) == ["men-free", "men-pro", "women-pro"]
    assert all(a.kind == "individual" and a.unit is None and a.expect == "accepted" for a in apps)


def test_a_full_field_sends_no_more_than_the_form_takes_from_one_address_an_hour():
    config = load_config("sz-2022")
    apps = chosen("sz-2022", FULL_FIELDS["sz-2022"])
    assert len(apps) == config.registration.public_entries.per_address_per_hour
    lone = [a for a in build_field(config, 11, FULL_FIELDS["sz-2022"]) if a.unit is None and a.expect == "accepted"]
    assert len(lone) > len(apps)  # the others go through the partner app


def test_events_without_the_public_form_register_everyone_through_the_partner_app():
    for preset_id in ("ny-2022", "da-2023", "nt-2023"):
        assert chosen(preset_id, SMALL_FIELDS[preset_id]) == [], preset_id


def test_reg6_2_reg13_the_form_declares_the_residency_the_insurance_months_and_the_policy():
    """REG-6 (2): a residence permit with its months of social insurance; REG-13: the policy."""
    config = load_config("sz-2022")
    apps = chosen("sz-2022", FULL_FIELDS["sz-2022"])
    bodies = [form_body(config, a) for a in apps]
    kinds = {b["residency"]["kind"] for b in bodies}
    assert kinds == {"household_registration", "residence_permit", "student_status"}, kinds
    permit = next(b for b in bodies if b["residency"]["kind"] == "residence_permit")
    assert permit["residency"]["insurance_months"] == 13
    assert all(b["insurance_policy"].startswith("ins-") and len(b["guardian_phone"]) == 11 for b in bodies)
    assert all("unit" not in b and "evidence" not in b for b in bodies)  # the form has neither


def test_no_partner_app_acts_for_a_player_entered_on_the_form():
    assert acting_role({"sz22.online.men-free.0005"}, "sz22.online.men-free.0005") == "arbiter"
    assert acting_role({"sz22.online.men-free.0005"}, "sz22.online.men-free.0001") == "partner"
