"""gunicorn.conf.py: a worker collects its garbage between requests, not during one (the scale bench's p99)."""
import gc
import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

CONF = Path(__file__).resolve().parents[1] / "gunicorn.conf.py"


@pytest.fixture
def conf(monkeypatch):
    spec = importlib.util.spec_from_file_location("gunicorn_conf", CONF)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    collected = []
    monkeypatch.setattr(gc, "collect", lambda *args: collected.append(args) or 0)
    module.collected = collected
    yield module
    gc.unfreeze()
    gc.enable()


def test_a_worker_collects_every_few_requests_after_the_answer(conf):
    worker = SimpleNamespace()
    conf.post_worker_init(worker)
    assert not gc.isenabled()  # no collection in the middle of a request
    for _ in range(conf.COLLECT_EVERY - 1):
        conf.post_request(worker, None, {}, None)
    assert conf.collected == []
    conf.post_request(worker, None, {}, None)
    assert conf.collected == [()]  # a full collection, once the answer is written
    for _ in range(conf.COLLECT_EVERY):
        conf.post_request(worker, None, {}, None)
    assert len(conf.collected) == 2
