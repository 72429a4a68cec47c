"""State for the fuzzer to reach past "404 no such event": a small seed event played to the
end (awards published), and a second one stopped while its first round is being played (games
waiting for moves), both through the public APIs with the simulation's driver and bots.

``known_values`` then lists the real ids per path parameter name, so generated requests also
address existing events, sections, entries, games and rounds.

``StaffCredential`` is a person's access token (issue 29): invited by the operator through the
partners service's identity API into the ``default`` organisation (which owns the seed events)
with every event role, accepted, signed in.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from gomoku_shared.staff_roles import DEFAULT_ORGANISATION, EVENT_ROLES
from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import SERVICES, ApiError, Keys, Platform
from gomoku_sim.driver import EventDriver, RunSpec, SimClock
from gomoku_sim.stack import EPOCH, ServicesQuiet, Stack, distributed_stack, load_compose_commands

KEYS = Keys()
#: players who end games quickly and always show up
BOTS = BotPolicy(miss_rate=0.7, miss_four_rate=0.5, no_show_rate=0.0, timeout_rate=0.0)
PRESET = "da-2023"
#: played to the end; stopped in round 1
DONE, LIVE = "fzdone", "fzlive"
#: the settings of a fuzzed stack: a staff token lives as long as allowed (the fuzzer's wrong
#: sign-ins from one address would otherwise lock the address out of the staff sign-in that
#: renews the token after the fuzzer moved the simulation clock; the throttle's 429 is tested in
#: services/partners/tests/integration/test_staff_served.py)
FUZZ_ENV = {
    "STAFF_TOKEN_TTL_S": "3600",
    "CREDENTIAL_FREE_FAILURES": "1000",
    "CREDENTIAL_LOCKOUT_AFTER": "10000",
}
STAFF_LOGIN = "fuzz-staff@example.org"
STAFF_PASSWORD = "a long enough fuzz password"


def _spec(code: str, shift_years: int = 0) -> RunSpec:
    return RunSpec(
        preset_id=PRESET,
        seed=5,
        event_code=code,
        sizes={"open": 4, "junior": 4, "public": 0},
        rounds=2,
        policy=BOTS,
        progress=False,
        wait_timeout_s=60,
        run_timeout_s=300,
        shift_years=shift_years,
    )


@contextlib.asynccontextmanager
async def embedded_stack_process(tmp_path: Path, extra_env: dict[str, str] | None = None) -> AsyncIterator[Stack]:
    """``python -m gomoku_shared.embedded`` as its own process, on a real socket, CLOCK=fake
    (``extra_env``: settings over the fuzzed stack's)."""
    port = load_compose_commands().free_port()
    log = tmp_path / "embedded.log"
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "AMQP_URL")},
        "DATA_DIR": str(tmp_path / "data"),
        "API_KEYS": KEYS.api_keys_setting,
        "DATA_KEY": "fuzz-data-key",
        "CLOCK": "fake",
        "CLOCK_START": EPOCH.isoformat(),
        "LOG_JSON": "true",
        "LOG_LEVEL": "WARNING",
        "RELAY_POLL_S": "0.2",
        **FUZZ_ENV,
        **(extra_env or {}),
    }
    with open(log, "ab") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gomoku_shared.embedded", "--port", str(port)],
            env=env,
            stdout=fh,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the embedded process exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.2)
        urls = {s: f"{base}/{s}" for s in SERVICES}
        platform = Platform.distributed(urls, KEYS)
        clock = SimClock(platform, ("gameplay",))  # one clock for the whole process
        clock.current = await clock.now()
        quiet = ServicesQuiet(platform)  # the competition services of the one process, each at its prefix
        try:
            yield Stack(platform, clock, quiet, "embedded", urls, extras={"log": log})
        finally:
            await platform.aclose()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@contextlib.asynccontextmanager
async def distributed(
    tmp_path: Path,
    *,
    amqp_url: str,
    databases: dict[str, str],
    namespace: str,
    extra_env: dict[str, str] | None = None,
) -> AsyncIterator[Stack]:
    async with distributed_stack(
        amqp_url=amqp_url,
        database_urls=databases,
        log_dir=tmp_path / "logs",
        namespace=namespace,
        keys=KEYS,
        extra_env=extra_env,
    ) as stack:
        yield stack


def partners_base(stack: Stack) -> str:
    """The partners app of the embedded process (beside the four competition services' prefixes)."""
    return stack.urls["registration"].rsplit("/", 1)[0] + "/partners"


async def seed(stack: Stack) -> dict[str, list[Any]]:
    """Play DONE to the end and LIVE into its first round; the known ids of both."""
    await EventDriver(stack.platform, stack.clock, stack.quiet, _spec(DONE)).run()
    # a year later: the simulation clock never goes back, and DONE's dates are past
    live = EventDriver(stack.platform, stack.clock, stack.quiet, _spec(LIVE, shift_years=1))
    await live.create_event()
    await live.register()
    await live.verify_evidence()
    await live.check_in_and_close(live.config.stages[0].id)

    async def games() -> list[dict[str, Any]]:
        return (await stack.platform.get("gameplay", "/v1/games", params={"event_code": LIVE})).get("games", [])

    await live.wait_for("the first round's games", games)
    # the players join and play a little: positions to act on, not only empty boards
    for _ in range(3):
        await live.sweep_bots(await games())
    await stack.quiet()
    return await known_values(stack.platform)


