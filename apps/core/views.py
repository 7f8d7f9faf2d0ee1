"""Page-view helpers: every page needs a login, a casino and a named permission."""
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from .permissions import method_perm


def page_access(request, perm: str):
    """For any page: a redirect to the login page for an anonymous user (return it), PermissionDenied for a
    user without a casino or without `perm`; None when the page may be shown."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.user.casino_id is None or not request.user.has_perm(perm):
        raise PermissionDenied
    return None


class PermissionPageMixin:
    """Class-based pages: `page_access` with the view's `required_perm` (or `perms_by_method[request.method]`, for a
    method that needs another permission) before anything else; its role policy (apps.core.policy)."""

    required_perm: str = ""
    perms_by_method: dict[str, str] = {}

    def dispatch(self, request, *args, **kwargs):
        if denied := page_access(request, method_perm(self, request.method)):
            return denied
        return super().dispatch(request, *args, **kwargs)


def add_domain_error(form, exc) -> None:
    """Show a service's DomainError on `form`: at the field it names when the form has it, else on the form."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def csv_response(filename: str):
    """(response, csv writer) for a CSV download named `filename`."""
    import csv

    from django.http import HttpResponse

    response = HttpResponse(content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, csv.writer(response)


def pdf_response(html: str, filename: str):
    """An inline PDF named `filename`, rendered from `html` by weasyprint."""
    from django.http import HttpResponse
    from weasyprint import HTML  # imported here: it loads Pango, which only the printable reports need

    response = HttpResponse(HTML(string=html).write_pdf(), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def bad_request(request, exception):
    """The 400 page (urls.handler400): the message of the BadRequest a page raised for a query parameter or path
    segment it cannot take (e.g. "day: write the day YYYY-MM-DD."), with a way back."""
    from django.shortcuts import render

    message = str(exception) if exception is not None and str(exception) else "The request cannot be understood."
    return render(request, "400.html", {"message": message}, status=400)
