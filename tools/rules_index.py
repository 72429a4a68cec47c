"""Build docs/rules.md, the index of the competition rules the platform enforces: each rule id
(EVT-, REG-, PAIR-, PLAY-, AWD-) with a short title, the seed clauses cited beside it, the module
that owns it and the tests that name it.

Everything comes from the repository itself: the ids and clauses cited in code, presets, words and
docs, the ``ID: what it says`` lines in docstrings and comments (the title), and the tests whose
name (``test_reg14_…``) or docstring names the id. Run it after changing a rule or its tests:

    .venv/bin/python tools/rules_index.py            # rewrites docs/rules.md
    .venv/bin/python tools/rules_index.py --check    # exit 1 when docs/rules.md is stale

``tests/architecture/test_rules_index.py`` runs the check.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = Path("docs/rules.md")

#: the families of rule ids, in the order the index lists them
FAMILIES = ("EVT", "REG", "PAIR", "PLAY", "AWD")
RULE = re.compile(r"\b(EVT|REG|PAIR|PLAY|AWD)-(\d+)\b")
#: the same id as a test names it: test_reg14_…, test_pair6_evt7_…
RULE_IN_NAME = re.compile(r"(?:^|_)(evt|reg|pair|play|awd)(\d+)(?=_|$)")
#: a seed clause: the event, the section's number, then items, e.g. NY 十二(三), DA 十(一)3
CLAUSE = re.compile(r"\b(SZ|NY|DA|NT) ([一二三四五六七八九十]+)((?:[(（][一二三四五六七八九十]+[)）])*)(\d*)")
#: "ID: what it says" (or "ID —"), the text a title is taken from
DESCRIBED = re.compile(r"\b((?:EVT|REG|PAIR|PLAY|AWD)-\d+)(?:\s*/\s*(?:EVT|REG|PAIR|PLAY|AWD)-\d+)*\s*(?::|—)\s+(\S.*)")

#: folders read (relative to the root); the index itself and the change log are not sources
SOURCE_ROOTS = ("shared/src", "services", "sim/src", "clients/python/src", "ops/src")
TEST_ROOTS = ("shared/tests", "services", "sim/tests", "ops/tests", "clients/python/tests", "tests")
DOC_FILES = ("README.md", "CONTRIBUTING.md", "docs")
#: a Markdown heading naming one rule: "## Schedule (EVT-7)"
HEADING = re.compile(r"^#+ (.+?) \(((?:EVT|REG|PAIR|PLAY|AWD)-\d+)\)\s*$")
#: what may precede an "ID: …" that opens a docstring, a comment or a list item
LINE_START = re.compile(r"^\s*(?:[rf]?\"\"\"|#:?|[-*]|\|)?\s*$")
SUFFIXES = (".py", ".pyx", ".yaml", ".toml", ".md")
SKIPPED_PARTS = {"__pycache__", ".venv", ".tools", "node_modules", "test-output"}


def rule_key(rule: str) -> tuple[int, int]:
    family, number = rule.split("-")
    return FAMILIES.index(family), int(number)


def _files(roots: Iterable[str]) -> Iterator[Path]:
    for name in roots:
        base = ROOT / name
        paths = [base] if base.is_file() else sorted(base.rglob("*"))
        for path in paths:
            relative = path.relative_to(ROOT)
            if path.suffix in SUFFIXES and path.is_file() and not SKIPPED_PARTS & set(relative.parts):
                yield relative


def is_test_file(path: Path) -> bool:
    return "tests" in path.parts


def clauses_in(text: str) -> list[str]:
    found = []
    for event, section, items, number in CLAUSE.findall(text):
        items = items.replace("（", "(").replace("）", ")")
        found.append(f"{event} {section}{items}{number}")
    return found


def _title_from(text: str) -> str:
    """The first clause of a description: up to a sentence end, a semicolon or a bracket."""
    text = text.strip().strip('"').strip()
    cut = re.split(r"(?<=[.;])\s|\s\(|;|\"\"\"|: (?=[a-z])", text, maxsplit=1)[0].rstrip(".;:, ")
    if len(cut) > 90:
        cut = cut[:90].rsplit(" ", 1)[0] + " …"
    return cut


@dataclass
class Rule:
    rule: str
    clauses: Counter[str] = field(default_factory=Counter)
    source_lines: Counter[Path] = field(default_factory=Counter)
    #: source modules whose docstring names the rule: 2 on its first line, 1 further down
    docstring_weight: Counter[Path] = field(default_factory=Counter)
    tests: Counter[Path] = field(default_factory=Counter)
    descriptions: list[Description] = field(default_factory=list)

    def owner(self) -> Path | None:
        """The source module citing the rule most often, a domain (or engine) module first."""
        if not self.source_lines:
            return None

        def rank(item: tuple[Path, int]) -> tuple[int, int, int, str]:
            path, count = item
            kind = 0 if _is_rules_module(path) and path.name != "__init__.py" else 1
            if "event_config" in path.parts:  # the rule's numbers, not the rule itself
                kind = 1
            return (kind, -self.docstring_weight[path], -count, path.as_posix())

        return min(self.source_lines.items(), key=rank)[0]

    def title(self) -> str:
        """The best description found: a doc heading naming this rule alone, then an ``ID: …``
        line opening a rules module, of the owner, of another rules module, of a test, of other
        code, then any."""
        owner = self.owner()

        def rank(candidate: Description) -> tuple[int, str, int]:
            path = Path(candidate.path)
            if candidate.kind == "heading":
                order = 0
            elif candidate.kind == "line_start":
                if candidate.line == 1 and _is_rules_module(path):  # what a rules module is for
                    order = 1
                elif path == owner:
                    order = 2
                elif _is_rules_module(path):
                    order = 3
                elif is_test_file(path):
                    order = 4
                else:
                    order = 5
            else:
                order = 6 if path == owner else 7
            return order, candidate.path, candidate.line

        if not self.descriptions:
            return ""
        return _title_from(min(self.descriptions, key=rank).text)


@dataclass(frozen=True)
class Description:
    #: "heading" (a doc heading naming this rule alone), "line_start" (a docstring, comment or
    #: list item opening with "ID: …") or "mid" ("ID: …" inside a line)
    kind: str
    path: str
    line: int
    text: str


def _is_rules_module(path: Path) -> bool:
    rules_folder = bool({"domain", "engine", "event_config"} & set(path.parts))
    return rules_folder and not is_test_file(path) and path.suffix in (".py", ".pyx")


def _service_of(path: Path) -> str:
    parts = path.parts
    if parts[0] == "services":
        return parts[1]
    return {"shared": "shared", "sim": "simulator", "clients": "client", "ops": "ops"}.get(parts[0], parts[0])


def _tests_naming(path: Path, text: str) -> Iterator[str]:
    """A rule id once per test function naming it in its name or docstring (a module docstring
    naming it counts for the whole file once)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    module_doc = ast.get_docstring(tree) or ""
    named_by_functions: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
            ids = {f"{family.upper()}-{number}" for family, number in RULE_IN_NAME.findall(node.name)}
            ids |= {f"{family}-{number}" for family, number in RULE.findall(ast.get_docstring(node) or "")}
            named_by_functions |= ids
            yield from sorted(ids)
    for family, number in sorted(set(RULE.findall(module_doc))):
        if f"{family}-{number}" not in named_by_functions:
            yield f"{family}-{number}"


