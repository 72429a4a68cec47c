"""Routes and consumers reach the service layer only (issue 31): no module of a service's
``entrypoints/`` imports its ``adapters/`` (reads go through the service layer's query modules,
the tables a shared store works on are handed over by the composition root, ``bootstrap.py``).

Every import counts, at module level or inside a function, relative (``from ..adapters import
orm``) or absolute (``from pairing.adapters.repository import …``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")

#: Not yet converted (file relative to the service's package -> imports allowed; may only go
#: down). Every service's routes are converted: the table stays empty.
NOT_YET_CONVERTED: dict[str, dict[str, int]] = {}
#: entrypoints importing no adapter (pairing, awards, registration and partners since issue 31,
#: gameplay before): kept so
CONVERTED = ("pairing", "awards", "gameplay", "registration", "partners")


def adapter_imports(path: Path, package: Path, service: str) -> list[str]:
    """Each import of ``<service>.adapters`` (or a module under it) in ``path``, as `line: module`."""
    parts = [service, *path.relative_to(package).with_suffix("").parts]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts[: len(parts) - node.level]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            names = [module] + [f"{module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        prefix = f"{service}.adapters"
        if any(name == prefix or name.startswith(prefix + ".") for name in names):
            found.append(f"{node.lineno}: {names[0]}")
    return found


def _offences() -> dict[str, dict[str, list[str]]]:
    out: dict[str, dict[str, list[str]]] = {}
    for service in SERVICES:
        package = ROOT / "services" / service / "src" / service
        for path in sorted((package / "entrypoints").rglob("*.py")):
            found = adapter_imports(path, package, service)
            if found:
                out.setdefault(service, {})[path.relative_to(package).as_posix()] = found
    return out


def test_the_walker_sees_adapter_imports(tmp_path):
    """The check itself: every form of importing the adapters is caught, other imports are not."""
    package = tmp_path / "svc"
    (package / "entrypoints").mkdir(parents=True)
    sample = package / "entrypoints" / "routes.py"
    sample.write_text(
        "from ..adapters import orm\nfrom ..adapters.repository import Repo\nimport svc.adapters.orm\n"
        "from svc import adapters\nfrom svc.adapters import signing\n"
        "def read():\n    from ..adapters.orm import games\n"
        "from ..service_layer import reads\nfrom . import views\nfrom other.adapters import x\n"
        "from ..adapters_notes import y\n",
        encoding="utf-8",
    )
    lines = {int(found.split(":")[0]) for found in adapter_imports(sample, package, "svc")}
    assert lines == {1, 2, 3, 4, 5, 7}


def test_entrypoints_import_no_adapter():
    """Issue 31: the routes of every service reach their service layer only; the
    services not yet converted import no more adapters than listed."""
    assert all((ROOT / "services" / name / "src" / name / "entrypoints").is_dir() for name in SERVICES)
    found = _offences()
    new = {
        service: {
            path: imports
            for path, imports in files.items()
            if len(imports) > NOT_YET_CONVERTED.get(service, {}).get(path, 0)
        }
        for service, files in found.items()
    }
    new = {service: files for service, files in new.items() if files}
    assert not new, f"an entrypoint imports an adapter (read through the service layer instead): {new}"


def test_converted_services_stay_converted():
    assert not [service for service in CONVERTED if service in NOT_YET_CONVERTED]
    assert not [service for service in CONVERTED if service in _offences()]
