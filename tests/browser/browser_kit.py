"""Helpers of the browser tests: the embedded runner served as a process, the browser, an event
played by bot players through the APIs up to a live round."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import re
import shutil
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from gomoku_shared.testing.served import embedded_server
from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import ApiError, Keys, Platform
from gomoku_sim.demo_staff import create_demo_staff
from gomoku_sim.driver import EventDriver, RunSpec, SimClock, scaled_sizes

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output" / "browser"


def browser_or_fail():
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            f"no browser at {CHROMIUM}: install Debian's chromium "
            "(apt-get update && apt-get install -y chromium), then run the tests again"
        )
    try:
        from playwright.async_api import async_playwright
    except ImportError:  # pragma: no cover - a dev dependency of the project
        pytest.fail("the playwright package is missing: run `make install`")
    return async_playwright


@asynccontextmanager
async def chromium_page(height: int = 900) -> AsyncIterator[tuple[Any, list[str]]]:
    """A page of Chromium 1200 pixels wide and the list the page's console errors and uncaught
    errors are added to (a test asserts it empty); screenshots go to ``OUT``."""
    async_playwright = browser_or_fail()
    OUT.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(viewport={"width": 1200, "height": height})
            page = await context.new_page()
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            yield page, problems
        finally:
            await browser.close()


async def key_sign_in(page: Any) -> None:
    """From the sign-in form (account and password, issue 29) to the operator's key form, by its
    small link (the key form keeps where to go after signing in)."""
    await page.click("a.key-sign-in")
    await page.wait_for_url("**/staff/sign-in/key**")


async def console_signed_in(page: Any, served: str, path: str) -> None:
    """The staff console's page at ``path``, after signing in there with the arbiter's key."""
    await page.goto(f"{served}{path}")
    await key_sign_in(page)
    await page.fill("input[name=api_key]", Keys().arbiter)
    await page.click("form button[type=submit]")
    await page.wait_for_url(f"**{path}")


def serve_embedded(tmp_path: Path, extra_env: dict[str, str] | None = None):
    """``python -m gomoku_shared.embedded`` as its own process on a free port, simulation clock
    (``extra_env``: settings beside those)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DATA_DIR": str(tmp_path),
        "API_KEYS": Keys().api_keys_setting,
        "CLOCK": "fake",
        "CLOCK_START": "2020-01-01T00:00:00+00:00",
        "LOG_JSON": "true",
        "LOG_LEVEL": "WARNING",
        "RELAY_POLL_S": "0.2",
        **(extra_env or {}),
    }
    with embedded_server(env, tmp_path / "embedded.log") as port:
        yield f"http://127.0.0.1:{port}"


served_at = contextmanager(serve_embedded)


def platform_at(base: str) -> Platform:
    """The services of the runner at ``base``, through their APIs."""
    return Platform.distributed({s: f"{base}/{s}" for s in ("registration", "pairing", "gameplay", "awards")})


