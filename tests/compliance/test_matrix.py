"""The compliance matrix and its command (apps/compliance): the repo's clauses, statuses, the --fail-under gate, the
test report, and the CSV and JSON shapes."""
import csv
import io
import json
import textwrap
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from apps.compliance.matrix import CLAUSES_FILE, COVERED, GAP, NO_CODE, load_clauses, load_report
from apps.compliance.regulations import parse_regulations
from apps.compliance.selectors import current_matrix

REGULATIONS = Path(settings.BASE_DIR).parent / "shared" / "docs" / "regulations.md"
SECTIONS = {f"14.{n}" for n in range(1, 21)} | {"14.12A", "14.12B", "14.13A", "20.3", "27.3"}


def test_every_operative_section_is_listed_down_to_numbered_paragraphs():
    clauses = load_clauses()
    ids = [c.id for c in clauses]
    assert {i for i in ids if "(" not in i} == SECTIONS
    assert {"14.19(b)3", "14.20(e)4", "14.12B(l)5", "27.3(b)7"} <= set(ids)
    assert all(c.title for c in clauses)
    if REGULATIONS.is_file():  # the regulation's text beside the repo (not in CI's clone): the same clauses
        assert ids == [c.id for c in parse_regulations(REGULATIONS.read_text(encoding="utf-8"))]


def test_every_listed_clause_appears_with_code_and_tests_or_a_reason():
    matrix = current_matrix(use_report=False)
    assert [row.id for row in matrix.rows] == [c.id for c in load_clauses()]
    for row in matrix.rows:
        if row.status == COVERED:
            assert row.tests or row.note == "covered by its paragraphs", row.id
        elif row.status == NO_CODE:
            assert row.reason and not row.code, row.id
        else:
            assert row.status == GAP and row.note, row.id
    assert not matrix.unknown  # every citation in the code and tests names a listed clause


def test_the_matrix_of_the_repo_shows_known_code_and_tests():
    row = {r.id: r for r in current_matrix(use_report=False).rows}["14.19(c)"]
    assert row.status == COVERED
    assert "apps/badbeat/services.py:take_contribution" in row.code or any(
        ref.startswith("apps/badbeat/") for ref in row.code)
    assert any(t.nodeid.endswith("test_14_19_c_taken_after_the_rake") for t in row.tests)


