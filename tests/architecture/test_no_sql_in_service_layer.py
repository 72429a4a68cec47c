"""One shape in every service (issue 13): SQL lives in `adapters/`, behind the repositories the
unit of work exposes; a service layer asks them for records and never builds a statement.

The check walks the AST of every module of each service's `service_layer/` package and reports
each sqlalchemy statement construction (`select`, `insert`, `update`, `delete`, `text`, `func`, …
from `sqlalchemy` under any alias, and `table.insert()` / `.update()` / `.delete()` / `.select()` on
a table of the service's `orm` module) and each statement run (`.execute`, `.scalar`, `.scalars`,
`.stream`, `exec_driver_sql`, whatever the session is called)."""

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
