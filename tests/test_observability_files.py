"""The observability profile's files: Grafana's dashboards ask only for metrics the services
expose (read from their /metrics) with labels they carry; Prometheus scrapes every service."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
import yaml

from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings

ROOT = Path(__file__).resolve().parents[1]
SERVICES = ("registration", "pairing", "gameplay", "awards")
DASHBOARDS = sorted((ROOT / "deploy/grafana/dashboards").glob("*.json"))
#: series Prometheus makes itself for every target, with the target's labels
SYNTHETIC = {"up": {"job", "instance", "service"}}
PROMQL_WORDS = {"sum", "rate", "by", "histogram_quantile", "le"}


async def _exposed(tmp_path) -> dict[str, set[str]]:
    """Metric name -> label names, from every service's /metrics (histograms with their series)."""
    suite = EmbeddedSuite(ServiceSettings(DATA_DIR=str(tmp_path), DATA_KEY="k" * 32, API_KEYS="op=operator"))
    metrics: dict[str, set[str]] = {}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=suite.app), base_url="http://e") as client:
        for s in SERVICES:
            await client.get(f"/{s}/healthz")  # one request, so that labelled series have samples
            text = (await client.get(f"/{s}/metrics")).text
            for line in text.splitlines():
                m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})? ", line)
                if m and not line.startswith("#"):
                    labels = set(re.findall(r"([a-zA-Z_][a-zA-Z0-9_]*)=", m.group(2) or ""))
                    metrics.setdefault(m.group(1), set()).update(labels)
    return metrics


def _queries(dashboard: dict) -> list[str]:
    return [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]


@pytest.mark.parametrize("path", DASHBOARDS, ids=[p.name for p in DASHBOARDS])
async def test_dashboards_reference_only_metrics_and_labels_that_exist(path, tmp_path):
    exposed = {**await _exposed(tmp_path), **SYNTHETIC}
    assert "http_requests_total" in exposed and "http_request_seconds_bucket" in exposed
    queries = _queries(json.loads(path.read_text()))
    assert queries, f"{path.name} has no queries"
    for expr in queries:
        names = re.findall(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[\{\[]", expr)
        assert names, expr
        for name in names:
            assert name in exposed, f"{path.name}: {name} is not a metric of the services ({expr})"
        used_labels = set(re.findall(r"by \(([^)]*)\)", expr))
        for group in used_labels:
            for label in (x.strip() for x in group.split(",")):
                owners = [n for n in names if label in exposed[n] or (label == "instance")]
                assert owners, f"{path.name}: no metric of {expr!r} has the label {label!r}"


def test_dashboards_are_provisioned_from_the_mounted_folder():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["grafana"]
    mounts = dict(v.split(":")[:2] for v in compose["volumes"] if v.startswith("./"))
    provider = yaml.safe_load((ROOT / "deploy/grafana/provisioning/dashboards/gomoku.yml").read_text())
    path = provider["providers"][0]["options"]["path"]
    assert (ROOT / {v: k for k, v in mounts.items()}[path]).resolve() == (ROOT / "deploy/grafana/dashboards").resolve()
    datasource = yaml.safe_load((ROOT / "deploy/grafana/provisioning/datasources/prometheus.yml").read_text())
    uid = datasource["datasources"][0]["uid"]
    for dashboard in DASHBOARDS:
        for panel in json.loads(dashboard.read_text())["panels"]:
            assert panel["datasource"]["uid"] == uid, (dashboard.name, panel["title"])
