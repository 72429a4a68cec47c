"""Every printout the portal serves, fetched over the socket from a played event and read back
(pypdf): names, units and heads whole (no "…"), the standings' legend under the table, each PDF in
the one language asked for (issue 28). The NT 2023 team championship's sheets show its matches
with their boards and every board's players by their real names; the certificates name the
organiser and the venue; the SZ 2022 qualifier's cancelled sections say so instead of "not
published"."""

from __future__ import annotations

import io
import re

import httpx
from browser_kit import platform_at
from pypdf import PdfReader

CJK = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")
#: English words the Chinese printouts may carry: the players', teams' and units' own names
#: (the simulator's field is romanised) and nothing else
SHEETS = ("rounds/1/pairings.pdf", "rounds/1/slips.pdf", "standings.pdf", "crosstable.pdf", "certificates.pdf")


def _text(body: bytes) -> str:
    return PAGE_BREAK.join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


#: between the pages of a printout's text (``_pages`` splits it again)
PAGE_BREAK = "\n\f\n"


def _pages(text: str) -> list[str]:
    return text.split(PAGE_BREAK)


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _printouts(served: str, code: str, sid: str) -> dict[tuple[str, str], str]:
    """Each printout of the section in each language, as text."""
    texts = {}
    for sheet in SHEETS:
        for lang in ("zh", "en"):
            r = httpx.get(f"{served}/events/{code}/sections/{sid}/{sheet}?lang={lang}", timeout=120)
            assert r.status_code == 200 and r.headers["content-type"] == "application/pdf", (sheet, lang, r.text[:300])
            texts[(sheet, lang)] = _text(r.content)
    return texts


def _one_language(texts: dict[tuple[str, str], str], own_names: list[str]) -> None:
    """English printouts carry no Chinese; Chinese ones no English beyond the field's own names."""
    for (sheet, lang), text in texts.items():
        assert "…" not in text, (sheet, lang)
        if lang == "en":
            assert not CJK.search(text), (sheet, CJK.findall(text)[:10])
        else:
            rest = text
            for name in sorted(own_names, key=len, reverse=True):
                rest = rest.replace(name, "")
            rest = rest.replace("APP", "")  # SZ 五's venue: 弈客五子棋APP, the product's own name
            assert not re.search(r"[A-Za-z]{2,}", rest), (sheet, re.findall(r"[A-Za-z]{2,}", rest)[:10])


async def _read(served: str, platform, code: str, sid: str) -> tuple[dict, dict, dict, dict]:
    """The section, its standings, its awards and the event (registration's: organiser, venue)."""
    section = await platform.get("pairing", f"/v1/events/{code}/sections/{sid}")
    standings = await platform.get("pairing", f"/v1/events/{code}/sections/{sid}/standings")
    awards = await platform.get("awards", f"/v1/events/{code}/sections/{sid}/awards")
    event = await platform.get("registration", f"/v1/events/{code}")
    return section, standings, awards, event


async def test_da_printouts_whole_in_one_language_with_legend_and_certificates(da_served):
    """DA 2023 open section: every printout in Chinese and in English (PAIR-7 legend, AWD-1 certificates)."""
    served, code = da_served
    platform = platform_at(served)
    try:
        section, standings, awards, event = await _read(served, platform, code, "open")
    finally:
        await platform.aclose()
    texts = _printouts(served, code, "open")
    people = [e["name"] for e in section["entrants"]] + [e["unit"] for e in section["entrants"] if e.get("unit")]
    _one_language(texts, people)
    for sheet in ("rounds/1/pairings.pdf", "standings.pdf", "crosstable.pdf"):
        for lang in ("zh", "en"):
            flat = _flat(texts[(sheet, lang)])
            assert all(_flat(e["name"]) in flat for e in section["entrants"]), (sheet, lang)
    zh, en = texts[("standings.pdf", "zh")], texts[("standings.pdf", "en")]
    assert "2023年全国五子棋定安公开赛" in zh and "公开组" in zh and "比赛日期：" in zh
    assert "表头说明" in zh and "对手分：所有对手大分之和" in zh and "中间对手分：" in zh
    assert "2023 National Gomoku Open, Ding'an" in en and "The columns" in en
    assert "Median Buchholz: the opponents' points without the highest and the lowest" in en
    winner = awards["places"][0]
    zh, en = texts[("certificates.pdf", "zh")], texts[("certificates.pdf", "en")]
    for word in ("获奖证书", "在公开组比赛中荣获第 1 名", "比赛日期：", "颁发日期：", "盖章处", "纪念证书"):
        assert word in zh, word
    for word in ("Certificate of Award", "won 1st place in the Open section", "Issued on", "Seal"):
        assert word in en, word
    # DA 一, 四: who holds it and where, in the certificate's language, on every certificate
    pages = {lang: [_flat(t) for t in _pages(texts[("certificates.pdf", lang)])] for lang in ("zh", "en")}
    for lang, organiser, venue in (
        ("zh", f"主办单位：{event['organiser_zh']}", f"比赛地点：{event['venue_zh']}"),
        ("en", f"Organiser: {event['organiser']}", f"Venue: {event['venue']}"),
    ):
        assert pages[lang] and all(_flat(organiser) in p and _flat(venue) in p for p in pages[lang]), lang
    for lang, venue in (("zh", "比赛地点："), ("en", "Venue: ")):
        assert _flat(venue) in _flat(texts[("standings.pdf", lang)]), lang
    assert winner["name"] in zh and winner["name"] in en
    assert standings["standings"][0]["name"] in texts[("standings.pdf", "en")]


