"""Server errors and "not now" in one shape, for whatever escapes a view (issue 32).

Every response carries `X-Request-ID` (django-guid's middleware, first in settings.MIDDLEWARE: a valid UUID sent by
the client or the load balancer is kept, anything else replaced by a new one), and every log line the request writes
names it (the `request_id` log filter, settings.LOGGING). Then:

- the API's own errors go through pokerroom.api.exception_handler (503 for the database conditions of
  apps.core.unavailable, in the API's shape);
- what escapes a view — an API view's unexpected error, any view's database outage — reaches
  `FaultMiddleware.process_exception`: a database condition answers 503 with `Retry-After` (JSON, or the 503 page);
  any other error under /api/ or to a client that asks for JSON answers 500 `{"detail": ..., "request_id": ...}`;
- what escapes a middleware, or a page's other errors, reaches `urls.handler500` (apps.core.views.server_error),
  which answers the same way.
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from django.core import signals
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.log import log_response

from .unavailable import Unavailable, unavailable

SERVER_ERROR_DETAIL = ("A server error kept the poker room from answering this request. Retry it; if it happens again, "
                       "give the request id to the room's administrator.")


def request_id(request: HttpRequest | None = None) -> str | None:
    """The id of the request being answered (X-Request-ID): django-guid's, kept for the request and its log lines."""
    from django_guid import get_guid

    return getattr(request, "correlation_id", None) or get_guid()


def wants_json(request: HttpRequest) -> bool:
    """Whether the answer is JSON: anything under /api/, or a client that asks for JSON and not for HTML."""
    accept = request.headers.get("Accept", "")
    return request.path_info.startswith("/api/") or ("application/json" in accept and "text/html" not in accept)


def unavailable_response(request: HttpRequest, condition: Unavailable) -> HttpResponse:
    """503 with Retry-After: `{"detail", "request_id"}` to an API client, else the 503 page (rendered without the
    request: its context would read the user from the database that is failing)."""
    rid = request_id(request)
    response: HttpResponse
    if wants_json(request):
        response = JsonResponse({"detail": condition.detail, "request_id": rid}, status=503)
    else:
        html = loader.render_to_string("503.html", {"condition": condition, "request_id": rid})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(condition.retry_after)
    log_unavailable(request, response, condition)
    return response


def server_error_json(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"detail": SERVER_ERROR_DETAIL, "request_id": request_id(request)}, status=500)


def log_unavailable(request: HttpRequest, response: HttpResponse, condition: Unavailable) -> None:
    """One warning line for a request refused 503 (no traceback: the database's state, not the code's), instead of
    Django's error line for a 5xx."""
    log_response("Service Unavailable (%s): %s", condition.reason, request.path, response=response, request=request,
                 level="warning")


class FaultMiddleware:
    """process_exception for every view: a database condition → 503 (apps.core.unavailable); any other error of an
    API request → 500 in the API's JSON shape, logged with its traceback and request id. Pages' other errors go on to
    Django's handler (urls.handler500)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        condition = unavailable(exception)
        if condition is not None:
            return unavailable_response(request, condition)
        if wants_json(request):
            # as Django's handler does for an error (error reporters listen; the test client re-raises it)
            signals.got_request_exception.send(sender=None, request=request)
            response = server_error_json(request)
            log_response("%s: %s", response.reason_phrase, request.path, response=response, request=request,
                         exception=exception)
            return response
        return None


class RequestIdFilter:
    """Logging filter (settings.LOGGING): `record.request_id`, the id of the request the line belongs to (django-guid's
    context), "-" outside a request (a Celery task, a command)."""

    def filter(self, record: logging.LogRecord) -> bool:
        from django_guid import get_guid

        record.request_id = get_guid() or "-"
        return True
