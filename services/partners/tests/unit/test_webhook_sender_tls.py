"""Issue 27 finding 3 (DNS rebinding): the sender connects to the address it checked, yet TLS
still sends the URL's host name and verifies the certificate for it, and the request's Host
header is the URL's. A TLS receiver on 127.0.0.1 with a certificate of a test CA for
``hooks.example.org``; the sender's resolver answers 127.0.0.1 for that name (the development
setting allows loopback)."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import uvicorn
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from gomoku_shared.testing.webhooks import WebhookReceiver
from partners.adapters.webhook_sender import WebhookSender
from partners.domain.webhook_targets import TargetPolicy


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _certificates(directory: Path, host: str) -> tuple[bytes, Path, Path]:
    """A test CA (its PEM) and a leaf certificate for ``host`` signed by it (files)."""
    now = datetime.now(UTC)
    ca_key, leaf_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("webhook test CA"))
        .issuer_name(_name("webhook test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    leaf = (
        x509.CertificateBuilder()
        .subject_name(_name(host))
        .issuer_name(ca.subject)
        .public_key(leaf_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    cert_file, key_file = directory / "leaf.pem", directory / "leaf.key"
    cert_file.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        leaf_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return ca.public_bytes(serialization.Encoding.PEM), cert_file, key_file


@contextlib.asynccontextmanager
async def _tls_serving(app, port: int, cert: Path, key: Path) -> AsyncIterator[None]:
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_config=None, access_log=False, ssl_certfile=cert, ssl_keyfile=key
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(30):
            while not server.started:  # noqa: ASYNC110 - uvicorn's Server.started is a flag
                await asyncio.sleep(0.02)
        yield
    finally:
        server.should_exit = True
        await task


async def test_finding3_the_checked_address_is_connected_to_with_tls_for_the_host_name(tmp_path):
    ca_pem, cert, key = _certificates(tmp_path, "hooks.example.org")
    trusting = ssl.create_default_context(cadata=ca_pem.decode())
    names = {"hooks.example.org": ["127.0.0.1"], "other.example.org": ["127.0.0.1"]}
    asked: list[str] = []

    async def resolver(host: str, port: int) -> list[str]:
        asked.append(host)
        return names[host]

    receiver = WebhookReceiver(status=204)
    policy = TargetPolicy(allow_loopback=True)
    sender = WebhookSender(5.0, policy, resolver, ssl_context=trusting)
    fresh = WebhookSender(5.0, policy, resolver, ssl_context=trusting)  # a replica with no connection yet
    body = '{"type":"t"}'
    async with _tls_serving(receiver, receiver.port, cert, key):
        try:
            sent = await sender.send(f"https://hooks.example.org:{receiver.port}/hook", {"webhook-id": "msg_1"}, body)
            # the same address, another name: the certificate is not for it
            mismatch = await sender.send(f"https://other.example.org:{receiver.port}/hook", {}, body)
            # the name now resolves to an address that is not public: a new connection is refused;
            # the connection made to the checked address before goes on serving
            names["hooks.example.org"] = ["10.0.0.7"]
            rebound = await fresh.send(f"https://hooks.example.org:{receiver.port}/again", {}, body)
            reused = await sender.send(f"https://hooks.example.org:{receiver.port}/hook", {"webhook-id": "msg_2"}, body)
        finally:  # before the server stops: it waits for open connections
            await sender.close()
            await fresh.close()
    assert (sent.ok, sent.status_code, sent.error) == (True, 204, None)
    assert mismatch.ok is False and mismatch.error == "tls"
    assert rebound.ok is False and rebound.error == "target_not_public"
    assert reused.ok is True
    assert [a.headers["host"] for a in receiver.arrivals] == [f"hooks.example.org:{receiver.port}"] * 2
    assert [a.headers["webhook-id"] for a in receiver.arrivals] == ["msg_1", "msg_2"]
    assert receiver.arrivals[0].body == body.encode()
    # resolved at each new connection only (the reused one was checked when it was made)
    assert asked == ["hooks.example.org", "other.example.org", "hooks.example.org"]
