"""API-wide plumbing: one error shape for broken rules (a 400 naming the field, never a 500)."""
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions as drf_exceptions
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler

from apps.core.exceptions import DomainError


def exception_handler(exc, context):
    """Turn DomainError and Django's ValidationError into DRF 400 responses with field-level messages."""
    if isinstance(exc, DjangoValidationError):
        exc = drf_exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, DomainError):
        exc = drf_exceptions.ValidationError({exc.field or "non_field_errors": [exc.message]})
    return drf_exception_handler(exc, context)
