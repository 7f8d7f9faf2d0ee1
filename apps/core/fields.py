"""Model fields of the project's own: money at one precision, written out in one place."""
from __future__ import annotations

from typing import Any

from django.db import models

#: The precision of every amount of money the records keep (Decimal dollars with cents, never float): 14 digits,
#: 2 of them after the point, so up to $999,999,999,999.99. Read it from here (or from the column itself,
#: apps.core.validation.column_decimal), never write it out again.
MONEY_MAX_DIGITS = 14
MONEY_DECIMAL_PLACES = 2


class MoneyField(models.DecimalField):
    """A DecimalField for an amount of money: Decimal dollars at the money precision (MONEY_MAX_DIGITS,
    MONEY_DECIMAL_PLACES) unless told otherwise. Deconstructed without the two when they are the defaults, so that a
    migration names the field and only what differs; the column is the same numeric(14, 2) as a DecimalField's.

    >>> MoneyField().max_digits, MoneyField().decimal_places
    (14, 2)
    >>> MoneyField(null=True).deconstruct()[3]
    {'null': True}
    """

    description = "Money: Decimal dollars with cents"

    def __init__(self, *args: Any, max_digits: int = MONEY_MAX_DIGITS, decimal_places: int = MONEY_DECIMAL_PLACES,
                 **kwargs: Any) -> None:
        # args: verbose_name and name at most (a DecimalField's positional arguments before max_digits)
        super().__init__(*args, max_digits=max_digits, decimal_places=decimal_places, **kwargs)  # type: ignore[misc]

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        if kwargs.get("max_digits") == MONEY_MAX_DIGITS:
            del kwargs["max_digits"]
        if kwargs.get("decimal_places") == MONEY_DECIMAL_PLACES:
            del kwargs["decimal_places"]
        return name, path, args, kwargs
