"""The docs a newcomer reads first say what the code does (issue 31, "docs a newcomer can trust"):
the event diagrams of README.md and docs/architecture.md list exactly who consumes what
(``gomoku_shared.topology.CONSUMES``), every decision record is linked under its own number, no
file cites a document that is not in the repository or counts four services, every relative link
of the documents resolves, every file and module they name exists, and every section a file
cites is a heading of its document."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from gomoku_shared.topology import CONSUMES

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")
#: a text diagram's line: " publisher ── event(s) (words) ───▶ consumers (words)"
ARROW = re.compile(r"^\s*([a-z]+)\s+── (.+?) ─+▶ (.+)$")
EVENT = re.compile(r"\b[a-z_]+\.[a-z_]+\b")
#: a mermaid edge: "publisher -- event, event --> consumer"
MERMAID_EDGE = re.compile(r"^\s*([a-z]+) -- (.+?) --> ([a-z]+)\s*$")
#: the broadcast every replica receives on a queue of its own (not in the topology)
BROADCAST = "partner.credentials_revoked"


def consumed() -> set[tuple[str, str]]:
    return {(event, service) for service, events in CONSUMES.items() for event in events}


def text_diagram_pairs(text: str) -> set[tuple[str, str]]:
    pairs = set()
    for line in text.splitlines():
        arrow = ARROW.match(line)
        if arrow is None:
            continue
        events = set(EVENT.findall(arrow.group(2).split("(")[0]))
        consumers = {word for word in re.findall(r"[a-z]+", arrow.group(3).split("(")[0]) if word in SERVICES}
        pairs |= {(event, service) for event in events - {BROADCAST} for service in consumers}
    return pairs


def test_the_readme_event_diagram_is_the_topology():
    assert text_diagram_pairs((ROOT / "README.md").read_text(encoding="utf-8")) == consumed()


def test_the_architecture_diagrams_are_the_topology():
    text = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    assert text_diagram_pairs(text) == consumed()
    mermaid = set()
    for line in text.splitlines():
        edge = MERMAID_EDGE.match(line)
        if edge and edge.group(3) in SERVICES:
            mermaid |= {(event, edge.group(3)) for event in EVENT.findall(edge.group(2))}
    assert mermaid == consumed()


def test_every_decision_record_is_linked_under_its_own_number():
    records = sorted(path.name for path in (ROOT / "docs/adr").glob("[0-9][0-9][0-9][0-9]-*.md"))
    assert records
    for name in records:
        title = (ROOT / "docs/adr" / name).read_text(encoding="utf-8").splitlines()[0]
        assert title.startswith(f"# ADR {name[:4]}:"), (name, title)
    for index in ("docs/adr/README.md", "docs/architecture.md"):
        text = (ROOT / index).read_text(encoding="utf-8")
        assert [name for name in records if name not in text] == [], f"{index} misses records"
    for path in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for label, target in re.findall(
            r"\[(?:ADR )?(\d{4})\]\((?:[^)]*/)?(\d{4})-[^)]*\.md\)", path.read_text("utf-8")
        ):
            assert label == target, f"{path.relative_to(ROOT)}: ADR {label} links to the {target} file"


#: names of documents that live outside the repository (a rules digest, an architecture note, the
#: seed regulations' own files, a sibling checkout)
OUTSIDE = re.compile(
    r"\bRULES\.md\b|\bRULES §|\bARCHITECTURE(?:\.md)? §|\bAppendix [AB]\b|\brules digest\b"
    r"|\b\d{3}_[0-9a-f]{16}\.txt\b|\.\./shared\b"
)


def tracked(*patterns: str) -> list[str]:
    """The repository's files matching ``patterns`` (all of them without), present on disk."""
    names = subprocess.run(
        ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return [name for name in names if (ROOT / name).is_file()]


def lines_matching(pattern: re.Pattern[str], names: list[str]) -> list[str]:
    """``file:line: text`` of every line of ``names`` where ``pattern`` occurs (the change log,
    which is history, and this file, which names what it looks for, aside)."""
    found = []
    for name in names:
        if name in ("CHANGELOG.md", "tests/architecture/test_docs_agree.py"):
            continue
        for number, line in enumerate((ROOT / name).read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{name}:{number}: {line.strip()}")
    return found


SOURCES = ("*.py", "*.pyx", "*.md", "*.toml", "*.yaml", "*.yml")


def test_nothing_cites_a_document_outside_the_repository():
    assert lines_matching(OUTSIDE, tracked(*SOURCES)) == []


#: the platform's count of services said wrong (there are six: five and the portal); "the four
#: competition services" (registration, pairing, gameplay, awards) is a subset and stays
STALE_COUNT = re.compile(r"\b(?:four|4) (?:services|apps|mounts)\b", re.IGNORECASE)


def test_no_file_counts_four_services():
    assert lines_matching(STALE_COUNT, tracked(*SOURCES)) == []


def documents() -> list[str]:
    """What a newcomer reads: the README, CONTRIBUTING, docs/ and the services' READMEs."""
    return [
        name
        for name in tracked("*.md")
        if name in ("README.md", "CONTRIBUTING.md") or name.startswith("docs/") or name.endswith("/README.md")
    ]


#: a relative link of a markdown document: ``[words](target)``
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_every_relative_link_of_the_documents_resolves():
    broken = []
    for name in documents():
        for target in LINK.findall((ROOT / name).read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address, a mail address, an anchor of the same page
            if not ((ROOT / name).parent / target.split("#")[0]).exists():
                broken.append(f"{name}: {target}")
    assert broken == []


#: a file named in backquotes (``path/to/file.py``, or ``file.py::test``); URL paths (a leading
#: slash) and output files (json, csv) are not files of the repository
NAMED_FILE = re.compile(r"`([\w./-]+\.(?:py|pyx|pxi|md|toml|yaml|yml))(?=`|::)")
#: docs/seed-clauses.md shortens its paths (said at its top)
SHORTENED = {
    "reg/": "services/registration/src/registration/",
    "pair/": "services/pairing/src/pairing/",
    "play/": "services/gameplay/src/gameplay/",
    "awd/": "services/awards/src/awards/",
    "cfg/": "shared/src/gomoku_shared/event_config/",
}


def named_file_exists(name: str, files: set[str], folders: set[str]) -> bool:
    """A path from the root, or the tail of one (``service_layer/reads.py``, ``test_x.py``)."""
    name = name.removeprefix("./")
    return name in files or name in folders or any(path.endswith("/" + name) for path in files)


def test_every_file_the_documents_name_exists():
    """A module renamed or moved leaves no stale path in the docs (``pair/service_layer/x.py``
    where the code has ``y.py``): every file a document names in backquotes exists."""
    files = set(tracked())
    folders = {parent.as_posix() for name in files for parent in Path(name).parents if parent != Path(".")}
    missing = []
    for name in documents():
        for mentioned in NAMED_FILE.findall((ROOT / name).read_text(encoding="utf-8")):
            if mentioned.startswith("/"):
                continue
            full = mentioned
            if name == "docs/seed-clauses.md":
                for short, long in SHORTENED.items():
                    if mentioned.startswith(short):
                        full = long + mentioned[len(short) :]
            if not named_file_exists(full, files, folders):
                missing.append(f"{name}: {mentioned}")
    assert missing == []


#: the import roots of the packages, to find a dotted name a document gives (``pairing.domain.x.Y``)
PACKAGES = {
    "gomoku_shared": "shared/src",
    "registration": "services/registration/src",
    "pairing": "services/pairing/src",
    "gameplay": "services/gameplay/src",
    "awards": "services/awards/src",
    "partners": "services/partners/src",
    "portal": "services/portal/src",
    "gomoku_sim": "sim/src",
    "gomoku_ops": "ops/src",
    "gomoku_client": "clients/python/src",
}
DOTTED = re.compile(r"`((?:" + "|".join(PACKAGES) + r")(?:\.\w+)+)")


def dotted_name_resolves(dotted: str) -> bool:
    """``package.module.name``: the modules exist and the module mentions the name. A name whose
    second part is no module of the package is a configuration key or a staff action
    (``registration.closes_at``, ``awards.publish``), not checked here."""
    parts = dotted.split(".")
    here = ROOT / PACKAGES[parts[0]] / parts[0]
    if not ((here / parts[1]).is_dir() or (here / f"{parts[1]}.py").is_file()):
        return True
    for index, part in enumerate(parts[1:], 1):
        if (here / part).is_dir():
            here = here / part
            continue
        module = here / f"{part}.py"
        if module.is_file():
            rest = parts[index + 1 :]
            return not rest or re.search(rf"\b{rest[0]}\b", module.read_text(encoding="utf-8")) is not None
        init = here / "__init__.py"
        return init.is_file() and re.search(rf"\b{part}\b", init.read_text(encoding="utf-8")) is not None
    return True


def test_every_module_the_documents_name_exists():
    stale = [
        f"{name}: {dotted}"
        for name in documents()
        for dotted in DOTTED.findall((ROOT / name).read_text(encoding="utf-8"))
        if not dotted_name_resolves(dotted)
    ]
    assert stale == []


def test_the_document_checks_find_what_is_stale():
    """The checks themselves: a moved module, a renamed function, a shortened path's file."""
    files = {"services/pairing/src/pairing/service_layer/reads.py"}
    folders = {"services/pairing/src/pairing/service_layer"}
    assert named_file_exists("service_layer/reads.py", files, folders)
    assert not named_file_exists("service_layer/queries_old.py", files, folders)
    assert not named_file_exists("pair/service_layer/reads.py", files, folders)  # unexpanded
    assert dotted_name_resolves("pairing.domain.aggregate.Section")
    assert not dotted_name_resolves("pairing.domain.aggregate.NoSuchThing")
    assert not dotted_name_resolves("pairing.service_layer.no_such_module")
    assert dotted_name_resolves("registration.closes_at")  # a configuration key
    assert OUTSIDE.search("see RULES.md Appendix A") and STALE_COUNT.search("the four services")


#: a citation of a document's section: ``(docs/api.md, "Webhooks")``, ``README "Run modes"``
CITATION = re.compile(
    r"\b(docs/[\w-]+\.md|README(?:\.md)?|CONTRIBUTING(?:\.md)?)[,:]?\s+(?:section\s+)?[\"“]([^\"”]{3,80})[\"”]"
)


def headings(name: str) -> list[str]:
    return [
        line.lstrip("#").strip().lower()
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    ]


def cited_section_exists(citing: str, document: str, section: str) -> bool:
    """The section is (part of) a heading of the document; a README cited from inside a
    service may be that service's own."""
    document = document if document.endswith(".md") else f"{document}.md"
    candidates = [document]
    if document == "README.md" and citing.startswith("services/"):
        candidates.insert(0, "/".join(citing.split("/")[:2]) + "/README.md")
    section = section.lower()
    return any((ROOT / name).is_file() and any(section in heading for heading in headings(name)) for name in candidates)


def test_every_cited_section_is_a_heading_of_its_document():
    """A docstring or document that sends the reader to ``(docs/x.md, "Section")`` names a
    heading that is there (a renamed section leaves no citation behind)."""
    stale = []
    for name in tracked(*SOURCES):
        if name in ("CHANGELOG.md", "tests/architecture/test_docs_agree.py"):
            continue
        text = re.sub(r"\s*\n\s*(?:#:?\s*)?", " ", (ROOT / name).read_text(encoding="utf-8"))
        for document, section in CITATION.findall(text):
            if not cited_section_exists(name, document, section):
                stale.append(f'{name}: {document} "{section}"')
    assert stale == []
    assert not cited_section_exists("docs/api.md", "docs/architecture.md", "No such section")
