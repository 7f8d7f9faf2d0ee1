"""Mutation testing in the compliance matrix (issue 36, item 3): the matrix reading a results file (headline counts, a
requirement partly proven by an unexplained survivor, an equivalent mutant with its reason, one never run), the
--check gate on a fresh run's lower score, how a mutant is named across runs, which requirements a change selects,
and one real run of bench/compliance_mutants.py on a requirement of the hand engine."""
import csv
import importlib.util
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.conf import settings

from apps.compliance.matrix import NOT_PROVEN, PARTLY_PROVEN, PROVEN
from apps.compliance.mutation import (
    MUTANTS_FILE,
    code_ranges,
    definition_range,
    load_equivalents,
    load_results,
    mutant_ids,
    private_helpers,
    touched_requirements,
)
from apps.compliance.selectors import current_matrix
from tests.compliance.commands import run

ROOT = Path(settings.BASE_DIR)
DIFF = "--- a/apps/jackpot/rules.py\n+++ b/apps/jackpot/rules.py\n@@ -{n},1 +{n},1 @@\n-    return {a}\n+    return {b}\n"


def survivor(mutant_id: str, a: str = "1", b: str = "2") -> dict:
    return {"id": mutant_id, "operator": "core/NumberReplacer 0", "diff": DIFF.format(n=3, a=a, b=b)}


def code(definition: str, line: int) -> dict:
    """A results entry's "code": the one definition of apps/jackpot/rules.py it mutated, its body at `line`."""
    return {"code": [{"file": "apps/jackpot/rules.py", "definition": definition, "start": line, "end": line}]}