@asynccontextmanager
async def played_once(
    tmp_path: Path, shared: Path, name: str, play: Callable[[str], Awaitable[tuple[Platform, EventDriver]]]
) -> AsyncIterator[tuple[str, str]]:
    """An event played once per test run and served to each test from its own copy of the
    runner's data: (the runner's address, the event's code). The first test to ask plays it (the
    others, on any worker, wait for it under a lock in ``shared``); the copy starts at the
    simulation time the play ended, so its pages say what they said then. A whole seed event
    played by bots takes most of a minute: several modules reading the same played event share one
    play."""
    kept = shared / f"played-{name}"
    with open(shared / f"played-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (kept / "played.json").exists():
            shutil.rmtree(kept, ignore_errors=True)  # a play that failed half-way
            (kept / "data").mkdir(parents=True)
            with served_at(kept / "data") as base:
                platform, driver = await play(base)
                try:
                    now = (await platform.get("gameplay", "/v1/ops/clock"))["now"]
                finally:
                    await platform.aclose()
            # written once the runner has stopped: its data on disk are whole
            (kept / "played.json").write_text(json.dumps({"code": driver.code, "now": now}))
    played = json.loads((kept / "played.json").read_text())
    copy = tmp_path / f"played-{name}"
    shutil.copytree(kept / "data", copy)
    with served_at(copy, {"CLOCK_START": played["now"]}) as base:
        yield base, played["code"]


async def attribute_at_least(page: Any, selector: str, attribute: str, value: int, timeout_s: float = 1.0) -> None:
    """Wait until the number in ``attribute`` of ``selector`` reaches ``value``. Polled from here:
    Playwright's ``wait_for_function`` evaluates a string in the page, which the pages'
    Content-Security-Policy refuses (no ``unsafe-eval``)."""
    end = time.monotonic() + timeout_s
    while True:
        found = await page.get_attribute(selector, attribute)
        if found is not None and int(found) >= value:
            return
        if time.monotonic() > end:
            raise AssertionError(f"{selector} {attribute} is {found}, not {value} or more, after {timeout_s} s")
        await asyncio.sleep(0.02)


async def settle() -> None:
    await asyncio.sleep(0.3)  # the embedded relay publishes within RELAY_POLL_S


async def until(what: str, probe, timeout_s: float = 90.0):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        value = await probe()
        if value:
            return value
        await asyncio.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


async def registered_da_event(base: str, *, seed: int, sizes: dict[str, int]) -> tuple[Platform, EventDriver]:
    """A DA 2023 event on the served platform at ``base``: created, its units and entries registered,
    the evidence verified (3 rounds, bots that always show up and never let the clock run out)."""
    return await registered_event(base, "da-2023", seed=seed, sizes=sizes)


async def registered_event(
    base: str, preset_id: str, *, seed: int, sizes: dict[str, int]
) -> tuple[Platform, EventDriver]:
    """An event of the preset ``preset_id`` on the served platform at ``base``, registered as
    :func:`registered_da_event` registers DA 2023's."""
    platform = Platform.distributed({s: f"{base}/{s}" for s in ("registration", "pairing", "gameplay", "awards")})
    spec = RunSpec(
        preset_id=preset_id,
        seed=seed,
        sizes=sizes,
        rounds=3,
        policy=BotPolicy(no_show_rate=0, timeout_rate=0),
        progress=False,
    )
    driver = EventDriver(platform, SimClock(platform, ("gameplay",)), settle, spec)
    await driver.create_event()
    await driver.create_units()
    await driver.register()
    await driver.verify_evidence()
    return platform, driver


async def first_round_played(base: str, *, pending_evidence: bool = False) -> tuple[Platform, EventDriver, str]:
    platform, driver = await registered_da_event(base, seed=5, sizes={"open": 6, "junior": 0, "public": 0})
    if pending_evidence:
        # one record the arbiter has still to review (REG-6): the console's evidence queue
        # an entry of the partner's (a delegation that entered through the roster door is not theirs)
        entries = await platform.get("registration", f"/v1/events/{driver.code}/entries", role="partner")
        first = sorted(e["entry_id"] for e in entries["entries"] if e.get("section_id") == "open")[0]
        await platform.post(
            "registration",
            f"/v1/events/{driver.code}/evidence",
            {"entry_id": first, "kind": "grade_certificate", "document_ref": "grade-scan-1", "grade": "1d"},
            role="partner",
        )
    await driver.check_in_and_close(driver.config.stages[0].id)

    async def round_two_live():
        try:
            section = await platform.get("pairing", f"/v1/events/{driver.code}/sections/open")
        except ApiError as exc:  # the stage's closing has not reached pairing yet
            if exc.status != 404:
                raise
            return None
        games = await driver.active_games()
        if section["current_round"] >= 2 and games:
            return games
        await driver.sweep_bots(games)
        return None

    games = await until("round 2 of the open section to start", round_two_live)
    # EVT-7: round 2 starts at its scheduled time: the simulation clock moves there
    starts = [g["starts_at"] for g in games]
    await driver.clock.set(max(s if isinstance(s, datetime) else datetime.fromisoformat(s) for s in starts))
    return platform, driver, games[0]["game_id"]


async def move_in(driver: EventDriver, platform: Platform, game_id: str) -> int:
    """Bots act in the game until a stone is added; returns the number of moves then."""
    before = len((await platform.get("gameplay", f"/v1/games/{game_id}"))["moves"])
    for _ in range(20):
        mode = (await platform.get("gameplay", f"/v1/games/{game_id}"))["mode"]
        await driver.sweep_bots([{"game_id": game_id, "seq": None, "mode": mode}])
        now = len((await platform.get("gameplay", f"/v1/games/{game_id}"))["moves"])
        if now > before:
            return now
    raise AssertionError(f"no move was made in {game_id}")


async def event_played(
    base: str,
    *,
    preset_id: str = "da-2023",
    sizes: dict[str, int] | None = None,
    rounds: int | None = 3,
    seed: int = 7,
) -> tuple[Platform, EventDriver]:
    """A small seed event played to its published awards: by default DA 2023 with 6 in the open
    section and 3 rounds; ``team_event_played`` and ``sz_event_played`` below for the others."""
    platform = Platform.distributed({s: f"{base}/{s}" for s in ("registration", "pairing", "gameplay", "awards")})
    spec = RunSpec(
        preset_id=preset_id,
        seed=seed,
        sizes=sizes if sizes is not None else {"open": 6, "junior": 0, "public": 0},
        rounds=rounds,
        policy=BotPolicy(no_show_rate=0, timeout_rate=0),
        progress=False,
    )
    driver = EventDriver(platform, SimClock(platform, ("gameplay",)), settle, spec)
    await driver.run()
    return platform, driver


async def team_event_played(base: str, *, rounds: int | None = 3) -> tuple[Platform, EventDriver]:
    """The NT 2023 team championship, small: 4 teams in the mixed team section (3 boards each),
    the other two sections empty, played to its published awards."""
    sizes = {"mixed-team": 4, "junior-boys-team": 0, "junior-girls-team": 0}
    return await event_played(base, preset_id="nt-2023", sizes=sizes, rounds=rounds, seed=7)


async def sz_event_played(base: str, *, rounds: int | None = None) -> tuple[Platform, EventDriver]:
    """The SZ 2022 qualifier with the simulator's small field (sections merged or cancelled as the
    regulation says when too few enter), played to its published awards."""
    return await event_played(base, preset_id="sz-2022", sizes=scaled_sizes("sz-2022"), rounds=rounds, seed=7)


async def save_result(page: Any, pairing_id: str, result: str, note: str | None = None) -> str:
    """Issue 28: a result chosen on the console's round page, saved, and the confirmation that
    names the change accepted; the confirmation's question is returned."""
    row = page.locator(f'tr[data-pairing="{pairing_id}"]')
    await row.locator("select[name=result]").select_option(result)
    if note is not None:
        await row.locator("input[name=note]").fill(note)
    await row.locator("button[type=submit]").click()
    confirm = page.locator(f'.confirm[data-pairing="{pairing_id}"]')
    await confirm.wait_for()
    question = await confirm.locator("b").first.inner_text()
    await confirm.locator("button[name=confirm]").click()
    await page.locator(
        f'tr[data-pairing="{pairing_id}"] .done, tr[data-pairing="{pairing_id}"] .refusal'
    ).first.wait_for()
    return question


#: internal ids that must never be on a console page (pairing ids, entrant and player ids)
IDS = re.compile(r"\br\d+\.(?:m\d+\.)?b\d+\b|\.p\d{5}\b|\.main\.")


async def demo_accounts(served: str) -> dict[str, tuple[str, str]]:
    """The demo's staff accounts, one per role: role -> (sign-in name, password)."""
    async with httpx.AsyncClient(timeout=30) as client:
        made = await create_demo_staff(client, f"{served}/partners", Keys().operator)
    return {a.role: (a.login, a.password) for a in made}


async def account_sign_in(page: Any, served: str, account: tuple[str, str], lang: str) -> None:
    """Sign in to the console with a staff account, the page in ``lang``."""
    await page.goto(f"{served}/staff/sign-in?lang={lang}")
    await page.fill("input[name=login]", account[0])
    await page.fill("input[name=password]", account[1])
    await page.click("form[data-form=account-sign-in] button[type=submit]")
    await page.wait_for_selector("[data-who=person]")


async def account_sign_out(page: Any) -> None:
    await page.click("form.sign-out[action='/staff/sign-out'] button")
    await page.wait_for_url("**/staff/sign-in**")
