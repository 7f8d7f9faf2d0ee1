from decimal import Decimal
from typing import Any

import pghistory
import pgtrigger
from django.conf import settings
from django.db import models

from apps.casinos.models import Casino
from apps.core.fields import MoneyField
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable


class QualifyingHand(models.TextChoices):
    """The weakest losing five-card high hand that is a bad beat (14.19(b)3-posted), named as the ranking of hands
    names it."""

    FULL_HOUSE = "full_house", "Full house or better"
    FOUR_OF_A_KIND = "four_of_a_kind", "Four of a kind or better"
    STRAIGHT_FLUSH = "straight_flush", "Straight flush or better"
    ROYAL_FLUSH = "royal_flush", "Royal flush"


class JackpotKind(models.TextChoices):
    PRIMARY = "primary", "Primary bad beat payout"
    SECONDARY = "secondary", "Secondary bad beat payout (lesser hand, 14.19(m))"


class Funding(models.TextChoices):
    CONTRIBUTIONS = "contributions", "Its own contribution from each pot (14.19(m)1)"
    PRIMARY_PORTION = "primary_portion", "A portion of the primary payout, deducted when won (14.19(m)2)"


class JackpotStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    PAYOUT_PENDING = "payout_pending", "Payout pending"
    DISCONTINUED = "discontinued", "Discontinued"


class DisplayStatus(models.TextChoices):
    """What a live jackpot's display says beside its amount (N.J.A.C. 13:69F-14.19(i)1, (o), 14.19(k)2); decided by
    `selectors.display_status` alone, not stored."""

    ACTIVE = "active", "Active"
    PAYOUT_PENDING = "payout_pending", "Payout pending"
    PENDING_ADJUSTMENT = "pending_adjustment", "Pending adjustment"


class MultipleLosersRule(models.TextChoices):
    """What happens when more than one player at the table holds a qualifying losing hand (14.19(n))."""

    HIGHEST_LOSING_HAND = "highest", "The highest qualifying losing hand takes the losing share; the others share with the table"
    SPLIT_LOSING_SHARE = "split", "The qualifying losing hands split the losing share equally"


class BothQualifyRule(models.TextChoices):
    """A round that holds both a primary and a secondary qualifying hand (14.19(m)2-both-qualify)."""

    PRIMARY_ONLY = "primary_only", "Only the primary bad beat payout is awarded"
    BOTH = "both", "Both payouts are awarded"


RANK_CHOICES = [(14, "Aces"), (13, "Kings"), (12, "Queens"), (11, "Jacks"), (10, "Tens"), (9, "Nines"),
                (8, "Eights"), (7, "Sevens"), (6, "Sixes"), (5, "Fives"), (4, "Fours"), (3, "Threes"), (2, "Deuces")]
percent: dict[str, Any] = dict(max_digits=5, decimal_places=2)
#: A qualifying minimum rank's name by its number (None: no minimum, no name).
RANK_NAMES: dict[int | None, str] = dict(RANK_CHOICES)

#: The fields of the posted rules (14.19(b)1-4, (m), (n), (p)) a rule change may set.
RULE_FIELDS = ("name", "minimum_pot", "contribution_amount", "contribution_percentage", "maximum_contribution",
               "qualifying_hand", "qualifying_minimum_rank", "both_hole_cards_must_play", "minimum_players_dealt",
               "straddled_pots_qualify", "bomb_pots_qualify", "multiple_runs_qualify",
               "losing_share", "winning_share", "table_share", "multiple_losers_rule", "when_both_qualify",
               "primary_portion_percentage", "reset_percentage", "other_bonus_awards")


# Every change of its posted rules, status and display is kept; not the running totals that each round's contribution
# moves (balance, reset reserve, contributions of all time): the append-only records they sum (Contribution, Payout,
# Transfer) are their history, and the daily ledger check re-derives them. An event a round was a row a round.
@pghistory.track(pghistory.InsertEvent(), pghistory.UpdateEvent(condition=pghistory.AnyChange(
    exclude=["balance", "reset_reserve", "contributions_total", "updated_at"])))
