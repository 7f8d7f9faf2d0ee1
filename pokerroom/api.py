"""API-wide plumbing: one error shape for broken rules (a 400 naming the field, never a 500), and 503 for a
database that cannot serve now."""
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler

from apps.core.exceptions import AlreadyRecorded, DomainError
from apps.core.middleware import log_unavailable, request_id
from apps.core.unavailable import unavailable


def exception_handler(exc, context):
    """Turn DomainError and Django's ValidationError into DRF responses with field-level messages: 400, or the
    error's own status (409 for a record that exists already, with its `existing_id`, or a closed gaming day). A
    database that cannot serve now — a lock or a statement past its timeout, no connection free, a restart
    (apps.core.unavailable) — answers 503 `{"detail": ..., "request_id": ...}` with Retry-After: the request's
    transaction was rolled back, nothing was recorded. Any other error is left to Django (apps.core.middleware
    answers it 500 in the same JSON shape)."""
    if (condition := unavailable(exc)) is not None:
        request = context.get("request")
        response = Response({"detail": condition.detail, "request_id": request_id(request)}, status=503,
                            headers={"Retry-After": str(condition.retry_after)})
        if request is not None:
            log_unavailable(request, response, condition)
        return response
    if isinstance(exc, (RequestDataTooBig, TooManyFieldsSent)):  # a form body beyond DATA_UPLOAD_MAX_* (settings)
        exc = drf_exceptions.ParseError(str(exc))
    elif isinstance(exc, DjangoValidationError):
        exc = drf_exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, DomainError):
        body = {exc.field or "non_field_errors": [exc.message]}
        if isinstance(exc, AlreadyRecorded) and exc.existing_id is not None:
            body["existing_id"] = exc.existing_id
        if exc.status_code != 400:
            return Response(body, status=exc.status_code)
        exc = drf_exceptions.ValidationError(body)
    return drf_exception_handler(exc, context)
