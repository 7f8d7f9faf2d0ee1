"""The compliance matrix page for auditors, its search and its CSV and PDF exports: who may read them (accounting,
surveillance, administrators) and who may not; the headline of proven, partly proven and not proven; the last test
run's results shown."""
import csv
import io
import json

import pytest

from apps.compliance import selectors
from apps.core.roles import Role
from tests.support.pdf import page_sizes

pytestmark = pytest.mark.django_db
READERS = [Role.ACCOUNTING, Role.SURVEILLANCE, Role.ADMIN]
OTHERS = [Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.SECURITY]


@pytest.fixture
def no_report(settings, tmp_path):
    settings.COMPLIANCE_TEST_REPORT = tmp_path / "none.json"
    settings.COMPLIANCE_MUTANTS = tmp_path / "no-mutants.json"  # the page as it is before any mutation run


@pytest.mark.parametrize("role", READERS)
def test_auditors_read_the_matrix_with_its_summary(client, staff, role, no_report):
    client.force_login(staff(role))
    response = client.get("/compliance/")
    assert response.status_code == 200
    html = response.content.decode()
    summary = selectors.current_matrix(use_report=False).summary()
    assert f"<strong>{summary['clauses']}</strong> clauses: <strong>{summary['proven']}</strong> proven" in html
    assert f"<strong>{summary['partly_proven']}</strong> partly proven" in html
    assert f"<strong>{summary['requirements']}</strong> requirements" in html
    headline = html.split('data-testid="compliance-summary"')[1].split("</section>")[0]
    assert "Mutation testing has not been run" in headline and "%" not in headline  # counts, not one percentage
    assert 'data-clause="14.19(b)3"' in html and 'data-clause="27.3(c)"' in html
    assert "apps/badbeat/" in html and "test_14_19_b_3_" in html
    assert 'href="/compliance/"' in html  # in the header's navigation


@pytest.mark.parametrize("role", OTHERS)
def test_others_are_refused_403_and_not_offered_the_page(client, staff, role):
    client.force_login(staff(role))
    for url in ("/compliance/", "/compliance/matrix.csv", "/compliance/matrix.pdf"):
        assert client.get(url).status_code == 403
    assert 'href="/compliance/"' not in client.get("/home/", follow=True).content.decode()


def test_a_visitor_is_sent_to_sign_in(client):
    assert client.get("/compliance/").status_code == 302


def test_search_by_clause_id_or_words(client, staff, no_report):
    client.force_login(staff(Role.ACCOUNTING))
    html = client.get("/compliance/", {"q": "14.19(b)"}).content.decode()
    assert html.count("data-clause=") == 5 and 'data-clause="14.19(b)4"' in html  # (b) and (b)1-4
    html = client.get("/compliance/", {"q": "13:69F-14.19(b)3"}).content.decode()
    assert html.count("data-clause=") == 1
    html = client.get("/compliance/", {"q": "uncalled final bet"}).content.decode()
    assert 'data-clause="14.14(d)"' in html
    html = client.get("/compliance/", {"status": "no_code"}).content.decode()
    assert 'data-clause="14.5(b)1"' in html and 'data-clause="14.19(c)"' not in html
    assert "No clause matches" in client.get("/compliance/", {"q": "zzzz nothing"}).content.decode()
    html = client.get("/compliance/", {"q": "14.19(e)-aggregate"}).content.decode()  # a requirement's id
    assert html.count("data-clause=") == 1 and 'data-clause="14.19(e)"' in html
    assert 'data-requirement="14.19(e)-aggregate"' in html
    html = client.get("/compliance/", {"status": "proven"}).content.decode()
    assert 'data-clause="14.19(e)"' in html and 'data-clause="14.5(b)1"' not in html


@pytest.mark.parametrize("params,field", [({"status": "bogus"}, "status"), ({"q": "x" * 101}, "q"),
                                          ({"q": "14.19\x00"}, "q")])
def test_a_search_that_cannot_be_read_is_a_400_beside_its_field(client, staff, params, field, no_report):
    client.force_login(staff(Role.SURVEILLANCE))
    response = client.get("/compliance/", params)
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert client.get("/compliance/matrix.csv", params).status_code == 400