class Jackpot(models.Model):
    """A bad beat payout fund and its posted rules (N.J.A.C. 13:69F-14.19(a)-separate-fund, 14.19(b)-rules-posted,
    14.19(b)-current-amount, 14.19(c)-terminate, 14.19(m), (n), 14.19(p)-posted).

    `balance` (the payout amount) and `reset_reserve` (what funds the next payout, 14.19(p)-reset, 14.19(p)-posted)
    are kept beside the append-only records under a row lock; a selector re-derives both from the records.
    `displayed_amount` is what the room's displays show, changed only by accounting's adjustment (14.19(k)1,
    14.19(o)). """

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="jackpots")
    name = models.CharField(max_length=120, default="Bad Beat Jackpot")
    kind = models.CharField(max_length=10, choices=JackpotKind.choices, default=JackpotKind.PRIMARY)
    primary = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="secondaries",
                                help_text="For a secondary payout: the primary it belongs to (14.19(m)).")
    funding = models.CharField(max_length=16, choices=Funding.choices, default=Funding.CONTRIBUTIONS)
    primary_portion_percentage = models.DecimalField(**percent, null=True, blank=True,
                                                     help_text="Secondary funded from the primary: its percent of "
                                                               "the primary payout (14.19(m)2).")
    when_both_qualify = models.CharField(max_length=12, choices=BothQualifyRule.choices,
                                         default=BothQualifyRule.PRIMARY_ONLY)
    status = models.CharField(max_length=16, choices=JackpotStatus.choices, default=JackpotStatus.ACTIVE)
    balance = MoneyField(default=Decimal("0.00"))
    reset_reserve = MoneyField(default=Decimal("0.00"),
                               help_text="Set aside from contributions for the next payout (14.19(p)).")
    reset_percentage = models.DecimalField(**percent, default=Decimal("0.00"),
                                           help_text="Posted percent of each day's contributions that funds the "
                                                     "next payout (14.19(p)).")
    displayed_amount = MoneyField(default=Decimal("0.00"),
                                  help_text="Shown on the room's displays; set by accounting (14.19(k)).")
    contributions_total = MoneyField(default=Decimal("0.00"),
                                     help_text="Every contribution ever taken, kept beside the records "
                                               "under the row lock (14.19(c)).")
    is_collecting = models.BooleanField(default=True, help_text="Contributions are taken (14.19(c)).")
    minimum_pot = MoneyField(default=Decimal("20.00"),
                             help_text="Minimum pot for a contribution (14.19(b)2).")
    contribution_amount = MoneyField(null=True, blank=True,
                                     help_text="Fixed contribution per pot (14.19(b)1); or a percentage.")
    contribution_percentage = models.DecimalField(**percent, null=True, blank=True,
                                                  help_text="Percent of the pot after rake (14.19(b)1).")
    maximum_contribution = MoneyField(default=Decimal("1.00"),
                                      help_text="Maximum contributed from one pot (14.19(b)1).")
    qualifying_hand = models.CharField(max_length=20, choices=QualifyingHand.choices,
                                       default=QualifyingHand.FOUR_OF_A_KIND,
                                       help_text="Losing hand that qualifies (14.19(b)3).")
    qualifying_minimum_rank = models.PositiveSmallIntegerField(
        choices=RANK_CHOICES, null=True, blank=True,
        help_text="Within the qualifying category, the lowest rank that qualifies (e.g. four eights).")
    both_hole_cards_must_play = models.BooleanField(default=True)
    minimum_players_dealt = models.PositiveSmallIntegerField(default=4)
    # Which pots can be a bad beat (14.19(b)3). The defaults keep what held before a round could say it was
    # straddled, a bomb pot or run more than once: a straddled pot or a bomb pot was judged like any other, and no
    # hand could be run more than once, so none qualifies until the room posts that it does (a notice that makes
    # qualifying easier, which 14.19(q) allows at any time).
    straddled_pots_qualify = models.BooleanField(
        "straddled pots qualify", default=True, help_text="A straddled pot can be a bad beat (14.19(b)3).")
    bomb_pots_qualify = models.BooleanField(
        "bomb pots qualify", default=True, help_text="A bomb pot can be a bad beat (14.19(b)3).")
    multiple_runs_qualify = models.BooleanField(
        "hands run more than once qualify", default=False,
        help_text="A hand run two or three times can be a bad beat: each run's board is judged, and the hand "
                  "qualifies when the showdown of any run does (14.19(b)3).")
    losing_share = models.DecimalField(**percent, default=Decimal("50.00"))
    winning_share = models.DecimalField(**percent, default=Decimal("25.00"))
    table_share = models.DecimalField(**percent, default=Decimal("25.00"),
                                      help_text="Split among the other players dealt in.")
    multiple_losers_rule = models.CharField(max_length=10, choices=MultipleLosersRule.choices,
                                            default=MultipleLosersRule.HIGHEST_LOSING_HAND)
    other_bonus_awards = models.TextField(blank=True, help_text="Other bonus awards funded by the fund (14.19(b)4).")
    rules_effective_at = models.DateTimeField(null=True, blank=True,
                                              help_text="When the current qualifying requirements took effect.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["casino", "kind", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(contribution_amount__isnull=False, contribution_percentage__isnull=True)
                           | models.Q(contribution_amount__isnull=True, contribution_percentage__isnull=False)
                           | models.Q(funding="primary_portion")),
                name="jackpot_amount_or_percentage"),
            models.CheckConstraint(condition=models.Q(balance__gte=0), name="jackpot_balance_not_negative"),
            models.CheckConstraint(condition=models.Q(reset_reserve__gte=0), name="jackpot_reserve_not_negative"),
            models.CheckConstraint(condition=models.Q(losing_share__gte=0, winning_share__gte=0, table_share__gte=0),
                                   name="jackpot_shares_not_negative"),
            models.UniqueConstraint(fields=["casino"], condition=models.Q(kind="primary") & ~models.Q(
                status="discontinued"), name="one_live_primary_jackpot_per_casino"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.casino})"

    @property
    def is_secondary(self) -> bool:
        return self.kind == JackpotKind.SECONDARY

    @property
    def funded_from_primary(self) -> bool:
        return self.funding == Funding.PRIMARY_PORTION

    @property
    def contribution_label(self) -> str:
        """How a contribution is calculated, in words, as the rules page posts it with the maximum from a pot
        (14.19(b)1-posted): a fixed amount per pot, a percentage of the pot after rake at most the maximum, or a
        secondary's portion of the primary payout."""
        if self.funded_from_primary:
            return (f"{self.primary_portion_percentage}% of the primary payout, deducted from the primary "
                    f"payout if won")
        if self.contribution_amount is not None:
            return f"${self.contribution_amount:,.2f} per pot"
        return f"{self.contribution_percentage}% of the pot after rake, at most ${self.maximum_contribution:,.2f}"

    @property
    def qualifying_label(self) -> str:
        """The qualifying requirements in words (14.19(b)3-posted)."""
        category = self.get_qualifying_hand_display().replace(" or better", "")
        rank = RANK_NAMES.get(self.qualifying_minimum_rank)
        text = f"losing hand {category.lower()}{f' of {rank.lower()}' if rank else ''} or better"
        if self.both_hole_cards_must_play:
            text += ", both hole cards must play"
        return text + f", at least {self.minimum_players_dealt} players dealt in"

    @property
    def eligibility_label(self) -> str:
        """Which pots can be a bad beat, in words (14.19(b)3-posted), e.g. "straddled pots qualify; bomb pots do not
        qualify; a hand run more than once qualifies when any run's showdown does"."""
        runs = ("a hand run more than once qualifies when any run's showdown does" if self.multiple_runs_qualify
                else "a hand run more than once does not qualify")
        return (f"straddled pots {'qualify' if self.straddled_pots_qualify else 'do not qualify'}; "
                f"bomb pots {'qualify' if self.bomb_pots_qualify else 'do not qualify'}; {runs}")

    @property
    def shares_label(self) -> str:
        """The payout's shares in words, as the rules page posts them (14.19(b)3-posted): the losing player's, the
        winning player's and the other players' dealt in, each a percentage of the payout."""
        return (f"losing player {self.losing_share.normalize():f} %, winning player {self.winning_share.normalize():f} %, "
                f"other players dealt in {self.table_share.normalize():f} %")


