"""The compliance matrix: for each operative clause of N.J.A.C. 13:69F (clauses.toml), what it requires, the code
that implements each requirement and the tests that prove it (found by `scanner`), with the last test run's result
when a pytest JSON report is given. Pure Python (no Django): the command, the page and the exports all read
`build_matrix`.

Requirements. A clause that asks for more than one thing lists its requirements in clauses.toml
(`[[clause.requirement]]`, each with an `id` "<clause id>-<word>" such as "14.19(f)1-full" and its `text`), each
needing its own evidence. A clause with no paragraphs under it and no requirements listed is one requirement: its
own id. A lead-in clause (paragraphs under it) has only the requirements it lists; it is proven through them and
its paragraphs, never by a test of a neighbour.

A requirement is:

- **proven** when a test says so, `@pytest.mark.proves("14.19(f)1-daily")` (a registered marker; with a report, a
  test that passed in it), and code cites it (below: a requirement its tests prove but no code cites is a gap). A
  test's name or docstring that mentions the clause proves nothing.
- **no code needed** when clauses.toml gives a reason: its own `no_code`, or its clause's or a clause's above it
  (those do not hold when code cites the clause: code that cites a clause needs a test).
- **not proven** otherwise: **not built** when clauses.toml writes why (`not_built`: the code does not exist yet),
  else a **gap**. `Matrix.failures` lists the gaps (and a not-built reason a passing proving test contradicts):
  the command's `--check`, which `make test` runs.

The code that implements a requirement is the definitions whose docstrings cite the requirement by its id
("14.13A(j)-three-cards": that one thing) or cite its clause when the clause asks one thing that needs code (its
other requirements needing none; a roman item counts for its numbered paragraph), or, when none does (or only
private helpers cite its requirements, each doing a part of one), those implementing the nearest clause above it
(citing it or its requirements: `code_from`); a requirement not built lists none. So a function that carries out
one part of a multi-part clause cites that part, and its mutants are tried only against that part's proving tests.
A marker or a docstring naming a requirement clauses.toml does not list (a typo, a clause that lists its
requirements, a lead-in), and a docstring citing whole a clause whose requirements each need code (it names those
it implements: what the matrix lists under a requirement says it implements it), are errors (`Matrix.errors`),
which fail the command whatever its options.

A clause is **proven** when every requirement of it and of the paragraphs under it that needs code is proven,
**partly proven** when some are, **not proven** when none are, and needs **no code** when none needs code.

Mutation testing (issue 36, item 3; `mutation` says what is mutated, `make compliance-mutants` runs it and writes
mutants.json). A requirement proven by its tests is then:

- **proven** when its last mutation run tried every mutant of its code and each was killed by its proving tests or
  is explained as equivalent (equivalent_mutants.toml, a written reason each);
- **partly proven** when a mutant survived that no reason explains (`RequirementRow.mutation.survivors` holds its
  diff), or the run's proving tests failed unmutated;
- still **proven**, labelled "proven, not mutation-tested yet", when no run has reached it yet (or its code is only
  modules, which are not mutated, or its run made no mutant: nothing in its code to mutate), or its last run
  mutated other definitions than its code has now (the code it cites, or the private helpers that code uses, changed
  since: the run is stale, its figures left out), and likewise, with the note, when the budget stopped its run before
  every mutant ran and none survived so far. The headline counts these apart (`requirements_mutation_tested`): a
  requirement is mutation-checked only when its run is complete.

A partly proven requirement makes its clause partly proven. `--check` fails on the gaps (above), not on a survivor
(a survivor is shown, not hidden); with `--fresh-mutants PATH` (a run for the requirements a change touches, CI)
it also fails when a requirement's mutation score, (killed + equivalent) / mutants, is lower than in mutants.json,
or a mutant survives that the committed run did not let through (even in a run its budget stopped), or its proving
tests fail unmutated (`Matrix.mutation_failures`). The summary's `mutants`, `killed`, `survived` (unexplained) and `equivalent` add up
every requirement's last run; they are None when no mutation results are given.
"""
import json
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .mutation import (
    EQUIVALENT_FILE,
    MUTANTS_FILE,
    MutationResult,
    load_equivalents,
    load_results,
    mutated_definitions,
    score_drops,
)
from .regulations import parent_ids, sort_key
from .scanner import Scan, scan

