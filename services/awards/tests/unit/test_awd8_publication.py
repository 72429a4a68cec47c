"""AWD-8: certificate data, prize/title lists, team ranking, best boards, CSV; corrections."""

from __future__ import annotations

import csv
import io

from awards.domain import (
    BoardRecord,
    CertificateWording,
    Gender,
    best_board_certificates,
    best_boards,
    best_boards_csv,
    certificates,
    certificates_csv,
    compare_rows,
    compare_section_awards,
    compute_section_awards,
    prize_list,
    prizes_csv,
    team_ranking,
    team_ranking_csv,
    title_list,
    titles_csv,
    yuan,
)

M, F = Gender.MALE, Gender.FEMALE


def parse(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_awd8_certificate_lines(seed, section):
    """AWD-8: certificate data per player: name, section, place, award lines."""
    spec = [("m1", 1, M), ("w1", 2, F)] + [(f"m{i}", i, M) for i in range(3, 10)]
    awards = compute_section_awards(section(spec, "da-open", name="Open"), seed.DA_OPEN)
    certs = {c.entrant_id: c for c in certificates(awards)}
    w1 = certs["w1"]
    assert (w1.name, w1.section_name, w1.place) == ("W1", "Open", 2)
    assert w1.lines == (
        "Place 2",
        "certificate",
        "medal",
        "Open prize: 6000.00 CNY",
        "Open women prize: 2000.00 CNY",
        "finisher medal",
        "commemorative certificate",
    )
    # 9th: no place award, but the finisher's items still make a certificate
    assert certs["m9"].lines == ("finisher medal", "commemorative certificate")
    assert "m9" not in {c.entrant_id for c in certificates(awards, include_finishers=False)}


def test_awd8_certificate_wording_is_configurable(seed, section, ranked_rows):
    """AWD-8: certificate wording comes from the preset (e.g. Chinese)."""
    awards = compute_section_awards(section(ranked_rows(30), "da-junior"), seed.DA_JUNIOR)
    wording = CertificateWording(place="第{place}名", title="段级位：{title}", prize="{table}奖金 {amount}元")
    cert = certificates(awards, wording)[0]
    assert cert.lines[0] == "第1名" and "段级位：2-dan" in cert.lines and "Junior奖金 7000.00元" in cert.lines


def test_awd8_shared_place_marked_on_certificate(seed, section):
    """AWD-8: a shared place is written as such."""
    spec = [("a", 1, M), ("b", 1, M), ("c", 3, M)]
    awards = compute_section_awards(section(spec, "da-public"), seed.DA_PUBLIC)
    assert certificates(awards)[0].lines[0] == "Place 1 (shared)"


def test_awd8_prize_and_title_lists_and_csv(seed, section, ranked_rows):
    """AWD-8: prize list and title list as rows and as CSV."""
    awards = compute_section_awards(section(ranked_rows(30), "da-junior", name="Junior"), seed.DA_JUNIOR)
    prizes = prize_list(awards)
    assert [(p.rank, p.amount) for p in prizes][:2] == [(1, "7000.00"), (2, "5000.00")]
    rows = parse(prizes_csv(awards))
    assert len(rows) == 8 and rows[0]["amount"] == "7000.00" and rows[0]["currency"] == "CNY"
    assert len(title_list(awards)) == 26
    trows = parse(titles_csv(awards))
    assert (trows[0]["title"], trows[-1]["title"], trows[-1]["place"]) == ("2-dan", "6-kyu", "26")


def test_awd8_team_ranking_csv_lists_unscored_units(seed, section):
    """AWD-8: team ranking rows include units without a team score and why."""
    men = section([("a1", 1, M, "A"), ("a2", 2, M, "A"), ("b1", 3, M, "B")], "men")
    women = section([("aw", 1, F, "A")], "women")
    rows = parse(team_ranking_csv(team_ranking(seed.SZ_MIXED_TEAM, {"men": men, "women": women})))
    assert [(r["unit_id"], r["place"], r["score"]) for r in rows] == [("A", "1", "4"), ("B", "", "")]
    assert "not enough players" in rows[1]["note"]


def test_awd8_best_boards_csv_and_certificates(seed):
    """AWD-8: best-board list and certificates."""
    records = [BoardRecord(f"p{b}", f"P{b}", "t1", "Team 1", b, 7, 7, 12, 6) for b in (1, 2, 3)]
    results = best_boards("nt-mixed", records, {"t1": 1}, seed.NT.best_board)
    rows = parse(best_boards_csv(results))
    assert [(r["board"], r["player_id"], r["win_rate"]) for r in rows] == [
        ("1", "p1", "6/7"),
        ("2", "p2", "6/7"),
        ("3", "p3", "6/7"),
    ]
    certs = best_board_certificates(results, "Mixed team")
    assert certs[0].lines == ("Best board 1", "certificate") and certs[0].unit_name == "Team 1"
    assert "entrant_id" in certificates_csv(certs).splitlines()[0]


def test_awd8_correction_diff_names_changed_entrants(seed, section):
    """AWD-8 corrections: after an arbiter's correction swaps 2nd and 3rd, the diff lists
    exactly those two players with what changed."""
    before = compute_section_awards(
        section([("a", 1, M), ("b", 2, M), ("c", 3, M), ("d", 4, M)], "da-public"), seed.DA_PUBLIC
    )
    after = compute_section_awards(
        section([("a", 1, M), ("c", 2, M), ("b", 3, M), ("d", 4, M)], "da-public"), seed.DA_PUBLIC
    )
    diff = compare_section_awards(before, after)
    assert diff.changed
    assert {c.entrant_id: c.fields for c in diff.entrants} == {"b": ("place", "prizes"), "c": ("place", "prizes")}
    assert not compare_section_awards(before, before).changed


def test_awd8_correction_diff_added_removed_and_cancelled(seed, section, ranked_rows):
    """AWD-8 corrections: entrants appearing/disappearing and cancellation flips are reported."""
    five = compute_section_awards(section(ranked_rows(5), "men"), seed.SZ_FINAL.section("men"))
    four = compute_section_awards(section(ranked_rows(4), "men"), seed.SZ_FINAL.section("men"))
    diff = compare_section_awards(five, four)
    assert diff.cancelled_before is False and diff.cancelled_after is True
    assert {c.fields for c in diff.entrants} == {("removed",)}
    assert len(compare_rows([1, 2, 3], [1, 3, 4], key=lambda x: x)) == 2


def test_awd8_standings_csv_has_every_tiebreak():
    """AWD-8: standings are published with every tiebreak value, shared places marked."""
    from decimal import Decimal

    from awards.domain import SectionStandings, StandingRow, standings_csv

    tb = lambda b, m: (("buchholz", Decimal(b)), ("median_buchholz", Decimal(m)))  # noqa: E731
    rows = (
        StandingRow("a", "A", 1, 10, tb(30, 20), wins=5, games_played=7),
        StandingRow("b", "B", 2, 8, tb("28.5", 19), wins=4, games_played=7),
        StandingRow("c", "C", 2, 8, tb("28.5", 19), wins=4, games_played=7),
    )
    parsed = parse(standings_csv(SectionStandings("s", "S", rows)))
    assert [(r["place"], r["shared"], r["buchholz"], r["median_buchholz"]) for r in parsed] == [
        ("1", "no", "30", "20"),
        ("2", "yes", "28.5", "19"),
        ("2", "yes", "28.5", "19"),
    ]


def test_awd8_section_publication_is_plain_json(seed, section):
    """AWD-8: the published payload is plain JSON data (no Decimal, no dataclasses)."""
    import json

    from awards.domain import section_publication

    spec = [("a", 1, M), ("b", 1, M), ("c", 3, M)]
    payload = section_publication(compute_section_awards(section(spec, "da-public"), seed.DA_PUBLIC))
    text = json.dumps(payload)
    assert json.loads(text)["prizes"][0]["amount_fen"] == yuan(4500)
    assert payload["places"][0]["shared_place"] is True and payload["cancelled"] is False


def test_awd8_certificates_csv_cells_cannot_be_formulas_or_extra_lines():
    """issue 27 finding 2 (OWASP CSV injection): a name or unit stored before the input check
    comes out of the certificates CSV quoted, on its own line; the place stays a number."""
    from awards.domain.publication import CertificateData

    cert = CertificateData(
        section_id="open",
        section_name="Open",
        entrant_id="e1",
        name='=HYPERLINK("http://attacker.example/x","click")',
        unit_name="@Club\r\n012 FAKE",
        place=-1,
        lines=("+1st place",),
    )
    text = certificates_csv([cert])
    assert text.count("\n") == 2
    [row] = parse(text)
    assert row["name"] == "'" + cert.name and row["unit_name"] == "'@Club  012 FAKE"
    assert row["place"] == "-1" and row["lines"] == "'+1st place"