@pytest.fixture
def tree(tmp_path):
    """A small source tree and clauses file: 14.19(b) with 1 (tested), 2 (no code needed) and 3 (cited by code,
    tested only by a test that fails in the report)."""
    (tmp_path / "apps" / "jackpot").mkdir(parents=True)
    (tmp_path / "apps" / "jackpot" / "rules.py").write_text(textwrap.dedent('''
        def posted_rules():
            """The posted rules (N.J.A.C. 13:69F-14.19(b)1, 3)."""
    '''))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_rules.py").write_text(textwrap.dedent('''
        def test_14_19_b_1_maximum_contribution():
            assert True

        def test_qualifying_hand():
            """A lesser hand does not qualify (14.19(b)3)."""
    '''))
    clauses = tmp_path / "clauses.toml"
    clauses.write_text(textwrap.dedent('''
        [[clause]]
        id = "14.19"
        title = "Bad beat payouts"
        [[clause]]
        id = "14.19(b)"
        title = "Posting"
        [[clause]]
        id = "14.19(b)1"
        title = "Maximum contribution"
        [[clause]]
        id = "14.19(b)2"
        title = "Minimum pot"
        no_code = "Posted by hand."
    '''))
    return tmp_path


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        call_command("compliance_matrix", *args, stdout=out, stderr=err)
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_a_clause_with_no_test_fails_fail_under_100(tree, capsys):
    clauses = tree / "clauses.toml"
    code, out, _ = run("--root", str(tree), "--clauses", str(clauses), "--fail-under", "100")
    assert code == 0 and "3 covered, 1 need no code, 0 gaps" in out  # 14.19(b) and 14.19 by (b)1 and (b)2
    with clauses.open("a") as fh:  # a clause the code cites, which no test proves
        fh.write('[[clause]]\nid = "14.19(b)4"\ntitle = "Other bonus awards"\n')
    (tree / "apps" / "jackpot" / "bonus.py").write_text('def bonus():\n    """Bonus awards (14.19(b)4)."""\n')
    code, out, _ = run("--root", str(tree), "--clauses", str(clauses), "--fail-under", "100")
    err = capsys.readouterr().err
    assert code == 1
    assert "14.19(b)4" in err and "code cites it, but no test does" in err and "25.00 % < 100 %" in err  # (b)1 of (b)1, (b)4, (b), 14.19
    code, _, _ = run("--root", str(tree), "--clauses", str(clauses), "--fail-under", "25")
    assert code == 0


def test_with_a_report_only_passing_tests_count(tree, capsys):
    clauses = tree / "clauses.toml"
    with clauses.open("a") as fh:
        fh.write('[[clause]]\nid = "14.19(b)3"\ntitle = "Qualifying hands"\n')
    report = tree / "report.json"
    report.write_text(json.dumps({"created": 1700000000.0, "tests": [
        {"nodeid": "tests/test_rules.py::test_14_19_b_1_maximum_contribution", "outcome": "passed"},
        {"nodeid": "tests/test_rules.py::test_qualifying_hand[a]", "outcome": "passed"},
        {"nodeid": "tests/test_rules.py::test_qualifying_hand[b]", "outcome": "failed"}]}))
    assert run("--root", str(tree), "--clauses", str(clauses), "--fail-under", "100")[0] == 0  # tests exist
    code, out, _ = run("--root", str(tree), "--clauses", str(clauses), "--fail-under", "100", "--report", str(report),
                       "--format", "json")
    assert code == 1 and "14.19(b)3" in capsys.readouterr().err
    rows = {row["id"]: row for row in json.loads(out)["clauses"]}
    assert rows["14.19(b)3"]["status"] == "gap"
    assert rows["14.19(b)3"]["tests"] == [{"nodeid": "tests/test_rules.py::test_qualifying_hand", "result": "failed"}]
    assert rows["14.19(b)1"]["tests"][0]["result"] == "passed"
    assert rows["14.19(b)"]["status"] == "gap"  # one of its paragraphs is a gap


def test_json_and_csv_shapes(tree):
    args = ("--root", str(tree), "--clauses", str(tree / "clauses.toml"))
    data = json.loads(run(*args, "--format", "json")[1])
    assert data["summary"] == {"clauses": 4, "covered": 3, "no_code": 1, "gaps": 0, "needs_code": 3,
                               "percent": 100.0, "report": None}
    assert data["clauses"][2] == {
        "id": "14.19(b)1", "title": "Maximum contribution", "status": "covered", "no_code_reason": "",
        "code": ["apps/jackpot/rules.py:posted_rules"],
        "tests": [{"nodeid": "tests/test_rules.py::test_14_19_b_1_maximum_contribution", "result": ""}], "note": ""}
    assert data["clauses"][3]["status"] == "no_code" and data["clauses"][3]["no_code_reason"] == "Posted by hand."
    lines = list(csv.reader(io.StringIO(run(*args, "--format", "csv")[1])))
    assert lines[0] == ["clause", "title", "status", "no_code_reason", "code", "tests", "test_results", "note"]
    assert lines[3][:3] == ["14.19(b)1", "Maximum contribution", "covered"]
    assert lines[4][2:4] == ["no code needed", "Posted by hand."]
    assert len(lines) == 5


@pytest.mark.parametrize("args,message", [
    (("--fail-under", "101"), "--fail-under"),
    (("--report", "/nonexistent/report.json"), "--report"),
])
def test_bad_arguments_are_refused_with_a_message(args, message):
    from django.core.management.base import CommandError
    with pytest.raises(CommandError, match=message):
        call_command("compliance_matrix", *args, stdout=io.StringIO())


def test_a_report_that_is_not_one_is_refused(tmp_path):
    bad = tmp_path / "r.json"
    bad.write_text("{}")
    with pytest.raises(ValueError, match="not a pytest JSON report"):
        load_report(bad)


def test_the_clauses_file_is_the_one_shipped_in_the_app():
    assert CLAUSES_FILE.parent.name == "compliance" and CLAUSES_FILE.is_file()
