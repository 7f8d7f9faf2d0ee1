"""Writes about rake: structures posted at tables and the rake taken from each round of play."""
from decimal import Decimal

from django.db import transaction

from apps.core.exceptions import DomainError
from apps.core.money import ZERO, floor_to, money
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable

from .models import LEGAL_MAXIMUM_PERCENTAGE, RakeMethod, RakeRecord, RakeStructure


def verify_rake_structure(*, percentage: Decimal, maximum: Decimal, minimum_pot: Decimal, increment: Decimal) -> None:
    """Refuse a structure over the legal maximum of 10 % of the sums bet (N.J.A.C. 13:69F-14.14(b)1.i).

    Raises DomainError naming the field.
    """
    if percentage < 0 or percentage > LEGAL_MAXIMUM_PERCENTAGE:
        raise DomainError("A percentage rake may not exceed 10% of the sums bet (N.J.A.C. 13:69F-14.14(b)1.i).",
                          field="percentage")
    if maximum < 0:
        raise DomainError("The posted maximum rake may not be negative.", field="maximum")
    if minimum_pot < 0:
        raise DomainError("The minimum pot may not be negative.", field="minimum_pot")
    if increment <= 0:
        raise DomainError("The rake increment must be positive.", field="increment")


@transaction.atomic
def post_rake_structure(*, table: PokerTable, percentage: Decimal, maximum: Decimal,
                        minimum_pot: Decimal = ZERO, increment: Decimal = Decimal("1.00")) -> RakeStructure:
    """Post (or change) the percentage rake of `table` (14.14(b)1, (c)). Raises DomainError."""
    verify_rake_structure(percentage=percentage, maximum=maximum, minimum_pot=minimum_pot, increment=increment)
    structure, _ = RakeStructure.objects.update_or_create(
        table=table, defaults={"method": RakeMethod.PERCENTAGE, "percentage": percentage, "maximum": money(maximum),
                               "minimum_pot": money(minimum_pot), "increment": money(increment)})
    return structure


def compute_percentage_rake(*, basis: Decimal, percentage: Decimal, maximum: Decimal, minimum_pot: Decimal,
                            increment: Decimal) -> tuple[Decimal, Decimal]:
    """Percentage rake of a round: (computed before the cap, amount taken), Decimal dollars.

    basis: the sums bet, the uncalled final bet excluded (N.J.A.C. 13:69F-14.14(d)). The amount is the
    percentage of the basis rounded down to `increment`, never more than the posted maximum and never more
    than 10 % of the basis (14.14(b)1.i); a basis below `minimum_pot` is not raked.
    """
    if basis < minimum_pot or basis <= 0:
        return ZERO, ZERO
    computed = floor_to(basis * percentage / Decimal(100), increment)
    amount = min(computed, maximum)
    if amount > basis * LEGAL_MAXIMUM_PERCENTAGE / Decimal(100):  # defence in depth: never over the legal maximum
        raise DomainError("The rake would exceed 10% of the sums bet.", field="percentage")
    return computed, amount


def rake_round(*, round_of_play: RoundOfPlay, pot_total: Decimal, already_deducted: Decimal) -> Decimal:
    """Take the posted rake of a round of play and record it; returns the amount (Decimal dollars).

    The first of settings.POT_DEDUCTIONS: the rake comes out of the pot and side pots before the bad-beat
    contribution (N.J.A.C. 13:69F-14.14(b)1, (d); 14.19(c)). One RakeRecord per round, also when nothing is
    taken, so every round's rake is accounted for.
    """
    table = round_of_play.table
    structure = RakeStructure.objects.filter(table=table).first()
    if structure is None:
        computed = amount = ZERO
        explanation = "No rake is posted at this table."
    else:
        computed, amount = compute_percentage_rake(
            basis=pot_total, percentage=structure.percentage, maximum=structure.maximum,
            minimum_pot=structure.minimum_pot, increment=structure.increment)
        if pot_total < structure.minimum_pot:
            explanation = f"Pot ${pot_total:,.2f} is below the ${structure.minimum_pot:,.2f} minimum: no rake."
        elif amount < computed:
            explanation = (f"{structure.percentage}% of ${pot_total:,.2f} = ${computed:,.2f}, capped at the posted "
                           f"maximum ${structure.maximum:,.2f}.")
        else:
            explanation = (f"{structure.percentage}% of ${pot_total:,.2f}, rounded down to "
                           f"${structure.increment:,.2f}: ${amount:,.2f}.")
    RakeRecord.objects.create(
        round_of_play=round_of_play, table=table, gaming_day=round_of_play.gaming_day, amount=amount,
        basis=pot_total, percentage=structure.percentage if structure else None,
        maximum=structure.maximum if structure else None, computed=computed, explanation=explanation)
    return amount
