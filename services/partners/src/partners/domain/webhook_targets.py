"""Where a webhook may be sent: an https URL whose host resolves to public addresses only.

A subscription's URL is checked when it is made and again before every connection (the name
may resolve elsewhere by then: DNS rebinding), and the connection goes to an address that was
checked. Without this a subscription would make the platform send requests into its own network
(the cloud metadata service, the other services, the gateway) and tell the partner what they
answered. Pure functions: the resolution itself is the sender's (``adapters/webhook_sender.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address
from urllib.parse import urlsplit

from .model import PartnerRuleError

Address = IPv4Address | IPv6Address

#: the error code of a URL whose host is (or resolves to) an address that is not public
NOT_PUBLIC = "webhook_target_not_public"

#: shared address space (RFC 6598, carrier-grade NAT; also where some clouds put metadata)
_CGNAT = IPv4Network("100.64.0.0/10")
#: IETF protocol assignments (RFC 6890): not globally reachable, whatever a Python version says
_IETF = IPv4Network("192.0.0.0/24")
#: NAT64 (RFC 6052 well-known prefix and RFC 8215 local-use prefix): an IPv4 address inside
_NAT64 = (IPv6Network("64:ff9b::/96"), IPv6Network("64:ff9b:1::/48"))
#: cloud metadata services, named for the log (each is in a refused range anyway: AWS's IPv6 one
#: in fc00::/7, 169.254.169.254 link-local, Alibaba's 100.100.100.200 CGNAT, Oracle's 192.0.0.192
#: an IETF assignment)
_METADATA = frozenset(ip_address(a) for a in ("fd00:ec2::254", "169.254.169.254", "100.100.100.200", "192.0.0.192"))


def embedded_ipv4(address: Address) -> IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (IPv4-mapped ``::ffff:a.b.c.d``, IPv4-compatible
    ``::a.b.c.d``, 6to4, Teredo's client, NAT64), or None: a connection to it may reach that
    IPv4 host, so it is judged as that host."""
    if not isinstance(address, IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if any(address in prefix for prefix in _NAT64):
        return IPv4Address(int(address) & 0xFFFFFFFF)
    packed = int(address)
    if packed >> 32 == 0 and packed > 1:  # ::a.b.c.d (deprecated, still routed by some stacks)
        return IPv4Address(packed)
    return None


def refusal(address: Address) -> str | None:
    """Why ``address`` is not a public unicast address a webhook may reach (a short reason for
    the operators' log), or None when it is."""
    inner = embedded_ipv4(address)
    if inner is not None:
        reason = refusal(inner)
        return f"{reason} (inside {address})" if reason else None
    if address in _METADATA:
        return "metadata service"
    checks = (
        (address.is_unspecified, "unspecified"),
        (address.is_loopback, "loopback"),
        (address.is_link_local, "link-local"),
        (address.is_multicast, "multicast"),
        (isinstance(address, IPv4Address) and address in _CGNAT, "shared address space (CGNAT)"),
        (isinstance(address, IPv4Address) and address in _IETF, "IETF protocol assignment"),
        (address.is_private, "private"),
        (address.is_reserved, "reserved"),
    )
    for hit, reason in checks:
        if hit:
            return reason
    # documentation, benchmarking, 6to4 relays, ...: anything IANA does not call global
    return None if address.is_global else "not globally routable"


def is_loopback(address: Address) -> bool:
    inner = embedded_ipv4(address)
    return (inner or address).is_loopback


@dataclass(frozen=True)
class TargetPolicy:
    """``allow_loopback`` (WEBHOOK_ALLOW_LOOPBACK, development and tests only, off by default):
    a URL may also name a loopback address, by ``http://`` too (a receiver on the same machine);
    private, link-local and the rest stay refused."""

    allow_loopback: bool = False

    def checked_url(self, url: str) -> str:
        """``url`` when its form may be a webhook target (https, a host, no credentials); the
        addresses are checked by ``refusal_of`` once resolved."""
        parts = urlsplit(url)
        try:
            parts.port  # noqa: B018 - raises ValueError on a port that is not a number in range
        except ValueError:
            raise PartnerRuleError("invalid_url", "the URL's port is not a number from 1 to 65535") from None
        if len(url) > 2000 or not parts.hostname or parts.username or parts.password:
            raise PartnerRuleError("invalid_url", "the URL needs a host and no credentials in it")
        if parts.scheme == "https" or (parts.scheme == "http" and self.allow_loopback):
            return url
        raise PartnerRuleError("invalid_url", "webhook URLs must use https")

    def refusal_of(self, scheme: str, addresses: Iterable[str]) -> str | None:
        """Why the addresses a host resolved to may not be a webhook's (a reason for the
        operators' log, never for the partner: it would tell internal addresses), or None.
        One address that is not public refuses the host: a connection may go to any of them."""
        found = [ip_address(a.split("%", 1)[0]) for a in addresses]
        if not found:
            return "resolves to no address"
        for address in found:
            if self.allow_loopback and is_loopback(address):
                continue
            reason = refusal(address)
            if reason is not None:
                return f"{address}: {reason}"
        if scheme == "http" and not all(is_loopback(a) for a in found):
            return "plain http to an address that is not loopback"
        return None


#: what the partner is told (the same whatever the reason: no oracle for internal names)
NOT_PUBLIC_MESSAGE = (
    "webhooks are sent to public addresses only: the URL's host must resolve, and every address it "
    "resolves to must be a public one (not loopback, private, link-local, shared or reserved)"
)
