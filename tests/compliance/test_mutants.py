"""The three mutations of issue 36's audit are each caught by the tests the compliance matrix links to the requirement
they break (`pytest.mark.proves`): each test run is a pytest of its own with the mutant patched in
(tests/compliance/mutants.py): without it the tests pass, with it they fail."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from apps.compliance.scanner import scan_tests

ROOT = Path(settings.BASE_DIR)


def proving(requirement: str) -> list[str]:
    """The tests whose markers name `requirement`, as the matrix finds them."""
    return sorted(t.nodeid for t in scan_tests(ROOT) if requirement in t.proves)


def run(tests: list[str], mutant: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "COMPLIANCE_MUTANT": mutant}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                           "tests.compliance.mutants", *tests], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)


MUTANTS = [("two_pair_as_pair", "27.3(b)6"), ("a23_not_a_straight", "14.3(c)4-straight"),
           ("wheel_not_a_straight", "14.3(a)-ace-low")]


@pytest.fixture(scope="module")
def unmutated() -> subprocess.CompletedProcess:
    """The tests proving the three requirements, run once as the code is."""
    return run(sorted({test for _, requirement in MUTANTS for test in proving(requirement)}))


@pytest.mark.long
@pytest.mark.parametrize(("mutant", "requirement"), MUTANTS)
def test_each_mutant_of_the_audit_is_caught_by_the_tests_proving_its_requirement(unmutated, mutant, requirement):
    tests = proving(requirement)
    assert tests, f"no test proves {requirement}"
    assert unmutated.returncode == 0, unmutated.stdout[-2000:]
    mutated = run(tests, mutant)
    assert mutated.returncode == 1 and " failed" in mutated.stdout, mutated.stdout[-2000:]