CLAUSES_FILE = Path(__file__).with_name("clauses.toml")
PROVEN, PARTLY_PROVEN, NOT_PROVEN, NO_CODE = "proven", "partly_proven", "not_proven", "no_code"
STATUS_LABELS = {PROVEN: "proven", PARTLY_PROVEN: "partly proven", NOT_PROVEN: "not proven", NO_CODE: "no code needed"}
_REQUIREMENT_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class Requirement:
    """One thing a clause asks for: `id` ("14.19(f)1-full", or the clause's own id when it asks one thing), `text`
    (what it asks), `no_code` (why it needs no code, ""), `not_built` (why its code is not there yet, "")."""

    id: str
    text: str
    no_code: str = ""
    not_built: str = ""


@dataclass(frozen=True)
class Clause:
    """One listed clause: `id` ("14.19(b)3"), `title` (heading or shortened words), `no_code` (its own reason, ""),
    `not_built` (a clause that is one requirement: why its code is not there yet, ""), `requirements` (those it
    lists, in order; () when it asks one thing or is only a lead-in)."""

    id: str
    title: str
    no_code: str = ""
    not_built: str = ""
    requirements: tuple[Requirement, ...] = ()


@dataclass(frozen=True)
class Proof:
    """A test that proves a requirement (its `pytest.mark.proves` names it): `nodeid`, and `result` in the last
    report ("passed", "failed", "skipped", ...; "" with no report, "not run" when the report does not have it)."""

    nodeid: str
    result: str = ""


@dataclass
class RequirementRow:
    """The matrix's line for one requirement: status (PROVEN, PARTLY_PROVEN, NOT_PROVEN, NO_CODE), `reason` (why
    no code is needed, or why it is not built), `not_built`, `code` ("apps/x/y.py:function", the code implementing
    it), `tests` (Proof: the tests proving it), `note` (how the status was reached when not plain), `code_from`
    (when no code cites the requirement's own clause: the clause above it whose citing code is listed, else ""),
    `mutation` (its last mutation run, None when none)."""

    requirement: Requirement
    status: str
    reason: str = ""
    not_built: bool = False
    code: list[str] = field(default_factory=list)
    tests: list[Proof] = field(default_factory=list)
    note: str = ""
    code_from: str = ""
    mutation: MutationResult | None = None

    @property
    def id(self) -> str:
        return self.requirement.id

    @property
    def mutation_tested(self) -> bool:
        """Proven, with a complete mutation run (every mutant killed or explained: else it is partly proven) that
        made at least one mutant: code with nothing cosmic-ray can mutate (a single call, a dataclass) gives no
        evidence of its tests' strength, and the requirement stays "proven, not mutation-tested yet"."""
        return self.status == PROVEN and self.mutation is not None and self.mutation.clean and self.mutation.mutants > 0

    @property
    def mutation_summary(self) -> str:
        """"12 mutants: 10 killed, 1 survived, 1 equivalent", or why there are no figures."""
        m = self.mutation
        if self.status in (NO_CODE, NOT_PROVEN):
            return ""
        if m is None:
            return "not mutation-tested yet"
        if m.error:
            return f"mutation run failed: {m.error[:200]}"
        if m.complete and not m.mutants:
            return "no mutant: its code has nothing to mutate"
        text = f"{m.mutants} mutants: {m.killed} killed, {m.survived} survived, {m.equivalent} equivalent"
        return text + ("" if m.complete else " (the run's budget stopped it before every mutant ran)")

    @property
    def text(self) -> str:
        return self.requirement.text

    @property
    def status_label(self) -> str:
        if self.status == PROVEN and not self.mutation_tested:
            return "proven, not mutation-tested yet"
        return "not built" if self.not_built and self.status == NOT_PROVEN else STATUS_LABELS[self.status]

    @property
    def is_gap(self) -> bool:
        """Not proven and no written reason why (what `--check` refuses)."""
        return self.status == NOT_PROVEN and not self.not_built


