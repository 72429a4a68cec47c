"""Every service's OpenAPI document declares how to authenticate, so Swagger's "Authorize"
works: the API key header, the bearer key, and OAuth2 client credentials with the token URL and
the scopes; each secured operation names the scope a token needs (the one its dependency
enforces, read from the app), and declares 429 and the rate-limit headers."""

from __future__ import annotations

import pytest
from fastapi.routing import iter_route_contexts

from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.scopes import NO_TOKEN, SCOPES, required_scope
from gomoku_shared.settings import ServiceSettings

SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    suite = EmbeddedSuite(
        ServiceSettings(DATA_DIR=str(tmp_path_factory.mktemp("docs")), DATA_KEY="k" * 32), only=list(SERVICES)
    )
    return {name: svc.app for name, svc in suite.services.items()}


@pytest.fixture(scope="module")
def documents(apps):
    return {name: app.openapi() for name, app in apps.items()}


@pytest.mark.slow
@pytest.mark.parametrize("service", SERVICES)
def test_security_schemes_with_the_client_credentials_flow(documents, service):
    schemes = documents[service]["components"]["securitySchemes"]
    assert schemes["ApiKey"] == {
        "type": "apiKey",
        "in": "header",
        "name": "X-API-Key",
        "description": schemes["ApiKey"]["description"],
    }
    flow = schemes["OAuth2"]["flows"]["clientCredentials"]
    assert flow["tokenUrl"] == "/partners/oauth/token"
    assert flow["scopes"].keys() == SCOPES.keys()


def _enforcing(dependant) -> list:
    """The ``auth.require`` dependencies of a route, at any depth (they carry what they enforce)."""
    found = []
    for sub in dependant.dependencies:
        if hasattr(sub.call, "required_roles"):
            found.append(sub.call)
        found += _enforcing(sub)
    return found


def _enforced_scope(service: str, method: str, dependency) -> str | None:
    """The scope a token needs, as the dependency enforces it (None: no token is ever admitted)."""
    roles = dependency.required_roles
    if roles and not {"partner", "viewer"} & set(roles):
        return None  # the role check refuses every token (tokens are partner or viewer)
    needed = dependency.required_scope or required_scope(service, method)
    return None if needed == NO_TOKEN else needed


@pytest.mark.parametrize("service", SERVICES)
def test_each_operation_documents_the_scope_its_dependency_enforces(documents, apps, service):
    """Issue 27 finding 10 (contract truth): the partners document gave the webhook routes
    results:read while webhooks:manage was enforced. Each route's required scope and roles are
    read from the app itself (the ``auth.require`` dependency that enforces them) and compared
    with the OpenAPI document: the OAuth2 requirement names exactly the enforced scope, and a
    route no token may pass (staff roles, staff-only writes, no token dependency) offers none."""
    document = documents[service]
    compared = 0
    for route in iter_route_contexts(apps[service].routes):
        dependant = getattr(route, "dependant", None)
        if dependant is None:
            continue
        for method in sorted(route.methods or ()):
            operation = document["paths"].get(route.path_format, {}).get(method.lower())
            if operation is None:
                continue
            enforcing = _enforcing(dependant)
            oauth = [r["OAuth2"] for r in operation.get("security", []) if "OAuth2" in r]
            expected = sorted({scope for d in enforcing if (scope := _enforced_scope(service, method, d))})
            assert oauth == [[scope] for scope in expected], (method, route.path_format, operation.get("security"))
            if enforcing:
                assert operation["security"], (method, route.path_format)
            compared += 1
    assert compared >= 20, compared
    if service == "partners":
        hooks = document["paths"]["/v1/webhooks/subscriptions"]
        assert [r["OAuth2"] for r in hooks["get"]["security"] if "OAuth2" in r] == [["webhooks:manage"]]
        assert [r["OAuth2"] for r in hooks["post"]["security"] if "OAuth2" in r] == [["webhooks:manage"]]


@pytest.mark.parametrize("service", SERVICES)
def test_each_secured_operation_declares_its_rate_limit_answers(documents, service):
    secured = 0
    for item in documents[service]["paths"].values():
        for op in item.values():
            if not op.get("security"):
                continue
            secured += 1
            assert "429" in op["responses"] and "Retry-After" in op["responses"]["429"]["headers"]
            assert (
                "RateLimit"
                in op["responses"]["200" if "200" in op["responses"] else next(iter(op["responses"]))]["headers"]
            )
    assert secured


@pytest.mark.slow
def test_the_token_endpoint_documents_the_form_and_the_oauth_errors(documents):
    op = documents["partners"]["paths"]["/oauth/token"]["post"]
    assert "application/x-www-form-urlencoded" in op["requestBody"]["content"]
    for status in ("400", "401"):
        shapes = op["responses"][status]["content"]["application/json"]["schema"]["anyOf"]
        assert {"$ref": "#/components/schemas/OAuthErrorView"} in shapes
