"""The services the suite runs against, and the API's OpenAPI documents."""
import os

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from tests.conftest import IN_CI

pytestmark = pytest.mark.django_db


def test_suite_runs_on_postgresql_in_ci():
    if IN_CI or os.environ.get("DATABASE_URL", "").startswith("postgres"):
        assert connection.vendor == "postgresql"


def test_redis_cache_round_trip_when_configured():
    if not settings.REDIS_URL:
        assert not IN_CI, "CI must set REDIS_URL"
        pytest.skip("REDIS_URL is not set (demo mode)")
    cache.set("pokerroom-test-key", "♠", timeout=5)
    assert cache.get("pokerroom-test-key") == "♠"


def test_openapi_schema_and_swagger_ui_need_login(client, supervisor):
    assert client.get("/api/schema/").status_code in (401, 403)
    client.force_login(supervisor)
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/rounds/phh/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content and b"cdn" not in docs.content.lower()
