"""Fixtures of the public feed's tests: the room of rooms.build_public_room."""
import pytest

from .rooms import build_public_room


@pytest.fixture
def public_room(casino, supervisor):
    return build_public_room(casino, supervisor)