def test_csv_export_of_the_search(client, staff, no_report):
    client.force_login(staff(Role.ACCOUNTING))
    response = client.get("/compliance/matrix.csv", {"q": "14.19(b)"})
    assert response.status_code == 200 and response["Content-Type"] == "text/csv"
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert lines[0] == ["clause", "title", "clause_status", "requirement", "requirement_text", "status", "reason",
                        "code", "code_cites", "tests", "test_results", "note", "mutation", "mutants", "killed",
                        "survived", "equivalent", "surviving_mutants"]
    found = [line for line in lines[1:] if line[0] != "total"]
    assert [line[3] for line in found] == [
        "14.19(b)-table-notice", "14.19(b)-current-amount", "14.19(b)-rules-posted", "14.19(b)1-posted",
        "14.19(b)1-applied", "14.19(b)2-posted", "14.19(b)2-applied", "14.19(b)3-posted", "14.19(b)3-applied",
        "14.19(b)4"]  # one line a requirement, each with its clause
    assert [line[0] for line in found].count("14.19(b)3") == 2
    applied = next(line for line in found if line[3] == "14.19(b)3-applied")
    assert applied[5] == "proven, not mutation-tested yet" and "test_14_19_b_3_both_hole_cards_must_play" in applied[9]
    totals = {line[1]: line[2] for line in lines if line[0] == "total"}
    summary = selectors.current_matrix(use_report=False).summary()
    assert totals["clauses"] == str(summary["clauses"]) and totals["requirements"] == str(summary["requirements"])
    assert totals["clauses partly proven"] == str(summary["partly_proven"])


def test_pdf_export(client, staff, no_report):
    client.force_login(staff(Role.ADMIN))
    response = client.get("/compliance/matrix.pdf", {"q": "14.14"})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert set(page_sizes(response.content)) == {(792.0, 612.0)}  # US Letter, landscape (settings.PDF_PAGE_SIZE)


def test_the_pdf_is_made_once_for_the_same_matrix_and_again_when_it_changes(client, staff, settings, tmp_path,
                                                                             monkeypatch):
    """Laying out the whole matrix takes weasyprint seconds: the same rows, statuses and results are served from the
    PDF made first; another search, or another test report, makes a new one."""
    from apps.compliance import views

    made = []
    monkeypatch.setattr(views, "pdf_bytes", lambda html: made.append(html) or b"%PDF-" + str(len(made)).encode())
    settings.COMPLIANCE_TEST_REPORT = tmp_path / "none.json"
    client.force_login(staff(Role.ACCOUNTING))
    first = client.get("/compliance/matrix.pdf", {"q": "14.14"}).content
    assert client.get("/compliance/matrix.pdf", {"q": "14.14"}).content == first and len(made) == 1
    assert "Made " in made[0]  # the PDF says when it was made
    client.get("/compliance/matrix.pdf", {"q": "14.19"})
    assert len(made) == 2
    row = {r.id: r for r in selectors.current_matrix(use_report=False).rows}["14.14(d)"]
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"created": 1700000000.0, "tests": [{"nodeid": row.tests[0].nodeid,
                                                                      "outcome": "failed"}]}))
    settings.COMPLIANCE_TEST_REPORT = report
    assert client.get("/compliance/matrix.pdf", {"q": "14.14"}).content != first and len(made) == 3


def test_the_last_runs_results_are_shown(client, staff, settings, tmp_path):
    row = {r.id: r for r in selectors.current_matrix(use_report=False).rows}["14.14(d)"]
    passed, failed = row.tests[0].nodeid, row.tests[1].nodeid
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"created": 1700000000.0, "tests": [
        {"nodeid": passed, "outcome": "passed"}, {"nodeid": failed + "[x]", "outcome": "failed"}]}))
    settings.COMPLIANCE_TEST_REPORT = report
    client.force_login(staff(Role.ACCOUNTING))
    html = client.get("/compliance/", {"q": "14.14(d)"}).content.decode()
    assert "Test results from the last run (Nov 14, 2023 22:13 UTC)" in html
    assert f'{passed}</code> <span class="ok">passed</span>' in html
    assert f'{failed}</code> <span class="alert">failed</span>' in html
    lines = list(csv.reader(io.StringIO(client.get("/compliance/matrix.csv", {"q": "14.14(d)"}).content.decode())))
    assert lines[1][10].split("; ")[:2] == ["passed", "failed"]
