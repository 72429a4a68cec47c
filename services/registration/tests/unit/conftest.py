"""Fixtures for the registration domain tests (the presets ship inside the package)."""

from __future__ import annotations

import pytest

from registration import presets
from registration.domain import Unit


@pytest.fixture(scope="session")
def sz():
    return presets.load("sz-2022")


@pytest.fixture(scope="session")
def ny():
    return presets.load("ny-2022")


@pytest.fixture(scope="session")
def da():
    return presets.load("da-2023")


@pytest.fixture(scope="session")
def nt():
    return presets.load("nt-2023")


@pytest.fixture
def club():
    return Unit("u-club", "Futian Club", "club", region="Shenzhen")
