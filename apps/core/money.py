"""Money is Decimal dollars with cents, never float."""
from decimal import ROUND_DOWN, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def money(value: Decimal | int | str) -> Decimal:
    """Return `value` as Decimal dollars quantized to the cent (exact; raises on non-numeric input)."""
    return Decimal(value).quantize(CENT)


def floor_to(value: Decimal, increment: Decimal) -> Decimal:
    """Round `value` down to a multiple of `increment` (e.g. $1.00 chips), as Decimal dollars with cents."""
    if increment <= 0:
        raise ValueError("increment must be positive")
    return ((value / increment).to_integral_value(rounding=ROUND_DOWN) * increment).quantize(CENT)
