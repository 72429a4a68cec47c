"""Input that cannot be stored never reaches a service: checks on the raw request.

A pure ASGI middleware in front of every service (and of gameplay's lean lane) refuses, with
the common error shape:

* control characters (U+0000-U+001F, U+007F-U+009F) in the path, the query string or a header
  value, and in any string of a JSON body (there TAB, LF and CR are allowed: free text may
  span lines), and unpaired surrogates (``"\\ud800"``) in a JSON body: no database column can
  store them (PostgreSQL refuses U+0000 in text) -> 400 ``invalid_characters``;
* a path or query string longer than ``MAX_PATH`` / ``MAX_QUERY`` bytes -> 414 ``uri_too_long``;
  a header value longer than ``MAX_HEADER`` -> 431 ``header_too_large``;
* a body larger than ``MAX_BODY`` bytes -> 413 ``body_too_large``;
* JSON nested deeper than ``MAX_JSON_DEPTH`` arrays/objects -> 400 ``json_too_deep``.

Per-field limits (lengths, integer bounds) live in the pydantic models and parameters of each
route, which document them in the OpenAPI. The checks here are cheap on the hot path: the raw
bytes are scanned by regular expressions, and a body is parsed only when a scan hits.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote_to_bytes

from .errors import error_body

MAX_PATH = 2048
MAX_QUERY = 4096
MAX_HEADER = 8192
MAX_BODY = 4 * 1024 * 1024
#: a multipart upload (issue 34: a registrant's documents; the route holds the per-file limit)
MAX_MULTIPART_BODY = 16 * 1024 * 1024
MAX_JSON_DEPTH = 32

# C0 controls, DEL, and C1 controls as UTF-8 (C2 80..C2 9F)
_RAW_CONTROL = re.compile(rb"[\x00-\x1f\x7f]|\xc2[\x80-\x9f]")
_HEADER_CONTROL = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]")
# candidates in a JSON body: an escaped control character or a surrogate (confirmed by parsing)
_JSON_SUSPECT = re.compile(
    rb"\\u(?:00[01][0-9a-fA-F]|007[fF]|00[89][0-9a-fA-F]|[dD][89a-fA-F][0-9a-fA-F]{2})"
    rb"|\xc2[\x80-\x9f]"
)
_BAD_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _refusal(status: int, code: str, message: str, details: Any = None) -> tuple[int, bytes]:
    return status, json.dumps(error_body(code, message, details), separators=(",", ":")).encode()


def check_head(scope) -> tuple[int, bytes] | None:
    """Path, query string and headers of a request; None when acceptable."""
    raw_path = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape")
    if len(raw_path) > MAX_PATH:
        return _refusal(414, "uri_too_long", f"the path exceeds {MAX_PATH} bytes")
    if _RAW_CONTROL.search(unquote_to_bytes(raw_path) if b"%" in raw_path else raw_path):
        return _refusal(400, "invalid_characters", "the path contains control characters", {"where": "path"})
    query = scope.get("query_string") or b""
    if len(query) > MAX_QUERY:
        return _refusal(414, "uri_too_long", f"the query string exceeds {MAX_QUERY} bytes")
    if query and _RAW_CONTROL.search(unquote_to_bytes(query)):
        return _refusal(400, "invalid_characters", "the query string contains control characters", {"where": "query"})
    headers = scope.get("headers", ())
    # one scan of all values joined by a TAB (allowed, so the joint never matches); only a
    # request that fails it is looked at header by header, to name the first one at fault
    joined = b"\t".join([value for _, value in headers])
    if len(joined) <= MAX_HEADER and not _HEADER_CONTROL.search(joined):
        return None
    return _check_headers(headers)


def _check_headers(headers) -> tuple[int, bytes] | None:
    for name, value in headers:
        if len(value) > MAX_HEADER:
            return _refusal(
                431,
                "header_too_large",
                f"a header value exceeds {MAX_HEADER} bytes",
                {"where": "header", "header": name.decode("latin-1")[:100]},
            )
        if _HEADER_CONTROL.search(value):
            return _refusal(
                400,
                "invalid_characters",
                "a header contains control characters",
                {"where": "header", "header": name.decode("latin-1")[:100]},
            )
    return None


def check_json_body(raw: bytes) -> tuple[int, bytes] | None:
    """Depth and characters of a JSON body; None when acceptable (or not JSON at all: the
    route answers malformed JSON in its usual words)."""
    suspect = _JSON_SUSPECT.search(raw) is not None
    deep = raw.count(b"[") + raw.count(b"{") > MAX_JSON_DEPTH
    if not (suspect or deep):
        return None
    try:
        doc = json.loads(raw)
    except RecursionError:
        return _refusal(400, "json_too_deep", f"the JSON body is nested deeper than {MAX_JSON_DEPTH} levels")
    except ValueError:
        return None
    return _walk(doc)


def _walk(doc: Any) -> tuple[int, bytes] | None:
    """Iterative (a deep document must not exhaust the interpreter's stack)."""
    stack: list[tuple[Any, list, int]] = [(doc, [], 1)]
    while stack:
        value, loc, depth = stack.pop()
        if isinstance(value, str):
            if _BAD_TEXT.search(value):
                return _refusal(
                    400,
                    "invalid_characters",
                    "a string in the body contains control characters",
                    {"where": "body", "loc": ["body", *loc[:MAX_JSON_DEPTH]]},
                )
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth > MAX_JSON_DEPTH:
            return _refusal(400, "json_too_deep", f"the JSON body is nested deeper than {MAX_JSON_DEPTH} levels")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(key, str) and _BAD_TEXT.search(key):
                return _refusal(
                    400,
                    "invalid_characters",
                    "a key in the body contains control characters",
                    {"where": "body", "loc": ["body", *loc[:MAX_JSON_DEPTH]]},
                )
            label = key if isinstance(key, int) or not _BAD_TEXT.search(key) else "?"
            stack.append((item, [*loc, label], depth + 1))
    return None


async def read_body(receive, limit: int = MAX_BODY) -> tuple[bytes, dict | None, tuple[int, bytes] | None]:
    """A request's whole body, as the checks read it: (body, None, None); (b"", the message, None)
    when another message than the body came first (a disconnect: the app sees it as it came);
    (b"", None, refusal) for a body larger than ``MAX_BODY``."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"", message, None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return b"", None, _refusal(413, "body_too_large", f"the request body exceeds {limit} bytes")
        chunks.append(chunk)
        if not message.get("more_body"):
            return chunks[0] if len(chunks) == 1 else b"".join(chunks), None, None


class InputGuardMiddleware:
    """Refuses what ``check_head`` / ``check_json_body`` refuse; passes the rest on unchanged
    (a body is read here, once, and handed to the app as one message)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refusal = check_head(scope)
        if refusal is None and scope["method"] in ("POST", "PUT", "PATCH"):
            multipart = _is_multipart(scope)
            body, other, refusal = await read_body(receive, MAX_MULTIPART_BODY if multipart else MAX_BODY)
            if other is not None:
                return await self.app(scope, _replay([other], receive), send)
            if refusal is None:
                if not multipart:  # a file's bytes are not JSON
                    refusal = check_json_body(body)
                receive = _replay([{"type": "http.request", "body": body, "more_body": False}], receive)
        if refusal is None:
            return await self.app(scope, receive, send)
        status, data = refusal
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": data})


def _is_multipart(scope) -> bool:
    return any(
        name == b"content-type" and value.lower().startswith(b"multipart/form-data")
        for name, value in scope.get("headers", ())
    )


def _replay(messages: list[dict], receive):
    async def replayed() -> dict:
        if messages:
            return messages.pop(0)
        return await receive()

    return replayed