async def _get(p: Platform, service: str, path: str, role: str = "operator", **params) -> Any:
    try:
        return await p.get(service, path, role=role, params=params or None)
    except ApiError:
        return {}


async def known_values(p: Platform) -> dict[str, list[Any]]:
    """Real values per path parameter name (first of each kind first)."""
    out: dict[str, list[Any]] = {"event_code": [LIVE, DONE], "round": [1], "n": [1, 2]}
    stages, sections, entries, units, evidence, changes, games, ties = [], [], [], [], [], [], [], []
    for code in (LIVE, DONE):
        event = await _get(p, "registration", f"/v1/events/{code}")
        for st in event.get("stages", []):
            stages.append(st["id"])
            sections += [s["id"] for s in st.get("sections", [])]
        entries += [
            e["entry_id"] for e in (await _get(p, "registration", f"/v1/events/{code}/entries")).get("entries", [])
        ]
        units += [
            u.get("unit_id") or u.get("id")
            for u in (await _get(p, "registration", f"/v1/events/{code}/units")).get("units", [])
        ]
        evidence += [
            e["evidence_id"]
            for e in (await _get(p, "registration", f"/v1/events/{code}/evidence", role="arbiter")).get("evidence", [])
        ]
        changes += [
            c.get("change_id")
            for c in (await _get(p, "registration", f"/v1/events/{code}/changes", role="arbiter")).get("changes", [])
        ]
        games += [g["game_id"] for g in (await _get(p, "gameplay", "/v1/games", event_code=code)).get("games", [])]
        for s in (await _get(p, "pairing", f"/v1/events/{code}/sections")).get("sections", []):
            ties += [
                t.get("tie_id")
                for t in (await _get(p, "pairing", f"/v1/events/{code}/sections/{s['section_id']}/ties")).get(
                    "ties", []
                )
            ]
    for name, values in (
        ("stage", stages),
        ("section_id", sections),
        ("entry_id", entries),
        ("unit_id", units),
        ("evidence_id", evidence),
        ("change_id", changes),
        ("game_id", games),
        ("tie_id", ties),
    ):
        # keep a few, in a fixed order: the LIVE event's first
        out[name] = list(dict.fromkeys(v for v in values if v))[:3]
    return out


class StaffCredential:
    """A staff account's access token for the fuzzer (issue 29): a person holding every event
    role in the ``default`` organisation. Called before each operation's requests, it answers a
    token the platform accepts now: the fuzzer moves the simulation clock (``/v1/ops/clock``,
    past the token's expiry) and may sign the person out everywhere (``/v1/staff/sign-out-
    everywhere``), so a refused token is replaced by a new sign-in (after moving the clock a
    few seconds when a revocation at this very time refuses the new one too)."""

    def __init__(self, partners_base: str, operator_key: str = KEYS.operator) -> None:
        self.base = partners_base
        self.operator = {"x-api-key": operator_key}
        self.http = httpx.Client(timeout=30)
        self.token = ""
        self.renewed = 0

    def invite(self) -> StaffCredential:
        """The operator invites the person; they accept with a password."""
        body = {
            "login": STAFF_LOGIN,
            "name": "Fuzz Staff",
            "roles": list(EVENT_ROLES),
            "events": {},
        }
        link = self.http.post(
            f"{self.base}/v1/organisations/{DEFAULT_ORGANISATION}/invitations", headers=self.operator, json=body
        )
        assert link.status_code == 201, link.text
        token = link.json()["token"]
        accepted = self.http.post(f"{self.base}/v1/invitations/{token}/accept", json={"password": STAFF_PASSWORD})
        assert accepted.status_code == 201, accepted.text
        return self

    def _valid(self) -> bool:
        if not self.token:
            return False
        me = self.http.get(f"{self.base}/v1/staff/me", headers={"authorization": f"Bearer {self.token}"})
        return me.status_code == 200

    def _sign_in(self) -> None:
        r = self.http.post(f"{self.base}/v1/staff/sign-in", json={"login": STAFF_LOGIN, "password": STAFF_PASSWORD})
        assert r.status_code == 200, r.text
        self.token = r.json()["access_token"]
        self.renewed += 1

    def close(self) -> None:
        self.http.close()

    def __call__(self) -> str:
        if self._valid():
            return self.token
        self._sign_in()
        if not self._valid():  # revoked at this very second: every token issued until then is refused
            moved = self.http.post(f"{self.base}/v1/ops/clock", headers=self.operator, json={"advance_s": 2})
            assert moved.status_code == 200, moved.text
            self._sign_in()
            assert self._valid(), "a new sign-in's token is refused"
        return self.token