def collect() -> dict[str, Rule]:
    rules: dict[str, Rule] = {}

    def rule(rule_id: str) -> Rule:
        return rules.setdefault(rule_id, Rule(rule_id))

    seen: set[Path] = set()
    for path in [*_files(SOURCE_ROOTS), *_files(TEST_ROOTS), *_files(DOC_FILES)]:
        if path in seen or path == OUTPUT or path.name == "CHANGELOG.md":
            continue
        seen.add(path)
        text = (ROOT / path).read_text(encoding="utf-8")
        testing = is_test_file(path)
        if testing and path.suffix == ".py" and path.name.startswith("test_"):
            for rule_id in _tests_naming(path, text):
                rule(rule_id).tests[path] += 1
        for number, line in enumerate(text.splitlines(), 1):
            ids = {f"{family}-{n}" for family, n in RULE.findall(line)}
            ids |= {f"{family.upper()}-{n}" for family, n in RULE_IN_NAME.findall(_test_names(line))}
            if not ids:
                continue
            clauses = clauses_in(line)
            for rule_id in ids:
                entry = rule(rule_id)
                entry.clauses.update(clauses)
                if not testing and path.suffix in (".py", ".pyx") and path.parts[0] != "docs":
                    entry.source_lines[path] += 1
            heading = HEADING.match(line)
            if heading and len(ids) == 1 and path.suffix == ".md":
                rule(heading.group(2)).descriptions.append(
                    Description("heading", path.as_posix(), number, heading.group(1))
                )
            for described in DESCRIBED.finditer(line):
                opening = LINE_START.match(line[: described.start()]) is not None
                kind = "line_start" if opening else "mid"
                rule(described.group(1)).descriptions.append(
                    Description(kind, path.as_posix(), number, described.group(2))
                )
        if not testing and path.suffix == ".py":
            _weigh_docstring(rules, path, text)
    return rules


