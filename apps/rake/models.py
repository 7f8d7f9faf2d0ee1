from decimal import Decimal

import pghistory
import pgtrigger
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from apps.core.fields import MoneyField
from apps.rounds.models import RoundOfPlay
from apps.tables.models import Game, PokerTable, RotationGame

LEGAL_MAXIMUM_PERCENTAGE = Decimal("10.00")  # N.J.A.C. 13:69F-14.14(b)1.i
#: The games that deal a flop (community cards after the first betting round): the games a "no flop, no drop" rake
#: term applies to (RakeStructure.no_flop_no_drop).
FLOP_GAMES = frozenset({Game.HOLDEM.value, Game.OMAHA.value, Game.OMAHA_HILO8.value})
#: The term as the table sign posts it (14.14(c)), after the rest of the rake.
NO_FLOP_NO_DROP = "no flop, no drop: no rake from a hold 'em or Omaha round that ends before the flop"


class RakeMethod(models.TextChoices):
    PERCENTAGE = "percentage", "Percentage of the sums bet (14.14(b)1)"
    INCREMENTAL = "incremental", "Incremental amounts at pot levels (14.14(b)2)"


@pghistory.track()
class RakeStructure(models.Model):
    """The rake posted at a table (N.J.A.C. 13:69F-14.14(b), 14.14(c)-sign, 14.14(c)-as-posted); at a mixed-game table,
    each game of the rotation may post its own (`rotation_game`), and the table's rake applies to the games without one.

    `no_flop_no_drop`: "no flop, no drop", posted on the sign with the rest of the rake (14.14(c)-sign,
    14.14(c)-as-posted): no rake is taken from a round of a flop game (FLOP_GAMES: hold 'em, Omaha, Omaha high-low) that
    ends before the flop is dealt — its board is empty and no chips were bet after the first betting round — whatever
    the pot. A round that reached the flop is raked as posted, also when everyone folds on the flop, and so is an all-in
    before the flop whose board is then dealt out. Stud and draw games deal no flop: their rounds are raked as posted,
    the term or not (a round of play records no reliable trace of a stud or draw round ending in its first betting
    round: a betting round where nothing stayed in the pot, e.g. a bet on fourth street that nobody called, is not
    kept). A structure that covers no flop game may not post it (services.post_rake_structure)."""

    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="rake_structures")
    rotation_game = models.ForeignKey(RotationGame, on_delete=models.CASCADE, null=True, blank=True,
                                      related_name="rake_structures",
                                      help_text="One game of a mixed-game table's rotation; empty for the table.")
    method = models.CharField(max_length=12, choices=RakeMethod.choices, default=RakeMethod.PERCENTAGE)
    percentage = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True,
                                     validators=[MinValueValidator(Decimal("0")), MaxValueValidator(LEGAL_MAXIMUM_PERCENTAGE)],
                                     help_text="Percent of the sums bet; at most 10 (14.14(b)1.i).")
    levels = models.JSONField(default=list, blank=True,
                              help_text='Incremental rake: [{"pot": "20.00", "take": "1.00"}, ...] ascending (14.14(b)2).')
    maximum = MoneyField(help_text="Posted maximum rake per round of play.")
    minimum_pot = MoneyField(default=Decimal("0.00"), help_text="Pots below this are not raked.")
    increment = MoneyField(default=Decimal("1.00"),
                           help_text="The rake is rounded down to this amount (the smallest chip taken).")
    no_flop_no_drop = models.BooleanField(
        default=False, help_text="No flop, no drop: no rake from a hold 'em or Omaha round that ends before the flop.")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(percentage__isnull=True)
                                   | (models.Q(percentage__gte=0) & models.Q(percentage__lte=10)),
                                   name="rake_percentage_legal_maximum"),
            models.CheckConstraint(condition=models.Q(increment__gt=0), name="rake_increment_positive"),
            models.UniqueConstraint(fields=["table"], condition=models.Q(rotation_game__isnull=True),
                                    name="one_rake_per_table"),
            models.UniqueConstraint(fields=["rotation_game"], name="one_rake_per_rotation_game"),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The rake as posted on the table sign (14.14(c)-sign), "no flop, no drop" (NO_FLOP_NO_DROP) last when
        posted."""
        return self._terms + (f"; {NO_FLOP_NO_DROP}" if self.no_flop_no_drop else "")

    @property
    def _terms(self) -> str:
        if self.method == RakeMethod.INCREMENTAL:
            steps = ", ".join(f"${Decimal(lv['take']):,.2f} at ${Decimal(lv['pot']):,.2f}" for lv in self.levels)
            return f"Incremental: {steps}; maximum ${self.maximum:,.2f} per pot"
        minimum = f" of ${self.minimum_pot:,.2f} or more" if self.minimum_pot else ""
        if self.percentage is None:  # a percentage rake posts its percentage (services.verify_rake_structure)
            return f"Percentage not posted; maximum ${self.maximum:,.2f} per pot"
        return f"{self.percentage.normalize():f}% of each pot{minimum}, maximum ${self.maximum:,.2f} per pot"


class RakeRecord(models.Model):
    """The rake taken from one round of play, with how it was computed. One per round, its round unique in
    PostgreSQL: no rake is taken after the pot is pushed (14.14(e)); append-only."""

    round_of_play = models.OneToOneField(RoundOfPlay, on_delete=models.PROTECT, related_name="rake_record")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="rake_records",
                              db_index=False)  # rake_record_table_newest leads with it
    gaming_day = models.DateField(db_index=True)
    amount = MoneyField()
    basis = MoneyField(help_text="Sums bet, the uncalled final bet excluded (14.14(d)).")
    percentage = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    maximum = MoneyField(null=True, blank=True)
    computed = MoneyField(default=Decimal("0.00"), help_text="Percentage of the basis, before the cap.")
    explanation = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]  # newest first: ids are taken in the order the records are written
        indexes = [models.Index(fields=["table", "-id"], name="rake_record_table_newest")]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gte=0) & models.Q(amount__lte=models.F("basis")),
                                   name="rake_within_pot"),
        ]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"${self.amount} rake, round {self.round_of_play_id}"


class TableHourRake(models.Model):
    """The rake taken from the pots of one table in one hour of a gaming day, by the game dealt (14.14), kept as a
    running total beside the RakeRecord rows in the transaction that writes them. The revenue pages and the
    dashboard read a day's rake by table, game, hour and shift from these rows (at most 25 hours × the games of a
    table's rotation) without summing the day's records; `apps.rake.selectors.table_day_problems` re-derives them
    from the records."""

    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="hour_rake")
    gaming_day = models.DateField()
    hour = models.DateTimeField(help_text="The hour the rounds of play started in (its start, in UTC).")
    game = models.CharField(max_length=20, help_text="The game dealt (at a mixed-game table, the rotation's game).")
    betting_structure = models.CharField(max_length=12, blank=True)
    rounds = models.PositiveIntegerField(default=0, help_text="Rake records (one per settled round).")
    basis = MoneyField(default=Decimal("0.00"), help_text="Sums bet, uncalled bets excluded.")
    amount = MoneyField(default=Decimal("0.00"), help_text="Rake taken.")

    class Meta:
        ordering = ["-gaming_day", "table", "hour"]
        constraints = [models.UniqueConstraint(fields=["table", "gaming_day", "hour", "game", "betting_structure"],
                                               name="one_rake_total_per_table_hour_game")]
        indexes = [models.Index(fields=["gaming_day"], name="rake_hour_total_by_day")]

    def __str__(self) -> str:
        return f"Table {self.table_id} {self.hour:%Y-%m-%d %H:00} UTC {self.game}: ${self.amount} rake"


class TimeChargeBasis(models.TextChoices):
    PER_PLAYER = "per_player", "Per player (inactive seated players included)"
    PER_TABLE = "per_table", "Per table"


@pghistory.track()
class TimeChargeStructure(models.Model):
    """A rake by time charges posted at a table (N.J.A.C. 13:69F-14.14(b)3-basis, 14.14(b)3-hourly,
    14.14(b)3-fractional)."""

    table = models.OneToOneField(PokerTable, on_delete=models.PROTECT, related_name="time_charge_structure")
    basis = models.CharField(max_length=12, choices=TimeChargeBasis.choices, default=TimeChargeBasis.PER_PLAYER)
    hourly_fee = MoneyField(help_text="Hourly fee for the table's limits (14.14(b)3.ii).")
    interval_minutes = models.PositiveSmallIntegerField(choices=[(20, "Every 20 minutes"), (30, "Every 30 minutes")],
                                                        default=30, help_text="Assessed every 20 or 30 minutes (14.14(b)3.iii).")

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(interval_minutes__in=[20, 30]),
                                              name="time_charge_interval_20_or_30")]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        per = "per player" if self.basis == TimeChargeBasis.PER_PLAYER else "per table"
        return f"Time charge ${self.hourly_fee:,.2f} an hour {per}, collected every {self.interval_minutes} minutes"

    @property
    def charge_per_interval(self) -> Decimal:
        return (self.hourly_fee * self.interval_minutes / 60).quantize(Decimal("0.01"))


class TimeCharge(models.Model):
    """One collection of time charges at a table, verified by a floorperson (14.14(b)3-verified). Append-only."""

    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="time_charges")
    period_start = models.DateTimeField()
    interval_minutes = models.PositiveSmallIntegerField()
    players_seated = models.PositiveSmallIntegerField(help_text="Every seated player, inactive ones included.")
    amount = MoneyField()
    gaming_day = models.DateField(db_index=True)
    collected_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    collected_at = models.DateTimeField(auto_now_add=True)
    explanation = models.CharField(max_length=200)

    class Meta:
        ordering = ["-period_start"]
        constraints = [models.UniqueConstraint(fields=["table", "period_start"], name="time_charge_once_per_period"),
                       models.CheckConstraint(condition=models.Q(amount__gte=0), name="time_charge_not_negative")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"${self.amount} time charge, table {self.table.number} at {self.period_start:%H:%M}"


class TimeChargeVerification(models.Model):
    """A floorperson's verification of a collection, after which the dealer drops it (14.14(b)3-verified)."""

    time_charge = models.OneToOneField(TimeCharge, on_delete=models.PROTECT, related_name="verification")
    verified_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    verified_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Verified by {self.verified_by} at {self.verified_at:%H:%M}"
