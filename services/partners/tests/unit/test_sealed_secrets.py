"""Webhook secrets sealed under PARTNERS_KEY (adapters/signing.py), and the start-up rule for the
key itself: the distributed mode refuses to start without PARTNERS_KEY, with a message saying
what to set (a random key there would seal under the wrong key and stop deliveries)."""

from __future__ import annotations

import pytest

from gomoku_shared.settings import ServiceSettings, SettingsError
from partners.adapters.signing import SEALED_PREFIX, KeyVault, MissingSigningSecret, is_sealed
from partners.bootstrap import build
from partners.domain.webhooks import new_secret


def test_a_sealed_secret_holds_no_plaintext_and_opens_to_the_secret():
    vault = KeyVault("the-partners-key")
    secret = new_secret()
    sealed = vault.seal_secret(secret)
    assert sealed.startswith(SEALED_PREFIX) and is_sealed(sealed)
    assert secret not in sealed and secret.removeprefix("whsec_") not in sealed
    assert vault.seal_secret(secret) != sealed  # a fresh nonce each time
    assert vault.open_secret(sealed) == secret
    assert KeyVault("the-partners-key").open_secret(sealed) == secret  # another replica, same key


def test_a_plaintext_secret_from_before_sealing_reads_as_it_is():
    secret = new_secret()
    assert not is_sealed(secret)
    assert KeyVault("the-partners-key").open_secret(secret) == secret


def test_a_secret_sealed_under_another_key_is_a_clear_error_not_a_wrong_secret():
    sealed = KeyVault("the-partners-key").seal_secret(new_secret())
    with pytest.raises(MissingSigningSecret, match="PARTNERS_KEY"):
        KeyVault("another-key").open_secret(sealed)


def test_the_distributed_mode_does_not_start_without_partners_key(tmp_path):
    settings = ServiceSettings(AMQP_URL="amqp://guest:guest@127.0.0.1:5672/", DATA_DIR=str(tmp_path))
    with pytest.raises(SettingsError, match="PARTNERS_KEY is not set"):
        build(settings)
    assert not list(tmp_path.iterdir())  # no made-up key was written either
