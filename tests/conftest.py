"""Suite-wide fixtures. The suite runs on PostgreSQL (as production does); in CI nothing may be skipped."""
import os
import uuid

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from apps.core.roles import Role
from tests.factories import CasinoFactory, StaffFactory

IN_CI = os.environ.get("CI", "").lower() == "true"


def pytest_configure(config):
    # pages render {% static %} without a collectstatic run; WhiteNoise serves from the finders
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    settings.WHITENOISE_AUTOREFRESH = True
    if IN_CI and settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        raise pytest.UsageError("CI runs the suite on PostgreSQL: set DATABASE_URL (make test does).")


@pytest.fixture(autouse=True)
def own_cache(settings):
    """Each test gets a cache of its own. The suite's cache is the shared Redis server, which outlives a run and
    is shared by the xdist workers, whose databases both number their rows from 1: without this, a replay
    check or a link's send lock keyed by a row's id would see another test's entry (or a previous run's)."""
    settings.CACHES = {name: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
                       for name, config in settings.CACHES.items()}


@pytest.fixture
def casino(db):
    return CasinoFactory()


@pytest.fixture
def staff(casino):
    """staff(role) -> a user of `casino` with that role."""

    def make(role: Role, **kwargs):
        return StaffFactory(casino=casino, roles=[role], **kwargs)

    return make


@pytest.fixture
def supervisor(staff):
    return staff(Role.POKER_SHIFT_SUPERVISOR)


@pytest.fixture
def api():
    return APIClient()
