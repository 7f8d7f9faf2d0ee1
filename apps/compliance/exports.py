"""The matrix as rows of text for CSV and as a JSON-ready dict: one shape for the command and the page's exports."""
from .matrix import Matrix, RequirementRow, Row

CSV_HEADER = ["clause", "title", "clause_status", "requirement", "requirement_text", "status", "reason", "code",
              "code_cites", "tests", "test_results", "note", "mutation", "mutants", "killed", "survived", "equivalent",
              "surviving_mutants"]

#: The headline's lines at the end of the CSV (after the rows): (label, key of Matrix.summary()).
SUMMARY_LINES = [
    ("clauses", "clauses"), ("clauses proven", "proven"), ("clauses partly proven", "partly_proven"),
    ("clauses not proven", "not_proven"), ("clauses needing no code", "no_code"),
    ("requirements", "requirements"), ("requirements proven", "requirements_proven"),
    ("requirements not proven", "requirements_not_proven"),
    ("requirements not proven: not built (reason written)", "requirements_not_built"),
    ("requirements not proven: gaps (no reason)", "gaps"), ("requirements needing no code", "requirements_no_code"),
    ("requirements proven and mutation-tested", "requirements_mutation_tested"),
    ("requirements partly proven (a mutant survived)", "requirements_partly_proven"),
    ("mutants (mutation testing not run yet when empty)", "mutants"), ("mutants killed", "killed"),
    ("mutants survived", "survived"), ("mutants equivalent", "equivalent"),
]


def _requirement_cells(r: RequirementRow, row_id: str) -> list[str]:
    m = r.mutation
    figures = ["", "", "", ""] if m is None else [str(m.mutants), str(m.killed), str(m.survived), str(m.equivalent)]
    survivors = "\n\n".join(f"{s.id}\n{s.diff}" for s in m.survivors if not s.reason) if m else ""
    return [r.id, r.text, r.status_label, r.reason, "; ".join(r.code), r.code_from or (row_id if r.code else ""),
            "; ".join(t.nodeid for t in r.tests), "; ".join(t.result or "-" for t in r.tests), r.note,
            r.mutation_summary, *figures, survivors]


def csv_rows(rows: list[Row]) -> list[list[str]]:
    """One list of strings per requirement, in `CSV_HEADER`'s order, after its clause's id, title and status; a
    clause that asks nothing itself (a lead-in proven through its paragraphs) has one line with the requirement's
    cells empty but its reason, code and note. `code_cites`: the clause the code's docstrings cite (the requirement's
    own, or the one above it when none cites its own). Several code references or tests in one cell are joined by
    "; ", and each test's result ("passed", ...) in `test_results` follows the same order. `mutation` sums up its
    last mutation run (or "not mutation-tested yet"), `mutants` ... `equivalent` its figures ("" when none),
    `surviving_mutants` each unexplained survivor's id and diff, separated by a blank line."""
    lines = []
    for row in rows:
        head = [row.id, row.clause.title, row.status_label]
        if not row.requirements:
            lines.append([*head, "", "", "", row.reason, "; ".join(row.code), row.id if row.code else "", "", "",
                          row.note, "", "", "", "", "", ""])
        lines += [[*head, *_requirement_cells(r, row.id)] for r in row.requirements]
    return lines


def summary_rows(summary: dict) -> list[list[str]]:
    """The headline's lines for the end of the CSV: "total", the label, the count ("" for a mutation figure not
    measured yet), padded to `CSV_HEADER`'s width. The counts are the whole matrix's, whatever the search."""
    pad = [""] * (len(CSV_HEADER) - 3)
    return [["total", label, "" if summary[key] is None else str(summary[key]), *pad] for label, key in SUMMARY_LINES]


def _mutation_json(r: RequirementRow) -> dict | None:
    m = r.mutation
    if m is None:
        return None
    return {"mutants": m.mutants, "killed": m.killed, "survived": m.survived, "equivalent": m.equivalent,
            "score": m.score, "complete": m.complete, "error": m.error, "date": m.date, "seconds": m.seconds,
            "code": m.code, "survivors": [{"id": s.id, "operator": s.operator, "diff": s.diff,
                                           "equivalent_reason": s.reason} for s in m.survivors]}


def _requirement_json(r: RequirementRow) -> dict:
    return {"id": r.id, "text": r.text, "status": r.status, "not_built": r.not_built, "reason": r.reason,
            "code": r.code, "code_from": r.code_from, "tests": [{"nodeid": t.nodeid, "result": t.result} for t in r.tests],
            "note": r.note, "mutation_tested": r.mutation_tested, "mutation": _mutation_json(r)}


def as_json(matrix: Matrix, rows: list[Row] | None = None) -> dict:
    """{"summary": Matrix.summary(), "errors": [str], "clauses": [{"id", "title", "status" ("proven" |
    "partly_proven" | "not_proven" | "no_code"), "no_code_reason", "code": [str] (citing the clause), "proven",
    "needs_code" (requirements of it and under it), "note", "requirements": [{"id", "text", "status" ("proven" |
    "partly_proven" | "not_proven" | "no_code"), "not_built", "reason", "code": [str], "code_from" (the clause above
    whose code is listed, "" for its own), "tests": [{"nodeid", "result"}], "note", "mutation_tested", "mutation":
    null (never run) or {"mutants", "killed", "survived", "equivalent", "score", "complete", "error", "date",
    "seconds", "code": [str], "survivors": [{"id", "operator", "diff", "equivalent_reason" ("" when
    unexplained)}]}}]}]}, "mutants_run": the last run's record ({} when none); `rows` defaults to every row."""
    return {"summary": matrix.summary(), "errors": matrix.errors, "mutants_run": matrix.mutants_run,
            "clauses": [{"id": row.id, "title": row.clause.title, "status": row.status, "no_code_reason": row.reason,
                         "code": row.code, "proven": row.proven, "needs_code": row.needs_code, "note": row.note,
                         "requirements": [_requirement_json(r) for r in row.requirements]}
                        for row in (matrix.rows if rows is None else rows)]}
