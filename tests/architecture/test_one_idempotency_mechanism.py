"""One idempotency mechanism (issue 31, item 1): every service keeps its keys in the shared
table shape and runs its keyed requests through ``gomoku_shared.idempotency.keyed_transaction``.

The one exception is named with its reason: gameplay's player actions, where a batch of many
requests' moves is one statement (the group commit, ADR 0003) and the statement stores each key
with its move; they still use the shared table and ``IdempotencyStore``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")
#: services whose keyed requests do not run through keyed_transaction, and why
GROUP_COMMIT = {"gameplay": "player actions are group-committed: one statement stores many requests' keys (ADR 0003)"}
#: what a service imports when it takes an Idempotency-Key from a request
ACCEPTS_KEYS = {"IdemKey", "keyed_request", "HEADER"}


def shared_names(source: str) -> set[str]:
    """Names ``source`` imports from ``gomoku_shared.idempotency``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "gomoku_shared.idempotency":
            names.update(alias.name for alias in node.names)
    return names


def _imports(service: str) -> set[str]:
    package = ROOT / "services" / service / "src" / service
    names: set[str] = set()
    for path in package.rglob("*.py"):
        if "migrations" not in path.parts:
            names |= shared_names(path.read_text(encoding="utf-8"))
    return names


def test_the_walker_reads_imports_from_the_shared_module():
    source = (
        "from gomoku_shared.idempotency import IdemKey, keyed_transaction as kt\n"
        "from gomoku_shared.errors import Conflict\n"
        "def f():\n"
        "    from gomoku_shared.idempotency import IdempotencyStore\n"
    )
    assert shared_names(source) == {"IdemKey", "keyed_transaction", "IdempotencyStore"}


def test_every_service_that_takes_keys_runs_them_through_keyed_transaction():
    takers = {service for service in SERVICES if _imports(service) & ACCEPTS_KEYS}
    assert {"registration", "pairing", "partners", "gameplay"} <= takers  # the check sees the services that do
    without = {s for s in takers if "keyed_transaction" not in _imports(s) and s not in GROUP_COMMIT}
    assert not without, f"keyed requests outside gomoku_shared.idempotency.keyed_transaction: {sorted(without)}"


def test_the_group_committed_path_keeps_the_shared_store_and_table():
    for service in GROUP_COMMIT:
        assert {"IdempotencyStore", "idempotency_table"} <= _imports(service), service


def test_every_idempotency_table_is_the_shared_shape():
    """No service declares its own ``idempotency_keys`` table: each builds it with
    ``idempotency_table`` (its migration creates it)."""
    for service in SERVICES:
        orm = ROOT / "services" / service / "src" / service / "adapters" / "orm.py"
        text = orm.read_text(encoding="utf-8")
        assert 'Table("idempotency_keys"' not in text and "Table('idempotency_keys'" not in text, service
        if "idempotency" in text:
            assert "idempotency_table" in shared_names(text), service
