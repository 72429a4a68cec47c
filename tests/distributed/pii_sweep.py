"""The PII sweep (issue 27 finding 1): every GET route of every service, read from the service's
own OpenAPI document, with no key, a partner key and a viewer key, and every page of the web
pages (which have no OpenAPI document: their route table) without credentials; path parameters
filled with the real ids a staff read of the answers found. An answer fails when it holds a
seeded person's full birth date or full ID number, or a value the platform shows masked only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import httpx

#: the services with an OpenAPI document (the web pages have none: they read these APIs)
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")
#: the web pages, at the root of the embedded process
PORTAL = "portal"
#: a path parameter may be filled with values found under these keys of earlier answers
ALIASES = {
    "code": ("event_code",),
    "sid": ("section_id",),
    "eid": ("entrant_id",),
    "n": ("round", "n"),
    "round": ("round",),
    "stage": ("stage", "stage_id", "from_stage", "to_stage"),
    "team_section_id": ("team_section_id", "section_id"),
    "player_id": ("player_id", "person_id"),
}
#: values tried per path parameter (the first ids found, in the order found)
PER_PARAMETER = 3
#: reads that are not about the platform's data (and the event streams, which never end)
SKIPPED = re.compile(r"(/metrics$|/stream$|/events$|/live/stats$|\.pdf$|/tile$|/wall$)")
PARAMETER = re.compile(r"{([^}]+)}")


def birth_date_forms(born: date) -> list[str]:
    """How a full birth date may be written in an answer."""
    return [
        born.isoformat(),
        born.strftime("%Y%m%d"),
        born.strftime("%Y/%m/%d"),
        f"{born.year}年{born.month}月{born.day}日",
        f"date({born.year}, {born.month}, {born.day})",
    ]


@dataclass
class Finding:
    who: str
    path: str
    what: str


@dataclass
class Sweep:
    """What was read and what was found."""

    routes: set[tuple[str, str]] = field(default_factory=set)
    unreached: set[tuple[str, str]] = field(default_factory=set)
    answers: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    #: callers that read a public personal value (a player's published name): the search did
    #: look at the people's data
    controls_seen: set[str] = field(default_factory=set)

    def line(self) -> str:
        return (
            f"PII sweep: {len(self.routes)} GET routes of {len(SERVICES)} services and the web pages, {self.answers} answers read "
            f"(statuses {dict(sorted(self.statuses.items()))}), {len(self.unreached)} routes without ids to fill"
        )


def harvest(value: Any, found: dict[str, list[str]]) -> None:
    """Every scalar of a JSON answer under its key, in the order met."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (str, int)) and not isinstance(item, bool) and str(item):
                bucket = found.setdefault(key, [])
                if str(item) not in bucket:
                    bucket.append(str(item))
            harvest(item, found)
    elif isinstance(value, list):
        for item in value:
            harvest(item, found)


def _fillings(path: str, found: Mapping[str, list[str]]) -> list[str]:
    names = PARAMETER.findall(path)
    paths = [path]
    for name in names:
        values: list[str] = []
        for key in ALIASES.get(name, (name,)):
            values += [v for v in found.get(key, []) if v not in values and "/" not in v]
        if not values:
            return []
        paths = [p.replace("{" + name + "}", v) for p in paths for v in values[:PER_PARAMETER]]
    return paths


def get_routes(client: httpx.Client, portal_paths: Iterable[str]) -> dict[str, list[str]]:
    """Per service, the GET paths its OpenAPI document lists; the web pages' own."""
    out = {}
    for service in SERVICES:
        document = client.get(f"/{service}/openapi.json")
        assert document.status_code == 200, document.text
        out[service] = sorted(p for p, ops in document.json()["paths"].items() if "get" in ops)
    out[PORTAL] = sorted(portal_paths)
    return out


def prefix(service: str) -> str:
    return "" if service == PORTAL else f"/{service}"


def discover(client: httpx.Client, staff: Mapping[str, str], routes: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """The ids to fill path parameters with: staff reads of every route whose parameters are known
    by then, a few passes (a list answer gives the ids of the next level's routes)."""
    found: dict[str, list[str]] = {}
    read: set[str] = set()
    for _ in range(4):
        before = sum(len(v) for v in found.values())
        for service, paths in routes.items():
            for path in paths:
                if SKIPPED.search(path) or service == PORTAL:
                    continue
                for filled in _fillings(path, found):
                    url = f"/{service}{filled}"
                    if url in read:
                        continue
                    read.add(url)
                    answer = client.get(url, headers=staff)
                    if answer.status_code == 200 and answer.headers.get("content-type", "").startswith(
                        "application/json"
                    ):
                        harvest(answer.json(), found)
        if sum(len(v) for v in found.values()) == before:
            break
    return found


def sweep(
    client: httpx.Client,
    routes: Mapping[str, list[str]],
    found: Mapping[str, list[str]],
    callers: Mapping[str, Mapping[str, str]],
    secrets: Iterable[tuple[str, str]],
    controls: Iterable[str],
) -> Sweep:
    """Read every GET route as each caller and look for every secret (what, value) in the
    answers, and for the public `controls` (proof that the answers held people's data)."""
    result = Sweep()
    secrets, controls = list(secrets), list(controls)
    for service, paths in routes.items():
        for path in paths:
            if SKIPPED.search(path):
                continue
            result.routes.add((service, path))
            filled = _fillings(path, found)
            if not filled:
                result.unreached.add((service, path))
            for url in filled:
                # the web pages take no API key: their public reader is anyone
                for who, headers in list(callers.items())[: 1 if service == PORTAL else None]:
                    answer = client.get(f"{prefix(service)}{url}", headers=dict(headers))
                    result.answers += 1
                    result.statuses[answer.status_code] = result.statuses.get(answer.status_code, 0) + 1
                    text = answer.text + "\n" + "\n".join(f"{k}: {v}" for k, v in answer.headers.items())
                    for what, value in secrets:
                        if value in text:
                            result.findings.append(Finding(who, f"{prefix(service)}{url}", what))
                    if who not in result.controls_seen and any(value in text for value in controls):
                        result.controls_seen.add(who)
    return result