class Contribution(models.Model):
    """A pot's bad-beat contribution, segregated after the rake (N.J.A.C. 13:69F-14.19(c)-per-pot,
    14.19(c)-after-rake). Append-only.

    `to_reset` is the part that funds the next payout (14.19(p)-reset): over a gaming day the parts add up to the
    posted percentage of the day's contributions, rounded down to the cent.
    """

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="contributions",
                                db_index=False)  # contribution_jackpot_newest leads with it
    round_of_play = models.ForeignKey(RoundOfPlay, on_delete=models.PROTECT, related_name="bad_beat_contributions")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="bad_beat_contributions",
                              db_index=False)  # contribution_table_newest leads with it
    gaming_day = models.DateField()  # contribution_day_newest (gaming_day, -id) leads with it
    amount = MoneyField()
    to_reset = MoneyField(default=Decimal("0.00"))
    basis = MoneyField(help_text="The pot after the rake.")
    explanation = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]  # newest first: ids are taken in the order the records are written
        indexes = [models.Index(fields=["jackpot", "-id"], name="contribution_jackpot_newest"),
                   models.Index(fields=["table", "-id"], name="contribution_table_newest"),
                   models.Index(fields=["gaming_day", "-id"], name="contribution_day_newest")]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="contribution_positive"),
            models.CheckConstraint(condition=models.Q(to_reset__gte=0) & models.Q(to_reset__lte=models.F("amount")),
                                   name="contribution_reset_part_within_amount"),
            models.UniqueConstraint(fields=["jackpot", "round_of_play"], name="one_contribution_per_round"),
        ]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"${self.amount} from round {self.round_of_play_id}"


