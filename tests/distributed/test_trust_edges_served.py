"""Issue 27, findings 6, 7 and 8, over real sockets against served processes: the embedded server
(the portal's pages and every service in one process) and a service as docker-compose.yml runs it
(PostgreSQL + RabbitMQ).

* wrong API keys and wrong staff sign-ins are throttled per client address and per key: 429 with
  ``Retry-After`` after a few, then a lockout; a right key from another address is not slowed;
* the sign-in form's token is bound to the browser's pre-session cookie (login CSRF);
* pages, staff pages and JSON answers carry the security headers; HSTS only over TLS;
* a client that sends its headers or body a byte a second is cut off.
"""

from __future__ import annotations

import os
import re
import socket
import time

import httpx
import pytest

from gomoku_shared.testing.served import embedded_server

from .compose_commands import LocalCompose

KEYS = "op-key=operator,arb-key=arbiter,partner-key=partner:partner-1"
#: small figures, so that the lockout is reached in a few tries (the defaults are 5, 20, 900 s)
THROTTLE = {"CREDENTIAL_FREE_FAILURES": "3", "CREDENTIAL_LOCKOUT_AFTER": "5", "CREDENTIAL_LOCKOUT_S": "600"}
#: short read deadlines: a slow client is cut off within seconds
TIMEOUTS = {"HTTP_HEADER_TIMEOUT_S": "2", "HTTP_BODY_TIMEOUT_S": "2"}
#: how long a test waits for the server to close a slow connection before it gives up (a guard
#: against a hanging test, far above the configured deadlines; not an assertion about speed)
GIVE_UP_S = 60.0


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("trust-edges")
    env = {**os.environ, "DATA_DIR": str(tmp / "data"), "API_KEYS": KEYS, "DATA_KEY": "trust-edges-key"}
    env.update(THROTTLE)
    env.update(TIMEOUTS)
    env.pop("DATABASE_URL", None)
    env.pop("AMQP_URL", None)
    with embedded_server(env, tmp / "embedded.log") as port:
        yield f"http://127.0.0.1:{port}"


def _sign_in_form(client: httpx.Client) -> str:
    form = client.get("/staff/sign-in")
    assert form.status_code == 200, form.text
    found = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert found
    return found.group(1)


def _until_throttled(send, limit: int = 20) -> tuple[httpx.Response, int]:
    """Send wrong tries until one is answered 429; that answer and how many tries it took."""
    for tries in range(1, limit + 1):
        answer = send()
        if answer.status_code == 429:
            return answer, tries
    raise AssertionError(f"no 429 after {limit} wrong tries")


def _until_locked(send, limit: int = 20) -> httpx.Response:
    """Go on with wrong tries, waiting as long as each 429's Retry-After says (the back-off),
    until the answer is the lockout (a wait longer than any back-off step)."""
    for _ in range(limit):
        answer = send()
        if answer.status_code == 429:
            wait = int(answer.headers["retry-after"])
            if wait > 60:
                return answer
            time.sleep(wait)
    raise AssertionError(f"no lockout after {limit} wrong tries")


def test_wrong_api_keys_back_off_then_lock_out_the_address_with_retry_after(embedded):
    """Issue 27 finding 6: X-API-Key guessing ran at 153/s. Now after the free failures a try
    answers 429 too_many_failures (common error shape, Retry-After); after the lockout figure the
    wait is the lockout; a right key from another address is answered at once."""
    with httpx.Client(base_url=embedded, timeout=30) as client:
        n = iter(range(10_000))

        def guess() -> httpx.Response:
            return client.get("/registration/v1/whoami", headers={"x-api-key": f"guess-{next(n)}"})

        first = guess()
        assert first.status_code == 401 and first.json()["error"]["code"] == "invalid_api_key"
        throttled, tries = _until_throttled(guess)
        # 3 free failures, the 4th sets a wait, the next try meets it (the 5th failure, on a
        # machine slow enough to let the first 1 s pass, locks out: a 429 all the same)
        assert tries <= 5, tries
        error = throttled.json()["error"]
        assert set(error) == {"code", "message", "details"}
        assert error["code"] == "too_many_failures" and error["details"]["lockout_s"] == 600, error
        assert int(throttled.headers["retry-after"]) >= 1
        # another service of the process counts its own: the guesser's next wrong try there is a 401
        other = client.get("/pairing/v1/whoami", headers={"x-api-key": "guess-elsewhere"})
        assert other.status_code == 401
        # the fifth failure locks out: the wait is then the lockout's
        locked = _until_locked(guess)
        assert locked.json()["error"]["details"]["retry_after_s"] == int(locked.headers["retry-after"]) > 60
        # while the address waits, a right key from it is refused unchecked too (no oracle)
        assert client.get("/registration/v1/whoami", headers={"x-api-key": "op-key"}).status_code == 429
        # a right key from another client address (as the gateway forwards it) is not slowed
        ok = client.get("/registration/v1/whoami", headers={"x-api-key": "arb-key", "x-forwarded-for": "198.51.100.20"})
        assert ok.status_code == 200 and ok.json()["role"] == "arbiter"
        # the pages' own reads are not the guesser's: the home page (registration's events) still answers
        assert client.get("/").status_code == 200


