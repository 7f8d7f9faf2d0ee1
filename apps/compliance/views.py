"""The compliance matrix for auditors (accounting, surveillance, administrators): the page with its search, and the
same rows as CSV and PDF (weasyprint, as the Master Game Report). Read-only; nothing here writes."""
from datetime import UTC, datetime

from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone

from apps.core.policy import role_policy
from apps.core.views import csv_response, pdf_response

from .exports import CSV_HEADER, csv_rows
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
    """The matrix: summary counts, the search (`?q=` clause id or words, `?status=`) and, for each clause found,
    its title, status (covered / no code needed, with the reason / gap), the code that implements it
    ("apps/x/y.py:function") and the tests that prove it with their last result."""
    form, matrix, rows, valid = _search(request)
    created = (datetime.fromtimestamp(matrix.report_created, tz=UTC) if matrix.report_created else None)
    context = {"form": form, "matrix": matrix, "summary": matrix.summary(), "rows": rows,
               "report_created": created, "query": request.GET.urlencode() if valid else ""}
    return render(request, "compliance/matrix.html", context, status=200 if valid else 400)


@role_policy(read="compliance.view_matrix")
def matrix_export(request, fmt: str):
    """The rows the page's search finds, as CSV (`fmt` "csv": one line a clause, exports.CSV_HEADER) or PDF
    ("pdf"). 400 for a search that cannot be read, as the page."""
    form, matrix, rows, valid = _search(request)
    if not valid:
        return render(request, "compliance/matrix.html", {"form": form, "matrix": matrix, "summary": matrix.summary(),
                                                          "rows": rows}, status=400)
    stamp = timezone.localdate().isoformat()
    if fmt == "csv":
        response, writer = csv_response(f"compliance-matrix-{stamp}.csv")
        writer.writerow(CSV_HEADER)
        writer.writerows(csv_rows(rows))
        return response
    if fmt == "pdf":
        html = render_to_string("compliance/matrix_print.html", {
            "matrix": matrix, "summary": matrix.summary(), "rows": rows, "printed": timezone.localtime(),
            "search": form.cleaned_data if form.is_bound else {}}, request=request)
        return pdf_response(html, f"compliance-matrix-{stamp}.pdf")
    raise Http404