class GamingDayContributions(models.Model):
    """A jackpot's contributions over one gaming day, kept as a running total beside the Contribution records, in
    their transaction and under the jackpot's row lock (14.19(c)-per-pot, 14.19(p)-reset; the record of the daily
    contributions, 14.19(k)-official-record): the day's total decides
    each contribution's reset part without summing the day, and the daily reset documents it.
    `selectors.day_totals_agree` checks it against a re-derivation from the records."""

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="day_totals")
    gaming_day = models.DateField()
    contributions = MoneyField(default=Decimal("0.00"))
    to_reset = MoneyField(default=Decimal("0.00"))
    count = models.PositiveIntegerField(default=0, help_text="Contribution records of the day.")

    class Meta:
        ordering = ["jackpot", "-gaming_day"]
        constraints = [models.UniqueConstraint(fields=["jackpot", "gaming_day"], name="one_day_total_per_jackpot")]

    def __str__(self) -> str:
        return f"{self.jackpot} {self.gaming_day}: ${self.contributions}"


class TableDayContributions(models.Model):
    """A jackpot's contributions from one table over one gaming day (14.19(c)-per-pot), kept as a running total
    beside the Contribution records in their transaction, under the jackpot's row lock: the dashboard, the ledger and
    the Master Game Report read a day without summing it. `selectors.table_day_problems` re-derives it."""

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="table_day_totals")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="day_contributions")
    gaming_day = models.DateField()
    amount = MoneyField(default=Decimal("0.00"))
    count = models.PositiveIntegerField(default=0, help_text="Contribution records.")

    class Meta:
        ordering = ["-gaming_day", "table"]
        constraints = [models.UniqueConstraint(fields=["jackpot", "table", "gaming_day"],
                                               name="one_contribution_total_per_table_day")]
        indexes = [models.Index(fields=["gaming_day"], name="contribution_total_by_day")]

    def __str__(self) -> str:
        return f"{self.jackpot_id} table {self.table_id} {self.gaming_day}: ${self.amount}"


class ClaimStatus(models.TextChoices):
    PENDING = "pending", "Pending supervisor verification"
    VERIFIED = "verified", "Verified — payout pending"
    REJECTED = "rejected", "Rejected"
    PAID = "paid", "Paid"


