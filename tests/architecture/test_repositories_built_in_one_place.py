"""Repositories built in one place (issue 31, item 1): no adapters' repository class constructed
in service_layer. A use case takes its repositories from the unit of work it is handed
(``uow.awards``, ``uow.sections``…), so that the tests' in-memory unit of work runs it unchanged;
only ``service_layer/unit_of_work.py`` (the SQL unit of work) builds them, or ``adapters`` itself
(a ``Repositories`` bundle, which a read may open on its own session).

The check walks every service-layer module's AST for a call of a class whose name ends in
``Repository`` imported from the service's ``adapters`` (by name, or as an attribute of an
adapters module under any alias)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")
#: where the SQL unit of work builds the repositories
ONE_PLACE = "unit_of_work.py"

#: Not yet converted (file -> constructions allowed, which may only go down): none left; a service
#: that is being converted lists its files here for a while.
NOT_YET_CONVERTED: dict[str, int] = {}


def _from_adapters(module: str | None) -> bool:
    return "adapters" in (module or "").split(".")


def constructions(source: str) -> list[tuple[int, str]]:
    """(line, class) of each adapters' repository class constructed in ``source``."""
    tree = ast.parse(source)
    classes: set[str] = set()  # repository classes imported by name
    modules: set[str] = set()  # names bound to an adapters module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _from_adapters(node.module):
            for alias in node.names:
                (classes if alias.name.endswith("Repository") else modules).add(alias.asname or alias.name)
        elif isinstance(node, ast.ImportFrom):  # ``from .. import adapters``
            modules.update(alias.asname or alias.name for alias in node.names if alias.name == "adapters")
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in classes:
            found.append((node.lineno, func.id))
        elif (
            isinstance(func, ast.Attribute)
            and func.attr.endswith("Repository")
            and isinstance(func.value, (ast.Name, ast.Attribute))
            and ast.unparse(func.value).split(".")[0] in modules
        ):
            found.append((node.lineno, func.attr))
    return found


def _offences() -> Counter[str]:
    counts: Counter[str] = Counter()
    for service in SERVICES:
        package = ROOT / "services" / service / "src" / service / "service_layer"
        for path in sorted(package.rglob("*.py")):
            if path.name == ONE_PLACE:
                continue
            for _line, _name in constructions(path.read_text(encoding="utf-8")):
                counts[f"{service}/{path.relative_to(package)}"] += 1
    return counts


def test_the_walker_sees_a_repository_built():
    """The check itself: by name, under an alias, through a module; a bundle or a port is not."""
    source = (
        "from ..adapters.repository import AwardsRepository as AR, Publication\n"
        "from ..adapters import season_repository as sr\n"
        "from ..adapters.repositories import Repositories\n"
        "from .ports import FakeRepository\n"
        "def f(uow):\n"
        "    AR(uow.session)\n"
        "    sr.SeasonRepository(uow.session)\n"
        "    Repositories(uow.session).awards\n"
        "    FakeRepository()\n"
        "    Publication()\n"
    )
    assert constructions(source) == [(6, "AR"), (7, "SeasonRepository")]


def test_no_adapters_repository_class_constructed_in_service_layer():
    counts = _offences()
    over = {name: count for name, count in sorted(counts.items()) if count > NOT_YET_CONVERTED.get(name, 0)}
    assert not over, f"repositories built outside {ONE_PLACE} (take them from the unit of work): {over}"


def test_the_not_yet_converted_list_only_shrinks():
    counts = _offences()
    fewer = {name: counts.get(name, 0) for name, allowed in NOT_YET_CONVERTED.items() if counts.get(name, 0) < allowed}
    assert not fewer, f"fewer repositories built here now: lower (or delete) their NOT_YET_CONVERTED lines: {fewer}"
