"""The OpenAPI schema: generated without a request (`manage.py check --deploy`, `manage.py spectacular`), and with\nthe error answers of every operation declared in the one error shape."""
from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.plumbing import build_mock_request as spectacular_mock_request
from drf_spectacular.utils import Direction
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView


class SchemaReader(AnonymousUser):
    """The reader of a schema generated without a request: a member of no casino, so that a view whose queryset is
    filtered by the user's casino still names its model (and would match nothing)."""

    casino_id = None
    casino = None


def build_mock_request(method: str, path: str, view: APIView, original_request: Request | None,
                       **kwargs: Any) -> Request:
    """drf-spectacular's mock request (SPECTACULAR_SETTINGS["GET_MOCK_REQUEST"]), read by a SchemaReader when there
    is no original request; a served schema (/api/schema/) is still generated for the user who asked."""
    request: Request = spectacular_mock_request(method, path, view, original_request, **kwargs)
    if original_request is None:
        request.user = SchemaReader()
    return request


# --- the one error shape, declared on every operation ----------------------------------------------------------------

ERROR_SCHEMA = {
    "type": "object",
    "description": "The one error shape: {field: [message, ...]} naming each input field at fault (non_field_errors "
                   "for the request as a whole; a nested field's errors nest the same way), or {detail: message}. A "
                   "409 for a record that exists already adds its id (existing_id); a 500 or 503 adds the request's "
                   "id (request_id, as in the X-Request-ID header and the server's log).",
    "properties": {
        "detail": {"type": "string"},
        "existing_id": {"type": "integer"},
        "request_id": {"type": "string"},
    },
    "additionalProperties": {"anyOf": [{"type": "array"}, {"type": "object"}, {"type": "string"}]},
}
ERROR_DESCRIPTIONS = {
    "400": "Invalid input: the fields at fault and why; nothing written.",
    "401": "Not signed in (no session, or an API token missing, expired or revoked).",
    "403": "Signed in, but the user's role may not do this (or the user belongs to no casino); nothing written.",
    "404": "No such record at the user's casino.",
    "409": "A conflict: a record that exists already (existing_id), or a request with this Idempotency-Key still "
           "running (retry after Retry-After seconds); nothing written.",
    "422": "This Idempotency-Key was used for another request (another body or operation).",
    "429": "Too many requests (throttled) or a sign-in locked out: retry after Retry-After seconds.",
    "500": "A server error: {detail, request_id}; give the request id to the room's administrator.",
    "503": "Unavailable for a moment (a record held by another request, a statement past its time limit, the "
           "database restarting or out of connections): nothing written; retry after Retry-After seconds. "
           "{detail, request_id}.",
}
#: The HTTP server's own answers, before the application (gunicorn.conf.py's limits), each with its short HTML page,
#: not the error shape: a request line (method, path and query string) or a header too long, or too many headers.
SERVER_ANSWERS = {
    "414": {"description": "URI too long: the request line (method, path and query string) passes the server's "
                           "limit of 4,094 bytes; nothing done."},
    "431": {"description": "Request header fields too large: a header passes the server's limit of 8,190 bytes, or "
                           "the request has more than 100 headers; nothing done."},
}


class ApiSchema(AutoSchema):
    """drf-spectacular's AutoSchema (REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]) that declares on every operation the error
    answers it can give, each with the one error shape (ERROR_SCHEMA): 400 when it takes a body or query parameters,
    401/403 unless it is open to anyone, 404 when its path names a record, 409/422 for a POST that honours
    Idempotency-Key (whose header it declares too), and 429 (throttles), 500 and 503 (apps.core.unavailable)
    everywhere. An answer an operation declares
    itself keeps its description. And 414 and 431 everywhere, with no body described (SERVER_ANSWERS): the server's
    answers to an overlong request line or header."""

    def get_serializer_name(self, serializer: serializers.Serializer[Any], direction: Direction) -> str:
        """The schema component of a serializer: its class's name, or for an `Input` or `Output` nested in its view
        (apps.core.apis: the API's one style) the view's name without `Api` before it, so that each is named once:
        `RoundsApi.Input` -> `RoundsInput`, `TokenLoginApi.Output` -> `TokenLoginOutput`."""
        outer, _, inner = type(serializer).__qualname__.rpartition(".")
        if outer and "<locals>" not in outer:
            return outer.rpartition(".")[2].removesuffix("Api") + inner
        return super().get_serializer_name(serializer, direction)

    def _idempotent(self) -> bool:
        from .idempotency import IdempotentPostMixin

        return self.method == "POST" and isinstance(self.view, IdempotentPostMixin)

    def get_override_parameters(self) -> list[Any]:
        from .idempotency import PARAMETER

        return [*super().get_override_parameters(), *([PARAMETER] if self._idempotent() else [])]

    def _error_codes(self) -> list[str]:
        codes = ["429", "500", "503"]
        open_to_anyone = any(isinstance(p, AllowAny) for p in self.view.get_permissions())
        if not open_to_anyone:
            codes += ["401", "403"]
        takes_input = self.method in ("POST", "PUT", "PATCH") or bool(self._get_filter_parameters()) \
            or self._get_paginator() is not None and self._is_list_view()
        if takes_input or self._idempotent():
            codes.append("400")
        if "{" in self.path:
            codes.append("404")
        if self.method in ("POST", "PUT", "PATCH"):
            codes.append("409")
        if self._idempotent():
            codes.append("422")
        return sorted(codes)

    def _get_response_bodies(self, direction: Direction = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        component = ResolvedComponent(name="Error", type=ResolvedComponent.SCHEMA, object="Error",
                                      schema=ERROR_SCHEMA)
        self.registry.register_on_missing(component)
        for code in self._error_codes():
            declared = responses.get(code, {})
            responses[code] = {**declared, "description": declared.get("description") or ERROR_DESCRIPTIONS[code],
                               "content": {"application/json": {"schema": component.ref}}}
        for code, answer in SERVER_ANSWERS.items():
            responses.setdefault(code, answer)
        return responses
