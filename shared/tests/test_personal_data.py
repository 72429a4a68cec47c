"""Personal data in the shared library (issue 27): masks of one width whatever the value's
length (finding 10), and contracts that carry birth years only (finding 1)."""

from __future__ import annotations

from datetime import date

import pytest

from gomoku_shared.contracts.common import Entrant, Member
from gomoku_shared.contracts.events import QualifiedPlayer
from gomoku_shared.masking import mask_name, mask_tail


@pytest.mark.parametrize("name", ["王", "李明", "欧阳子轩", "Anna-Maria Lindqvist"])
def test_finding_10_a_masked_name_has_one_width(name):
    assert mask_name(name) == name[0] + "**"


def test_finding_10_a_masked_identifier_has_one_width():
    masked = [mask_tail(v) for v in ("E12345678", "440301199005051234", "G1234567890123", "ICBC-2026-7731-00042")]
    assert {len(m) for m in masked} == {18}
    assert masked == ["*" * 18, "*" * 14 + "1234", "*" * 14 + "0123", "*" * 14 + "0042"]
    assert mask_tail("") == mask_name("") == ""


def test_finding_1_a_birth_date_from_an_older_publisher_is_read_as_its_year():
    member = Member(player_id="p", name="A", gender="male", birth_date=date(2009, 12, 31))
    entrant = Entrant.model_validate(
        {"entrant_id": "e", "name": "A", "birth_date": "2009-12-31", "members": [member.model_dump(mode="json")]}
    )
    qualified = QualifiedPlayer.model_validate({"entrant_id": "e", "name": "A", "place": 1, "birth_date": "2009-12-31"})
    for person in (member, entrant, entrant.members[0], qualified):
        assert person.birth_date is None and person.birth_year == 2009
    assert "2009-12-31" not in entrant.model_dump_json() + qualified.model_dump_json()
    # a current publisher's year is kept as it is
    assert Entrant(entrant_id="e", name="A", birth_year=2001).birth_year == 2001
