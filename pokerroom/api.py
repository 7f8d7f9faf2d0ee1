"""API-wide plumbing: one error shape for broken rules (a 400 naming the field, never a 500)."""
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler

from apps.core.exceptions import AlreadyRecorded, DomainError


def exception_handler(exc, context):
    """Turn DomainError and Django's ValidationError into DRF responses with field-level messages: 400, or the
    error's own status (409 for a record that exists already, with its `existing_id`, or a closed gaming day)."""
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
