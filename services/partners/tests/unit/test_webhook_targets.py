"""Issue 27 finding 3 (webhooks as an SSRF tool): which addresses a webhook may reach, which
URLs may be subscribed, and what the delivery log says of a failed attempt."""

from __future__ import annotations

import ssl
from ipaddress import ip_address

import httpcore
import pytest

from partners.adapters.webhook_sender import TargetNotPublic, Unresolvable, category
from partners.domain.model import PartnerRuleError
from partners.domain.webhook_targets import TargetPolicy, refusal

REFUSED = [
    ("127.0.0.1", "loopback"),
    ("127.0.0.2", "loopback"),
    ("::1", "loopback"),
    ("10.0.0.1", "private"),
    ("172.16.5.4", "private"),
    ("192.168.1.1", "private"),
    ("fc00::1", "private"),
    ("fd12:3456::1", "private"),
    ("169.254.169.254", "metadata service"),
    ("169.254.10.1", "link-local"),
    ("fe80::1", "link-local"),
    ("100.64.0.1", "shared address space (CGNAT)"),
    ("100.100.100.200", "metadata service"),
    ("fd00:ec2::254", "metadata service"),
    ("224.0.0.1", "multicast"),
    ("ff02::1", "multicast"),
    ("0.0.0.0", "unspecified"),
    ("::", "unspecified"),
    ("192.0.0.192", "metadata service"),
    ("192.0.0.9", "IETF protocol assignment"),
    ("::ffff:127.0.0.1", "loopback (inside ::ffff:7f00:1)"),
    ("::ffff:169.254.169.254", "metadata service (inside ::ffff:a9fe:a9fe)"),
    ("::ffff:10.0.0.1", "private (inside ::ffff:a00:1)"),
    ("::127.0.0.1", "loopback (inside ::7f00:1)"),
    ("64:ff9b::a00:1", "private (inside 64:ff9b::a00:1)"),
    ("2002:7f00:1::", "loopback (inside 2002:7f00:1::)"),
]

#: reserved (class E), broadcast, documentation, benchmarking, 6to4 relay: refused (Python
#: versions differ on which of "private" or "reserved" they call them)
OTHERS = ["240.0.0.1", "255.255.255.255", "192.0.2.7", "198.51.100.1", "203.0.113.9", "198.18.0.1", "2001:db8::1"]

PUBLIC = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2001:4860:4860::8888", "::ffff:8.8.8.8"]


@pytest.mark.parametrize(("address", "reason"), REFUSED)
def test_finding3_addresses_that_are_not_public_are_refused_with_their_reason(address, reason):
    """Issue 27 finding 3: loopback, private, link-local, CGNAT, multicast, unspecified, reserved
    and the metadata addresses, IPv4-mapped, -compatible, NAT64 and 6to4 forms included."""
    assert refusal(ip_address(address)) == reason


@pytest.mark.parametrize("address", OTHERS)
def test_finding3_reserved_and_documentation_addresses_are_refused(address):
    assert refusal(ip_address(address)) is not None


@pytest.mark.parametrize("address", PUBLIC)
def test_finding3_public_addresses_pass(address):
    assert refusal(ip_address(address)) is None


def test_finding3_one_address_that_is_not_public_refuses_the_whole_host():
    """Issue 27 finding 3: a name resolving to a public and a private address is refused (the
    connection could go to either)."""
    policy = TargetPolicy()
    assert policy.refusal_of("https", ["93.184.216.34"]) is None
    assert policy.refusal_of("https", ["93.184.216.34", "10.1.2.3"]) == "10.1.2.3: private"
    assert policy.refusal_of("https", []) == "resolves to no address"
    assert policy.refusal_of("https", ["fe80::1%eth0"]) == "fe80::1: link-local"


def test_finding3_loopback_only_behind_the_development_setting():
    """Issue 27 finding 3 / finding 10: http and loopback only with WEBHOOK_ALLOW_LOOPBACK; even
    then private and link-local addresses are refused, and http goes to loopback only."""
    strict, dev = TargetPolicy(), TargetPolicy(allow_loopback=True)
    assert strict.refusal_of("https", ["127.0.0.1"]) == "127.0.0.1: loopback"
    assert dev.refusal_of("https", ["127.0.0.1"]) is None
    assert dev.refusal_of("http", ["127.0.0.2", "::1"]) is None
    assert dev.refusal_of("https", ["10.0.0.1"]) == "10.0.0.1: private"
    assert dev.refusal_of("http", ["93.184.216.34"]) == "plain http to an address that is not loopback"
    with pytest.raises(PartnerRuleError):
        strict.checked_url("http://127.0.0.1:8000/hook")
    assert dev.checked_url("http://127.0.0.1:8000/hook") == "http://127.0.0.1:8000/hook"


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/h",
        "http://example.org/h",
        "https://user:pw@example.org/h",
        "https:///nohost",
        "https://example.org:99999/h",
        "gopher://127.0.0.1/",
    ],
)
def test_finding3_urls_of_another_form_are_invalid(url):
    with pytest.raises(PartnerRuleError) as refused:
        TargetPolicy().checked_url(url)
    assert refused.value.code == "invalid_url"


def _chained(outer: Exception, inner: BaseException) -> Exception:
    outer.__cause__ = inner
    return outer


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (TargetNotPublic("h", "10.0.0.1: private"), "target_not_public"),
        (Unresolvable("h"), "dns"),
        (TimeoutError(), "timeout"),
        (httpcore.ReadTimeout("read timed out after 10 s"), "timeout"),
        (_chained(httpcore.ConnectError("[Errno 111] Connection refused"), ConnectionRefusedError(111)), "refused"),
        (_chained(httpcore.ConnectError("certificate verify failed"), ssl.SSLCertVerificationError()), "tls"),
        (httpcore.RemoteProtocolError("Server disconnected: secret internal banner"), "connection"),
    ],
)
def test_finding3_the_delivery_log_keeps_a_category_never_the_text(exc, expected):
    """Issue 27 finding 3: the log tells the partner a category, not what the target said."""
    assert category(exc) == expected
