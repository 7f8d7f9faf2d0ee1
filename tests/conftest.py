"""Suite-wide fixtures. The suite runs on PostgreSQL (as production does); in CI nothing may be skipped."""
import os

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