def test_staff_sign_in_is_throttled_and_a_right_key_elsewhere_signs_in_at_once(embedded):
    """Issue 27 finding 6: staff sign-in took 500 wrong keys in 5.5 s. Now wrong keys get the form
    again, then 429 with Retry-After and the wait in words; the same address waits even with the
    right key, while a person elsewhere signs in at once."""
    attacker = {"x-forwarded-for": "203.0.113.9"}
    with httpx.Client(base_url=embedded, timeout=30, headers=attacker) as client:
        token = _sign_in_form(client)
        n = iter(range(10_000))

        def guess() -> httpx.Response:
            data = {"api_key": f"staff-guess-{next(n)}", "csrf": token, "next": "/staff"}
            return client.post("/staff/sign-in", data=data)

        first = guess()
        assert first.status_code == 200 and "密钥无效" in first.text
        throttled, tries = _until_throttled(guess)
        assert tries <= 5, tries
        assert int(throttled.headers["retry-after"]) >= 1
        assert "错误的密钥太多" in throttled.text
        assert int(_until_locked(guess).headers["retry-after"]) > 60
        right = client.post("/staff/sign-in", data={"api_key": "op-key", "csrf": token, "next": "/staff"})
        assert right.status_code == 429 and "staff_session" not in right.cookies
    with httpx.Client(base_url=embedded, timeout=30, headers={"x-forwarded-for": "198.51.100.30"}) as person:
        token = _sign_in_form(person)
        signed = person.post("/staff/sign-in", data={"api_key": "op-key", "csrf": token, "next": "/staff"})
        assert signed.status_code == 303 and signed.headers["location"] == "/staff"
        assert "staff_session" in person.cookies


def test_sign_in_token_of_another_browser_is_refused(embedded):
    """Issue 27 finding 7 (login CSRF): a page elsewhere fetched a sign-in token and made the
    operator's browser post it with the attacker's key. The token is now bound to the pre-session
    cookie of the browser that fetched the form: another browser's token is refused (403), and
    nobody is signed in."""
    headers = {"x-forwarded-for": "192.0.2.44"}
    with (
        httpx.Client(base_url=embedded, timeout=30, headers=headers) as attacker,
        httpx.Client(base_url=embedded, timeout=30, headers=headers) as victim,
    ):
        attackers_token = _sign_in_form(attacker)
        assert "staff_pre_session" in attacker.cookies
        # the victim's browser, with no pre-session cookie yet, then with its own
        for _ in range(2):
            forged = victim.post(
                "/staff/sign-in", data={"api_key": "arb-key", "csrf": attackers_token, "next": "/staff"}
            )
            assert forged.status_code == 403 and "staff_session" not in victim.cookies, forged.text
            assert "表单已失效或来源不明" in forged.text
            _sign_in_form(victim)
        # the victim's own token signs the victim in
        own = victim.post("/staff/sign-in", data={"api_key": "arb-key", "csrf": _sign_in_form(victim)})
        assert own.status_code == 303 and "staff_session" in victim.cookies


