from decimal import Decimal

import pghistory
import pgtrigger
from django.conf import settings
from django.db import models

from apps.casinos.models import Casino
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable

money = dict(max_digits=14, decimal_places=2)


class QualifyingHand(models.TextChoices):
    """The weakest losing five-card high hand that is a bad beat (14.19(b)3), 14.3(b) names."""

    FULL_HOUSE = "full_house", "Full house or better"
    FOUR_OF_A_KIND = "four_of_a_kind", "Four of a kind or better"
    STRAIGHT_FLUSH = "straight_flush", "Straight flush or better"
    ROYAL_FLUSH = "royal_flush", "Royal flush"


@pghistory.track()
class Jackpot(models.Model):
    """A casino's bad-beat payout fund and its posted rules (N.J.A.C. 13:69F-14.19(a)-(c)).

    `balance` is kept beside the append-only contributions under a row lock; it always equals their sum
    less payouts (a test proves it).
    """

    casino = models.OneToOneField(Casino, on_delete=models.PROTECT, related_name="jackpot")
    name = models.CharField(max_length=120, default="Bad Beat Jackpot")
    balance = models.DecimalField(**money, default=Decimal("0.00"))
    is_collecting = models.BooleanField(default=True, help_text="Contributions are taken (14.19(c)).")
    minimum_pot = models.DecimalField(**money, default=Decimal("20.00"),
                                      help_text="Minimum pot for a contribution (14.19(b)2).")
    contribution_amount = models.DecimalField(**money, null=True, blank=True,
                                              help_text="Fixed contribution per pot (14.19(b)1); or a percentage.")
    contribution_percentage = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True,
                                                  help_text="Percent of the pot after rake (14.19(b)1).")
    maximum_contribution = models.DecimalField(**money, default=Decimal("1.00"),
                                               help_text="Maximum contributed from one pot (14.19(b)1).")
    qualifying_hand = models.CharField(max_length=20, choices=QualifyingHand.choices,
                                       default=QualifyingHand.FOUR_OF_A_KIND,
                                       help_text="Losing hand that qualifies (14.19(b)3).")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(contribution_amount__isnull=False, contribution_percentage__isnull=True)
                           | models.Q(contribution_amount__isnull=True, contribution_percentage__isnull=False)),
                name="jackpot_amount_or_percentage"),
            models.CheckConstraint(condition=models.Q(balance__gte=0), name="jackpot_balance_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.casino})"

    @property
    def contribution_label(self) -> str:
        if self.contribution_amount is not None:
            return f"${self.contribution_amount:,.2f} per pot"
        return f"{self.contribution_percentage}% of the pot after rake, at most ${self.maximum_contribution:,.2f}"


class Contribution(models.Model):
    """A pot's bad-beat contribution, segregated after the rake (N.J.A.C. 13:69F-14.19(c)). Append-only."""

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="contributions")
    round_of_play = models.OneToOneField(RoundOfPlay, on_delete=models.PROTECT, related_name="bad_beat_contribution")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="bad_beat_contributions")
    gaming_day = models.DateField(db_index=True)
    amount = models.DecimalField(**money)
    basis = models.DecimalField(**money, help_text="The pot after the rake.")
    explanation = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.CheckConstraint(condition=models.Q(amount__gt=0), name="contribution_positive")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"${self.amount} from round {self.round_of_play_id}"


class ClaimStatus(models.TextChoices):
    PENDING = "pending", "Pending supervisor verification"
    VERIFIED = "verified", "Verified"
    REJECTED = "rejected", "Rejected"
    PAID = "paid", "Paid"


@pghistory.track()
class Claim(models.Model):
    """A possible bad beat found by the engine at a showdown; a supervisor verifies it (14.19(i))."""

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="claims")
    round_of_play = models.ForeignKey(RoundOfPlay, on_delete=models.PROTECT, related_name="bad_beat_claims")
    seat = models.PositiveSmallIntegerField(help_text="Seat of the losing hand.")
    losing_hand = models.CharField(max_length=40)
    losing_cards = models.CharField(max_length=20)
    winning_hand = models.CharField(max_length=40)
    winning_cards = models.CharField(max_length=20)
    status = models.CharField(max_length=10, choices=ClaimStatus.choices, default=ClaimStatus.PENDING)
    opened_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["-opened_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["round_of_play", "seat"], name="claim_one_per_seat")]

    def __str__(self) -> str:
        return f"Claim seat {self.seat}, round {self.round_of_play_id} ({self.status})"
