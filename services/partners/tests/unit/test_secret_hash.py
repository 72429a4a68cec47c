"""Client secrets are stored as scrypt hashes: a hash verifies its secret only."""

from partners.domain.secret_hash import hash_secret, new_secret, verify_secret


def test_a_hash_verifies_its_secret_and_no_other():
    secret = new_secret()
    stored = hash_secret(secret)
    assert stored.startswith("scrypt$") and secret not in stored
    assert verify_secret(secret, stored)
    assert not verify_secret(secret + "x", stored)


def test_the_same_secret_hashes_differently_each_time_salted():
    secret = new_secret()
    assert hash_secret(secret) != hash_secret(secret)


def test_a_damaged_stored_hash_verifies_nothing():
    assert not verify_secret("anything", "scrypt$bad")
    assert not verify_secret("anything", "md5$1$2$3$4$5")
