"""The pairing service's settings (pairing.config): read once by the composition root, typed,
the shared ones kept as given."""

import pytest
from pydantic import ValidationError

from gomoku_shared.settings import ServiceSettings
from pairing.bootstrap import build
from pairing.config import PairingSettings


def test_pairing_workers_come_from_the_environment_and_the_shared_settings_stay(monkeypatch, tmp_path):
    monkeypatch.setenv("PAIRING_WORKERS", "3")
    shared = ServiceSettings(DATABASE_URL=f"sqlite:///{tmp_path}/p.sqlite", API_KEYS="k=operator", RELAY_POLL_S=0.2)
    config = PairingSettings.from_shared(shared)
    assert config.pairing_workers == 3
    assert config.database_url == f"sqlite+aiosqlite:///{tmp_path}/p.sqlite"
    assert (config.api_keys, config.relay_poll_s) == ("k=operator", 0.2)
    assert PairingSettings.from_shared(config) is config


def test_the_composition_root_sizes_the_pool_from_the_settings(monkeypatch, tmp_path):
    monkeypatch.setenv("PAIRING_WORKERS", "2")
    service = build(ServiceSettings(DATABASE_URL=f"sqlite:///{tmp_path}/p.sqlite", AMQP_URL=None))
    assert service.extras["pairer"].workers == 2
    monkeypatch.setenv("PAIRING_WORKERS", "")  # empty: the default, in-process
    assert (
        build(ServiceSettings(DATABASE_URL=f"sqlite:///{tmp_path}/p.sqlite", AMQP_URL=None)).extras["pairer"].workers
        == 0
    )


@pytest.mark.parametrize("value", ["-1", "many", "65"])
def test_a_wrong_worker_count_is_refused_at_start(monkeypatch, value):
    monkeypatch.setenv("PAIRING_WORKERS", value)
    with pytest.raises(ValidationError, match="PAIRING_WORKERS"):
        PairingSettings.from_shared(ServiceSettings())
