"""The compliance matrix and its command (apps/compliance): the repo's clauses and requirements, the statuses, the
headline's counts, the --check gate, markers naming no requirement, the test report, and the CSV and JSON shapes."""
import csv
import io
import json
import re
import textwrap
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from apps.compliance.matrix import (
    CLAUSES_FILE,
    NO_CODE,
    NOT_PROVEN,
    PARTLY_PROVEN,
    PROVEN,
    load_clauses,
    load_report,
)
from apps.compliance.regulations import parse_regulations
from apps.compliance.selectors import current_matrix
from tests.compliance.commands import run

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


def test_every_listed_clause_appears_and_every_requirement_needing_code_is_proven_or_says_why():
    """The repo's own matrix: every clause in order; every requirement that needs code proven by a test marked so, or
    not built with its reason written; every marker names a listed requirement; every mention names a listed
    clause. (With no report: the tests' results are make test's, which runs the same check on them.)"""
    matrix = current_matrix(use_report=False)
    assert [row.id for row in matrix.rows] == [c.id for c in load_clauses()]
    assert matrix.errors == [] and not matrix.unknown
    assert matrix.failures() == []
    for row in matrix.rows:
        if row.status == NO_CODE:
            assert row.reason and all(r.status == NO_CODE for r in row.requirements), row.id
        for r in row.requirements:
            assert (r.status == PROVEN and r.tests or r.status == NO_CODE and r.reason or r.not_built and r.reason
                    or r.status == PARTLY_PROVEN and r.tests and r.mutation and (r.mutation.survived or r.mutation.error)
                    ), r.id  # partly proven: proven by its tests, but a mutant of its code survived them


@pytest.mark.parametrize(("clause", "requirements"), [
    ("14.19(e)", ["14.19(e)-cashier-counts", "14.19(e)-aggregate"]),
    ("14.19(f)1", ["14.19(f)1-full", "14.19(f)1-closing", "14.19(f)1-daily"]),
    ("14.19(a)", ["14.19(a)-losing-hand", "14.19(a)-separate-fund", "14.19(a)-all-to-players"]),
    ("14.12(d)", ["14.12(d)-five-cards", "14.12(d)-deal-order"]),
    ("14.19(q)", ["14.19(q)-notice", "14.19(q)-harder-after-won"]),
    ("14.3(a)", ["14.3(a)-ranks", "14.3(a)-suits", "14.3(a)-ace-low"]),
    ("14.3(c)4", ["14.3(c)4-straight", "14.3(c)4-no-wrap"]),
    ("14.20(c)", ["14.20(c)-roles"]),
])
def test_the_multi_part_clauses_the_audit_named_list_their_requirements(clause, requirements):
    assert [r.id for r in {c.id: c for c in load_clauses()}[clause].requirements] == requirements


def test_what_is_not_built_yet_says_so_and_is_not_proven():
    rows = {r.id: r for r in current_matrix(use_report=False).requirement_rows}
    for rid in [r.id for r in rows.values() if r.not_built]:
        assert rows[rid].reason and rows[rid].status == NOT_PROVEN, rid
    # the aggregate count of a container of combined counts, verified at the cage, is built and proven beside the
    # cashier's count of each box (14.19(e))
    assert not rows["14.19(e)-aggregate"].not_built and rows["14.19(e)-aggregate"].status == PROVEN
    row = {r.id: r for r in current_matrix(use_report=False).rows}["14.19(e)"]
    assert row.status == PROVEN and row.note == "2 of 2 requirements that need code proven"
    # issue 36: the container counted when full and upon table closing are built and proven, beside the daily count
    # and each casino's role, authority and responsibilities under the bad beat system agreement (14.20(c)), and
    # a counting shuffler's counts taken in for the 15-minute count (14.6(e)4), and accounting's adjustment of the
    # displays upon a supervisor's verification of a bad beat (14.19(k))
    for rid in ("14.19(f)1-full", "14.19(f)1-closing", "14.20(c)-roles", "14.6(e)4-counting-shuffler",
                "14.19(k)-upon-verification"):
        assert not rows[rid].not_built and rows[rid].status == PROVEN, rid
    row = {r.id: r for r in current_matrix(use_report=False).rows}["14.19(f)1"]
    assert row.status == PROVEN and row.note == "3 of 3 requirements that need code proven"


