"""Rolling upgrades (issue 17): migrations are expand/contract (CONTRIBUTING.md, "Change a
table"), so during an upgrade a replica of the previous release and one of this release serve
the same database side by side. Here the previous release is the registration service and the
shared library as committed at ``PREVIOUS_RELEASE`` (taken from git history); the database is
migrated by this release first, as the migration step of an upgrade does. What either replica
writes, the other reads, and both stay ready — on PostgreSQL + RabbitMQ."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import httpx

from .compose_commands import LocalCompose, free_port

ROOT = Path(__file__).resolve().parents[2]
#: the release before this one's changes to the services (main at the start of this version's work)
PREVIOUS_RELEASE = "9ab2b7b"
OPERATOR = {"x-api-key": "op-key"}

#: the previous release's own `serve` main, given only its own service to build (its entry-point
#: scan would otherwise load this release's other installed services against its older library)
LAUNCH_PREVIOUS = """
import sys
from gomoku_shared import serve
from registration.bootstrap import build
serve.builders = lambda: {"registration": build}
sys.exit(serve.main(["registration", "--host", "127.0.0.1", "--port", sys.argv[1]]))
"""


def _previous_release(into: Path) -> Path:
    """The previous release's shared library and registration service, unpacked from git."""
    archive = subprocess.run(
        [
            "git",
            "-C",
            str(ROOT),
            "archive",
            "--format=tar",
            PREVIOUS_RELEASE,
            "shared/src",
            "services/registration/src",
        ],
        capture_output=True,
        check=False,
    )
    assert archive.returncode == 0, (
        f"the previous release {PREVIOUS_RELEASE} is not in this clone's history (a shallow clone?): "
        f"{archive.stderr.decode()[-500:]}"
    )
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


async def _wait_ready(url: str, proc: subprocess.Popen, log: Path) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=2) as client:
        for _ in range(300):
            if proc.poll() is not None:
                raise AssertionError(f"the previous release exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
            try:
                if (await client.get("/readyz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.2)
    raise AssertionError(f"the previous release never got ready:\n{log.read_text()[-3000:]}")


async def test_a_replica_of_the_previous_release_and_one_of_this_release_share_a_database(
    tmp_path, fresh_database, amqp_url, bus_namespace
):
    url = await fresh_database()
    stack = LocalCompose(
        database_urls={"registration": url}, amqp_url=amqp_url, namespace=bus_namespace, log_dir=tmp_path
    )
    new = await stack.serve("registration")  # this release migrates first (expand)

    old_code = _previous_release(tmp_path / "previous")
    env = stack._env("registration")
    env["PYTHONPATH"] = os.pathsep.join([str(old_code / "shared/src"), str(old_code / "services/registration/src")])
    port = free_port()
    old_log = tmp_path / "registration-previous.log"
    with open(old_log, "ab") as out:
        old = subprocess.Popen(
            [sys.executable, "-c", LAUNCH_PREVIOUS, str(port)], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    old_url = f"http://127.0.0.1:{port}"
    try:
        await _wait_ready(old_url, old, old_log)
        async with (
            httpx.AsyncClient(base_url=old_url, headers=OPERATOR, timeout=30) as previous,
            httpx.AsyncClient(base_url=new.url, headers=OPERATOR, timeout=30) as current,
        ):
            # the previous release really is older code: it knows no partner access tokens (OAuth 2.0)
            def oauth(doc: dict) -> list[str]:
                schemes = doc.get("components", {}).get("securitySchemes", {})
                return [name for name, scheme in schemes.items() if scheme.get("type") == "oauth2"]

            assert oauth((await current.get("/openapi.json")).json())
            assert not oauth((await previous.get("/openapi.json")).json())

            for writer, reader, code in ((previous, current, "up-old"), (current, previous, "up-new")):
                created = await writer.post("/v1/events", json={"preset_id": "nt-2023", "event_code": code})
                assert created.status_code == 201, created.text
                read = await reader.get(f"/v1/events/{code}")
                assert read.status_code == 200, read.text
                assert read.json()["event_code"] == code
            for client in (previous, current):
                assert (await client.get("/readyz")).status_code == 200
    finally:
        old.terminate()
        await asyncio.to_thread(old.wait, 30)
        stack.stop("registration")
    assert "Traceback" not in old_log.read_text()
