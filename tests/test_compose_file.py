"""docker-compose.yml is valid Compose and describes the distributed mode completely."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[1]
SERVICES = ("registration", "pairing", "gameplay", "awards")


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
        assert svc["depends_on"][f"{s}-migrate"] == {"condition": "service_completed_successfully"}
        assert svc["depends_on"]["rabbitmq"] == {"condition": "service_healthy"}
        assert "readyz" in " ".join(svc["healthcheck"]["test"])
        assert svc["build"]["dockerfile"] == f"services/{s}/Dockerfile"
        assert (ROOT / svc["build"]["dockerfile"]).exists()
        assert migrate["environment"]["DATABASE_URL"] == svc["environment"]["DATABASE_URL"]
        databases.add(svc["environment"]["DATABASE_URL"])
    assert len(databases) == 4, "each service owns its database"


def test_dockerfiles_install_only_their_service_and_run_the_compose_command():
    for s in SERVICES:
        text = (ROOT / f"services/{s}/Dockerfile").read_text()
        assert f"--package gomoku-{s}" in text
        assert f'"gomoku_shared.serve", "{s}"' in text