def test_security_headers_on_a_page_a_staff_page_and_json(embedded):
    """Issue 27 finding 7: no page or service sent CSP, frame-ancestors/X-Frame-Options, nosniff,
    Referrer-Policy or HSTS. A public page has a CSP without inline script; a staff page may not be
    framed; a JSON answer has nosniff, a referrer policy and a deny-all CSP; HSTS only when the
    request came over TLS (the gateway's X-Forwarded-Proto)."""
    # from an address of its own: the tests before this one lock 127.0.0.1 out with wrong keys, and the
    # home page reads registration's events on behalf of its reader's address (a locked-out one gets 429)
    with httpx.Client(base_url=embedded, timeout=30, headers={"x-forwarded-for": "192.0.2.1"}) as client:
        page = client.get("/")
        staff = client.get("/staff/sign-in")
        data = client.get("/registration/v1/events", headers={"x-api-key": "arb-key"})
        assert page.status_code == staff.status_code == 200
        for answer in (page, staff, data):
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["referrer-policy"] == "no-referrer"
            assert "strict-transport-security" not in answer.headers  # plain http
        page_csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in page_csp and "unsafe-inline" not in page_csp
        staff_csp = staff.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in staff_csp and "unsafe-inline" not in staff_csp
        assert staff.headers["x-frame-options"] == "DENY"
        assert data.headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"
        # no inline script or event handler left in the pages
        for answer in (page, staff):
            assert not re.search(r"<script(?![^>]*\bsrc=)", answer.text) and not re.search(r"\son[a-z]+=", answer.text)
        over_tls = client.get("/staff/sign-in", headers={"x-forwarded-proto": "https"})
        assert over_tls.headers["strict-transport-security"].startswith("max-age=")


