"""Schemathesis over every operation of a served service: generated requests (valid and invalid
against the OpenAPI document), each answer checked against what the document promises, and
every invalid request refused.

A bounded number of examples per operation (``FUZZ_EXAMPLES``, default below) keeps the whole
run to a few minutes; Hypothesis is derandomised, so a run is repeatable. Failures are collected
rather than raised at the first one, so a report can count them by service and check.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi import checks as oas

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))

ISO_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")
OFFSET = re.compile(r"(Z|[+-]\d\d:\d\d)$")


def _naive_timestamps(value, where: str = "$"):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _naive_timestamps(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _naive_timestamps(v, f"{where}[{i}]")
    elif isinstance(value, str) and ISO_TIME.match(value) and not OFFSET.search(value):
        yield f"{where} = {value}"


def timestamps_carry_offsets(ctx, response, case) -> bool | None:
    """Conventions: every timestamp in a JSON answer carries its offset."""
    if not response.headers.get("content-type", [""])[0].startswith("application/json"):
        return None
    try:
        body = response.json()
    except ValueError:
        return None
    naive = list(_naive_timestamps(body))
    if naive:
        raise AssertionError(f"timestamps without an offset: {naive[:3]}")
    return None


def error_shape(ctx, response, case) -> bool | None:
    """Conventions: every 4xx/5xx answers the common error shape."""
    if response.status_code < 400:
        return None
    try:
        body = response.json()
    except ValueError:
        raise AssertionError(f"{response.status_code} without a JSON body") from None
    error = body.get("error") if isinstance(body, dict) else None
    if not (isinstance(error, dict) and {"code", "message"} <= set(error)):
        raise AssertionError(f"{response.status_code} not in the common error shape: {str(body)[:200]}")
    return None


def invalid_input_refused(ctx, response, case) -> bool | None:
    """A request that breaks the document is refused with a 4xx (any documented refusal:
    schemathesis's own list leaves out 413/414/431 of the input guard). Schemathesis's check
    knows which generated violations become valid on the wire."""
    if response.status_code >= 400:
        return None
    return oas.negative_data_rejection(ctx, response, case)


CHECKS = [
    oas.status_code_conformance,
    oas.content_type_conformance,
    oas.response_headers_conformance,
    oas.response_schema_conformance,
    invalid_input_refused,
    timestamps_carry_offsets,
    error_shape,
]


@dataclass
class Report:
    """What one service's run saw."""

    service: str
    operations: int = 0
    cases: int = 0
    server_errors: int = 0
    failures: Counter = field(default_factory=Counter)  # (check or "5xx", operation) -> count
    samples: dict = field(default_factory=dict)  # (check, operation) -> first message
    statuses: Counter = field(default_factory=Counter)  # (credential's name, status) -> count
    refusals: Counter = field(default_factory=Counter)  # (credential's name, 401/403 code, operation) -> count
    admitted: set = field(default_factory=set)  # (credential's name, operation) answered a 2xx

    @property
    def failed(self) -> int:
        return sum(self.failures.values())

    def line(self) -> str:
        by_check = Counter()
        for (check, _), n in self.failures.items():
            by_check[check] += n
        return (
            f"{self.service}: {self.operations} operations, {self.cases} cases, {self.failed} failures "
            f"({self.server_errors} × 5xx) {dict(by_check)}"
        )

    def answers(self) -> str:
        """The statuses each credential was answered, by class (a credential refused throughout
        would fuzz nothing behind its check)."""
        by_key: dict[str, Counter] = {}
        for (key_name, status), n in sorted(self.statuses.items()):
            by_key.setdefault(key_name, Counter())[
                f"{status // 100}xx" if status not in (401, 403) else str(status)
            ] += n
        for (key_name, code, _), n in sorted(self.refusals.items()):
            by_key.setdefault(key_name, Counter())[code] += n
        return "; ".join(f"{k} {dict(c)}" for k, c in by_key.items())

    def refused_only(self, key_name: str, code: str, but: str) -> list[str]:
        """The operations that refused ``key_name`` with ``code`` and never answered it a 2xx, but
        answered ``but`` a 2xx (say the staff routes a person may not use that an arbiter's key may)."""
        refused = {op for (k, c, op) in self.refusals if (k, c) == (key_name, code)}
        return sorted(op for op in refused if (but, op) in self.admitted and (key_name, op) not in self.admitted)

    def details(self, limit: int = 40) -> str:
        out = []
        for (check, op), n in self.failures.most_common(limit):
            out.append(f"  {n:4d} × {check:32s} {op}\n         {self.samples[(check, op)][:400]}")
        return "\n".join(out)


def _check_name(failure: Failure) -> str:
    return getattr(failure, "title", None) or type(failure).__name__


#: fixed query parameters: a followed event stream stays open (a live game's until it ends, an event's for ever)
FIXED_QUERY = {
    "/v1/games/{game_id}/events": {"follow": "false"},
    "/v1/events/{event_code}/stream": {"follow": "false"},
}


def _strategy(operation, known: dict[str, list], headers: Mapping[str, str] | None = None):
    """Generated requests in both modes; where every path parameter has known values, as many
    again that address existing resources (with generated queries and bodies). ``headers``: fixed
    ones, never generated nor made invalid (a credential's own: a registrant's token)."""
    modes = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    query = FIXED_QUERY.get(operation.path)
    fixed = {"headers": dict(headers)} if headers else {}
    options = [operation.as_strategy(generation_mode=m, query=query, **fixed) for m in modes]
    names = [p.name for p in operation.path_parameters]
    if names and all(known.get(n) for n in names):
        combos = [{n: known[n][min(i, len(known[n]) - 1)] for n in names} for i in range(2)]
        for combo in {tuple(sorted(c.items())): c for c in combos}.values():
            options += [
                operation.as_strategy(generation_mode=m, path_parameters=combo, query=query, **fixed) for m in modes
            ]
    return st.one_of(*options)


def fuzz_service(
    service: str,
    base_url: str,
    keys: Mapping[str, str | Callable[[], str]],
    *,
    examples: int = EXAMPLES,
    known: dict[str, list] | None = None,
    exclude_paths: tuple[str, ...] = (),
    only_paths: tuple[str, ...] = (),
    headers_of: Mapping[str, Mapping[str, str]] | None = None,
) -> Report:
    """Fuzz every operation of the service served at ``base_url`` with each credential of
    ``keys`` (name -> an API key or an access token, sent as ``X-API-Key``; or a function that
    answers one, called before each operation's requests: a staff token renewed when refused;
    "" sends none), in both generation modes, and against the ``known`` resources.
    ``only_paths``: those operations only; ``headers_of``: a credential's own headers, fixed in
    every generated request (a registrant's secret-link token)."""
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json")
    report = Report(service)
    session = requests.Session()
    # each answer counted by the session's hook: the body of ``run`` below seeds Hypothesis's
    # derandomised examples (its source is hashed), so it stays as it is
    asking = {"key": "", "operation": ""}
    session.hooks["response"].append(lambda response, *args, **kwargs: _count(report, asking, response))
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path in exclude_paths or (only_paths and operation.path not in only_paths):
            continue
        report.operations += 1
        label = f"{operation.method.upper()} {operation.path}"
        shared = _strategy(operation, known or {})

        for key_name, credential in keys.items():
            key = credential() if callable(credential) else credential
            own = (headers_of or {}).get(key_name) or {}
            headers = {**({"x-api-key": key} if key else {}), **own}
            strategy = _strategy(operation, known or {}, own) if own else shared
            asking.update(key=key_name, operation=label)

            @settings(
                max_examples=examples,
                deadline=None,
                derandomize=True,
                database=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            @given(case=strategy)
            def run(case) -> None:
                report.cases += 1
                response = case.call(base_url=base_url, session=session, headers=headers, timeout=30)
                if response.status_code >= 500:
                    report.server_errors += 1
                    _record(report, "5xx", label, f"[{key_name}] {response.status_code} {response.text[:300]}")
                try:
                    case.validate_response(
                        response, checks=CHECKS, headers=headers, transport_kwargs={"base_url": base_url}
                    )
                except FailureGroup as group:
                    for failure in group.exceptions:
                        _record(
                            report,
                            _check_name(failure),
                            label,
                            f"[{key_name}] {case.method} {response.request.url} -> {response.status_code}: "
                            f"{failure.message} {response.text[:200]}",
                        )
                except AssertionError as exc:
                    _record(report, "assertion", label, f"[{key_name}] {exc}")

            run()
    return report


def _count(report: Report, asking: dict[str, str], response: requests.Response) -> None:
    key_name, label = asking["key"], asking["operation"]
    report.statuses[(key_name, response.status_code)] += 1
    if response.status_code in (401, 403):
        report.refusals[(key_name, _error_code(response), label)] += 1
    elif 200 <= response.status_code < 300:
        report.admitted.add((key_name, label))


def _error_code(response) -> str:
    try:
        return str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return "?"


def _record(report: Report, check: str, label: str, message: str) -> None:
    report.failures[(check, label)] += 1
    report.samples.setdefault((check, label), message)
