"""Fixtures of the public feed's tests: the room of rooms.build_public_room."""
import pytest

from .rooms import build_public_room


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # nobody signs in with one here


@pytest.fixture
def public_room(casino, supervisor):
    return build_public_room(casino, supervisor)
