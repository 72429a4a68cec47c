"""One shape in every service (issue 13): SQL lives in `adapters/`, behind the repositories the
unit of work exposes; a service layer asks them for records and never builds a statement.

The check walks the AST of every module of each service's `service_layer/` package and reports
each sqlalchemy statement construction (`select`, `insert`, `update`, `delete`, `text`, `func`, …
from `sqlalchemy` under any alias, and `table.insert()` / `.update()` / `.delete()` / `.select()` on
a table of the service's `orm` module) and each statement run (`.execute`, `.scalar`, `.scalars`,
`.stream`, `exec_driver_sql`, whatever the session is called).

Issue 31 goes further: no module outside `adapters/` (and the frozen `migrations/`) imports
SQLAlchemy at all, so a service layer catches domain or port errors (gameplay's
`AlreadyRecorded`), never `sqlalchemy.exc`; an import under `if TYPE_CHECKING:` (a type named in
an annotation) does not count."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("registration", "awards", "gameplay", "pairing", "partners")

#: names that build a statement or an SQL expression
STATEMENT_BUILDERS = {
    "select",
    "insert",
    "update",
    "delete",
    "text",
    "func",
    "union",
    "union_all",
    "exists",
    "literal",
    "literal_column",
    "bindparam",
    "and_",
    "or_",
    "not_",
    "case",
    "cast",
    "column",
    "table",
    "values",
    "tuple_",
    "true",
    "false",
    "null",
    "desc",
    "asc",
    "distinct",
    "lateral",
    "outerjoin",
    "join",
}
#: methods that run a statement
RUNNERS = {"execute", "scalar", "scalars", "stream", "stream_scalars", "exec_driver_sql"}
#: methods of a Table that build a statement
TABLE_STATEMENTS = {"insert", "update", "delete", "select"}

#: Not yet converted (issue 13): none left, every service layer is clean (file -> offences
#: allowed, which could only go down); any offence fails at once.
NOT_YET_CONVERTED: dict[str, int] = {}


def _orm_names(tree: ast.Module) -> set[str]:
    """Names bound to a service's `orm` module or to what is imported from it (its tables)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            for alias in node.names:
                if module.split(".")[-1] == "orm" or (module.split(".")[-1] == "adapters" and alias.name == "orm"):
                    names.add(alias.asname or alias.name)
    return names


def _sqlalchemy_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(aliases of sqlalchemy modules, statement builders imported by name)."""
    modules: set[str] = set()
    builders: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "sqlalchemy" or alias.name.startswith("sqlalchemy."):
                    modules.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "sqlalchemy":
            for alias in node.names:
                if alias.name in STATEMENT_BUILDERS:
                    builders.add(alias.asname or alias.name)
                elif node.module in ("sqlalchemy", "sqlalchemy.sql") and alias.name in ("sql", "expression"):
                    modules.add(alias.asname or alias.name)
    return modules, builders


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def offences(path: Path) -> list[str]:
    """Each statement built or run in the module, as `line: what`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules, builders = _sqlalchemy_names(tree)
    tables = _orm_names(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr in STATEMENT_BUILDERS
        ):
            found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, ast.Name) and node.id in builders and isinstance(node.ctx, ast.Load):
            found.append(f"{node.lineno}: {node.id} (from sqlalchemy)")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in RUNNERS:
                found.append(f"{node.lineno}: {ast.unparse(node.func.value)}.{node.func.attr}(...)")
            elif node.func.attr in TABLE_STATEMENTS and _root_name(node.func.value) in tables:
                found.append(f"{node.lineno}: {ast.unparse(node.func.value)}.{node.func.attr}()")
    return found


def _service_layer_files() -> list[Path]:
    files = []
    for service in SERVICES:
        files.extend(sorted((ROOT / "services" / service / "src" / service / "service_layer").glob("**/*.py")))
    return files