def test_the_matrix_of_the_repo_shows_known_code_and_tests():
    row = {r.id: r for r in current_matrix(use_report=False).requirement_rows}["14.19(c)-after-rake"]
    assert row.status == PROVEN
    assert any(ref.startswith("apps/badbeat/") for ref in row.code)
    assert any(t.nodeid.endswith("TestContribution::test_14_19_c_taken_after_the_rake") for t in row.tests)
    lead_in = {r.id: r for r in current_matrix(use_report=False).rows}["14.20(d)"]
    assert lead_in.requirements == [] and lead_in.status == PROVEN  # through (d)1: the pool's order test proves none


@pytest.fixture
def tree(tmp_path):
    """A small source tree and clauses file: 14.19(b) with (b)1 (one requirement, proven), (b)2 (no code needed) and
    (b)3 (two requirements: "posted", proven; "applied", cited by code and only mentioned by a test's docstring);
    14.19(f)1 with a requirement not built."""
    (tmp_path / "apps" / "jackpot").mkdir(parents=True)
    (tmp_path / "apps" / "jackpot" / "rules.py").write_text(textwrap.dedent('''
        def posted_rules():
            """The posted rules (N.J.A.C. 13:69F-14.19(b)1, 14.19(b)3-posted, 14.19(b)3-applied)."""

        def daily_count():
            """At least once a gaming day (14.19(f)1-daily)."""
    '''))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_rules.py").write_text(textwrap.dedent('''
        import pytest

        @pytest.mark.proves("14.19(b)1", "14.19(b)3-posted")
        def test_the_rules_page():
            assert True

        def test_14_19_b_3_qualifying_hand():
            """A lesser hand does not qualify (14.19(b)3): named and cited, but no marker."""

        @pytest.mark.proves("14.19(f)1-daily")
        def test_daily_count():
            assert True
    '''))
    clauses = tmp_path / "clauses.toml"
    clauses.write_text(CLAUSES)
    return tmp_path


CLAUSES = textwrap.dedent('''
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
    [[clause]]
    id = "14.19(b)3"
    title = "Qualifying hands"
    [[clause.requirement]]
    id = "14.19(b)3-posted"
    text = "The posted rules give the qualifying hand"
    [[clause.requirement]]
    id = "14.19(b)3-applied"
    text = "Claims are judged by it"
    [[clause]]
    id = "14.19(f)"
    title = "In lieu of counts at the cage"
    [[clause]]
    id = "14.19(f)1"
    title = "When full, at closing, at least daily"
    [[clause.requirement]]
    id = "14.19(f)1-full"
    text = "When the container is full"
    not_built = "Nothing knows a container's capacity."
    [[clause.requirement]]
    id = "14.19(f)1-daily"
    text = "At least once a gaming day"