@pytest.fixture
def tree(tmp_path):
    """Four requirements, each proven by its test: (b)1 every mutant killed; (b)2 a survivor explained as equivalent;
    (b)3 two survivors, one explained, one not; (b)4 never mutation-tested."""
    (tmp_path / "apps" / "jackpot").mkdir(parents=True)
    (tmp_path / "apps" / "jackpot" / "rules.py").write_text(textwrap.dedent('''
        def maximum():
            """The maximum contribution (N.J.A.C. 13:69F-14.19(b)1)."""
            return 1

        def minimum():
            """The minimum pot (14.19(b)2)."""
            return 1

        def qualifying():
            """The qualifying hand (14.19(b)3)."""
            return 1

        def payout():
            """How it is paid (14.19(b)4)."""
            return 1
    '''))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_rules.py").write_text(textwrap.dedent('''
        import pytest

        @pytest.mark.proves("14.19(b)1", "14.19(b)2", "14.19(b)3", "14.19(b)4")
        def test_rules():
            assert True
    '''))
    (tmp_path / "clauses.toml").write_text("".join(
        f'[[clause]]\nid = "{cid}"\ntitle = "{cid}"\n'
        for cid in ("14.19", "14.19(b)", "14.19(b)1", "14.19(b)2", "14.19(b)3", "14.19(b)4")))
    compliance = tmp_path / "apps" / "compliance"
    compliance.mkdir()
    entry = {"date": "2026-11-27T00:00:00+00:00", "seconds": 12.0, "tests": ["tests/test_rules.py::test_rules"],
             "complete": True, "error": ""}
    (compliance / "mutants.json").write_text(json.dumps({
        "run": {"date": "2026-11-27T00:00:00+00:00", "minutes": 1.5, "command": "python bench/compliance_mutants.py",
                "tool": "cosmic-ray 8.7.0"},
        "requirements": {
            "14.19(b)1": {**entry, **code("maximum", 4), "mutants": 4, "killed": 4, "survivors": []},
            "14.19(b)2": {**entry, **code("minimum", 8), "mutants": 3, "killed": 2,
                          "survivors": [survivor("apps/jackpot/rules.py:minimum:aaa")]},
            "14.19(b)3": {**entry, **code("qualifying", 12), "mutants": 5, "killed": 3,
                          "survivors": [survivor("apps/jackpot/rules.py:qualifying:bbb"), survivor("apps/jackpot/rules.py:qualifying:ccc",
                                                                                      "x == 1", "x is 1")]},
        }}))
    (compliance / "equivalent_mutants.toml").write_text(textwrap.dedent('''
        [[mutant]]
        requirement = "14.19(b)2"
        id = "apps/jackpot/rules.py:minimum:aaa"
        reason = "The value is never read."

        [[mutant]]
        requirement = "*"
        id = "apps/jackpot/rules.py:qualifying:bbb"
        reason = "Small ints are cached: the same object either way."
    '''))
    return tmp_path


def args_for(tree: Path) -> tuple[str, ...]:
    return ("--root", str(tree), "--clauses", str(tree / "clauses.toml"))


def test_the_matrix_reads_the_mutation_results(tree):
    code, out, _ = run(*args_for(tree), "--format", "json", "--check")
    assert code == 0  # a survivor is shown, not a failure of --check
    data = json.loads(out)
    summary = data["summary"]
    assert {k: summary[k] for k in ("mutants", "killed", "survived", "equivalent")} == {
        "mutants": 12, "killed": 9, "survived": 1, "equivalent": 2}
    assert summary["requirements_proven"] == 3 and summary["requirements_partly_proven"] == 1
    assert summary["requirements_mutation_tested"] == 2  # (b)1 and (b)2; (b)4 is proven, not mutation-tested yet
    assert data["mutants_run"]["minutes"] == 1.5
    reqs = {r["id"]: r for c in data["clauses"] for r in c["requirements"]}
    assert reqs["14.19(b)1"]["status"] == PROVEN and reqs["14.19(b)1"]["mutation_tested"]
    assert reqs["14.19(b)2"]["status"] == PROVEN
    [equivalent] = reqs["14.19(b)2"]["mutation"]["survivors"]
    assert equivalent["equivalent_reason"] == "The value is never read."
    b3 = reqs["14.19(b)3"]
    assert b3["status"] == PARTLY_PROVEN and b3["note"] == "1 mutants of its code survived its proving tests"
    assert [(s["id"], bool(s["equivalent_reason"])) for s in b3["mutation"]["survivors"]] == [
        ("apps/jackpot/rules.py:qualifying:bbb", True), ("apps/jackpot/rules.py:qualifying:ccc", False)]
    assert "+    return x is 1" in b3["mutation"]["survivors"][1]["diff"]
    assert reqs["14.19(b)4"]["status"] == PROVEN and reqs["14.19(b)4"]["mutation"] is None
    statuses = {c["id"]: c["status"] for c in data["clauses"]}
    assert statuses["14.19(b)3"] == PARTLY_PROVEN and statuses["14.19(b)"] == PARTLY_PROVEN
    assert statuses["14.19(b)1"] == statuses["14.19(b)4"] == PROVEN


def test_a_run_that_made_no_mutant_is_not_mutation_testing(tree):
    """Code with nothing cosmic-ray can mutate (one call, no operator or number) gives no mutant: the requirement
    stays proven, not mutation-tested yet, and says why."""
    results = tree / "apps" / "compliance" / "mutants.json"
    data = json.loads(results.read_text())
    data["requirements"]["14.19(b)4"] = {**data["requirements"]["14.19(b)1"], **code("payout", 16), "mutants": 0,
                                         "killed": 0, "survivors": []}
    results.write_text(json.dumps(data))
    code_, out, _ = run(*args_for(tree), "--format", "json")
    assert code_ == 0
    data = json.loads(out)
    reqs = {r["id"]: r for c in data["clauses"] for r in c["requirements"]}
    assert reqs["14.19(b)4"]["status"] == PROVEN and not reqs["14.19(b)4"]["mutation_tested"]
    assert data["summary"]["requirements_mutation_tested"] == 2
    _, text, _ = run(*args_for(tree))
    assert "no mutant: its code has nothing to mutate" in text


def test_a_run_of_other_code_than_the_requirements_is_stale_and_not_counted(tree):
    """(b)1's run mutated `maximum`; once `maximum` hands its work to a private helper, its code is both and that run
    says nothing of the helper: (b)1 is proven, not mutation-tested yet, and its figures leave the headline."""
    rules = tree / "apps" / "jackpot" / "rules.py"
    before = rules.read_text()
    rules.write_text("def _one():\n    return 1\n" + before.replace(
        '"""The maximum contribution (N.J.A.C. 13:69F-14.19(b)1)."""\n    return 1',
        '"""The maximum contribution (N.J.A.C. 13:69F-14.19(b)1)."""\n    return _one()'))
    assert "return _one()" in rules.read_text()
    data = json.loads(run(*args_for(tree), "--format", "json")[1])
    reqs = {r["id"]: r for c in data["clauses"] for r in c["requirements"]}
    assert reqs["14.19(b)1"]["status"] == PROVEN and not reqs["14.19(b)1"]["mutation_tested"]
    assert reqs["14.19(b)1"]["mutation"] is None and "changed since its last mutation run" in reqs["14.19(b)1"]["note"]
    assert data["summary"]["mutants"] == 8 and data["summary"]["requirements_mutation_tested"] == 1  # (b)2 alone
    # the page, its CSV and PDF read the matrix as the command does (current_matrix): the stale run left out too
    page = current_matrix(root=tree, use_report=False, clauses_path=tree / "clauses.toml",
                          mutants_path=tree / "apps" / "compliance" / "mutants.json",
                          equivalents_path=tree / "apps" / "compliance" / "equivalent_mutants.toml")
    row = {r.id: r for r in page.requirement_rows}["14.19(b)1"]
    assert row.status == PROVEN and row.mutation is None and "changed since its last mutation run" in row.note
    assert page.summary()["mutants"] == 8


def test_private_helpers_a_definition_uses_are_mutated_with_it(tmp_path):
    (tmp_path / "apps").mkdir()
    (tmp_path / "apps" / "m.py").write_text(textwrap.dedent('''
        def _unused():
            return 0

        def _inner(x):
            return x + 1

        def _outer(x):
            return _inner(x) * 2

        class _Shape:
            pass

        def _only_its_own(x):
            return x

        def _cited(x):
            """The part of 14.19(b)2 it does: the code of that, not of every requirement of its callers."""
            return _only_its_own(x)

        def public(x):
            """Cites 14.19(b)1."""
            return _outer(x), _Shape, len(x), _cited(x)
    '''))
    assert private_helpers(tmp_path, "apps/m.py:public") == ["apps/m.py:_inner", "apps/m.py:_outer", "apps/m.py:_Shape"]
    assert private_helpers(tmp_path, "apps/m.py:_cited") == ["apps/m.py:_only_its_own"]
    ranges = code_ranges(tmp_path, ["apps/m.py:public", "apps/m.py:_outer"])
    assert [r.definition for r in ranges] == ["public", "_inner", "_outer", "_Shape"]
    assert private_helpers(tmp_path, "apps/m.py") == [] and private_helpers(tmp_path, "apps/m.py:nothing") == []


def test_the_csv_and_the_text_show_each_requirements_figures_and_survivors(tree):
    lines = list(csv.reader(io.StringIO(run(*args_for(tree), "--format", "csv")[1])))
    header = lines[0]
    rows = {line[3]: dict(zip(header, line, strict=True)) for line in lines[1:] if line[0] != "total"}
    assert rows["14.19(b)3"]["status"] == "partly proven"
    assert [rows["14.19(b)3"][k] for k in ("mutants", "killed", "survived", "equivalent")] == ["5", "3", "1", "1"]
    assert rows["14.19(b)3"]["surviving_mutants"].startswith("apps/jackpot/rules.py:qualifying:ccc\n---")
    assert "bbb" not in rows["14.19(b)3"]["surviving_mutants"]  # explained: not listed as surviving
    assert rows["14.19(b)4"]["status"] == "proven, not mutation-tested yet"
    assert rows["14.19(b)4"]["mutation"] == "not mutation-tested yet"
    totals = {line[1]: line[2] for line in lines if line[0] == "total"}
    assert totals["mutants (mutation testing not run yet when empty)"] == "12"
    assert totals["requirements partly proven (a mutant survived)"] == "1"
    text = run(*args_for(tree))[1]
    assert "5 mutants: 3 killed, 1 survived, 1 equivalent" in text
    assert "12 mutants, 9 killed, 1 survived, 2 equivalent" in text


def test_check_fails_when_a_fresh_run_scores_lower(tree, tmp_path, capsys):
    fresh = tmp_path / "fresh.json"
    fresh.write_text(json.dumps({"run": {}, "requirements": {
        "14.19(b)1": {**code("maximum", 4), "mutants": 4, "killed": 3,
                      "survivors": [survivor("apps/jackpot/rules.py:maximum:ddd")]},
        "14.19(b)3": {**code("qualifying", 12), "mutants": 5, "killed": 3,
                      "survivors": [survivor("apps/jackpot/rules.py:qualifying:bbb"),
                                    survivor("apps/jackpot/rules.py:qualifying:ccc")]}}}))
    status, _, _ = run(*args_for(tree), "--check", "--fresh-mutants", str(fresh))
    err = capsys.readouterr().err
    assert status == 1
    assert "14.19(b)1: 1 mutants survive that the committed run did not let through: apps/jackpot/rules.py:maximum:ddd" in err
    assert "14.19(b)3" not in err  # the same survivors as committed
    lower = tmp_path / "lower.json"  # fewer killed of more mutants, no new survivor named: the score
    lower.write_text(json.dumps({"run": {}, "requirements": {"14.19(b)2": {
        **code("minimum", 8), "mutants": 6, "killed": 2, "survivors": [survivor("apps/jackpot/rules.py:minimum:aaa")]}}}))
    assert run(*args_for(tree), "--check", "--fresh-mutants", str(lower))[0] == 1
    assert "14.19(b)2: mutation score 50% (2 killed, 0 survived of 6) below the committed 100%" in capsys.readouterr().err
    partial = tmp_path / "partial.json"  # stopped by the budget, yet a survivor the committed run did not have
    partial.write_text(json.dumps({"run": {}, "requirements": {"14.19(b)1": {
        **code("maximum", 4), "mutants": 1, "killed": 0, "complete": False,
        "survivors": [survivor("apps/jackpot/rules.py:maximum:eee")]}}}))
    assert run(*args_for(tree), "--check", "--fresh-mutants", str(partial))[0] == 1
    assert "apps/jackpot/rules.py:maximum:eee" in capsys.readouterr().err
    same = tmp_path / "same.json"
    same.write_text(json.dumps({"run": {}, "requirements": {"14.19(b)1": {**code("maximum", 4), "mutants": 4,
                                                                          "killed": 4}}}))
    assert run(*args_for(tree), "--check", "--fresh-mutants", str(same))[0] == 0
    # the code grew a helper since the committed run: its survivors and the new score have nothing to fall below,
    # a new survivor in the definition both runs mutated still fails
    grown = {"file": "apps/jackpot/rules.py", "definition": "_helper", "start": 20, "end": 20}
    helper = tmp_path / "helper.json"
    helper.write_text(json.dumps({"run": {}, "requirements": {"14.19(b)1": {
        "code": [*code("maximum", 4)["code"], grown], "mutants": 9, "killed": 4,
        "survivors": [survivor(f"apps/jackpot/rules.py:_helper:{n}") for n in ("f1", "f2", "f3", "f4", "f5")]}}}))
    assert run(*args_for(tree), "--check", "--fresh-mutants", str(helper))[0] == 0
    helper.write_text(json.dumps({"run": {}, "requirements": {"14.19(b)1": {
        "code": [*code("maximum", 4)["code"], grown], "mutants": 9, "killed": 7,
        "survivors": [survivor("apps/jackpot/rules.py:_helper:f1"), survivor("apps/jackpot/rules.py:maximum:ggg")]}}}))
    assert run(*args_for(tree), "--check", "--fresh-mutants", str(helper))[0] == 1
    assert "apps/jackpot/rules.py:maximum:ggg" in capsys.readouterr().err


def test_an_equivalent_mutant_needs_a_reason(tmp_path):
    path = tmp_path / "equivalent_mutants.toml"
    path.write_text('[[mutant]]\nrequirement = "27.3(b)6"\nid = "x"\n')
    with pytest.raises(ValueError, match="a reason"):
        load_equivalents(path)


def test_one_reason_may_explain_a_mutant_for_several_requirements(tmp_path):
    """A list of requirements under one [[mutant]] gives each of them the reason, and none other; the same mutant
    listed again for one of them is refused as a duplicate."""
    path = tmp_path / "equivalent_mutants.toml"
    path.write_text('[[mutant]]\nrequirement = ["14.11(h)1", "14.11(h)2"]\nid = "apps/hands/games.py:_best:ab"\n'
                    'reason = "Same hand by contract."\n')
    assert load_equivalents(path) == {("14.11(h)1", "apps/hands/games.py:_best:ab"): "Same hand by contract.",
                                      ("14.11(h)2", "apps/hands/games.py:_best:ab"): "Same hand by contract."}
    survivor = {"id": "apps/hands/games.py:_best:ab", "operator": "core/ReplaceComparisonOperator_Is_IsNot",
                "diff": ""}
    results = tmp_path / "mutants.json"
    results.write_text(json.dumps({"run": {}, "requirements": {
        rid: {"mutants": 3, "killed": 2, "survivors": [survivor]} for rid in ("14.11(h)1", "14.11(h)3")}}))
    loaded = load_results(results, load_equivalents(path))[0]
    assert loaded["14.11(h)1"].equivalent == 1 and loaded["14.11(h)1"].clean
    assert loaded["14.11(h)3"].survived == 1 and not loaded["14.11(h)3"].clean  # not named: still unexplained
    path.write_text(path.read_text() + '[[mutant]]\nrequirement = "14.11(h)2"\nid = "apps/hands/games.py:_best:ab"\n'
                    'reason = "Again."\n')
    with pytest.raises(ValueError, match="listed twice"):
        load_equivalents(path)
    path.write_text('[[mutant]]\nrequirement = []\nid = "x"\nreason = "None named."\n')
    with pytest.raises(ValueError, match="needs a requirement"):
        load_equivalents(path)


def test_a_mutant_keeps_its_id_when_the_code_above_it_moves():
    moved = [("apps/a.py", "f", "core/NumberReplacer", DIFF.format(n=n, a="1", b="2")) for n in (3, 40)]
    first, second = mutant_ids([moved[0]]), mutant_ids([moved[1]])
    assert first == second and first[0].startswith("apps/a.py:f:")
    assert mutant_ids(moved) == [first[0], first[0] + "-2"]  # the same change twice in one definition


def test_what_is_mutated_is_the_definitions_body_after_its_docstring():
    r = definition_range(ROOT, "apps/hands/rankings.py:evaluate_four_card_poker")
    source = (ROOT / "apps/hands/rankings.py").read_text().splitlines()
    assert r is not None and r.definition == "evaluate_four_card_poker"
    assert source[r.start - 1].strip() == source[r.end - 1].strip() == (
        "return _high(RuleSet.FOUR_CARD_POKER, cards, 4, _four_category)")
    assert definition_range(ROOT, "apps/hands/rankings.py") is None  # a module is not mutated


def test_a_model_cited_as_code_is_its_schema_and_is_not_mutated():
    """A Django model's field declarations are the migrations' schema (tests/core/test_migrations.py holds them to
    it); its methods that implement a requirement cite it and are mutated as code of their own."""
    from apps.compliance.mutation import is_model

    assert is_model(ROOT, "apps/rounds/models.py:KillRecord") and is_model(ROOT, "apps/badbeat/models.py:Jackpot")
    assert is_model(ROOT, "apps/tables/models.py:RotationGame")  # its base, GamePosting, an abstract model
    assert not is_model(ROOT, "apps/badbeat/models.py:QualifyingHand")  # choices: an enum, mutated with its users
    assert not is_model(ROOT, "apps/badbeat/models.py:Jackpot.qualifying_label")
    assert not is_model(ROOT, "apps/rounds/services.py:move_kill_button")
    ranges = code_ranges(ROOT, ["apps/rounds/models.py:KillRecord", "apps/rounds/services.py:move_kill_button"])
    assert [r.definition for r in ranges] == ["move_kill_button"]
    assert [r.definition for r in code_ranges(ROOT, ["apps/badbeat/models.py:Jackpot.qualifying_label"])] == [
        "Jackpot.qualifying_label"]


def _runner():
    spec = importlib.util.spec_from_file_location("compliance_mutants", ROOT / "bench" / "compliance_mutants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_change_selects_the_requirements_whose_code_or_proving_tests_it_touches():
    runner = _runner()
    rows = runner.candidates(ROOT)
    picked = [r.id for r in runner.select(rows, changed=["apps/hands/stud.py"])]
    assert "14.9(f)1" in picked and "14.13A(d)-lowest-up-card" in picked
    assert all(any(ref.startswith("apps/hands/stud.py:") for ref in r.code)
               or any(t.nodeid.startswith("apps/hands/stud.py") for t in r.tests)
               for r in rows if r.id in picked)
    assert not any(i.startswith("14.19(c)") for i in picked)
    by_test = runner.select(rows, changed=["tests/hands/test_rule_sets.py"])
    assert "27.3(b)6" in [r.id for r in by_test]
    assert runner.select(rows, changed=["README.md"]) == []
    assert touched_requirements(rows, ["apps/hands/stud.py"]) == picked
    with pytest.raises(ValueError, match="not requirements with code and proving tests"):
        runner.select(rows, requirements=["14.19(b)2-nothing"])


def test_a_mutants_test_command_leaves_out_the_plugins_its_tests_do_not_use():
    runner = _runner()
    feed = runner.test_command(["tests/feed/test_pipeline.py::test_14_7_c_4_side_pots_for_an_all_in_player"], ROOT)
    assert all(f"-p no:{p}" in feed for p in ("playwright", "schemathesis", "hypothesispytest"))
    assert "-x" in feed.split() and "--reuse-db" in feed.split()
    fast = runner.test_command(["tests/hands/test_fast.py::test_fast_paths_equal_the_readable_core"], ROOT)
    assert "no:hypothesispytest" not in fast and "-p no:playwright" in fast


def test_a_requirement_with_the_same_code_and_tests_as_one_run_takes_its_results(tmp_path, monkeypatch, capsys):
    """20.3(c)-kicker and -draw: one definition, one proving test; their mutants are run once. 20.3(b)1 (other
    tests) is run on its own."""
    runner = _runner()
    rows = {r.id: r for r in runner.candidates(ROOT)}
    assert runner.work_key(rows["20.3(c)-kicker"], ROOT) == runner.work_key(rows["20.3(c)-draw"], ROOT)
    assert runner.work_key(rows["20.3(c)-kicker"], ROOT) != runner.work_key(rows["20.3(b)1"], ROOT)
    ran = []

    def mutate(row, work, session_dir, deadline):
        ran.append(row.id)
        return {"date": "2026-11-28T00:00:00+00:00", "seconds": 9.0, "code": [], "tests": [t.nodeid for t in row.tests],
                "mutants": 3, "killed": 2, "incompetent": 0, "complete": True, "error": "",
                "survivors": [{"id": f"apps/hands/rankings.py:x:{row.id}", "operator": "core/X 0", "diff": ""}]}

    monkeypatch.setattr(runner, "mutate_requirement", mutate)
    monkeypatch.setattr(runner, "copy_tree", lambda dest: None)
    output = tmp_path / "mutants.json"
    assert runner.main(["--requirements", "20.3(c)-kicker,20.3(c)-draw,20.3(b)1", "--output", str(output)]) == 0
    assert ran == ["20.3(c)-kicker", "20.3(b)1"]
    saved = json.loads(output.read_text())
    kicker, draw = saved["requirements"]["20.3(c)-kicker"], saved["requirements"]["20.3(c)-draw"]
    assert {**draw, "date": "", "seconds": 0} == {**kicker, "date": "", "seconds": 0} and draw["seconds"] == 0.0
    assert saved["run"]["requirements"] == ["20.3(c)-kicker", "20.3(c)-draw", "20.3(b)1"]
    assert saved["run"]["mutants"] == 9 and saved["run"]["killed"] == 6
    assert "20.3(c)-draw" in capsys.readouterr().out.split("the same code and proving tests as 20.3(c)-kicker")[0]


@pytest.mark.django_db
def test_the_page_shows_survivors_and_their_diffs(client, staff, settings, tmp_path):
    from apps.core.roles import Role

    results = tmp_path / "mutants.json"
    # a run of 27.3(b)6's code as it is now (a run of other definitions would be stale and left out)
    refs = {r.id: r for r in current_matrix(use_report=False).requirement_rows}["27.3(b)6"].code
    ran = [{"file": r.file, "definition": r.definition, "start": r.start, "end": r.end} for r in code_ranges(ROOT, refs)]
    results.write_text(json.dumps({"run": {"date": "2026-11-27", "minutes": 3.0, "tool": "cosmic-ray 8.7.0"},
                                   "requirements": {"27.3(b)6": {"mutants": 2, "killed": 1, "code": ran, "survivors": [
                                       survivor("apps/hands/rankings.py:FourCardCategory:eee")]}}}))
    settings.COMPLIANCE_MUTANTS = results
    settings.COMPLIANCE_TEST_REPORT = tmp_path / "none.json"
    client.force_login(staff(Role.ACCOUNTING))
    html = client.get("/compliance/", {"q": "27.3(b)6"}).content.decode()
    headline = html.split('data-testid="headline-mutants"')[1].split("</p>")[0]
    assert "<strong>2</strong> mutants" in headline and "<strong>1</strong> killed" in headline
    requirement = html.split('data-requirement="27.3(b)6"')[1].split('class="requirement"')[0]
    assert "partly proven" in requirement and "2 mutants: 1 killed, 1 survived, 0 equivalent" in requirement
    assert "apps/hands/rankings.py:FourCardCategory:eee" in requirement and "+    return 2" in requirement
    assert current_matrix(mutants_path=results).summary()["requirements_partly_proven"] == 1


@pytest.mark.long
def test_a_real_run_on_a_requirement_of_the_hand_engine_kills_its_mutants(tmp_path):
    """14.12(d)-five-cards: best_single_draw_27 mutated (its body) with the private helper it uses (`_counts`), its
    one proving test run for each mutant."""
    output = tmp_path / "mutants.json"
    done = subprocess.run([sys.executable, "bench/compliance_mutants.py", "--requirements", "14.12(d)-five-cards",
                           "--output", str(output)], cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**os.environ})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    entry = json.loads(output.read_text())["requirements"]["14.12(d)-five-cards"]
    assert entry["error"] == "" and entry["complete"]
    assert entry["killed"] > 0 and entry["mutants"] >= entry["killed"]
    assert [(c["file"], c["definition"]) for c in entry["code"]] == [("apps/hands/games.py", "best_single_draw_27"),
                                                                     ("apps/hands/games.py", "_counts")]
    assert "requirements 1, mutants" in done.stdout
    assert MUTANTS_FILE.name == "mutants.json" and output != MUTANTS_FILE  # the committed file is untouched


def test_the_repos_results_file_reads_and_marks_survivors_partly_proven():
    rows = current_matrix(use_report=False, mutants_path=MUTANTS_FILE).requirement_rows
    for r in rows:
        if r.mutation is not None:
            assert r.status in (PROVEN, PARTLY_PROVEN, NOT_PROVEN), r.id
            assert (r.status == PARTLY_PROVEN) == bool(r.mutation.survived or r.mutation.error), r.id


def test_the_copy_of_the_tree_reads_the_material_beside_the_checkout_in_place(tmp_path):
    """Tests that read the real hand histories beside the checkout (../shared/data/phh) run in the copy as they do in
    the checkout: the material is linked beside the copy, not copied; files git ignores are left out."""
    runner = _runner()
    root = tmp_path / "room" / "main"
    (root / "apps").mkdir(parents=True)
    (root / "apps" / "a.py").write_text("A = 1\n")
    (root / "notes.tmp").write_text("ignored\n")
    (root / ".gitignore").write_text("*.tmp\n")
    (tmp_path / "room" / "shared" / "data").mkdir(parents=True)
    (tmp_path / "room" / "shared" / "data" / "30.phhs").write_text("hands\n")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    dest = tmp_path / "copy" / "tree"
    dest.mkdir(parents=True)
    runner.copy_tree(dest, root)
    assert (dest / "apps" / "a.py").read_text() == "A = 1\n" and not (dest / "notes.tmp").exists()
    assert (dest.parent / "shared").is_symlink()
    assert (dest / ".." / "shared" / "data" / "30.phhs").read_text() == "hands\n"
    alone = tmp_path / "alone" / "main"  # a checkout with no material beside it: nothing linked
    (alone / "apps").mkdir(parents=True)
    (alone / "apps" / "a.py").write_text("A = 2\n")
    subprocess.run(["git", "init", "-q"], cwd=alone, check=True)
    bare = tmp_path / "elsewhere" / "tree"
    bare.mkdir(parents=True)
    runner.copy_tree(bare, alone)
    assert (bare / "apps" / "a.py").read_text() == "A = 2\n" and not (bare.parent / "shared").exists()
