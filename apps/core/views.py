"""Page-view helpers: every page needs a login, a casino and a named permission."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.views import View

from .exceptions import DomainError
from .permissions import method_perm

if TYPE_CHECKING:
    from .spreadsheets import SafeWriter

    _PageBase = View  # PermissionPageMixin is a mixin of Django's View: typed as one, a plain class at run time
else:
    _PageBase = object


def may_access(user: Any, perm: str) -> bool:
    """Whether `user` may be shown a page that needs `perm`: signed in, of a casino, and holding it. `page_access`
    enforces it; the header's navigation and each user's home (apps.core.navigation) offer only such pages."""
    return bool(user.is_authenticated and user.casino_id is not None and user.has_perm(perm))


def page_access(request: HttpRequest, perm: str) -> HttpResponseBase | None:
    """For any page: a redirect to the login page for an anonymous user (return it), PermissionDenied for a
    user without a casino or without `perm`; None when the page may be shown."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not may_access(request.user, perm):
        raise PermissionDenied
    return None


class PermissionPageMixin(_PageBase):
    """Class-based pages: `page_access` with the view's `required_perm` (or `perms_by_method[request.method]`, for a
    method that needs another permission) before anything else; its role policy (apps.core.policy). A mixin of a
    Django View (typed as one)."""

    required_perm: str = ""
    perms_by_method: dict[str, str] = {}

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if denied := page_access(request, method_perm(self, request.method)):
            return denied
        return super().dispatch(request, *args, **kwargs)


def add_domain_error(form: BaseForm, exc: DomainError) -> None:
    """Show a service's DomainError on `form`: at the field it names when the form has it, else on the form."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def page_to_return_to(request: HttpRequest) -> str | None:
    """The page a form posted from another page sends its user back to (`next`, a POST field or a query parameter):
    a path of this site only (never another host or scheme), else None."""
    from django.utils.http import url_has_allowed_host_and_scheme

    target: str | None = request.POST.get("next") or request.GET.get("next")
    if target and target.startswith("/") and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return None


def csv_response(filename: str) -> tuple[HttpResponse, SafeWriter]:
    """(response, csv writer) for a CSV download named `filename`; the writer neutralises every cell a spreadsheet
    would read as a formula (apps.core.spreadsheets.SafeWriter, OWASP's rule)."""
    from .spreadsheets import SafeWriter

    response = HttpResponse(content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, SafeWriter(response)


def pdf_bytes(html: str) -> bytes:
    """`html` rendered to PDF by weasyprint."""
    from weasyprint import HTML  # imported here: it loads Pango, which only the printable reports need

    pdf: bytes = HTML(string=html).write_pdf()
    return pdf


def pdf_response(html_or_pdf: str | bytes, filename: str) -> HttpResponse:
    """An inline PDF named `filename`: rendered from HTML by weasyprint, or PDF bytes made already."""
    pdf = html_or_pdf if isinstance(html_or_pdf, bytes) else pdf_bytes(html_or_pdf)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def bad_request(request: HttpRequest, exception: Exception | None) -> HttpResponse:
    """The 400 page (urls.handler400): the message of the BadRequest a page raised for a query parameter or path
    segment it cannot take (e.g. "day: write the day YYYY-MM-DD."), with a way back."""
    from django.shortcuts import render

    message = str(exception) if exception is not None and str(exception) else "The request cannot be understood."
    return render(request, "400.html", {"message": message}, status=400)


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 403 page (urls.handler403), for a PermissionDenied a page raised (`page_access`): the styled 403.html,
    which says the page is not for the user's role and lists the pages that are. Under /api/ the answer stays JSON,
    in the API's shape (the API's own views answer their 403s themselves)."""
    from django.http import JsonResponse
    from django.views import defaults

    if _is_api(request):
        return JsonResponse({"detail": "You do not have permission to perform this action."}, status=403)
    return defaults.permission_denied(request, exception)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """The page of a form refused by Django's CSRF check (settings.CSRF_FAILURE_VIEW): 403, styled as every page,
    saying that nothing was saved and what to do (the form was open across a sign-out or a new sign-in, or came
    from another site). Under /api/ the answer is JSON in the API's shape."""
    from django.http import JsonResponse
    from django.shortcuts import render

    if _is_api(request):
        return JsonResponse({"detail": f"CSRF check failed: {reason}"}, status=403)
    return render(request, "403_csrf.html", {"reason": reason}, status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 404 page (urls.handler404): the styled 404.html with the navigation; under /api/, JSON in the API's
    shape (an address no API view answers)."""
    from django.http import JsonResponse
    from django.views import defaults

    if _is_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page (urls.handler500), for an error no view answered (one raised in a middleware, or a page's):
    a database condition of apps.core.unavailable answers 503 with Retry-After; under /api/ or to a client asking
    for JSON, `{"detail": ..., "request_id": ...}`; else Django's 500.html (rendered without the request: the error
    may be the database's)."""
    import sys

    from django.views import defaults

    from .middleware import server_error_json, unavailable_response, wants_json
    from .unavailable import unavailable

    condition = unavailable(sys.exc_info()[1])
    if condition is not None:
        return unavailable_response(request, condition)
    if wants_json(request):
        return server_error_json(request)
    return defaults.server_error(request)


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for when a page names no icon: a permanent redirect to the icon's static file
    (its hashed name in production, resolved when asked, so that importing the URLs needs no manifest)."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))
