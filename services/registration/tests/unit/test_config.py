"""Registration's settings (registration.config): the shared ones as given, read once."""

from gomoku_shared.settings import ServiceSettings
from registration.config import RegistrationSettings


def test_reg11_the_data_key_and_the_mode_come_through_the_settings(tmp_path):
    shared = ServiceSettings(DATA_KEY="secret", AMQP_URL="amqp://guest:guest@127.0.0.1:5672/", DATA_DIR=str(tmp_path))
    config = RegistrationSettings.from_shared(shared)
    assert (config.data_key, config.data_dir, config.distributed) == ("secret", str(tmp_path), True)
    assert not RegistrationSettings.from_shared(ServiceSettings(AMQP_URL=None)).distributed
    assert RegistrationSettings.from_shared(config) is config
