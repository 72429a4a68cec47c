"""Is a new JSON Schema of a contract compatible with the published one?

Compatible (old consumers keep working, old producers stay valid): adding optional
properties, relaxing constraints we do not check. Incompatible: removing a property,
changing its type, making a property required that was not, renaming an event.
"""

from __future__ import annotations

from typing import Any


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    seen = 0
    while "$ref" in schema and seen < 50:
        path = schema["$ref"].lstrip("#/").split("/")
        node: Any = root
        for part in path:
            node = node[part]
        schema = node
        seen += 1
    return schema


def _types(schema: dict[str, Any], root: dict[str, Any]) -> set[str]:
    schema = _resolve(schema, root)
    if "type" in schema:
        kind = schema["type"]
        return set(kind) if isinstance(kind, list) else {kind}
    out: set[str] = set()
    for key in ("anyOf", "oneOf"):
        for sub in schema.get(key, []):
            out |= _types(sub, root)
    if "const" in schema or "enum" in schema:
        out.add("enum")
    return out or {"any"}


def breaking_changes(
    old: dict[str, Any],
    new: dict[str, Any],
    path: str = "$",
    old_root: dict[str, Any] | None = None,
    new_root: dict[str, Any] | None = None,
    depth: int = 0,
) -> list[str]:
    old_root = old_root or old
    new_root = new_root or new
    old = _resolve(old, old_root)
    new = _resolve(new, new_root)
    problems: list[str] = []
    if depth > 12:
        return problems
    old_types, new_types = _types(old, old_root), _types(new, new_root)
    if "any" not in new_types and not old_types <= new_types:
        problems.append(f"{path}: type changed from {sorted(old_types)} to {sorted(new_types)}")
    if "enum" in old and "enum" in new and not set(old["enum"]) <= set(new["enum"]):
        problems.append(f"{path}: enum values removed: {sorted(set(old['enum']) - set(new['enum']))}")
    old_props, new_props = old.get("properties", {}), new.get("properties", {})
    for name, sub in old_props.items():
        if name not in new_props:
            problems.append(f"{path}.{name}: property removed")
        else:
            problems += breaking_changes(sub, new_props[name], f"{path}.{name}", old_root, new_root, depth + 1)
    newly_required = set(new.get("required", [])) - set(old.get("required", []))
    for name in sorted(newly_required):
        problems.append(f"{path}.{name}: became required")
    if "items" in old and "items" in new and isinstance(old["items"], dict):
        problems += breaking_changes(old["items"], new["items"], f"{path}[]", old_root, new_root, depth + 1)
    return problems
