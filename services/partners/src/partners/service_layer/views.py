"""What the API shows of partners, credentials and audit entries (never a secret or a hash)."""

from __future__ import annotations

from typing import Any

from ..domain.model import Credential, Partner


def _time(value) -> str | None:
    return value.isoformat() if value is not None else None


def partner(p: Partner) -> dict[str, Any]:
    return {
        "partner_id": p.partner_id,
        "name": p.name,
        "kind": p.kind,
        "role": p.role,
        "scopes": sorted(p.scopes),
        "rate_limit": {"quota": p.rate_limit.quota, "window_s": p.rate_limit.window_s},
        "status": p.status,
        "created_at": _time(p.created_at),
        "suspended_at": _time(p.suspended_at),
    }


def credential(c: Credential) -> dict[str, Any]:
    return {
        "client_id": c.client_id,
        "partner_id": c.partner_id,
        "label": c.label,
        "status": c.status,
        "created_at": _time(c.created_at),
        "rotated_at": _time(c.rotated_at),
        "previous_secret_valid_until": _time(c.previous_valid_until),
        "revoked_at": _time(c.revoked_at),
        "last_used_at": _time(c.last_used_at),
    }


def audit(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(row["id"]),
        "at": _time(row["at"]),
        "actor": row["actor"],
        "action": row["action"],
        "outcome": row["outcome"],
        "partner_id": row["partner_id"],
        "client_id": row["client_id"],
        "details": row["details"],
        "correlation_id": row["correlation_id"],
    }
