"""The punctuation between words is the page's language's: "Black: 张三 (to move: …)" on an
English page, "黑方：张三（轮到：…）" on a Chinese one. The templates write it through the
words (``w.colon``, ``w.lp`` / ``w.rp``, ``w.sep``, ``w.comma``), never as a literal mark."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from test_live_titles import GAME, FakeServices, _app

from portal.i18n import Words

FULL_WIDTH = re.compile(r"[：（），、]")
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
TEMPLATES = Path(__file__).resolve().parents[1] / "src" / "portal" / "templates"


def test_each_language_has_its_own_marks():
    zh, en = Words("zh"), Words("en")
    assert (zh.colon, zh.lp, zh.rp, zh.sep, zh.comma) == ("：", "（", "）", "、", "，")
    assert (en.colon, en.lp, en.rp, en.sep, en.comma) == (": ", " (", ")", ", ", ", ")


def test_no_template_writes_a_full_width_mark_outside_the_words():
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        # the text between the template's tags, and the strings inside them
        outside = JINJA.sub(" ", text)
        inside = " ".join(re.findall(r"'[^']*'", " ".join(JINJA.findall(text))))
        found += [f"{path.name}: {mark}" for mark in FULL_WIDTH.findall(outside + inside)]
    assert found == []


async def test_the_live_board_in_english_has_english_punctuation_and_chinese_in_chinese():
    services = FakeServices()
    services.game = dict(GAME, moves=["h8", "h9"])
    transport = httpx.ASGITransport(app=_app(services))
    async with httpx.AsyncClient(transport=transport, base_url="http://portal") as client:
        en = (await client.get("/games/g1/board?lang=en")).text
        zh = (await client.get("/games/g1/board?lang=zh")).text
    assert "Black: " in en and "Moves: " in en and "Last move: " in en
    assert not FULL_WIDTH.search(re.sub(r"<[^>]+>", "", en)), FULL_WIDTH.findall(en)
    assert "黑方：" in zh and "手数：" in zh and "（轮到：" in zh
    assert "(To act: " in en