def _cut_off(port: int, first: bytes, dribble: bytes, give_up_s: float = GIVE_UP_S) -> bool:
    """Send ``first`` at once, then ``dribble`` a byte a second: whether the server closed the
    connection (before it had all of it, or before ``give_up_s``)."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(1.0)
    try:
        sock.sendall(first)
        started = time.monotonic()
        for byte in dribble:
            if time.monotonic() - started > give_up_s:
                return False
            try:
                sock.sendall(bytes([byte]))
                if sock.recv(1024) == b"":
                    return True
            except TimeoutError:
                continue  # nothing to read yet: the next byte
            except (BrokenPipeError, ConnectionResetError):
                return True
        return False
    finally:
        sock.close()


SLOW_HEAD = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
SLOW_BODY_HEAD = (
    b"POST /v1/events HTTP/1.1\r\nHost: x\r\nX-API-Key: op-key\r\nContent-Type: application/json\r\n"
    b"Content-Length: 200\r\n\r\n"
)


def test_slow_loris_headers_and_bodies_are_cut_off_by_the_embedded_server(embedded):
    """Issue 27 finding 8: 700 connections sending headers or bodies a byte at a time were held
    for 40 s. Headers (and a body) dribbled a byte a second are now cut off by the configured
    read deadline (2 s here), long before the request could be complete."""
    port = int(embedded.rsplit(":", 1)[1])
    assert _cut_off(port, b"", SLOW_HEAD)
    # (from an address of its own: another test locked 127.0.0.1 out of registration)
    body_head = SLOW_BODY_HEAD.replace(b"/v1/events", b"/registration/v1/events").replace(
        b"\r\n\r\n", b"\r\nX-Forwarded-For: 192.0.2.99\r\n\r\n"
    )
    assert _cut_off(port, body_head, b"{" + b" " * 198 + b"}")
    # a connection that sends nothing at all is closed too
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(GIVE_UP_S)
    try:
        assert sock.recv(1) == b""
    finally:
        sock.close()


def test_a_partners_rate_quota_holds_per_service_as_documented(embedded):
    """Issue 27 finding 10: the quota was documented per client but kept per service (five times
    the advertised figure across the platform). The documents now say per service, and this is
    what a served process does: a token with a quota of 3 gets 3 answers from registration, then
    429 rate_limited with Retry-After, while pairing still answers it its own 3."""
    op = {"x-api-key": "op-key", "x-forwarded-for": "192.0.2.120"}
    with httpx.Client(base_url=embedded, timeout=30) as client:
        made = client.post(
            "/partners/v1/partners",
            headers=op,
            json={
                "partner_id": "quota-app",
                "name": "quota-app",
                "scopes": ["results:read"],
                "rate_limit": {"quota": 3, "window_s": 3600},
            },
        )
        assert made.status_code == 201, made.text
        cred = client.post("/partners/v1/partners/quota-app/credentials", headers=op, json={"label": "q"})
        assert cred.status_code == 201, cred.text
        secret = cred.json()
        issued = client.post(
            "/partners/oauth/token",
            data={"grant_type": "client_credentials"},
            auth=(secret["client_id"], secret["client_secret"]),
        )
        assert issued.status_code == 200, issued.text
        token = {"authorization": f"Bearer {issued.json()['access_token']}", "x-forwarded-for": "192.0.2.121"}
        registration = [client.get("/registration/v1/whoami", headers=token) for _ in range(4)]
        assert [a.status_code for a in registration] == [200, 200, 200, 429]
        assert registration[3].json()["error"]["code"] == "rate_limited"
        assert int(registration[3].headers["retry-after"]) >= 1
        pairing = [client.get("/pairing/v1/whoami", headers=token) for _ in range(3)]
        assert [a.status_code for a in pairing] == [200, 200, 200]
        assert pairing[0].headers["ratelimit-policy"] == '"partner";q=3;w=3600'


# ------------------------------------------------------------------ a service on PostgreSQL + RabbitMQ


async def test_registration_process_throttles_keys_sends_headers_and_cuts_slow_clients(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """Issue 27 findings 6, 7, 8 on a service as docker-compose.yml runs it (its command and
    environment, PostgreSQL + RabbitMQ): wrong keys end in 429 with Retry-After, its JSON carries
    the security headers, slow clients are cut off."""
    stack = LocalCompose(
        database_urls={"registration": await fresh_database()},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, **THROTTLE, **TIMEOUTS},
    )
    try:
        proc = await stack.serve("registration")
        with httpx.Client(base_url=proc.url, timeout=30) as client:
            n = iter(range(10_000))
            throttled, tries = _until_throttled(
                lambda: client.get("/v1/whoami", headers={"x-api-key": f"guess-{next(n)}"})
            )
            assert tries <= 5 and throttled.json()["error"]["code"] == "too_many_failures"
            assert int(throttled.headers["retry-after"]) >= 1
            ok = client.get("/v1/whoami", headers={"x-api-key": "op-key", "x-forwarded-for": "198.51.100.7"})
            assert ok.status_code == 200
            assert ok.headers["x-content-type-options"] == "nosniff"
            assert ok.headers["referrer-policy"] == "no-referrer"
            assert "frame-ancestors 'none'" in ok.headers["content-security-policy"]
        assert _cut_off(proc.port, b"", SLOW_HEAD)
        assert _cut_off(proc.port, SLOW_BODY_HEAD, b"{" + b" " * 198 + b"}")
        assert proc.popen.poll() is None, proc.log.read_text()[-2000:]
    finally:
        stack.stop_all()


def test_the_gateway_cuts_off_a_slow_loris_client(tmp_path):
    """Issue 27 finding 8: the gateway's read timeout was an hour (and Caddy's own header
    deadline a minute). The compose gateway (Caddy on the compose Caddyfile) now closes a
    connection whose headers arrive a byte a second by its read_header deadline (set to 2 s
    here; 10 s by default), long before the 200-byte header could be complete."""
    extra = {"GATEWAY_READ_HEADER_TIMEOUT": "2s"}
    stack = LocalCompose(database_urls={}, amqp_url="", namespace="unused", log_dir=tmp_path, extra_env=extra)
    try:
        gateway = stack.start_gateway()
        stack.wait_gateway()
        # (given up on after 30 s: within Caddy's own default of a minute, so only the
        # configured deadline can pass this)
        assert _cut_off(gateway.port, b"", SLOW_HEAD, give_up_s=30)
        # and the gateway still answers the next client
        assert httpx.get(gateway.url + "/healthz", timeout=10).status_code == 200
    finally:
        stack.stop_all()
