"""Money is Decimal dollars with cents, never float."""
from decimal import ROUND_DOWN, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def money(value: Decimal | int | str) -> Decimal:
    """Return `value` as Decimal dollars quantized to the cent (exact; raises on non-numeric input)."""
    return Decimal(value).quantize(CENT)


def dollars(value: Decimal | int | str) -> str:
    """Dollars and cents as people read them: Decimal("1234.5") (or "1234.5") -> "$1,234.50"."""
    return f"${Decimal(value):,.2f}"


def posted_dollars(value: Decimal) -> str:
    """An amount of a posted limit as the room's boards write it: whole dollars without cents ($2, $1,000), else
    with them ($0.50)."""
    return f"${value:,.0f}" if value == value.to_integral_value() else f"${value:,.2f}"


def floor_to(value: Decimal, increment: Decimal) -> Decimal:
    """Round `value` down to a multiple of `increment` (e.g. $1.00 chips), as Decimal dollars with cents."""
    if increment <= 0:
        raise ValueError("increment must be positive")
    return ((value / increment).to_integral_value(rounding=ROUND_DOWN) * increment).quantize(CENT)