@dataclass
class Row:
    """The matrix's line for one clause: status (PROVEN, PARTLY_PROVEN, NOT_PROVEN, NO_CODE) over every requirement
    of it and of the paragraphs under it, `reason` (why no code is needed), `code` (the code citing the clause),
    `requirements` (RequirementRow: its own, none for a lead-in that lists none), `proven` / `needs_code` (how many
    of the requirements counted are proven / need code), `note`."""

    clause: Clause
    status: str
    reason: str = ""
    code: list[str] = field(default_factory=list)
    requirements: list[RequirementRow] = field(default_factory=list)
    proven: int = 0
    needs_code: int = 0
    note: str = ""

    @property
    def id(self) -> str:
        return self.clause.id

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    @property
    def tests(self) -> list[Proof]:
        """The tests proving any of its own requirements, each once."""
        return list({t.nodeid: t for r in self.requirements for t in r.tests}.values())

    def matches(self, query: str) -> bool:
        """Whether a search `query` finds this row: a clause or requirement id or the start of one ("14.19(b",
        "14.19 (b) 3" ignoring spaces, "13:69F-14.19" too, "14.19(f)1-full"), else words of its title, reason,
        requirements, code or tests (any case)."""
        q = query.strip().lower()
        if not q:
            return True
        compact = re.sub(r"\s+", "", q).removeprefix("n.j.a.c.").removeprefix("13:69f-")
        if any(i.lower().startswith(compact) for i in [self.id, *(r.id for r in self.requirements)]):
            return True
        haystack = " ".join([self.id, self.clause.title, self.reason, self.note, *self.code,
                             *(" ".join([r.id, r.text, r.reason, r.note, *r.code, *(t.nodeid for t in r.tests)])
                               for r in self.requirements)]).lower()
        return all(word in haystack for word in q.split())


