"""The compliance matrix: for each operative clause of N.J.A.C. 13:69F (clauses.toml), the code that implements it
and the tests that prove it (found by `scanner`), with the last test run's result when a pytest JSON report is
given. Pure Python (no Django): the command, the page and the exports all read `build_matrix`.

A clause's status:

- **covered**: a test cites it (by name or docstring) — with a report, a test that passed in it; or, for a clause
  with paragraphs under it (14.19(b) over 14.19(b)1-4), every paragraph under it is covered or needs no code and at
  least one is covered. A test of a paragraph proves that paragraph only; a test of the parent does not prove its
  paragraphs (each needs its own test or reason).
- **no code needed**: clauses.toml gives a reason (its own or its parent's), or every paragraph under it needs none;
  never when code cites the clause (code that cites a clause needs a test).
- **gap**: neither. `ratio` = covered / (covered + gap), the share of the clauses that need code and have a test.
"""
import json
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .regulations import parent_ids, sort_key
from .scanner import Scan, scan

CLAUSES_FILE = Path(__file__).with_name("clauses.toml")
COVERED, NO_CODE, GAP = "covered", "no_code", "gap"
STATUS_LABELS = {COVERED: "covered", NO_CODE: "no code needed", GAP: "gap"}


@dataclass(frozen=True)
class Clause:
    """One listed clause: `id` ("14.19(b)3"), `title` (heading or shortened words), `no_code` (its own reason, "")."""

    id: str
    title: str
    no_code: str = ""


@dataclass(frozen=True)
class Proof:
    """A test that cites a clause: `nodeid`, and `result` in the last report ("passed", "failed", "skipped", ...;
    "" with no report, "not run" when the report does not have it)."""

    nodeid: str
    result: str = ""


@dataclass
class Row:
    """The matrix's line for one clause: status (COVERED, NO_CODE, GAP), `reason` (why no code is needed),
    `code` ("apps/x/y.py:function"), `tests` (Proof), `note` (how the status was reached when not plain)."""

    clause: Clause
    status: str
    reason: str = ""
    code: list[str] = field(default_factory=list)
    tests: list[Proof] = field(default_factory=list)
    note: str = ""

    @property
    def id(self) -> str:
        return self.clause.id

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    def matches(self, query: str) -> bool:
        """Whether a search `query` finds this row: a clause id or the start of one ("14.19(b", "14.19 (b) 3"
        ignoring spaces, "13:69F-14.19" too), else words of its title, reason, code or tests (any case)."""
        q = query.strip().lower()
        if not q:
            return True
        compact = re.sub(r"\s+", "", q).removeprefix("n.j.a.c.").removeprefix("13:69f-")
        if self.id.lower().startswith(compact):
            return True
        haystack = " ".join([self.id, self.clause.title, self.reason, self.note, *self.code,
                             *(t.nodeid for t in self.tests)]).lower()
        return all(word in haystack for word in q.split())


@dataclass
class Matrix:
    """Every row in the regulation's order, `report` (the report's path, "" when none) and its `created` time."""

    rows: list[Row]
    report: str = ""
    report_created: float | None = None
    unknown: dict[str, list[str]] = field(default_factory=dict)

    def count(self, status: str) -> int:
        return sum(1 for row in self.rows if row.status == status)

    @property
    def needs_code(self) -> int:
        return len(self.rows) - self.count(NO_CODE)

    @property
    def ratio(self) -> float:
        """Share (0-100, a percentage) of the clauses that need code and have a (passing) test; 100 when none do."""
        return 100.0 if not self.needs_code else 100.0 * self.count(COVERED) / self.needs_code

    @property
    def gaps(self) -> list[Row]:
        return [row for row in self.rows if row.status == GAP]

    def summary(self) -> dict:
        """{"clauses", "covered", "no_code", "gaps", "needs_code", "percent" (2 places), "report"}."""
        return {"clauses": len(self.rows), "covered": self.count(COVERED), "no_code": self.count(NO_CODE),
                "gaps": self.count(GAP), "needs_code": self.needs_code, "percent": round(self.ratio, 2),
                "report": self.report or None}

    def search(self, query: str = "", status: str = "") -> list[Row]:
        """The rows a search finds (`Row.matches`), of one status when `status` is given."""
        return [row for row in self.rows if row.matches(query) and (not status or row.status == status)]


