"""Reads about the bad-beat jackpot."""
from datetime import date
from decimal import Decimal

from django.db.models import QuerySet, Sum

from apps import hands
from apps.casinos.models import Casino

from .models import Claim, ClaimStatus, Contribution, Jackpot, QualifyingHand

#: Engine category of each posted qualifying hand (five-card high, N.J.A.C. 13:69F-14.3(b)).
_QUALIFYING_CATEGORY = {
    QualifyingHand.FULL_HOUSE: hands.FiveCardCategory.FULL_HOUSE,
    QualifyingHand.FOUR_OF_A_KIND: hands.FiveCardCategory.FOUR_OF_A_KIND,
    QualifyingHand.STRAIGHT_FLUSH: hands.FiveCardCategory.STRAIGHT_FLUSH,
    QualifyingHand.ROYAL_FLUSH: hands.FiveCardCategory.ROYAL_FLUSH,
}


def qualifies_as_bad_beat(*, jackpot: Jackpot, losing: "hands.HandValue") -> bool:
    """Whether a losing five-card high hand meets the jackpot's posted qualifying hand (14.19(b)3)."""
    wanted = _QUALIFYING_CATEGORY[QualifyingHand(jackpot.qualifying_hand)]
    return losing.category.strength >= wanted.strength


def jackpot_of(*, casino: Casino) -> Jackpot | None:
    return Jackpot.objects.filter(casino=casino).first()


def contributions_total(*, jackpot: Jackpot) -> Decimal:
    """Sum of every contribution record of the jackpot (Decimal dollars)."""
    return jackpot.contributions.aggregate(total=Sum("amount", default=Decimal("0.00")))["total"]


def contributions_for_gaming_day(*, casino: Casino, gaming_day: date) -> QuerySet[Contribution]:
    return (Contribution.objects.filter(jackpot__casino=casino, gaming_day=gaming_day)
            .select_related("table", "round_of_play").order_by("created_at", "pk"))


def pending_claims(*, casino: Casino) -> QuerySet[Claim]:
    return (Claim.objects.filter(jackpot__casino=casino, status=ClaimStatus.PENDING)
            .select_related("round_of_play__table").order_by("opened_at"))
