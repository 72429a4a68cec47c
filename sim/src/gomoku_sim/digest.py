"""The run's outcome as canonical JSON and its digest: equal digests = the same event outcome
(the embedded and the distributed runs of one seed compare by it)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

#: keys whose values are wall-clock or random per run (never part of a comparison)
VOLATILE_KEYS = frozenset(
    {
        "at",
        "occurred_at",
        "published_at",
        "created_at",
        "updated_at",
        "received_at",
        "event_id",
        "causation_id",
        "correlation_id",
        "timestamp",
        "generated_at",
        "decided_at",
        "recorded_at",
        "finished_at",
        "started_at",
        "submitted_at",
    }
)


def canonical(obj: Any) -> Any:
    """``obj`` without volatile keys (see VOLATILE_KEYS), dicts with sorted keys (the summary a
    run keeps: every key the services answered, None values included)."""
    if isinstance(obj, Mapping):
        return {k: canonical(obj[k]) for k in sorted(obj) if k not in VOLATILE_KEYS}
    if isinstance(obj, (list, tuple)):
        return [canonical(x) for x in obj]
    return obj


def _outcome(obj: Any) -> Any:
    """What a digest compares: ``canonical`` without keys whose value is None. An optional field
    left empty says nothing of the outcome: a release that adds one (contracts grow by optional
    fields only) digests the same outcome alike."""
    if isinstance(obj, Mapping):
        return {k: _outcome(obj[k]) for k in sorted(obj) if k not in VOLATILE_KEYS and obj[k] is not None}
    if isinstance(obj, (list, tuple)):
        return [_outcome(x) for x in obj]
    return obj


def canonical_json(summary: Mapping[str, Any]) -> str:
    return json.dumps(_outcome(summary), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def result_digest(summary: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON summary: equal digests = the same event outcome."""
    return hashlib.sha256(canonical_json(summary).encode()).hexdigest()