@pghistory.track()
class Claim(models.Model):
    """A bad beat claimed on a round of play, for one jackpot; a poker shift supervisor verifies it with the
    engine before anything is paid (N.J.A.C. 13:69F-14.19(i)). Opened by the engine at a showdown or by a
    supervisor. On verification the payout amount is frozen and split into shares (14.19(n))."""

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="claims")
    round_of_play = models.ForeignKey(RoundOfPlay, on_delete=models.PROTECT, related_name="bad_beat_claims")
    seat = models.PositiveSmallIntegerField(help_text="Seat of the (highest) qualifying losing hand.")
    losing_hand = models.CharField(max_length=40)
    losing_cards = models.CharField(max_length=20)
    winning_hand = models.CharField(max_length=40)
    winning_cards = models.CharField(max_length=20)
    status = models.CharField(max_length=10, choices=ClaimStatus.choices, default=ClaimStatus.PENDING)
    opened_at = models.DateTimeField(auto_now_add=True)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+", help_text="Empty when the engine opened it at the showdown.")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.CharField(max_length=300, blank=True)
    evaluation = models.JSONField(default=dict, blank=True, help_text="The engine's checks, as shown to the supervisor.")
    payout_amount = MoneyField(null=True, blank=True, help_text="Frozen at verification.")

    class Meta:
        ordering = ["-opened_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["jackpot", "round_of_play"], name="claim_one_per_jackpot_round")]
        # the claims a supervisor decided, newest first, by payout: a span of verifications read without the rest of
        # history (selectors.displays_to_adjust_upon_verification)
        indexes = [models.Index(fields=["jackpot", "-decided_at"], condition=models.Q(decided_at__isnull=False),
                                name="claim_jackpot_decided_newest")]

    def __str__(self) -> str:
        return f"Claim on round {self.round_of_play_id}, seat {self.seat} ({self.status})"


class ShareRole(models.TextChoices):
    LOSING = "losing", "Losing player"
    WINNING = "winning", "Winning player"
    TABLE = "table", "Other player dealt in"


class ClaimShare(models.Model):
    """One player's share of a verified bad beat payout (14.19(b)3-applied, 14.19(n)). Written once, at
    verification."""

    claim = models.ForeignKey(Claim, on_delete=models.PROTECT, related_name="shares")
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=80, blank=True)
    role = models.CharField(max_length=8, choices=ShareRole.choices)
    amount = MoneyField()

    class Meta:
        ordering = ["claim", "role", "seat"]
        constraints = [models.UniqueConstraint(fields=["claim", "seat"], name="one_share_per_seat")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Seat {self.seat} ({self.role}): ${self.amount}"


class PayoutMethod(models.TextChoices):
    CASH = "cash", "Cash"
    CASH_EQUIVALENT = "cash_equivalent", "Recognized cash equivalent"
    CHIPS = "chips", "Gaming chips"


class PayoutLocation(models.TextChoices):
    TABLE = "table", "At the poker table"
    CAGE = "cage", "At the cashiers' cage"


@pghistory.track(pghistory.InsertEvent())  # append-only: its one event says who recorded it (the claim's history tab)
class Payout(models.Model):
    """A bad beat payout delivered to the players (N.J.A.C. 13:69F-14.19(i)2, (j)); append-only.

    `debited` is the fund the money left: the claim's jackpot, or the primary for a secondary payout funded
    from it (14.19(m)2-deducted).
    """

    claim = models.OneToOneField(Claim, on_delete=models.PROTECT, related_name="payout")
    debited = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="payouts")
    amount = MoneyField()
    method = models.CharField(max_length=16, choices=PayoutMethod.choices)
    location = models.CharField(max_length=8, choices=PayoutLocation.choices)
    delivered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    paid_at = models.DateTimeField(auto_now_add=True)
    gaming_day = models.DateField()

    class Meta:
        ordering = ["-paid_at"]
        constraints = [models.CheckConstraint(condition=models.Q(amount__gt=0), name="payout_positive")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"${self.amount} paid on claim {self.claim_id}"


class ResetSeed(models.Model):
    """The reset reserve moved into the payout amount after a payout: it funds the next payout (14.19(p)-reset)."""

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="reset_seeds")
    payout = models.OneToOneField(Payout, on_delete=models.PROTECT, null=True, blank=True, related_name="reset_seed")
    amount = MoneyField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Reset ${self.amount} into {self.jackpot_id}"


