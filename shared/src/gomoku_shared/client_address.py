"""The client address a request came from, for throttling failed sign-ins (``throttle.py``).

The peer of the connection, unless the peer is a trusted proxy (``FORWARDED_ALLOW_IPS``:
addresses or networks, comma separated, ``*`` for any; by default only 127.0.0.1): then the
first address of its ``X-Forwarded-For``. The gateway (Caddy) replaces that header of an
untrusted client with the address it saw, and the portal sets it to its own client's address
when it calls a service for a person, so a service throttles the person, not the portal.
"""

from __future__ import annotations

import ipaddress
from typing import Any

#: uvicorn's own default for the same setting
DEFAULT_TRUSTED = "127.0.0.1"


class TrustedProxies:
    def __init__(self, spec: str = DEFAULT_TRUSTED) -> None:
        items = [item.strip() for item in spec.split(",") if item.strip()]
        self.any = "*" in items
        self.networks = [ipaddress.ip_network(item, strict=False) for item in items if item != "*"]

    def trusts(self, peer: str) -> bool:
        if self.any:
            return True
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def client(self, scope: Any) -> str | None:
        """The client address of an ASGI scope (None when the server gives no peer)."""
        peer = scope.get("client")
        host = peer[0] if peer else None
        if host is None or not self.trusts(host):
            return host
        for name, value in scope.get("headers", ()):
            if name == b"x-forwarded-for":
                first = value.split(b",")[0].strip().decode("latin-1")[:64]
                return first or host
        return host
