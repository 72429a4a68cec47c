"""Every public page of a finished event, in both languages, says things in words: a crawl from the
event's home page through every link on the site (pages and printouts, not the staff console)
fails on any raw identifier in the text a reader sees — a snake_case token (``finisher_medal``,
``first_forfeit_win``) or an entrant / pairing id (``nc1.online.men-pro.0007f1``). A value the
pages do not know is shown as "—" (portal/i18n.py), never raw."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import httpx
from browser_kit import platform_at
from pypdf import PdfReader

#: snake_case tokens, and dotted ids of three parts or more with a hex-ish or numbered tail
RAW = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z0-9-]+(?:\.[a-z0-9-]+){2,}\b")
#: links that are not pages to read: the console, downloads of game records and data
SKIP = re.compile(r"^/(staff|static|live)(/|$)|/events$|\.(psq|txt|json|csv|trf)$|/record\.")


class _Text(HTMLParser):
    """The text a reader sees (no scripts, styles or attributes) and the links."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.links: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._hidden += 1
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.links.append(href)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.text.append(data)


def _raw_in(text: str) -> list[str]:
    return sorted({m.group(0) for m in RAW.finditer(text)})


async def _crawl(base: str, start: str, lang: str) -> tuple[dict[str, list[str]], int]:
    found: dict[str, list[str]] = {}
    seen: set[str] = set()
    queue = [start]
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        while queue:
            path = queue.pop()
            if path in seen:
                continue
            seen.add(path)
            answer = await client.get(path, params={"lang": lang})
            assert answer.status_code == 200, (path, answer.status_code)
            if answer.headers["content-type"].startswith("application/pdf"):
                text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(answer.content)).pages)
                links: list[str] = []
            else:
                parser = _Text()
                parser.feed(answer.text)
                text, links = " ".join(parser.text), parser.links
            if raw := _raw_in(text):
                found[path] = raw
            for link in links:
                target = urlsplit(urljoin(path, link))
                if target.netloc or SKIP.search(target.path) or not target.path.startswith("/events/"):
                    continue
                queue.append(target.path)
    return found, len(seen)


def test_the_pattern_catches_what_it_must():
    assert _raw_in("奖品：finisher_medal") == ["finisher_medal"]
    assert _raw_in("对手 nc1.online.men-pro.0007f1 胜") == ["nc1.online.men-pro.0007f1"]
    assert _raw_in("第 2.5 分，Wu Feng，2023-05-01，10.25") == []


async def test_every_public_page_of_a_finished_event_is_in_words_in_both_languages(da_served):
    served, code = da_served
    platform = platform_at(served)
    await platform.aclose()
    for lang in ("zh", "en"):
        found, pages = await _crawl(served, f"/events/{code}", lang)
        assert pages > 20, pages  # the crawl reached sections, rounds, games, players, printouts
        assert found == {}, f"raw identifiers on {lang} pages: {found}"