def load_clauses(path: Path = CLAUSES_FILE) -> list[Clause]:
    """The listed clauses of a clauses.toml, in the file's order. ValueError for a duplicate id or one whose parent
    is not listed before it."""
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    clauses, seen = [], set()
    for entry in data.get("clause", []):
        clause = Clause(id=entry["id"], title=entry.get("title", ""), no_code=entry.get("no_code", ""))
        if clause.id in seen:
            raise ValueError(f"{path.name}: clause {clause.id} is listed twice.")
        parents = parent_ids(clause.id)
        if parents and not any(p in seen for p in parents):
            raise ValueError(f"{path.name}: clause {clause.id} is listed without its parent {parents[0]}.")
        seen.add(clause.id)
        clauses.append(clause)
    return clauses


def load_report(path: Path) -> tuple[dict[str, str], float | None]:
    """The result of each test function in a pytest-json-report file: {nodeid without parameters: result}, where a
    parametrized test failed if any case failed (or errored), passed if none did and one passed; and the report's
    `created` time (seconds since the epoch). ValueError for a file that is not such a report."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        tests = data["tests"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a pytest JSON report ({exc}).") from exc
    outcomes: dict[str, set[str]] = {}
    for test in tests:
        nodeid = test["nodeid"].split("[", 1)[0]
        outcomes.setdefault(nodeid, set()).add(test.get("outcome", ""))
    results = {}
    for nodeid, seen in outcomes.items():
        if seen & {"failed", "error"}:
            results[nodeid] = "failed"
        elif seen & {"passed", "xpassed"}:
            results[nodeid] = "passed"
        else:
            results[nodeid] = sorted(seen)[0] if seen else ""
    return results, data.get("created")


def build_matrix(clauses: Iterable[Clause], found: Scan, *, results: dict[str, str] | None = None,
                 report: str = "", report_created: float | None = None) -> Matrix:
    """The matrix of `clauses` from a scan of the source tree (`scanner.scan`) and, when given, each test's result
    (`load_report`). See the module for the statuses."""
    clauses = list(clauses)
    by_id = {c.id: c for c in clauses}
    children: dict[str, list[str]] = {c.id: [] for c in clauses}
    for c in clauses:
        if parents := [p for p in parent_ids(c.id) if p in by_id]:
            children[parents[0]].append(c.id)
    rows: dict[str, Row] = {}
    # paragraphs before their parents: a parent's status may follow from theirs
    for cid in sorted(by_id, key=lambda i: (-len(parent_ids(i)), sort_key(i))):
        clause = by_id[cid]
        code = list(dict.fromkeys(ref.ref for ref in found.code.get(cid, [])))
        tests = [Proof(t.nodeid, "" if results is None else results.get(t.nodeid, "not run"))
                 for t in found.tests.get(cid, [])]
        reason = clause.no_code or next((by_id[p].no_code for p in parent_ids(cid)
                                         if p in by_id and by_id[p].no_code), "")
        kids = [rows[k] for k in children[cid]]
        row = Row(clause=clause, status=GAP, code=code, tests=tests)
        proven = [t for t in tests if results is None or t.result == "passed"]
        if proven:
            row.status = COVERED
        elif kids and all(k.status in (COVERED, NO_CODE) for k in kids) and any(k.status == COVERED for k in kids):
            row.status, row.note = COVERED, "covered by its paragraphs"
        elif kids and all(k.status == NO_CODE for k in kids) and not code:
            row.status, row.reason = NO_CODE, reason or "No paragraph under it needs code."
        elif reason and not code:
            row.status, row.reason = NO_CODE, reason
        elif tests:
            row.note = "none of its tests passed in the last run"
        elif code:
            row.note = "code cites it, but no test does"
        else:
            row.note = "no code and no test cite it"
        rows[cid] = row
    return Matrix(rows=[rows[c.id] for c in clauses], report=report, report_created=report_created,
                  unknown=dict(found.unknown))


def matrix_for(root: Path, *, clauses_path: Path = CLAUSES_FILE, report_path: Path | None = None) -> Matrix:
    """The matrix of the source tree at `root` (apps/, tests/), with the report at `report_path` when given.
    ValueError for an unreadable report or clauses file."""
    clauses = load_clauses(clauses_path)
    results = created = None
    if report_path is not None:
        results, created = load_report(report_path)
    found = scan(root, frozenset(c.id for c in clauses))
    return build_matrix(clauses, found, results=results, report=str(report_path or ""), report_created=created)