def _weigh_docstring(rules: dict[str, Rule], path: Path, text: str) -> None:
    try:
        docstring = ast.get_docstring(ast.parse(text)) or ""
    except SyntaxError:
        return
    first, _, rest = docstring.partition("\n")
    for weight, part in ((2, first), (1, rest)):
        for family, number in set(RULE.findall(part)):
            if f"{family}-{number}" in rules:
                rules[f"{family}-{number}"].docstring_weight[path] += weight


def _test_names(line: str) -> str:
    """The test names a line mentions (docs/seed-clauses.md lists tests as ``file::test``)."""
    return " ".join(re.findall(r"\btest_\w+", line))


def _clause_order(clause: str) -> tuple[int, str]:
    return ("SZ", "NY", "DA", "NT").index(clause[:2]), clause


def render(rules: dict[str, Rule]) -> str:
    ordered = sorted(rules.values(), key=lambda entry: rule_key(entry.rule))
    lines = [
        "# Rules index",
        "",
        "Every rule the platform enforces has an id (`EVT-` the event and its presets, `REG-`",
        "registration, `PAIR-` pairing and standings, `PLAY-` the games, `AWD-` awards). This page",
        "lists, for each id, a short title, the seed clauses cited beside it (the regulations are",
        "named as in [seed-clauses.md](seed-clauses.md): `SZ`, `NY`, `DA`, `NT` and the clause's",
        "numbers), the module that owns it and the tests that name it.",
        "",
        "It is generated from the repository (`python tools/rules_index.py`) and must not be edited by",
        "hand; `tests/architecture/test_rules_index.py` fails when it is stale. The title is the first",
        "`ID: …` description found, a rules module's docstring first; the owner is the `domain/` (or engine)",
        "module citing the id most often; a test names a rule in its name (`test_reg14_…`) or its",
        "docstring.",
        "",
        "| rule | title | owner | seed clauses | tests |",
        "|---|---|---|---|---|",
    ]
    for entry in ordered:
        owner = entry.owner()
        owner_cell = f"{_service_of(owner)}: `{_module_name(owner)}`" if owner else "—"
        clauses = ", ".join(sorted(entry.clauses, key=_clause_order)) or "—"
        title = entry.title().replace("|", "\\|") or "—"
        count = sum(entry.tests.values())
        lines.append(f"| [{entry.rule}](#{entry.rule.lower()}) | {title} | {owner_cell} | {clauses} | {count} |")
    for entry in ordered:
        owner = entry.owner()
        lines += ["", f"## {entry.rule}", ""]
        if entry.title():
            lines.append(f"{entry.title()}.")
            lines.append("")
        lines.append(f"- owner: `{owner.as_posix()}` ({_service_of(owner)})" if owner else "- owner: none in code")
        others = sorted(path for path in entry.source_lines if path != owner)
        if others:
            lines.append("- also cited in: " + ", ".join(f"`{path.as_posix()}`" for path in others))
        if entry.clauses:
            lines.append("- seed clauses: " + ", ".join(sorted(entry.clauses, key=_clause_order)))
        if entry.tests:
            lines.append(f"- tests ({sum(entry.tests.values())}):")
            for path, count in sorted(entry.tests.items()):
                lines.append(f"  - `{path.as_posix()}` ({count})")
        else:
            lines.append("- tests: none name it")
    return "\n".join(lines) + "\n"


def _module_name(path: Path) -> str:
    parts = list(path.with_suffix("").parts)
    if "src" in parts:
        parts = parts[parts.index("src") + 1 :]
    return ".".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/rules.md is not up to date")
    args = parser.parse_args(argv)
    text = render(collect())
    target = ROOT / OUTPUT
    if args.check:
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT} is stale: run python tools/rules_index.py", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
