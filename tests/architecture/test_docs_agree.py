"""The docs a newcomer reads first say what the code does (issue 31, "docs a newcomer can trust"):
the event diagrams of README.md and docs/architecture.md list exactly who consumes what
(``gomoku_shared.topology.CONSUMES``), every decision record is linked under its own number, and
no file cites a document that is not in the repository."""

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


#: names of documents that live outside the repository (a rules digest, an architecture note)
OUTSIDE = re.compile(r"\bRULES\.md\b|\bRULES §|\bARCHITECTURE(?:\.md)? §|\bAppendix [AB]\b")


def test_nothing_cites_a_document_outside_the_repository():
    tracked = subprocess.run(
        ["git", "ls-files", "*.py", "*.pyx", "*.md", "*.toml", "*.yaml", "*.yml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    citing = []
    for name in tracked:
        if name == "CHANGELOG.md" or not (ROOT / name).is_file():  # the change log is history
            continue
        for number, line in enumerate((ROOT / name).read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                citing.append(f"{name}:{number}: {line.strip()}")
    assert citing == []