@dataclass
class Matrix:
    """Every row in the regulation's order, `report` (the report's path, "" when none) and its `created` time,
    `unknown` (mentions of no listed clause), `errors` (proves markers naming no listed requirement), `mutants`
    (the mutation results read, {} when none) and `mutants_run` (the last run's record: date, minutes, command)."""

    rows: list[Row]
    report: str = ""
    report_created: float | None = None
    unknown: dict[str, list[str]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    mutants: dict[str, MutationResult] = field(default_factory=dict)
    mutants_run: dict = field(default_factory=dict)

    def count(self, status: str) -> int:
        return sum(1 for row in self.rows if row.status == status)

    @property
    def requirement_rows(self) -> list[RequirementRow]:
        return [r for row in self.rows for r in row.requirements]

    @property
    def gaps(self) -> list[RequirementRow]:
        """The requirements that need code and have neither a (passing) proving test nor a written reason."""
        return [r for r in self.requirement_rows if r.is_gap]

    def failures(self) -> list[str]:
        """What `--check` refuses, one line each: a gap, or a not-built reason a passing proving test
        contradicts (the reason is stale)."""
        return [f"{r.id}  {r.text[:70]} — {r.note}" for r in self.requirement_rows
                if r.is_gap or (r.not_built and r.status == PROVEN)]

    def mutation_failures(self, fresh: dict[str, MutationResult]) -> list[str]:
        """The requirements whose mutation score in a `fresh` run is lower than in the results this matrix read
        (`mutation.score_drops`: a new survivor, a lower score, proving tests failing): what `--check
        --fresh-mutants` refuses."""
        return score_drops(self.mutants, fresh)

    def summary(self) -> dict:
        """The headline: clauses by status ("clauses", "proven", "partly_proven", "not_proven", "no_code"); the
        requirements ("requirements", and "requirements_proven" of which "requirements_mutation_tested" passed a
        complete mutation run, "requirements_partly_proven" (a surviving mutant), "requirements_not_proven" of which
        "requirements_not_built" have a written reason and "gaps" none, "requirements_no_code"); the mutation
        figures over every requirement's last run, "mutants", "killed", "survived" (unexplained), "equivalent"
        (None when no mutation results were read); "report"."""
        reqs = self.requirement_rows
        by = {status: sum(1 for r in reqs if r.status == status)
              for status in (PROVEN, PARTLY_PROVEN, NOT_PROVEN, NO_CODE)}
        runs = [r.mutation for r in reqs if r.mutation is not None]
        figures: dict[str, int | None] = {
            "mutants": sum(m.mutants for m in runs), "killed": sum(m.killed for m in runs),
            "survived": sum(m.survived for m in runs), "equivalent": sum(m.equivalent for m in runs),
        } if self.mutants else dict.fromkeys(("mutants", "killed", "survived", "equivalent"))
        return {"clauses": len(self.rows), "proven": self.count(PROVEN), "partly_proven": self.count(PARTLY_PROVEN),
                "not_proven": self.count(NOT_PROVEN), "no_code": self.count(NO_CODE),
                "requirements": len(reqs), "requirements_proven": by[PROVEN],
                "requirements_mutation_tested": sum(1 for r in reqs if r.mutation_tested),
                "requirements_partly_proven": by[PARTLY_PROVEN], "requirements_not_proven": by[NOT_PROVEN],
                "requirements_not_built": sum(1 for r in reqs if r.status == NOT_PROVEN and r.not_built),
                "gaps": len(self.gaps), "requirements_no_code": by[NO_CODE], **figures,
                "report": self.report or None}

    def search(self, query: str = "", status: str = "") -> list[Row]:
        """The rows a search finds (`Row.matches`), of one status when `status` is given."""
        return [row for row in self.rows if row.matches(query) and (not status or row.status == status)]


def _requirement(entry: dict, clause_id: str, path: Path) -> Requirement:
    rid = str(entry.get("id", ""))
    word = rid.removeprefix(f"{clause_id}-")
    if word == rid or not _REQUIREMENT_WORD.fullmatch(word):
        raise ValueError(f"{path.name}: requirement {rid!r} of {clause_id} is not named {clause_id}-<word> "
                         "(lower-case letters, digits and hyphens).")
    req = Requirement(id=rid, text=entry.get("text", ""), no_code=entry.get("no_code", ""),
                      not_built=entry.get("not_built", ""))
    if not req.text:
        raise ValueError(f"{path.name}: requirement {rid} has no text.")
    if req.no_code and req.not_built:
        raise ValueError(f"{path.name}: requirement {rid} both needs no code and is not built: choose one.")
    return req


def load_clauses(path: Path = CLAUSES_FILE) -> list[Clause]:
    """The listed clauses of a clauses.toml, in the file's order, with their requirements. ValueError for a
    duplicate clause or requirement id, a clause whose parent is not listed before it, a requirement not named
    "<clause id>-<word>" or without text, or a `not_built` where it cannot apply (a clause that lists requirements
    puts it on them; a lead-in clause that lists none has nothing of its own to build)."""
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    clauses, seen, requirement_ids = [], set(), set()
    for entry in data.get("clause", []):
        cid = entry["id"]
        requirements = tuple(_requirement(r, cid, path) for r in entry.get("requirement", []))
        clause = Clause(id=cid, title=entry.get("title", ""), no_code=entry.get("no_code", ""),
                        not_built=entry.get("not_built", ""), requirements=requirements)
        if clause.id in seen:
            raise ValueError(f"{path.name}: clause {clause.id} is listed twice.")
        parents = parent_ids(clause.id)
        if parents and not any(p in seen for p in parents):
            raise ValueError(f"{path.name}: clause {clause.id} is listed without its parent {parents[0]}.")
        if clause.not_built and requirements:
            raise ValueError(f"{path.name}: clause {cid} lists its requirements: write not_built on those.")
        for req in requirements:
            if req.id in requirement_ids:
                raise ValueError(f"{path.name}: requirement {req.id} is listed twice.")
            requirement_ids.add(req.id)
        seen.add(clause.id)
        clauses.append(clause)
    parents_listed = {p for c in clauses for p in parent_ids(c.id)}
    for clause in clauses:
        if clause.not_built and clause.id in parents_listed:
            raise ValueError(f"{path.name}: clause {clause.id} is a lead-in: write not_built on its paragraphs "
                             "or on requirements it lists.")
    return clauses


def requirements_of(clause: Clause, *, lead_in: bool) -> tuple[Requirement, ...]:
    """The requirements a clause asks for itself: those it lists; else, for a clause with no paragraphs under it
    (`lead_in` False), one requirement, its own id; else none (a lead-in is proven through its paragraphs)."""
    if clause.requirements or lead_in:
        return clause.requirements
    return (Requirement(id=clause.id, text=clause.title, not_built=clause.not_built),)


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


def _unknown_proof(rid: str, by_id: dict[str, Clause], lead_ins: set[str]) -> str:
    """Why a proves marker's id names no requirement."""
    if (clause := by_id.get(rid)) is not None and clause.requirements:
        return f"{rid} lists its requirements; name one of {', '.join(r.id for r in clause.requirements)}"
    if rid in lead_ins:
        return f"{rid} is a lead-in clause; name the requirement of a paragraph under it"
    return f"clauses.toml lists no requirement {rid}"


def build_matrix(clauses: Iterable[Clause], found: Scan, *, results: dict[str, str] | None = None,
                 report: str = "", report_created: float | None = None,
                 mutants: dict[str, MutationResult] | None = None, mutants_run: dict | None = None,
                 definitions: Callable[[list[str]], list[str]] | None = None) -> Matrix:
    """The matrix of `clauses` from a scan of the source tree (`scanner.scan`) and, when given, each test's result
    (`load_report`) and each requirement's last mutation run (`mutation.load_results`), a run being stale when
    `definitions` (a requirement's code references -> the "file:definition"s a run mutates now) differs from what
    it mutated. See the module for the statuses."""
    mutants = mutants or {}
    clauses = list(clauses)
    by_id = {c.id: c for c in clauses}
    children: dict[str, list[str]] = {c.id: [] for c in clauses}
    for c in clauses:
        if parents := [p for p in parent_ids(c.id) if p in by_id]:
            children[parents[0]].append(c.id)
    lead_ins = {cid for cid, kids in children.items() if kids}
    own = {c.id: requirements_of(c, lead_in=c.id in lead_ins) for c in clauses}
    known = {r.id for reqs in own.values() for r in reqs}
    errors = [f"{t.nodeid} proves {rid!r}: {_unknown_proof(rid, by_id, lead_ins)}."
              for rid, tests in sorted(found.proofs.items()) if rid not in known for t in tests]
    errors += [f"{ref.ref} cites requirement {rid!r}: {_unknown_proof(rid, by_id, lead_ins)}."
               for rid, refs in sorted(found.requirement_code.items()) if rid not in known for ref in refs]
    # a clause whose requirements each need code is cited by naming those the code implements, never whole: the
    # matrix lists under a requirement only code that says it implements it (an audit reads no unrelated evidence)
    errors += [f"{ref.ref} cites {cid}, whose requirements each need code of their own ({', '.join(ids)}): name "
               "those it implements."
               for cid, refs in sorted(found.code.items()) if cid in own
               if len(ids := [r.id for r in own[cid] if not r.no_code]) > 1 for ref in refs]

    def implementing(clause_id: str) -> list[str]:
        """The code citing `clause_id` whole; when none does, the code citing its requirements (a clause whose
        requirements each need code is cited by them)."""
        return [ref.ref for ref in found.code.get(clause_id, [])] or list(dict.fromkeys(
            ref.ref for req in own.get(clause_id, ()) for ref in found.requirement_code.get(req.id, [])))

    rows: dict[str, Row] = {}
    # paragraphs before their parents: a parent's status follows from theirs
    for cid in sorted(by_id, key=lambda i: (-len(parent_ids(i)), sort_key(i))):
        clause = by_id[cid]
        whole = [ref.ref for ref in found.code.get(cid, [])]  # code citing the clause: each requirement's
        parts = {req.id: [ref.ref for ref in found.requirement_code.get(req.id, [])] for req in own[cid]}
        code = list(dict.fromkeys([*whole, *(ref for refs in parts.values() for ref in refs)]))
        inherited = clause.no_code or next((by_id[p].no_code for p in parent_ids(cid)
                                            if p in by_id and by_id[p].no_code), "")
        req_rows = [_requirement_row(req, list(dict.fromkeys([*parts[req.id], *whole])), inherited, found, results)
                    for req in own[cid]]
        # the code implementing the clause above implements its paragraphs, when no code cites them but private
        # helpers (a helper citing a requirement does a part of it: the function that calls it does the rest)
        if not whole and not any(_public(ref) for refs in parts.values() for ref in refs):
            above, above_code = next(((p, code) for p in parent_ids(cid) if (code := implementing(p))), ("", []))
            for r in req_rows:
                if above and not r.not_built and r.status != NO_CODE:
                    r.code = list(dict.fromkeys([*r.code, *above_code]))
                    r.code_from = above
        for r in req_rows:
            if r.status == PROVEN and not r.code and not r.not_built:  # each proven requirement lists its code
                r.status = NOT_PROVEN
                r.note = ("its proving tests pass, but no code cites it: the definitions that implement it name it "
                          "in their docstrings")
            _mutation_of(r, mutants.get(r.id), definitions)
        counted = [*req_rows, *(r for k in children[cid] for r in _subtree(rows[k], rows, children))]
        needing = [r for r in counted if r.status != NO_CODE]
        proven = sum(1 for r in needing if r.status == PROVEN)
        partly = sum(1 for r in needing if r.status == PARTLY_PROVEN)
        row = Row(clause=clause, status=NOT_PROVEN, code=code, requirements=req_rows, proven=proven,
                  needs_code=len(needing))
        if not needing:
            own_reasons = list(dict.fromkeys(r.reason for r in req_rows if not children[cid]))
            row.status = NO_CODE
            row.reason = inherited or "; ".join(own_reasons) or "No requirement of it or under it needs code."
        elif proven == len(needing):
            row.status = PROVEN
        elif proven or partly:
            row.status = PARTLY_PROVEN
        if needing and len(counted) > 1:
            row.note = f"{proven} of {len(needing)} requirements that need code proven"
            if not req_rows:
                row.note += " (through its paragraphs)"
        rows[cid] = row
    return Matrix(rows=[rows[c.id] for c in clauses], report=report, report_created=report_created,
                  unknown=dict(found.unknown), errors=errors, mutants=dict(mutants), mutants_run=mutants_run or {})


def _subtree(row: Row, rows: dict[str, Row], children: dict[str, list[str]]) -> list[RequirementRow]:
    """The requirement rows of a clause and of every clause under it."""
    return [*row.requirements, *(r for k in children[row.id] for r in _subtree(rows[k], rows, children))]


def _mutation_of(row: RequirementRow, mutation: MutationResult | None,
                 definitions: Callable[[list[str]], list[str]] | None) -> None:
    """A proven requirement's last mutation run, `mutation`, read into its row once its code is known (its own or
    the clause above's): partly proven for an unexplained survivor or a failed run; left out as stale when it mutated
    other definitions than `definitions` gives for the row's code now (see the module)."""
    if mutation is None or row.status != PROVEN or row.not_built:
        return
    if definitions is not None and not mutation.error and (
            mutation.definitions != set(definitions(row.code))):
        row.note = "its code changed since its last mutation run: not mutation-tested yet"
        return
    row.mutation = mutation
    if mutation.survived or mutation.error:
        row.status = PARTLY_PROVEN
        row.note = (f"{mutation.survived} mutants of its code survived its proving tests" if not mutation.error
                    else "its mutation run found its proving tests failing")


def _requirement_row(req: Requirement, code: list[str], inherited: str, found: Scan,
                     results: dict[str, str] | None) -> RequirementRow:
    """One requirement's line (see the module) before its mutation run is read (`_mutation_of`): `code` cites it or
    its clause, `inherited` is its clause's (or a clause above's) reason for needing no code."""
    tests = [Proof(t.nodeid, "" if results is None else results.get(t.nodeid, "not run"))
             for t in found.proofs.get(req.id, [])]
    passing = [t for t in tests if results is None or t.result == "passed"]
    row = RequirementRow(requirement=req, status=NOT_PROVEN, not_built=bool(req.not_built),
                         code=[] if req.not_built else list(code), tests=tests)
    if passing:
        row.status = PROVEN
        if req.not_built:
            row.reason = req.not_built
            row.note = "a test proves it, yet clauses.toml says it is not built: remove the not_built reason"
    elif req.no_code or (inherited and not code):
        row.status, row.reason = NO_CODE, req.no_code or inherited
    elif req.not_built:
        row.reason, row.note = req.not_built, "not built"
    elif tests:
        row.note = "none of its proving tests passed in the last run"
    elif code:
        row.note = "code cites it or its clause, but no test proves it"
    else:
        row.note = "no code cites its clause and no test proves it"
    return row


def _public(ref: str) -> bool:
    """Whether a code reference ("apps/x/y.py:Class.method", or a module) names a public definition: no part of
    its name starts with "_" (a dunder method of a public class is public)."""
    _, _, name = ref.partition(":")
    return not any(part.startswith("_") and not part.startswith("__") for part in name.split("."))


def matrix_for(root: Path, *, clauses_path: Path = CLAUSES_FILE, report_path: Path | None = None,
               mutants_path: Path | None = MUTANTS_FILE, equivalents_path: Path = EQUIVALENT_FILE) -> Matrix:
    """The matrix of the source tree at `root` (apps/, tests/), with the report at `report_path` when given and
    the mutation results at `mutants_path` (None: without them; a missing file is none). ValueError for an
    unreadable report, clauses, results or equivalents file."""
    clauses = load_clauses(clauses_path)
    results = created = None
    if report_path is not None:
        results, created = load_report(report_path)
    mutants, run = load_results(mutants_path, load_equivalents(equivalents_path)) if mutants_path else ({}, {})
    found = scan(root, frozenset(c.id for c in clauses))
    return build_matrix(clauses, found, results=results, report=str(report_path or ""), report_created=created,
                        mutants=mutants, mutants_run=run,
                        definitions=lambda refs: mutated_definitions(root, refs))