class DailyReset(models.Model):
    """The reset amount documented for one gaming day (14.19(p)-documented): the day's contributions, the posted
    percentage and the amount set aside. Written once, when the gaming day is closed."""

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="daily_resets")
    gaming_day = models.DateField()
    contributions = MoneyField()
    percentage = models.DecimalField(**percent)
    amount = MoneyField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-gaming_day"]
        constraints = [models.UniqueConstraint(fields=["jackpot", "gaming_day"], name="one_reset_record_per_day")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Reset {self.gaming_day}: ${self.amount}"


class Transfer(models.Model):
    """A discontinued payout's funds moved to another bad beat payout, so all reach players (14.19(l)-discontinue,
    14.19(a)-all-to-players)."""

    source = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="transfers_out")
    target = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="transfers_in")
    amount = MoneyField(help_text="From the payout amount.")
    reset_amount = MoneyField(default=Decimal("0.00"), help_text="From the reset reserve.")
    reason = models.CharField(max_length=300)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"${self.amount} + ${self.reset_amount} from {self.source_id} to {self.target_id}"


class DisplayReason(models.TextChoices):
    DAILY = "daily", "Daily adjustment (14.19(k))"
    AFTER_VERIFICATION = "after_verification", "After a verified bad beat (14.19(k))"
    AFTER_PAYOUT = "after_payout", "After a payout"


class DisplayAdjustment(models.Model):
    """Accounting adjusts a displayed payout amount in a poker supervisor's presence and verifies that it
    equals accounting's record (N.J.A.C. 13:69F-14.19(k)1, 14.19(k)-daily, 14.19(k)-upon-verification); never lower
    unless paid (14.19(o)). Append-only."""

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="display_adjustments")
    previous_amount = MoneyField()
    displayed_amount = MoneyField()
    accounting_amount = MoneyField(help_text="Accounting's record at the moment of adjustment.")
    reason = models.CharField(max_length=20, choices=DisplayReason.choices)
    adjusted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    supervisor_present = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        # a display's adjustments newest first: its last one (selectors.last_display_adjustment, with_display_state)
        # and whether one was made since a moment (selectors.displays_to_adjust_upon_verification)
        indexes = [models.Index(fields=["jackpot", "-created_at"], name="display_adjustment_newest")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Display {self.previous_amount} → {self.displayed_amount}"


class RuleChangeStatus(models.TextChoices):
    SCHEDULED = "scheduled", "Notice posted, takes effect later"
    APPLIED = "applied", "In effect"
    WITHDRAWN = "withdrawn", "Withdrawn"
    FAILED = "failed", "Failed to take effect"


@pghistory.track()
class RuleChange(models.Model):
    """A change to the posted rules: its notice is posted before it takes effect (N.J.A.C. 13:69F-14.19(q)-notice).

    A scheduled change either takes effect (applied), is withdrawn by someone who may propose rule changes, or,
    when it cannot be put into effect at its time, is marked failed with the reason; a failed change never holds
    up the others. Every change of status is kept by pghistory.
    """

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="rule_changes")
    changes = models.JSONField(help_text="Field -> new value, of RULE_FIELDS.")
    summary = models.TextField(help_text="The notice, as posted to patrons.")
    makes_qualifying_harder = models.BooleanField(default=False)
    notice_posted_at = models.DateTimeField(auto_now_add=True)
    effective_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=RuleChangeStatus.choices, default=RuleChangeStatus.SCHEDULED)
    applied_at = models.DateTimeField(null=True, blank=True)
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True,
                                    blank=True, help_text="Empty for a multi-casino system's change (14.20(c)1).")
    failure_reason = models.TextField(blank=True, help_text="Why the change could not take effect (status failed).")
    failed_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True,
                                     blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["effective_at", "pk"]

    def __str__(self) -> str:
        return f"Rule change {self.pk} ({self.status}) from {self.effective_at:%Y-%m-%d %H:%M}"


class PayoutNotification(models.Model):
    """The notice to security or accounting to deliver a verified payout to the table (14.19(i)2)."""

    claim = models.ForeignKey(Claim, on_delete=models.PROTECT, related_name="notifications")
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    message = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)
    acknowledged_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                        related_name="+")
    acknowledged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.message
