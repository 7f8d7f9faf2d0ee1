"""Loading the fault harness (bench/multicasino_chaos.py) for tests: it starts real deployments on loopback, each
on its own PostgreSQL database (the suite's server) and Redis database."""
import importlib.util
import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_harness(monkeypatch, *, base_port: int):
    """The harness module, configured for the suite's PostgreSQL and Redis and `base_port` (the deployments take
    base_port + 0..2, their proxies base_port + 100..102)."""
    database = urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pokerroom"))
    if not database.scheme.startswith("postgres"):
        pytest.fail("The fault harness runs each deployment on its own PostgreSQL database: set DATABASE_URL.")
    monkeypatch.setenv("CHAOS_PG", database._replace(path="").geturl())  # a unix socket's ?host= kept
    redis = urlsplit(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    monkeypatch.setenv("CHAOS_REDIS", f"{redis.scheme}://{redis.netloc}")
    monkeypatch.setenv("CHAOS_BASE_PORT", str(base_port))
    for name in ("DJANGO_SETTINGS_MODULE", "CELERY_TASK_ALWAYS_EAGER"):
        monkeypatch.delenv(name, raising=False)
    spec = importlib.util.spec_from_file_location(f"multicasino_chaos_{base_port}",
                                                  ROOT / "bench" / "multicasino_chaos.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

