"""Writes about the bad-beat jackpot: contributions taken from pots, and claims opened at showdowns."""
from decimal import Decimal

from django.db import transaction

from apps.casinos.models import Casino
from apps.core.exceptions import DomainError
from apps.core.money import CENT, ZERO, floor_to, money
from apps.rounds.models import RoundOfPlay

from .models import Claim, Contribution, Jackpot


def compute_contribution(*, jackpot: Jackpot, pot_total: Decimal, after_rake: Decimal) -> tuple[Decimal, str]:
    """The bad-beat contribution of one pot under the jackpot's posted rules: (amount, how it was computed).

    pot_total: the sums bet (uncalled bet excluded); after_rake: what is left once the rake is taken.
    Nothing below the posted minimum pot (14.19(b)2); a fixed amount or a percentage of the pot after rake,
    never more than the posted maximum (14.19(b)1) nor than what is left in the pot. Decimal dollars.
    """
    if pot_total < jackpot.minimum_pot:
        return ZERO, f"Pot ${pot_total:,.2f} is below the ${jackpot.minimum_pot:,.2f} minimum: no contribution."
    if jackpot.contribution_amount is not None:
        wanted, how = jackpot.contribution_amount, f"${jackpot.contribution_amount:,.2f} per pot"
    else:
        wanted = floor_to(after_rake * jackpot.contribution_percentage / Decimal(100), CENT)
        how = f"{jackpot.contribution_percentage}% of ${after_rake:,.2f} after rake = ${wanted:,.2f}"
    amount = min(wanted, jackpot.maximum_contribution, after_rake)
    if amount < wanted:
        how += f", capped at ${amount:,.2f}"
    return amount, how + "."


def collect_contribution(*, round_of_play: RoundOfPlay, pot_total: Decimal, already_deducted: Decimal) -> Decimal:
    """Segregate the bad-beat contribution of a round, after the rake (N.J.A.C. 13:69F-14.19(c)).

    The second of settings.POT_DEDUCTIONS: `already_deducted` is the rake. Records a Contribution and adds it to
    the jackpot balance under a row lock; returns the amount (Decimal dollars, 0 when the table does not
    participate, the jackpot is not collecting, or the pot is below the minimum).
    """
    table = round_of_play.table
    if not table.bad_beat_participation:
        return ZERO
    jackpot = Jackpot.objects.select_for_update().filter(casino_id=table.casino_id).first()
    if jackpot is None or not jackpot.is_collecting:
        return ZERO
    amount, explanation = compute_contribution(jackpot=jackpot, pot_total=pot_total,
                                               after_rake=pot_total - already_deducted)
    if amount <= 0:
        return ZERO
    Contribution.objects.create(jackpot=jackpot, round_of_play=round_of_play, table=table,
                                gaming_day=round_of_play.gaming_day, amount=amount,
                                basis=pot_total - already_deducted, explanation=explanation)
    jackpot.balance += amount
    jackpot.save(update_fields=["balance", "updated_at"])
    return amount


@transaction.atomic
def post_jackpot_rules(*, casino: Casino, minimum_pot: Decimal, maximum_contribution: Decimal,
                       qualifying_hand: str, contribution_amount: Decimal | None = None,
                       contribution_percentage: Decimal | None = None, name: str = "Bad Beat Jackpot") -> Jackpot:
    """Create or change the casino's jackpot and its posted rules (N.J.A.C. 13:69F-14.19(b)).

    Exactly one of contribution_amount / contribution_percentage. Raises DomainError naming the field.
    """
    if (contribution_amount is None) == (contribution_percentage is None):
        raise DomainError("Give either a fixed contribution or a percentage.", field="contribution_amount")
    if contribution_percentage is not None and not (0 < contribution_percentage <= 100):
        raise DomainError("The percentage must be above 0 and at most 100.", field="contribution_percentage")
    if contribution_amount is not None and contribution_amount <= 0:
        raise DomainError("The contribution must be positive.", field="contribution_amount")
    if maximum_contribution <= 0:
        raise DomainError("The maximum contribution must be positive.", field="maximum_contribution")
    if minimum_pot < 0:
        raise DomainError("The minimum pot may not be negative.", field="minimum_pot")
    jackpot, _ = Jackpot.objects.select_for_update().update_or_create(
        casino=casino,
        defaults={"name": name, "minimum_pot": money(minimum_pot), "maximum_contribution": money(maximum_contribution),
                  "qualifying_hand": qualifying_hand,
                  "contribution_amount": money(contribution_amount) if contribution_amount is not None else None,
                  "contribution_percentage": contribution_percentage})
    return jackpot


def open_claim(*, jackpot: Jackpot, round_of_play: RoundOfPlay, seat: int, losing_hand: str, losing_cards: str,
               winning_hand: str, winning_cards: str) -> Claim:
    """Open a pending claim for a supervisor to verify (N.J.A.C. 13:69F-14.19(i)); idempotent per seat."""
    claim, _ = Claim.objects.get_or_create(
        round_of_play=round_of_play, seat=seat,
        defaults={"jackpot": jackpot, "losing_hand": losing_hand, "losing_cards": losing_cards,
                  "winning_hand": winning_hand, "winning_cards": winning_cards})
    return claim
