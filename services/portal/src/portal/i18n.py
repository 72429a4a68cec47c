"""Every word the pages show, in Chinese (the default) and English (the tables: ``words/*.toml``).

Values from the services (statuses, reasons, tiebreak names) are looked up as ``group.value``;
a value this table does not know is shown as "—" rather than as a raw identifier.
"""

from __future__ import annotations

import tomllib
from importlib import resources

LANGS = ("zh", "en")
DEFAULT = "zh"

#: the tables of words (``words/*.toml``, key = [zh, en]): the pages', the honours and appeals
#: pages', the staff console's, its result slips', its round times' and staff accounts' (issue 29);
#: the printouts', the pages' states and every service refusal's (issue 28); the season's (issue 32)
TABLES = (
    "pages",
    "honours_appeals",
    "console",
    "slips",
    "slot",
    "people",
    "printouts",
    "states",
    "refusals",
    "entryform",
    "upload",
    "roster",
    "season",
)


def _table(name: str) -> dict[str, tuple[str, str]]:
    with resources.files(__package__).joinpath(f"words/{name}.toml").open("rb") as file:
        loaded = tomllib.load(file)
    table: dict[str, tuple[str, str]] = {}
    for key, pair in loaded.items():
        if not (isinstance(pair, list) and len(pair) == len(LANGS) and all(isinstance(w, str) for w in pair)):
            raise ValueError(f"words/{name}.toml: {key} is not [zh, en]")
        table[key] = (pair[0], pair[1])
    return table


def _words() -> dict[str, tuple[str, str]]:
    words: dict[str, tuple[str, str]] = {}
    for name in TABLES:
        table = _table(name)
        twice = sorted(set(table) & set(words))
        if twice:
            raise ValueError(f"words/{name}.toml: {twice} defined in another table too")
        words.update(table)
    return words


_T = _words()
#: the 26 openings of the professional rules by code: Chinese and international names
OPENINGS = _table("openings")


_ZH_NUMBERS = dict(enumerate("一二三四五六七八九", start=1))


def pick(lang: str | None) -> str:
    return lang if lang in LANGS else DEFAULT


class Words:
    """The words of one language, for templates: ``t("key", n=3)`` and ``v("status", value)``."""

    def __init__(self, lang: str) -> None:
        self.lang = pick(lang)
        self._i = LANGS.index(self.lang)
        # the punctuation between the words: Chinese full-width marks, English ones with their spaces
        zh = self.lang == "zh"
        self.colon = "：" if zh else ": "
        self.lp, self.rp = ("（", "）") if zh else (" (", ")")
        self.sep = "、" if zh else ", "  # between the items of a list
        self.comma = "，" if zh else ", "  # between clauses

    def t(self, key: str, **fmt: object) -> str:
        pair = _T.get(key)
        text = pair[self._i] if pair else "—"
        return text.format(**fmt) if fmt else text

    def v(self, group: str, value: object) -> str:
        """A service's value in words; an unknown value is shown as a dash, never raw."""
        if value is None or value == "":
            return "—"
        return self.t(f"{group}.{value}")

    def opening(self, code: str | None, name: str | None) -> str:
        """One of the 26 openings by its code (D1..D13 direct, I1..I13 indirect)."""
        pair = OPENINGS.get(code or "")
        return pair[self._i] if pair else "—"

    def title(self, title: str | None) -> str:
        """A title by place (AWD-5) such as ``2d`` (two-dan) or ``3k`` (three-kyu)."""
        if not title or len(title) < 2 or not title[:-1].isdigit() or title[-1] not in "dk":
            return "—"
        n, unit = int(title[:-1]), title[-1]
        if self.lang == "en":
            return f"{n}-{'dan' if unit == 'd' else 'kyu'}"
        if unit == "d" and n == 1:
            return "初段"
        return f"{_ZH_NUMBERS.get(n, str(n))}{'段' if unit == 'd' else '级'}"

    def tiebreak(self, name: str, order: list[str]) -> str:
        # SZ online calls the Buchholz 小分 and its sum 小小分 (PAIR-7); elsewhere it is 对手分
        if name == "buchholz" and "buchholz_of_buchholz" in order:
            return self.t("tiebreak.buchholz_small")
        return self.v("tiebreak", name)


def known(key: str) -> bool:
    return key in _T
