"""The arithmetic of a bad beat contribution (N.J.A.C. 13:69F-14.19(b)1-applied, 14.19(b)2-applied, 14.19(p)-reset,
14.19(c)-per-pot): what one pot contributes under the posted rules, and the part of it that funds the next payout.
Pure: reads the jackpot, writes nothing."""
from __future__ import annotations

from decimal import Decimal

from apps.core.money import CENT, ZERO, floor_to

from ..models import Jackpot

HUNDRED = Decimal(100)


def compute_contribution(*, jackpot: Jackpot, pot_total: Decimal, after_rake: Decimal) -> tuple[Decimal, str]:
    """The bad-beat contribution of one pot under the jackpot's posted rules: (amount, how it was computed).

    pot_total: the sums bet (uncalled bet excluded); after_rake: what is left once the rake is taken.
    Nothing below the posted minimum pot (14.19(b)2-applied); a fixed amount or a percentage of the pot after rake,
    never more than the posted maximum (14.19(b)1-applied) nor than what is left in the pot. Decimal dollars.
    `jackpot` takes contributions of its own (not a secondary funded from the primary): it posts a fixed amount
    or a percentage (the jackpot_amount_or_percentage constraint).
    """
    if pot_total < jackpot.minimum_pot:
        return ZERO, f"Pot ${pot_total:,.2f} is below the ${jackpot.minimum_pot:,.2f} minimum: no contribution."
    if jackpot.contribution_amount is not None:
        wanted, how = jackpot.contribution_amount, f"${jackpot.contribution_amount:,.2f} per pot"
    else:
        percentage = jackpot.contribution_percentage
        assert percentage is not None, f"Jackpot {jackpot.pk} posts neither a contribution nor a percentage."
        wanted = floor_to(after_rake * percentage / HUNDRED, CENT)
        how = f"{percentage}% of ${after_rake:,.2f} after rake = ${wanted:,.2f}"
    amount = min(wanted, jackpot.maximum_contribution, after_rake)
    if amount < wanted:
        how += f", capped at ${amount:,.2f}"
    return amount, how + "."


def reset_part(*, day_total_before: Decimal, amount: Decimal, percentage: Decimal) -> Decimal:
    """The part of a contribution that funds the next payout (14.19(p)-reset), so that over a gaming day the parts
    add up to exactly the posted percentage of the day's contributions, rounded down to the cent:
    floor(p × (before + amount)) − floor(p × before). Decimal dollars."""
    if not percentage:
        return ZERO
    return (floor_to((day_total_before + amount) * percentage / HUNDRED, CENT)
            - floor_to(day_total_before * percentage / HUNDRED, CENT))