def test_the_walker_sees_statements(tmp_path):
    """The check itself: every form it must catch is caught, plain repository calls are not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import sqlalchemy as sa\nfrom sqlalchemy import select as pick, text\nfrom ..adapters import orm\n"
        "from ..adapters.orm import games\n"
        "async def f(uow, session, s, repo, values):\n"
        "    await session.execute(pick(1))\n    sa.update(t)\n    text('x')\n"
        "    await uow.session.scalar(q)\n    games.insert()\n    orm.entrants.update()\n    await s.execute(q)\n"
        "    await repo.rows('e')\n    await uow.entries.save(x)\n    values.update(a=1)\n",
        encoding="utf-8",
    )
    lines = {int(o.split(":")[0]) for o in offences(sample)}
    assert lines == set(range(6, 13)), offences(sample)


def test_no_sql_in_the_service_layers():
    """No service layer holds SQL (issue 13)."""
    assert len(_service_layer_files()) >= 8  # the four packages were found
    new: dict[str, list[str]] = {}
    grown: dict[str, tuple[int, int]] = {}
    for path in _service_layer_files():
        rel = path.relative_to(ROOT).as_posix()
        found = offences(path)
        if rel in NOT_YET_CONVERTED:
            if len(found) > NOT_YET_CONVERTED[rel]:
                grown[rel] = (len(found), NOT_YET_CONVERTED[rel])
        elif found:
            new[rel] = found
    assert not new, f"SQL in a service layer (move it into adapters/ behind a repository): {new}"
    assert not grown, f"more SQL in a not yet converted service layer (found, allowed): {grown}"


def test_converted_services_stay_converted():
    """Every service is in the awards shape: none of their files may be listed above."""
    services = ("registration", "awards", "pairing", "gameplay")
    assert not [p for p in NOT_YET_CONVERTED if any(f"/{name}/" in p for name in services)]


#: Not yet converted (issue 31): modules outside adapters/ that import sqlalchemy (service ->
#: files, relative to the package; the list may only shrink). None left: a route that must refuse
#: a concurrent duplicate uses ``gomoku_shared.db.concurrent_duplicate_refused``.
SQLALCHEMY_NOT_YET_CONVERTED: dict[str, set[str]] = {}


def sqlalchemy_imports(path: Path) -> list[str]:
    """Each import of sqlalchemy (or a module under it) outside `if TYPE_CHECKING:`, as `line: module`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
        for statement in node.body
        for inner in ast.walk(statement)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        found.extend(f"{node.lineno}: {name}" for name in names if name.split(".")[0] == "sqlalchemy")
    return found


def _outside_adapters(service: str) -> list[Path]:
    package = ROOT / "services" / service / "src" / service
    skipped = (package / "adapters", package / "migrations")
    return [path for path in sorted(package.rglob("*.py")) if not any(path.is_relative_to(s) for s in skipped)]


def test_the_import_walker_sees_sqlalchemy(tmp_path):
    """The check itself: every form of importing sqlalchemy counts, a type-checking import does not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\nimport sqlalchemy\nfrom sqlalchemy.exc import IntegrityError\n"
        "import sqlalchemy.ext.asyncio as sa\nif TYPE_CHECKING:\n    from sqlalchemy.ext.asyncio import AsyncSession\n"
        "def f():\n    from sqlalchemy import select\nfrom .sqlalchemy_notes import x\nimport sqlalchemy_utils\n",
        encoding="utf-8",
    )
    assert [int(found.split(":")[0]) for found in sqlalchemy_imports(sample)] == [2, 3, 4, 8]


def test_sqlalchemy_is_imported_in_adapters_only():
    """Issue 31: SQLAlchemy (its statements, sessions and errors: `sqlalchemy.exc`) belongs to the
    adapters; the service layers catch domain or port errors, the routes reach the service layer."""
    found = {}
    for service in SERVICES:
        package = ROOT / "services" / service / "src" / service
        for path in _outside_adapters(service):
            rel = path.relative_to(package).as_posix()
            if sqlalchemy_imports(path) and rel not in SQLALCHEMY_NOT_YET_CONVERTED.get(service, set()):
                found[f"{service}/{rel}"] = sqlalchemy_imports(path)
    assert not found, f"sqlalchemy imported outside adapters/ (raise a port error there instead): {found}"
    listed = [f"{s}/{rel}" for s, files in SQLALCHEMY_NOT_YET_CONVERTED.items() for rel in files]
    stale = [name for name in listed if not sqlalchemy_imports(ROOT / "services" / name.split("/")[0] / "src" / name)]
    assert not stale, f"converted: remove from SQLALCHEMY_NOT_YET_CONVERTED: {stale}"


def test_no_service_layer_is_listed_as_not_yet_converted():
    """The service layers are all clean of sqlalchemy: none may be listed above."""
    assert not [rel for files in SQLALCHEMY_NOT_YET_CONVERTED.values() for rel in files if "service_layer" in rel]
