"""Bounds on input, shared by the API's serializers, the pages' query parameters and path segments, and the services (issue 13
item 1): nothing hostile reaches the database, and each refusal is a 400 naming the field at fault.

- Text: no NUL nor other control character (tab and line breaks only in a multi-line text), no lone surrogate, at
  most the column's length (`text`, `TextValidator`); DRF's and Django's CharField already refuse NUL and surrogates.
- Money and counts: each value within its model column, read from the column itself (`column_decimal`,
  `column_integer` for serializers; `money_decimal` at the money columns' precision, apps.core.fields.MoneyField, for
  an amount no one column stores): digits before and after the point
  (max_digits, decimal_places), and the sign. Only finite numbers: DRF's and Django's DecimalField refuse NaN and
  infinity, the API's JSON parser (apps.core.parsers) refuses NaN and Infinity and reads 1e400 as a Decimal no
  column holds. A sum or product a
  service computes from valid values is checked against the column that stores it (`fits_column`).
- Ids: whole numbers a primary key can hold (`ID_MAX`).
- Days and moments: within the casino's records, from `Casino.records_kept_since` to a sane horizon of its clock
  (`check_day`, `parse_day`); a moment so far from the present that its time zone's offset overflows is refused
  before any arithmetic; a moment the API takes carries its offset from UTC (`aware_datetime`), never read in the
  server's zone.
"""
from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, models
from django.utils import timezone
from django.utils.deconstruct import deconstructible
from rest_framework import serializers

from .exceptions import DomainError
from .fields import MoneyField

#: The largest primary key (a PostgreSQL bigint).
ID_MAX = 2**63 - 1
#: The largest chip count of one denomination (a 32-bit count; a box never holds more).
COUNT_MAX = 2**31 - 1


#: Unicode's control characters (category Cc: C0, DEL, C1) and lone surrogates (Cs); a multi-line text keeps tab,
#: line feed and carriage return.
_REFUSED = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_MULTILINE_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


@deconstructible
class TextValidator:
    """Refuses NUL and every other control character (Unicode category Cc: C0, DEL and C1) and lone surrogates;
    tab, carriage return and line feed are allowed when `multiline`. Raises django ValidationError (code "control").

    >>> TextValidator()("Ana")
    >>> TextValidator(multiline=True)("two\\nlines")
    """

    def __init__(self, *, multiline: bool = False) -> None:
        self.multiline = multiline

    def __call__(self, value: object) -> None:
        if (_MULTILINE_REFUSED if self.multiline else _REFUSED).search(str(value)):
            raise ValidationError(
                "Control characters (NUL among them) are not allowed." if self.multiline
                else "Control characters (NUL, tabs and line breaks among them) are not allowed.", code="control")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TextValidator) and other.multiline == self.multiline


def text(*, max_length: int | None, multiline: bool = False, **kwargs: Any) -> serializers.CharField:
    """A DRF CharField of at most `max_length` characters without control characters (TextValidator)."""
    return serializers.CharField(max_length=max_length, validators=[TextValidator(multiline=multiline)], **kwargs)


class AwareDateTimeField(serializers.DateTimeField):
    """DRF's DateTimeField that takes only a moment with its offset ('2026-11-20T21:30:00-05:00', or Z for UTC): a
    time without one is refused (400, code "naive"), never read in the server's time zone.

    >>> AwareDateTimeField().to_internal_value("2026-11-20T21:30:00Z").isoformat()
    '2026-11-20T21:30:00+00:00'
    """

    default_error_messages = {"naive": "Give the time with its offset from UTC, e.g. 2026-11-20T21:30:00-05:00 "
                                       "(or Z for UTC)."}

    def enforce_timezone(self, value: datetime) -> datetime:
        if timezone.is_naive(value):
            self.fail("naive")
        return super().enforce_timezone(value)


def aware_datetime(**kwargs: Any) -> AwareDateTimeField:
    """A DRF field for a moment given with its offset from UTC (AwareDateTimeField)."""
    return AwareDateTimeField(**kwargs)


