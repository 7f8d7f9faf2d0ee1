"""Page-view helpers: every page needs a login, a casino and a named permission."""
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied


def page_access(request, perm: str):
    """For any page: a redirect to the login page for an anonymous user (return it), PermissionDenied for a
    user without a casino or without `perm`; None when the page may be shown."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.user.casino_id is None or not request.user.has_perm(perm):
        raise PermissionDenied
    return None


class PermissionPageMixin:
    """Class-based pages: `page_access` with the view's `required_perm` before anything else."""

    required_perm: str = ""

    def dispatch(self, request, *args, **kwargs):
        if denied := page_access(request, self.required_perm):
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
