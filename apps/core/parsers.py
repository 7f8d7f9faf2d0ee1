"""The API's JSON parser: bounded in size and depth, finite numbers only (issue 13, hostile input).

A JSON body the API takes is at most API_JSON_MAX_BYTES bytes (settings; 16 MiB by default: a PHH text of the
10,000 Pluribus hands is about 6 MB, so a whole history still goes in one POST to /api/rounds/phh/) and nests at most
API_JSON_MAX_DEPTH (32) arrays and objects; a number must be finite: NaN and Infinity are refused, and a float such
as 1e400 that would overflow to infinity is read as its exact Decimal, which the field receiving it refuses (a 400
naming the field). Anything else answers 400 {"detail": message} (DRF's ParseError) before any view runs, so a
RecursionError or a MemoryError never escapes as a 500. Form and multipart bodies are bounded by Django's own
DATA_UPLOAD_MAX_MEMORY_SIZE and DATA_UPLOAD_MAX_NUMBER_FIELDS (pokerroom.api turns their errors into the same 400).

The parser reads the body from the request's stream itself, at most API_JSON_MAX_BYTES + 1 bytes: DRF (3.16 on) reads
`request.body` for a subclass of its JSONParser, and Django refuses a `request.body` beyond
DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB, the forms' bound), which refused JSON of 2.5 to 16 MiB (issue 32). So
BoundedJSONParser is a parser of its own, and a view that has read `request.data` cannot read `request.body` after it.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings
from rest_framework.utils.json import strict_constant

DEFAULT_MAX_BYTES = 16 * 1024 * 1024
DEFAULT_MAX_DEPTH = 32


def _finite_float(text: str) -> float | Decimal:
    """json's parse_float: the float of `text`, or, when it overflows to infinity (e.g. 1e400), the exact Decimal of
    `text` — finite, and larger than any column holds, so the field that receives it refuses it with a field-level
    400 (DRF's DecimalField, a service's column check) instead of the body as a whole."""
    value = float(text)
    if not math.isfinite(value):
        return Decimal(text)
    return value


def json_depth(value: Any) -> int:
    """How deep arrays and objects nest in `value` (a scalar: 0, [] or {}: 1, [[1]]: 2); iterative, so that any depth
    a parser produced is measured without recursion.

    >>> json_depth({"a": [1, {"b": []}]})
    3
    """
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


class BoundedJSONParser(BaseParser):
    """The API's parser of application/json (REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]) in place of DRF's JSONParser,
    with the bounds of the module's docstring.

    parse() returns the parsed body (dict, list or scalar); raises ParseError (400 {"detail": message}) for a body
    larger than API_JSON_MAX_BYTES, nested deeper than API_JSON_MAX_DEPTH, not in the request's encoding, not JSON,
    or with a number that is not finite."""

    media_type = "application/json"
    renderer_class = JSONRenderer
    strict = api_settings.STRICT_JSON

    @property
    def max_bytes(self) -> int:
        return getattr(settings, "API_JSON_MAX_BYTES", DEFAULT_MAX_BYTES)

    @property
    def max_depth(self) -> int:
        return getattr(settings, "API_JSON_MAX_DEPTH", DEFAULT_MAX_DEPTH)

    def parse(self, stream: IO[Any], media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        parser_context = parser_context or {}
        limit = self.max_bytes
        request = parser_context.get("request")
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
        except ValueError:
            declared = 0
        if declared > limit:
            raise ParseError(f"The body is larger than {limit:,} bytes.")
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise ParseError(f"The body is larger than {limit:,} bytes.")
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
            data = json.loads(text, parse_constant=strict_constant if self.strict else None,
                              parse_float=_finite_float)
        except RecursionError as exc:
            raise ParseError(f"JSON nested more than {self.max_depth} deep.") from exc
        except (ValueError, LookupError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise ParseError(f"JSON parse error - {str(exc)[:200]}") from exc
        if json_depth(data) > self.max_depth:
            raise ParseError(f"JSON nested more than {self.max_depth} deep.")
        return data