def _column(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    column = model._meta.get_field(name)
    if not isinstance(column, models.Field):
        raise TypeError(f"{model.__name__}.{name} is a relation from another model, not a column.")
    return column


def _decimal_column(model: type[models.Model], name: str) -> models.DecimalField[Any, Any]:
    column = _column(model, name)
    if not isinstance(column, models.DecimalField):
        raise TypeError(f"{model.__name__}.{name} is not a DecimalField.")
    return column


def _largest(column: models.DecimalField[Any, Any]) -> Decimal:
    """The largest value a DecimalField column holds, e.g. 999999999999.99 for max_digits=14, decimal_places=2."""
    return Decimal(10) ** (column.max_digits - column.decimal_places) - Decimal(1).scaleb(-column.decimal_places)


def _decimal_bounds(column: models.DecimalField[Any, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    bound = _largest(column)
    return {"max_digits": column.max_digits, "decimal_places": column.decimal_places, "max_value": bound,
            "min_value": -bound} | kwargs


def column_decimal(model: type[models.Model], name: str, **kwargs: Any) -> serializers.DecimalField:
    """A DRF DecimalField bounded by the DecimalField `model.name`: its max_digits and decimal_places, at most the
    largest value it holds (and, unless `min_value` is given, no less than its negative). NaN and infinity are
    refused (DRF). E.g. column_decimal(RoundPlayer, "contributed", min_value=0): 0 to 999,999,999,999.99."""
    return serializers.DecimalField(**_decimal_bounds(_decimal_column(model, name), kwargs))


def money_decimal(**kwargs: Any) -> serializers.DecimalField:
    """A DRF DecimalField for Decimal dollars that no one column stores (what a player put in one betting round, a
    level of a rake structure, a figure computed for an answer): at the money columns' precision (MoneyField) and
    bounded as column_decimal bounds a column. E.g. money_decimal(min_value=0): 0 to 999,999,999,999.99."""
    return serializers.DecimalField(**_decimal_bounds(MoneyField(), kwargs))


def _integer_bounds(model: type[models.Model], name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    low, high = connection.ops.integer_field_range(_column(model, name).get_internal_type())
    return {"min_value": low, "max_value": high} | kwargs


def column_integer(model: type[models.Model], name: str, **kwargs: Any) -> serializers.IntegerField:
    """A DRF IntegerField within the range the IntegerField `model.name` holds on the database (e.g. 0 to 32,767
    for a PositiveSmallIntegerField); `min_value`/`max_value` narrow it."""
    return serializers.IntegerField(**_integer_bounds(model, name, kwargs))


def record_id(**kwargs: Any) -> serializers.IntegerField:
    """A DRF IntegerField for the id of a record: 1 to ID_MAX."""
    return serializers.IntegerField(min_value=1, max_value=ID_MAX, **kwargs)


def fits_column(model: type[models.Model], name: str, value: Decimal, *, field: str | None = None, what: str = "The amount") -> Decimal:
    """`value` when the DecimalField `model.name` can store it (digits before the point within max_digits -
    decimal_places; a finite number); raises DomainError naming `field` (default: `name`) otherwise. For a sum or a
    product a service computes from inputs that are each valid, e.g. the total bet of a round."""
    column = _decimal_column(model, name)
    try:
        whole_digits = value.adjusted() + 1 if value else 0
        finite = value.is_finite()
    except (AttributeError, InvalidOperation):
        finite, whole_digits = False, 0
    if not finite or whole_digits > column.max_digits - column.decimal_places:
        raise DomainError(f"{what} is more than the records hold (at most {_largest(column):,}).", field=field or name)
    return value


#: How far ahead of the casino's clock a day may be asked for (reports, reconciliation, notices): a year.
DAYS_AHEAD = 366
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)  # date.fromisoformat alone also takes 20240101 and 2024-W01-1


def check_day(value: date, *, earliest: date, latest: date, field: str | None = None) -> date:
    """`value` when earliest <= value <= latest; raises DomainError naming `field` otherwise (a day before the casino
    keeps records, or beyond the horizon of its clock)."""
    if value < earliest:
        raise DomainError(f"The casino keeps records from {earliest:%Y-%m-%d}.", field=field)
    if value > latest:
        raise DomainError(f"No gaming day after {latest:%Y-%m-%d} can be asked for yet.", field=field)
    return value


def parse_day(text: str | None, *, earliest: date, latest: date, field: str = "day") -> date:
    """The date written YYYY-MM-DD in `text` (a query parameter or a path segment), within earliest..latest;
    raises DomainError naming `field` for any other text (a month 13, a year 'abc', NUL) or a day out of the window."""
    try:
        value = date.fromisoformat(text) if text and _DAY.fullmatch(text) else None
    except ValueError:
        value = None
    if value is None:
        raise DomainError("Write the day YYYY-MM-DD.", field=field)
    return check_day(value, earliest=earliest, latest=latest, field=field)
