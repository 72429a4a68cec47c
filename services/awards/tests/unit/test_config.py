"""Awards' settings (awards.config): the shared ones as given, read once."""

from awards.config import AwardsSettings
from gomoku_shared.settings import ServiceSettings


def test_the_shared_settings_come_through():
    shared = ServiceSettings(API_KEYS="k=operator", BUS_NAMESPACE="test-ns", DELIVERY_LIMIT=3)
    config = AwardsSettings.from_shared(shared)
    assert (config.api_keys, config.bus_namespace, config.delivery_limit) == ("k=operator", "test-ns", 3)
    assert AwardsSettings.from_shared(config) is config
