"""The matrix as rows of text for CSV and as a JSON-ready dict: one shape for the command and the page's exports."""
from .matrix import Matrix, Row

CSV_HEADER = ["clause", "title", "status", "no_code_reason", "code", "tests", "test_results", "note"]


def csv_rows(rows: list[Row]) -> list[list[str]]:
    """One list of strings per clause, in `CSV_HEADER`'s order; several code references or tests in one cell are
    joined by "; ", and each test's result ("passed", ...) in `test_results` follows the same order."""
    return [[row.id, row.clause.title, row.status_label, row.reason, "; ".join(row.code),
             "; ".join(t.nodeid for t in row.tests), "; ".join(t.result or "-" for t in row.tests), row.note]
            for row in rows]


def as_json(matrix: Matrix, rows: list[Row] | None = None) -> dict:
    """{"summary": Matrix.summary(), "clauses": [{"id", "title", "status" ("covered" | "no_code" | "gap"),
    "no_code_reason", "code": [str], "tests": [{"nodeid", "result"}], "note"}]}; `rows` defaults to every row."""
    return {"summary": matrix.summary(),
            "clauses": [{"id": row.id, "title": row.clause.title, "status": row.status, "no_code_reason": row.reason,
                         "code": row.code, "tests": [{"nodeid": t.nodeid, "result": t.result} for t in row.tests],
                         "note": row.note}
                        for row in (matrix.rows if rows is None else rows)]}
