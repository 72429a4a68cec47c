"""Every service's OpenAPI document declares how to authenticate, so Swagger's "Authorize"
works: the API key header, the bearer key, and OAuth2 client credentials with the token URL and
the scopes; each secured operation names the scope a token needs, and declares 429 and the
rate-limit headers."""

from __future__ import annotations

import pytest

from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.scopes import SCOPES
from gomoku_shared.settings import ServiceSettings

SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    suite = EmbeddedSuite(
        ServiceSettings(DATA_DIR=str(tmp_path_factory.mktemp("docs")), DATA_KEY="k" * 32), only=list(SERVICES)
    )
    return {name: svc.app.openapi() for name, svc in suite.services.items()}


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


@pytest.mark.parametrize("service", SERVICES)
def test_each_secured_operation_names_its_scope_and_rate_limit_answers(documents, service):
    secured = 0
    for path, item in documents[service]["paths"].items():
        for method, op in item.items():
            if not op.get("security"):
                continue
            secured += 1
            oauth = [r["OAuth2"] for r in op["security"] if "OAuth2" in r]
            if method == "get":
                expected = [["results:read"]]
            elif service == "registration":
                expected = [["entries:write"]]
            elif service == "gameplay":
                expected = [["games:play"]]
            else:
                expected = []  # a staff-only write: API keys only
            assert oauth == expected, (method, path, op["security"])
            assert "429" in op["responses"] and "Retry-After" in op["responses"]["429"]["headers"]
            assert (
                "RateLimit"
                in op["responses"]["200" if "200" in op["responses"] else next(iter(op["responses"]))]["headers"]
            )
    assert secured


def test_the_token_endpoint_documents_the_form_and_the_oauth_errors(documents):
    op = documents["partners"]["paths"]["/oauth/token"]["post"]
    assert "application/x-www-form-urlencoded" in op["requestBody"]["content"]
    for status in ("400", "401"):
        shapes = op["responses"][status]["content"]["application/json"]["schema"]["anyOf"]
        assert {"$ref": "#/components/schemas/OAuthErrorView"} in shapes
