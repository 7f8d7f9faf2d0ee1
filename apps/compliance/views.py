"""The compliance matrix for auditors (accounting, surveillance, administrators): the page with its search, and the
same rows as CSV and PDF (weasyprint, as the Master Game Report). Read-only; nothing here writes a record (the PDF
made is kept in the cache)."""
import hashlib
from datetime import UTC, datetime

from django.core.cache import cache
from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone

from apps.core.policy import role_policy
from apps.core.views import csv_response, pdf_bytes, pdf_response

from .exports import CSV_HEADER, csv_rows, summary_rows
from .forms import MatrixSearchForm
from .selectors import current_matrix


def _search(request):
    """(form, matrix, rows the search finds, valid): an invalid search finds every row and answers 400."""
    form = MatrixSearchForm(request.GET or None)
    valid = not form.is_bound or form.is_valid()
    matrix = current_matrix()
    data = form.cleaned_data if form.is_bound and valid else {}
    rows = matrix.search(data.get("q", ""), data.get("status", ""))
    return form, matrix, rows, valid


@role_policy(read="compliance.view_matrix")
def matrix_page(request):
    """The matrix: the headline (clauses and requirements proven, partly proven, not proven, needing no code), the
    search (`?q=` clause or requirement id or words, `?status=`) and, for each clause found, its title and status
    and each of its requirements: its status (with the reason it needs no code or is not built), the code that
    implements it ("apps/x/y.py:function") and the tests that prove it (`pytest.mark.proves`) with their last
    result."""
    form, matrix, rows, valid = _search(request)
    created = (datetime.fromtimestamp(matrix.report_created, tz=UTC) if matrix.report_created else None)
    context = {"form": form, "matrix": matrix, "summary": matrix.summary(), "rows": rows,
               "report_created": created, "query": request.GET.urlencode() if valid else ""}
    return render(request, "compliance/matrix.html", context, status=200 if valid else 400)


@role_policy(read="compliance.view_matrix")
def matrix_export(request, fmt: str):
    """The rows the page's search finds, as CSV (`fmt` "csv": one line a requirement, exports.CSV_HEADER, then the
    headline's "total" lines) or PDF ("pdf"). 400 for a search that cannot be read, as the page."""
    form, matrix, rows, valid = _search(request)
    if not valid:
        return render(request, "compliance/matrix.html", {"form": form, "matrix": matrix, "summary": matrix.summary(),
                                                          "rows": rows}, status=400)
    stamp = timezone.localdate().isoformat()
    if fmt == "csv":
        response, writer = csv_response(f"compliance-matrix-{stamp}.csv")
        writer.writerow(CSV_HEADER)
        writer.writerows(csv_rows(rows))
        writer.writerows(summary_rows(matrix.summary()))
        return response
    if fmt == "pdf":
        return pdf_response(_matrix_pdf(matrix, rows, form.cleaned_data if form.is_bound else {}),
                            f"compliance-matrix-{stamp}.pdf")
    raise Http404


#: How long a made PDF of the matrix is kept (seconds). The matrix changes only with the code, the clauses file and
#: the test report, and its PDF (348 clauses, some 60 pages) takes weasyprint seconds to lay out.
PDF_KEPT_SECONDS = 24 * 3600


def _matrix_pdf(matrix, rows, search: dict) -> bytes:
    """The PDF of `rows` (weasyprint), made once for the same rows, statuses, code and test results and kept in the
    cache for PDF_KEPT_SECONDS: the first export after a deployment or a test run takes seconds, the next ones
    none. The PDF says when it was made."""
    content = render_to_string("compliance/matrix_print.html", {
        "matrix": matrix, "summary": matrix.summary(), "rows": rows, "search": search, "printed": None})
    key = "compliance-matrix-pdf:" + hashlib.sha256(content.encode()).hexdigest()
    pdf = cache.get(key)
    if pdf is None:
        html = render_to_string("compliance/matrix_print.html", {
            "matrix": matrix, "summary": matrix.summary(), "rows": rows, "search": search,
            "printed": timezone.localtime()})
        pdf = pdf_bytes(html)
        cache.set(key, pdf, PDF_KEPT_SECONDS)
    return pdf
