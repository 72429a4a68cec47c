"""API-key authentication with roles: operator, arbiter, partner (bound to its own id) and viewer
(read-only: the public web front reads with it and can change nothing)."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPBearer

from .errors import ServiceError

Role = Literal["operator", "arbiter", "partner", "viewer"]
ROLES: tuple[str, ...] = ("operator", "arbiter", "partner", "viewer")
#: the roles that may act (every role but the read-only viewer)
ACTING_ROLES: tuple[str, ...] = ("operator", "arbiter", "partner")


@dataclass(frozen=True)
class Principal:
    role: str
    #: the partner platform this key belongs to (partners act only on their own data)
    partner_id: str | None = None
    key_id: str = ""

    @property
    def is_staff(self) -> bool:
        return self.role in ("operator", "arbiter")


class Unauthorized(ServiceError):
    status = 401


class KeyRing:
    """Keys parsed from ``key=role[:partner_id]`` entries. Keys never appear in logs."""

    def __init__(self, spec: str = "") -> None:
        self._keys: list[tuple[bytes, Principal]] = []
        for i, item in enumerate(x.strip() for x in spec.split(",") if x.strip()):
            key, _, rest = item.partition("=")
            role, _, partner = rest.partition(":")
            if role not in ROLES or not key:
                raise ValueError(f"API_KEYS entry {i + 1}: expected key=role[:partner], role one of {ROLES}")
            self.add(key, role, partner or None)

    def add(self, key: str, role: str, partner_id: str | None = None) -> None:
        self._keys.append((key.encode(), Principal(role, partner_id, key_id=f"k{len(self._keys) + 1}")))

    def lookup(self, presented: str) -> Principal | None:
        found = None
        for key, principal in self._keys:  # compare all: timing does not reveal which matched
            if hmac.compare_digest(key, presented.encode()):
                found = principal
        return found


def _presented_key(request: Request) -> str | None:
    key = request.headers.get("x-api-key")
    if key:
        return key
    authz = request.headers.get("authorization", "")
    if authz.lower().startswith("bearer "):
        return authz[7:].strip()
    return None


#: how a key is presented, as the OpenAPI document declares it (the key itself is read from the
#: request in ``_presented_key``: these only document the two ways)
_API_KEY = APIKeyHeader(
    name="X-API-Key",
    scheme_name="ApiKey",
    auto_error=False,
    description="the API key (roles operator, arbiter, partner, viewer)",
)
_BEARER = HTTPBearer(scheme_name="Bearer", auto_error=False, description="the API key as a bearer token")


def require(*roles: str):
    """Dependency: the caller must present a key with one of ``roles``."""

    async def dependency(
        request: Request, _key: str | None = Security(_API_KEY), _bearer: object = Security(_BEARER)
    ) -> Principal:
        presented = _presented_key(request)
        if not presented:
            raise Unauthorized("missing_api_key", "send an API key in the X-API-Key header")
        ring: KeyRing = request.app.state.keyring
        principal = ring.lookup(presented)
        if principal is None:
            raise Unauthorized("invalid_api_key", "the API key is not valid")
        if roles and principal.role not in roles:
            raise ServiceError("forbidden_role", f"this action needs one of the roles {list(roles)}", status=403)
        return principal

    return dependency


AnyPrincipal = Annotated[Principal, Depends(require(*ACTING_ROLES))]
#: any key, the read-only viewer too: for read endpoints
Reader = Annotated[Principal, Depends(require(*ROLES))]
Staff = Annotated[Principal, Depends(require("operator", "arbiter"))]
Operator = Annotated[Principal, Depends(require("operator"))]
