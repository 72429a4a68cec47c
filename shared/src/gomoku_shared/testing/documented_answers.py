"""Tests' check that a service answers what its OpenAPI document says: every successful JSON
answer is validated against the documented schema of its operation and status (the response
models of ``gomoku_shared.api_docs.documented`` describe, they do not filter, so only a test
can tell a model that drifted from the handler's dict)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import jsonschema


class AnswerChecker:
    """An httpx response hook: ``client.event_hooks["response"].append(checker)``."""

    def __init__(self, document: dict[str, Any], prefix: str = "") -> None:
        self.document = document
        self.prefix = prefix
        self.checked = 0
        self._routes = [
            (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), item)
            for path, item in document["paths"].items()
        ]

    def schema_for(self, method: str, path: str, status: int) -> dict[str, Any] | None:
        for pattern, item in self._routes:
            if pattern.match(path) and method.lower() in item:
                response = item[method.lower()]["responses"].get(str(status), {})
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                if schema is None:
                    return None
                # the schema's references are "#/components/…": give it the document's components
                return {**schema, "components": self.document.get("components", {})}
        return None

    async def __call__(self, response: httpx.Response) -> None:
        if not 200 <= response.status_code < 300 or "json" not in response.headers.get("content-type", ""):
            return
        path = response.request.url.path.removeprefix(self.prefix)
        schema = self.schema_for(response.request.method, path, response.status_code)
        if schema is None:
            return
        await response.aread()
        try:
            jsonschema.validate(response.json(), schema, cls=jsonschema.Draft202012Validator)
        except jsonschema.ValidationError as exc:
            where = "/".join(str(part) for part in exc.absolute_path)
            raise AssertionError(
                f"{response.request.method} {path} -> {response.status_code} does not match its documented "
                f"schema at {where or 'the top'}: {exc.message}"
            ) from None
        self.checked += 1


def check_answers(client: httpx.AsyncClient, document: dict[str, Any], prefix: str = "") -> AnswerChecker:
    """Validate every successful JSON answer ``client`` receives against ``document``."""
    checker = AnswerChecker(document, prefix)
    client.event_hooks["response"].append(checker)
    return checker