async def test_nt_team_printouts_as_matches_with_every_board_named(nt_served):
    """NT 2023 (PAIR-9): the pairing sheet and slips are matches, team against team, with every
    board's two players by their real names (pairing's ``members``; never "北京 第 1 台" nor a
    dash); standings with match points and board points (团体总局分) and their legend; the
    certificates name the organiser (NT 一) and leave out the venue, to be announced (NT 三)."""
    served, code = nt_served
    platform = platform_at(served)
    try:
        section, standings, awards, event = await _read(served, platform, code, "mixed-team")
        rnd = await platform.get("pairing", f"/v1/events/{code}/sections/mixed-team/rounds/1")
    finally:
        await platform.aclose()
    texts = _printouts(served, code, "mixed-team")
    teams = {e["entrant_id"]: e["name"] for e in section["entrants"]}
    members = [m["name"] for e in section["entrants"] for m in e.get("members") or []]
    _one_language(texts, [*teams.values(), *members, *(b["name"] for b in awards["best_boards"])])
    zh, en = texts[("rounds/1/pairings.pdf", "zh")], texts[("rounds/1/pairings.pdf", "en")]
    assert "—" not in zh and "—" not in en
    matches = sorted({p["match_id"] for p in rnd["pairings"]})
    for n, match in enumerate(matches, 1):
        board_one = next(p for p in rnd["pairings"] if p["match_id"] == match and p["board"] == 1)
        home, away = teams[board_one["first_team"]], teams[board_one["second_team"]]
        assert f"第 {n} 场" in zh and f"{home} 对 {away}" in zh
        assert f"Match {n}" in en and f"{home} v {away}" in en
    by_id = {m["player_id"]: m["name"] for e in section["entrants"] for m in e.get("members") or []}
    assert by_id and all(p[side] in by_id for p in rnd["pairings"] for side in ("first", "second")), rnd
    slips = texts[("rounds/1/slips.pdf", "zh")]
    assert slips.count("对局记录单") == len(rnd["pairings"]) and "—" not in slips
    for sheet in ("rounds/1/pairings.pdf", "rounds/1/slips.pdf"):
        for lang in ("zh", "en"):
            flat = _flat(texts[(sheet, lang)])
            missing = [
                by_id[p[s]] for p in rnd["pairings"] for s in ("first", "second") if _flat(by_id[p[s]]) not in flat
            ]
            assert not missing, (sheet, lang, missing)
            # never a team and board in place of a player ("北京 第 1 台" / "Beijing, board 1")
            said = [
                _flat(f"{t} 第 {n} 台" if lang == "zh" else f"{t}, board {n}")
                for t in teams.values()
                for n in (1, 2, 3)
            ]
            assert not [x for x in said if x in flat], (sheet, lang)
    table = texts[("standings.pdf", "zh")]
    assert all(word in table for word in ("次分", "团体总局分", "队伍", "表头说明", "次分：各场比赛（队对队）得分之和"))
    assert all(row["name"] in table for row in standings["standings"])
    table = texts[("standings.pdf", "en")]
    assert "Match points: the points of the matches (team against team)" in table
    assert "Total game points: the points of all the team's games on every board (board points)" in table
    certificates = texts[("certificates.pdf", "zh")]
    assert "2023年全国五子棋团体锦标赛" in certificates and "在混合团体比赛中荣获第 1 名" in certificates
    assert awards["places"][0]["name"] in certificates and "最佳台次证书" in certificates
    assert event["organiser_zh"] and not event.get("venue")
    for lang, organiser in (("zh", f"主办单位：{event['organiser_zh']}"), ("en", f"Organiser: {event['organiser']}")):
        pages = _pages(texts[("certificates.pdf", lang)])
        assert pages and all(_flat(organiser) in _flat(p) for p in pages), lang
        assert "比赛地点" not in texts[("certificates.pdf", lang)] and "Venue" not in texts[("certificates.pdf", lang)]


async def test_sz_cancelled_sections_say_so_and_played_ones_print_whole(sz_served):
    """SZ 2022 (small field): a section cancelled at closing has no printouts and says so in the
    page's language (not "not yet published"); the sections that were played print whole."""
    served, code = sz_served
    platform = platform_at(served)
    try:
        listed = await platform.get("pairing", f"/v1/events/{code}/sections")
        played = []
        for s in listed["sections"]:
            if s.get("status") != "cancelled" and s.get("current_round"):
                played.append(await platform.get("pairing", f"/v1/events/{code}/sections/{s['section_id']}"))
    finally:
        await platform.aclose()
    cancelled = [s["section_id"] for s in listed["sections"] if s.get("status") == "cancelled"]
    assert cancelled and played, listed
    names = {s["section_id"]: s["name"] for s in listed["sections"]}
    for sid in cancelled[:2]:
        for sheet in ("certificates.pdf", "standings.pdf", "crosstable.pdf"):
            r = httpx.get(f"{served}/events/{code}/sections/{sid}/{sheet}", timeout=60)
            assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
            text = _text(r.content)
            assert "本组别已取消，没有名次，也没有证书。" in text and "获奖名单尚未公布" not in text
            assert "2022年深圳市五子棋锦标赛" in text and not re.search(r"[A-Za-z]{2,}", text), text
            text = _text(httpx.get(f"{served}/events/{code}/sections/{sid}/{sheet}?lang=en", timeout=60).content)
            assert "This section was cancelled: it has no places and no certificates." in text
            assert names[sid] in text and not CJK.search(text), text
    for section in played[:1]:
        texts = _printouts(served, code, section["section_id"])
        own = [e["name"] for e in section["entrants"]] + [e["unit"] for e in section["entrants"] if e.get("unit")]
        _one_language(texts, own)
        assert "2022年深圳市五子棋锦标赛" in texts[("standings.pdf", "zh")]
