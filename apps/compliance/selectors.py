"""Reads of the compliance matrix for the page, its exports and the command (apps.compliance.matrix does the work).

The source tree is scanned once per process (it does not change while the process runs; a scan takes a few tenths
of a second); the test report and the mutation results (mutants.json, equivalent_mutants.toml) are read again when
their files change (their modification times).
"""
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from .matrix import CLAUSES_FILE, Matrix, build_matrix, load_clauses, load_report
from .mutation import (
    EQUIVALENT_FILE,
    MUTANTS_FILE,
    MutationResult,
    load_equivalents,
    load_results,
    mutated_definitions,
)
from .scanner import Scan, scan


def source_root() -> Path:
    """The repository's root, whose apps/ and tests/ are scanned (settings.BASE_DIR)."""
    return Path(settings.BASE_DIR)


def default_report_path() -> Path:
    """Where `make test` writes its pytest JSON report: settings.COMPLIANCE_TEST_REPORT, else
    test-artifacts/pytest-report.json under the repository's root."""
    return Path(getattr(settings, "COMPLIANCE_TEST_REPORT", source_root() / "test-artifacts" / "pytest-report.json"))


@lru_cache(maxsize=4)
def _scan(root: Path, clauses_path: Path) -> tuple[tuple, Scan]:
    clauses = tuple(load_clauses(clauses_path))
    return clauses, scan(root, frozenset(c.id for c in clauses))


@lru_cache(maxsize=8)
def _report(path: Path, mtime_ns: int) -> tuple[dict, float | None]:
    return load_report(path)


def default_mutants_path() -> Path:
    """Where `make compliance-mutants` writes its results: settings.COMPLIANCE_MUTANTS, else
    apps/compliance/mutants.json."""
    return Path(getattr(settings, "COMPLIANCE_MUTANTS", MUTANTS_FILE))


def _mtime(path: Path) -> int:
    return path.stat().st_mtime_ns if path.is_file() else 0


@lru_cache(maxsize=4)
def _mutants(path: Path, equivalents: Path, stamps: tuple[int, int]) -> tuple[dict[str, MutationResult], dict]:
    return load_results(path, load_equivalents(equivalents))


@lru_cache(maxsize=1024)
def _definitions(root: Path, refs: tuple[str, ...]) -> list[str]:
    """`mutated_definitions`, read once per process as the scan is."""
    return mutated_definitions(root, refs)


def current_matrix(*, root: Path | None = None, report_path: Path | None = None, use_report: bool = True,
                   clauses_path: Path = CLAUSES_FILE, mutants_path: Path | None = None,
                   equivalents_path: Path = EQUIVALENT_FILE) -> Matrix:
    """The matrix of the source tree (`root`, default the repository) with the last test run's results when the
    report exists (`report_path`, default `default_report_path()`; `use_report=False` leaves them out), and the
    last mutation runs (`mutants_path`, default `default_mutants_path()`, explained by `equivalents_path`). A report that cannot be read is left out
    too (the page still shows the matrix). Raises ValueError for a broken clauses, results or equivalents file."""
    root = root or source_root()
    clauses, found = _scan(root, clauses_path)
    path = report_path or default_report_path()
    results = created = None
    if use_report and path.is_file():
        try:
            results, created = _report(path, path.stat().st_mtime_ns)
        except ValueError:
            results = None
    mutants_path = mutants_path or default_mutants_path()
    mutants, run = _mutants(mutants_path, equivalents_path, (_mtime(mutants_path), _mtime(equivalents_path)))
    return build_matrix(clauses, found, results=results, report=str(path) if results is not None else "",
                        report_created=created, mutants=mutants, mutants_run=run,
                        definitions=lambda refs: list(_definitions(root, tuple(refs))))
