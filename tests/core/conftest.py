"""The schema fuzz's summary line (tests/core/test_schema_fuzz.py): each process (an xdist worker, or the run itself)
adds up its runs in `fuzz_tally`; a worker sends its tally to the controller at the end, which prints one line after
the run, e.g. "schemathesis: 36 operations x 8 roles (288 runs), 1,734 examples, 0 failures; max 5 examples an
operation, seed 1313; 94.2 s" — the figures of issue 13's closing note."""
import json

import pytest

TALLY = pytest.StashKey[dict]()


def _tally(config) -> dict:
    if TALLY not in config.stash:
        config.stash[TALLY] = {"operations": [], "roles": [], "runs": 0, "examples": 0, "failures": 0, "seconds": 0.0,
                               "max_examples": None, "seed": None}
    return config.stash[TALLY]


def _merge(into: dict, other: dict) -> None:
    into["operations"] = sorted(set(into["operations"]) | set(other["operations"]))
    into["roles"] = sorted(set(into["roles"]) | set(other["roles"]))
    for key in ("runs", "examples", "failures", "seconds"):
        into[key] += other[key]
    into["max_examples"] = into["max_examples"] or other["max_examples"]
    into["seed"] = into["seed"] if into["seed"] is not None else other["seed"]


@pytest.fixture(scope="session")
def fuzz_tally(request) -> dict:
    """This process's tally of the schema fuzz: operations and roles run, runs, examples, failures, seconds."""
    return _tally(request.config)


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)  # an xdist worker
    if workeroutput is not None and TALLY in session.config.stash:
        workeroutput["schema_fuzz"] = json.dumps(session.config.stash[TALLY])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    sent = getattr(node, "workeroutput", {}).get("schema_fuzz")
    if sent:
        _merge(_tally(node.config), json.loads(sent))


def pytest_terminal_summary(terminalreporter, config):
    tally = config.stash.get(TALLY, None)
    if not tally or not tally["runs"]:
        return
    terminalreporter.write_line(
        f"schemathesis: {len(tally['operations'])} operations x {len(tally['roles'])} roles ({tally['runs']} runs), "
        f"{tally['examples']:,} examples, {tally['failures']} failures; max {tally['max_examples']} examples an "
        f"operation, seed {tally['seed']}; {tally['seconds']:.1f} s")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.when == "call" and report.failed and item.module.__name__.endswith("test_schema_fuzz"):
        _tally(item.config)["failures"] += 1
    return report
