"""Fixtures for the registration domain tests (the presets ship inside the package)."""

from __future__ import annotations

import os
import sys

import pytest

# the kit (registration_kit.py) one level up, and this folder (tests share scenarios)
sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
sys.path.insert(0, os.path.dirname(__file__))

from registration import presets  # noqa: E402
from registration.domain import Unit  # noqa: E402


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
