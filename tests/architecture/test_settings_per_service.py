"""Each service's own settings are declared in its ``config.py`` (issue 31), not in the shared
``ServiceSettings``; the environment names did not change, and every one is documented."""

from __future__ import annotations

from pathlib import Path

import pytest

from gameplay.config import GameplayConfig, GameplaySettings
from gomoku_shared.settings import ServiceSettings
from partners.config import PartnersSettings

ROOT = Path(__file__).resolve().parents[2]
OWN = {"partners": PartnersSettings, "gameplay": GameplaySettings}


def _own_aliases(settings: type[ServiceSettings]) -> set[str]:
    shared = {field.alias for field in ServiceSettings.model_fields.values()}
    return {str(field.alias) for field in settings.model_fields.values()} - shared


@pytest.mark.parametrize("service", sorted(OWN))
def test_a_service_declares_its_own_settings_and_the_docs_name_them(service):
    own = _own_aliases(OWN[service])
    assert own, f"{service} declares no setting of its own"
    shared = {field.alias for field in ServiceSettings.model_fields.values()}
    assert not own & shared
    docs = (ROOT / "README.md").read_text(encoding="utf-8") + (ROOT / "docs/operators.md").read_text(encoding="utf-8")
    assert [alias for alias in sorted(own) if f"`{alias}" not in docs] == []


def test_single_service_settings_left_the_shared_settings():
    shared = {field.alias for field in ServiceSettings.model_fields.values()}
    moved = {"MOVE_WRITERS", "MOVE_LINGER_MS", "PARTNERS_KEY", "INVITATION_TTL_S", "CREDENTIAL_GRACE_S"}
    moved |= {"RATE_LIMIT_QUOTA", "WEBHOOK_POLL_S", "WEBHOOK_ALLOW_LOOPBACK", "STAFF_SESSION_TTL_S"}
    assert not moved & shared


def test_the_environment_names_are_unchanged(monkeypatch, tmp_path):
    """A process started with the shared settings reads its service's own from the environment
    under the same names as before."""
    monkeypatch.setenv("MOVE_WRITERS", "3")
    monkeypatch.setenv("MOVE_LINGER_MS", "2.5")
    monkeypatch.setenv("WEBHOOK_POLL_S", "0.25")
    monkeypatch.setenv("WEBHOOK_ALLOW_LOOPBACK", "true")
    monkeypatch.setenv("INVITATION_TTL_S", "3600")
    shared = ServiceSettings(DATA_DIR=str(tmp_path), IDEMPOTENCY_TTL_S=120)
    config = GameplayConfig.from_settings(shared)
    assert (config.move_writers, config.move_linger_ms, config.idempotency_ttl_s) == (3, 2.5, 120)
    partners = PartnersSettings.from_shared(shared)
    assert (partners.webhook_poll_s, partners.webhook_allow_loopback, partners.invitation_ttl_s) == (0.25, True, 3600)
    assert partners.data_dir == str(tmp_path) and PartnersSettings.from_shared(partners) is partners
