"""gunicorn.conf.py: a worker collects its garbage between requests, not during one (the scale bench's p99)."""
import gc
import importlib.util
import weakref
from pathlib import Path
from types import SimpleNamespace

import pytest

CONF = Path(__file__).resolve().parents[1] / "gunicorn.conf.py"
REAL_COLLECT = gc.collect


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


class Node:
    pass


def test_what_the_first_requests_loaded_is_frozen_and_later_cycles_are_still_collected(conf, monkeypatch):
    """A full collection scanned the 90,000 objects the first requests load for good, every COLLECT_EVERY requests
    (30-50 ms each): after the FREEZE_AFTER-th requests the survivors are frozen, never scanned again; the garbage of
    the requests after that is still collected."""
    monkeypatch.setattr(gc, "collect", REAL_COLLECT)
    assert all(requests % conf.COLLECT_EVERY == 0 for requests in conf.FREEZE_AFTER)  # a collection happens there
    worker = SimpleNamespace()
    conf.post_worker_init(worker)
    loaded = [[] for _ in range(1000)]  # what the first requests load for good
    frozen = gc.get_freeze_count()
    for _ in range(conf.FREEZE_AFTER[0]):
        conf.post_request(worker, None, {}, None)
    assert gc.get_freeze_count() >= frozen + len(loaded)
    cycle = Node()
    cycle.itself = cycle
    gone = weakref.ref(cycle)
    del cycle
    for _ in range(conf.COLLECT_EVERY - 1):
        conf.post_request(worker, None, {}, None)
    assert gone() is not None  # not during a request
    conf.post_request(worker, None, {}, None)
    assert gone() is None
