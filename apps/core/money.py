"""Money is Decimal dollars with cents, never float; shown as people read it by one function (`dollars`)."""
from decimal import ROUND_DOWN, Decimal

from babel.numbers import format_currency
from django.conf import settings

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def money(value: Decimal | int | str) -> Decimal:
    """Return `value` as Decimal dollars quantized to the cent (exact; raises on non-numeric input)."""
    return Decimal(value).quantize(CENT)


#: The CLDR pattern of an amount: grouped, always two decimals, a negative one with a true minus sign (U+2212).
MONEY_PATTERN = "\u00a4#,##0.00;\u2212\u00a4#,##0.00"


def dollars(value: Decimal | int | str) -> str:
    """Dollars and cents as people read them, in the room's locale (settings.MONEY_LOCALE, Babel's CLDR data):
    Decimal("2675") -> "$2,675.00", Decimal("-15") -> "\u2212$15.00". Raises decimal.InvalidOperation on
    non-numeric input. The one way the pages, the PDFs and the messages write an amount."""
    return format_currency(Decimal(value), "USD", format=MONEY_PATTERN, locale=settings.MONEY_LOCALE,
                           currency_digits=True)


def posted_dollars(value: Decimal) -> str:
    """An amount of a posted limit as the room's boards write it: whole dollars without cents ($2, $1,000), else
    with them ($0.50)."""
    return f"${value:,.0f}" if value == value.to_integral_value() else f"${value:,.2f}"


def floor_to(value: Decimal, increment: Decimal) -> Decimal:
    """Round `value` down to a multiple of `increment` (e.g. $1.00 chips), as Decimal dollars with cents."""
    if increment <= 0:
        raise ValueError("increment must be positive")
    return ((value / increment).to_integral_value(rounding=ROUND_DOWN) * increment).quantize(CENT)