''')


def matrix_of(tree, results=None):
    from apps.compliance.matrix import build_matrix
    from apps.compliance.scanner import scan

    clauses = load_clauses(tree / "clauses.toml")
    return build_matrix(clauses, scan(tree, frozenset(c.id for c in clauses)), results=results)


def test_the_headline_counts_clauses_and_requirements_on_a_small_matrix(tree):
    """(b)1 proven; (b)2 no code; (b)3 partly ("applied" only mentioned by a docstring); (b) partly, through its
    paragraphs; (f)1 partly (its daily count proven, "full" not built); (f) and 14.19 partly."""
    matrix = matrix_of(tree)
    status = {row.id: row.status for row in matrix.rows}
    assert status == {"14.19": PARTLY_PROVEN, "14.19(b)": PARTLY_PROVEN, "14.19(b)1": PROVEN, "14.19(b)2": NO_CODE,
                      "14.19(b)3": PARTLY_PROVEN, "14.19(f)": PARTLY_PROVEN, "14.19(f)1": PARTLY_PROVEN}
    assert matrix.summary() == {
        "clauses": 7, "proven": 1, "partly_proven": 5, "not_proven": 0, "no_code": 1,
        "requirements": 6, "requirements_proven": 3, "requirements_mutation_tested": 0,
        "requirements_partly_proven": 0, "requirements_not_proven": 2, "requirements_not_built": 1,
        "gaps": 1, "requirements_no_code": 1,
        "mutants": None, "killed": None, "survived": None, "equivalent": None, "report": None}
    rows = {r.id: r for r in matrix.requirement_rows}
    assert rows["14.19(b)3-applied"].is_gap and rows["14.19(b)3-applied"].code == ["apps/jackpot/rules.py:posted_rules"]
    assert rows["14.19(f)1-full"].not_built and rows["14.19(f)1-full"].code == []  # not built: no code listed
    assert rows["14.19(f)1-daily"].code == ["apps/jackpot/rules.py:daily_count"]


def test_a_requirement_its_tests_prove_but_no_code_cites_is_not_proven(tree):
    """Issue 36: each proven requirement lists the code that implements it. A requirement whose proving test passes
    while no docstring cites it (its code narrowed to other requirements, or never said) is a gap that
    `--check` refuses, not proven; once its code cites it, it is proven with that code listed."""
    rules = tree / "apps" / "jackpot" / "rules.py"
    rules.write_text(rules.read_text().replace("(14.19(f)1-daily)", "(a count of the day)"))
    row = {r.id: r for r in matrix_of(tree).requirement_rows}["14.19(f)1-daily"]
    assert row.status == NOT_PROVEN and row.is_gap and row.code == [] and "no code cites it" in row.note
    rules.write_text(rules.read_text().replace("(a count of the day)", "(14.19(f)1-daily)"))
    row = {r.id: r for r in matrix_of(tree).requirement_rows}["14.19(f)1-daily"]
    assert row.status == PROVEN and row.code == ["apps/jackpot/rules.py:daily_count"]


def test_a_docstring_or_a_name_that_only_mentions_a_clause_proves_nothing(tree):
    """test_14_19_b_3_qualifying_hand names 14.19(b)3 and cites it in its docstring: it proves no requirement of it;
    marked, it does."""
    rows = {r.id: r for r in matrix_of(tree).requirement_rows}
    assert [t.nodeid for t in rows["14.19(b)3-applied"].tests] == []
    assert rows["14.19(b)3-applied"].status == NOT_PROVEN
    assert "no test proves it" in rows["14.19(b)3-applied"].note
    test = tree / "tests" / "test_rules.py"
    test.write_text(test.read_text().replace("def test_14_19_b_3_qualifying_hand",
                                             '@pytest.mark.proves("14.19(b)3-applied")\ndef test_14_19_b_3_qualifying_hand'))
    rows = {r.id: r for r in matrix_of(tree).requirement_rows}
    assert rows["14.19(b)3-applied"].status == PROVEN
    assert [t.nodeid for t in rows["14.19(b)3-applied"].tests] == ["tests/test_rules.py::test_14_19_b_3_qualifying_hand"]


def test_code_citing_a_requirement_implements_it_alone_and_code_citing_its_clause_implements_each(tree):
    """Code that cites 14.19(b)3-posted is that requirement's code, not 14.19(b)3-applied's; code that cites
    14.19(b)3 whole, whose two requirements each need code, is read as both's but is an error (it must name those
    it implements: an audit finds no unrelated evidence); a paragraph that no code cites takes the code citing its
    clause, not a requirement's; a docstring naming a requirement clauses.toml does not list is an error, as a
    marker is."""
    (tree / "apps" / "jackpot" / "rules.py").write_text(textwrap.dedent('''
        def posted_rules():
            """The posted rules (N.J.A.C. 13:69F-14.19(b)1, 14.19(b)3-posted)."""

        def judged():
            """Claims judged by the posted hand (14.19(b)3)."""

        def count_when_full():
            """A full container is counted (14.19(f)1-full, 14.19(f)1-daily)."""
    '''))
    matrix = matrix_of(tree)
    rows = {r.id: r for r in matrix.requirement_rows}
    assert rows["14.19(b)3-posted"].code == ["apps/jackpot/rules.py:posted_rules", "apps/jackpot/rules.py:judged"]
    assert rows["14.19(b)3-applied"].code == ["apps/jackpot/rules.py:judged"]
    assert rows["14.19(b)1"].code == ["apps/jackpot/rules.py:posted_rules"]
    assert rows["14.19(f)1-daily"].code == ["apps/jackpot/rules.py:count_when_full"]
    assert rows["14.19(f)1-full"].code == []  # not built: it lists no code, whatever cites it
    assert {row.id: row for row in matrix.rows}["14.19(b)3"].code == ["apps/jackpot/rules.py:judged",
                                                                      "apps/jackpot/rules.py:posted_rules"]
    assert matrix.errors == ["apps/jackpot/rules.py:judged cites 14.19(b)3, whose requirements each need code of "
                             "their own (14.19(b)3-posted, 14.19(b)3-applied): name those it implements."]
    rules = tree / "apps" / "jackpot" / "rules.py"
    rules.write_text(rules.read_text().replace("(14.19(b)3)", "(14.19(b)3-applied)"))
    matrix = matrix_of(tree)
    assert matrix.errors == [] and {r.id: r for r in matrix.requirement_rows}["14.19(b)3-posted"].code == [
        "apps/jackpot/rules.py:posted_rules"]
    (tree / "apps" / "jackpot" / "more.py").write_text('''def typo():\n    """Posted (14.19(b)3-postd)."""\n''')
    assert matrix_of(tree).errors == ["apps/jackpot/more.py:typo cites requirement '14.19(b)3-postd': clauses.toml "
                                      "lists no requirement 14.19(b)3-postd."]


def test_a_private_helper_citing_a_requirement_does_a_part_of_it_beside_the_code_of_the_clause_above(tree):
    """A private helper's docstring is read as any code's: _qualifying_hand citing 14.19(b)3-posted is that
    requirement's code, and `posting`, citing the clause above, still implements it (and 14.19(b)3-applied, which
    nothing else cites). A public function citing the requirement stands for the whole of it: nothing is taken from
    the clause above then, for either requirement of 14.19(b)3."""
    rules = tree / "apps" / "jackpot" / "rules.py"
    rules.write_text(textwrap.dedent('''
        def posting():
            """What the room posts (14.19(b))."""
            return _qualifying_hand()

        def _qualifying_hand():
            """The qualifying hand of the posted rules (14.19(b)3-posted)."""
    '''))
    rows = {r.id: r for r in matrix_of(tree).requirement_rows}
    assert rows["14.19(b)3-posted"].code == ["apps/jackpot/rules.py:_qualifying_hand", "apps/jackpot/rules.py:posting"]
    assert rows["14.19(b)3-posted"].code_from == "14.19(b)"
    assert rows["14.19(b)3-applied"].code == ["apps/jackpot/rules.py:posting"]
    assert rows["14.19(b)1"].code == ["apps/jackpot/rules.py:posting"]
    rules.write_text(rules.read_text().replace("_qualifying_hand", "qualifying_hand"))
    rows = {r.id: r for r in matrix_of(tree).requirement_rows}
    assert rows["14.19(b)3-posted"].code == ["apps/jackpot/rules.py:qualifying_hand"]
    assert rows["14.19(b)3-posted"].code_from == ""
    assert rows["14.19(b)3-applied"].code == []
    assert rows["14.19(b)1"].code == ["apps/jackpot/rules.py:posting"]


def test_a_lead_in_clause_is_proven_by_its_paragraphs_never_by_a_neighbours_test(tmp_path):
    """14.20(d) asks nothing itself: it is proven when (d)1 is, whatever proves 14.20(c) beside it; a marker naming
    the lead-in itself is refused (it has no requirement of its own)."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "apps" / "system").mkdir(parents=True)
    (tmp_path / "apps" / "system" / "agreement.py").write_text(  # the code each proven requirement lists
        'def roles():\n    """The agreement (14.20(c))."""\n\n\ndef posting():\n    """Posted (14.20(d)1)."""\n')
    (tmp_path / "clauses.toml").write_text(textwrap.dedent('''
        [[clause]]
        id = "14.20"
        title = "Multi-casino"
        [[clause]]
        id = "14.20(c)"
        title = "The agreement"
        [[clause]]
        id = "14.20(d)"
        title = "Each casino shall:"
        [[clause]]
        id = "14.20(d)1"
        title = "Post the participants"
        [[clause]]
        id = "14.20(d)2"
        title = "Be jointly and severally liable"
        no_code = "A legal consequence."
    '''))
    test = tmp_path / "tests" / "test_pool.py"
    test.write_text('import pytest\n\n\n@pytest.mark.proves("14.20(c)")\ndef test_14_20_d_the_pools_order():\n    """The pool\'s order (14.20(d))."""\n')
    rows = {row.id: row for row in matrix_of(tmp_path).rows}
    assert rows["14.20(c)"].status == PROVEN
    assert rows["14.20(d)"].status == NOT_PROVEN and rows["14.20(d)"].requirements == []
    assert rows["14.20(d)"].note == "0 of 1 requirements that need code proven (through its paragraphs)"
    test.write_text(test.read_text() + '\n\n@pytest.mark.proves("14.20(d)")\ndef test_the_lead_in():\n    pass\n')
    matrix = matrix_of(tmp_path)
    assert matrix.errors == ["tests/test_pool.py::test_the_lead_in proves \'14.20(d)\': 14.20(d) is a lead-in clause; "
                             "name the requirement of a paragraph under it."]
    assert {row.id: row for row in matrix.rows}["14.20(d)"].status == NOT_PROVEN
    test.write_text(test.read_text() + '\n\n@pytest.mark.proves("14.20(d)1")\ndef test_the_posting():\n    pass\n')
    assert {row.id: row for row in matrix_of(tmp_path).rows}["14.20(d)"].status == PROVEN


def test_check_fails_for_a_requirement_without_a_proving_test_or_a_reason(tree, capsys):
    clauses = tree / "clauses.toml"
    code, out, _ = run("--root", str(tree), "--clauses", str(clauses), "--check")
    err = capsys.readouterr().err
    assert code == 1 and "14.19(b)3-applied" in err and "no test proves it" in err
    assert "14.19(f)1-full" not in err  # not built, with its reason
    assert "6 requirements: 3 proven by a test that says so, 2 not proven (1 not built" in out
    assert "7 clauses: 1 proven, 5 partly proven, 0 not proven, 1 need no code." in out
    test = tree / "tests" / "test_rules.py"
    test.write_text(test.read_text().replace("def test_14_19_b_3_qualifying_hand",
                                             '@pytest.mark.proves("14.19(b)3-applied")\ndef test_14_19_b_3_qualifying_hand'))
    assert run("--root", str(tree), "--clauses", str(clauses), "--check")[0] == 0
    assert run("--root", str(tree), "--clauses", str(clauses))[0] == 0  # without --check: the matrix, no gate


def test_check_fails_when_a_test_proves_a_requirement_said_to_be_not_built(tree, capsys):
    test = tree / "tests" / "test_rules.py"
    test.write_text(test.read_text().replace('"14.19(f)1-daily"', '"14.19(f)1-daily", "14.19(f)1-full"')
                    .replace("def test_14_19_b_3_qualifying_hand",
                             '@pytest.mark.proves("14.19(b)3-applied")\ndef test_14_19_b_3_qualifying_hand'))
    code, _, _ = run("--root", str(tree), "--clauses", str(tree / "clauses.toml"), "--check")
    err = capsys.readouterr().err
    assert code == 1 and "14.19(f)1-full" in err and "remove the not_built reason" in err


@pytest.mark.parametrize(("marked", "why"), [
    ("14.19(f)1-ful", "clauses.toml lists no requirement 14.19(f)1-ful"),
    ("14.19(b)3", "14.19(b)3 lists its requirements; name one of 14.19(b)3-posted, 14.19(b)3-applied"),
    ("14.19(b)", "14.19(b) is a lead-in clause"),
])
def test_a_marker_naming_no_requirement_fails_the_command_loudly(tree, capsys, marked, why):
    """Whatever the options (no --check here) and the format: the output is written, then the error and exit 1."""
    test = tree / "tests" / "test_rules.py"
    test.write_text(test.read_text() + f'\n\n@pytest.mark.proves("{marked}")\ndef test_typo():\n    pass\n')
    for fmt in ("text", "json"):
        code, out, _ = run("--root", str(tree), "--clauses", str(tree / "clauses.toml"), "--format", fmt)
        err = capsys.readouterr().err
        assert code == 1 and out
        assert "markers and docstrings name no requirement" in err and "tests/test_rules.py::test_typo" in err and why in err


@pytest.mark.parametrize(("entry", "words"), [
    ('[[clause.requirement]]\nid = "14.19(b)2-x"\ntext = "x"\n', "is listed twice"),
    ('[[clause.requirement]]\nid = "14.19-x"\ntext = "x"\n', "is not named 14.19(b)2-<word>"),
    ('[[clause.requirement]]\nid = "14.19(b)2-Bad Word"\ntext = "x"\n', "is not named"),
    ('[[clause.requirement]]\nid = "14.19(b)2-y"\n', "has no text"),
    ('[[clause.requirement]]\nid = "14.19(b)2-y"\ntext = "y"\nno_code = "a"\nnot_built = "b"\n', "choose one"),
    ('not_built = "x"\n[[clause.requirement]]\nid = "14.19(b)2-y"\ntext = "y"\n', "write not_built on those"),
])
def test_a_requirement_the_clauses_file_cannot_hold_is_refused(tmp_path, entry, words):
    path = tmp_path / "clauses.toml"
    twice = '[[clause.requirement]]\nid = "14.19(b)2-x"\ntext = "x"\n'
    path.write_text('[[clause]]\nid = "14.19"\ntitle = "t"\n[[clause]]\nid = "14.19(b)"\ntitle = "t"\n'
                    '[[clause]]\nid = "14.19(b)2"\ntitle = "t"\n' + (twice if "twice" in words else "") + entry)
    with pytest.raises(ValueError, match=re.escape(words)):
        load_clauses(path)


def test_a_lead_in_cannot_be_not_built_itself(tmp_path):
    path = tmp_path / "clauses.toml"
    path.write_text('[[clause]]\nid = "14.19"\ntitle = "t"\nnot_built = "x"\n[[clause]]\nid = "14.19(b)"\ntitle = "t"\n')
    with pytest.raises(ValueError, match="is a lead-in"):
        load_clauses(path)


def test_with_a_report_only_passing_proving_tests_count(tree, capsys):
    report = tree / "report.json"
    report.write_text(json.dumps({"created": 1700000000.0, "tests": [
        {"nodeid": "tests/test_rules.py::test_the_rules_page[a]", "outcome": "passed"},
        {"nodeid": "tests/test_rules.py::test_the_rules_page[b]", "outcome": "failed"}]}))
    code, out, _ = run("--root", str(tree), "--clauses", str(tree / "clauses.toml"), "--report", str(report),
                       "--format", "json", "--check")
    err = capsys.readouterr().err
    assert code == 1 and "14.19(b)1" in err and "14.19(f)1-daily" in err  # failed in the report, and not run
    clauses = {row["id"]: row for row in json.loads(out)["clauses"]}
    [b1] = clauses["14.19(b)1"]["requirements"]
    assert b1["status"] == "not_proven" and b1["tests"] == [{"nodeid": "tests/test_rules.py::test_the_rules_page",
                                                              "result": "failed"}]
    assert b1["note"] == "none of its proving tests passed in the last run"
    [daily] = [r for r in clauses["14.19(f)1"]["requirements"] if r["id"] == "14.19(f)1-daily"]
    assert daily["tests"][0]["result"] == "not run" and daily["status"] == "not_proven"


def test_json_and_csv_shapes(tree):
    args = ("--root", str(tree), "--clauses", str(tree / "clauses.toml"))
    data = json.loads(run(*args, "--format", "json")[1])
    assert data["summary"]["requirements"] == 6 and data["errors"] == []
    assert data["clauses"][2] == {
        "id": "14.19(b)1", "title": "Maximum contribution", "status": "proven", "no_code_reason": "",
        "code": ["apps/jackpot/rules.py:posted_rules"], "proven": 1, "needs_code": 1, "note": "",
        "requirements": [{"id": "14.19(b)1", "text": "Maximum contribution", "status": "proven", "not_built": False,
                          "reason": "", "code": ["apps/jackpot/rules.py:posted_rules"], "code_from": "",
                          "tests": [{"nodeid": "tests/test_rules.py::test_the_rules_page", "result": ""}],
                          "note": "", "mutation_tested": False, "mutation": None}]}
    assert data["mutants_run"] == {}
    assert data["clauses"][3]["status"] == "no_code" and data["clauses"][3]["no_code_reason"] == "Posted by hand."
    lines = list(csv.reader(io.StringIO(run(*args, "--format", "csv")[1])))
    assert lines[0] == ["clause", "title", "clause_status", "requirement", "requirement_text", "status", "reason",
                        "code", "code_cites", "tests", "test_results", "note", "mutation", "mutants", "killed",
                        "survived", "equivalent", "surviving_mutants"]
    assert lines[1][:4] == ["14.19", "Bad beat payouts", "partly proven", ""]  # a lead-in: one line, no requirement
    assert lines[3][:6] == ["14.19(b)1", "Maximum contribution", "proven", "14.19(b)1", "Maximum contribution",
                            "proven, not mutation-tested yet"]
    assert lines[3][12:] == ["not mutation-tested yet", "", "", "", "", ""]
    assert [line[3] for line in lines[5:7]] == ["14.19(b)3-posted", "14.19(b)3-applied"]
    full = next(line for line in lines if line[3] == "14.19(f)1-full")
    assert full[5:7] == ["not built", "Nothing knows a container's capacity."]
    totals = {line[1]: line[2] for line in lines if line[0] == "total"}
    assert totals["clauses"] == "7" and totals["clauses partly proven"] == "5" and totals["requirements"] == "6"
    assert totals["requirements not proven: not built (reason written)"] == "1"
    assert totals["mutants (mutation testing not run yet when empty)"] == ""
    assert len(lines) == 1 + 9 + len(totals)  # header, 7 clauses as 9 lines (3 with two requirements), totals


@pytest.mark.parametrize("args,message", [
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
