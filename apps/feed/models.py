"""Import jobs: a large PHH import over the API runs in the background and reports its progress. The rake audit of
hands recorded by other systems: what each hand's history says the players received, the source's rake worked out
from it beside our posted rake (SourceSettlement), and its running totals by table and gaming day (SourceRakeDay)."""
from decimal import Decimal

import pgtrigger
from django.conf import settings
from django.db import models

from apps.casinos.models import Casino
from apps.core.fields import MoneyField
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable


class ImportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed (nothing of the file stored)"


class ImportJob(models.Model):
    """A PHH text imported by a Celery task (more than the hands an API request takes at once). `processed` counts
    the hands done so far, of `hands`; `summary` is the import's summary (per variant: imported, already stored,
    refused with the reason) once done; `error` says why a malformed text was refused whole."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                              help_text="The table given with the import; empty: each hand to a table dealing its game.")
    name = models.CharField(max_length=200)
    text = models.TextField(help_text="The PHH text as received.")
    hands = models.PositiveIntegerField(help_text="Hands in the text.")
    processed = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=ImportStatus.choices, default=ImportStatus.QUEUED)
    summary = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Delivery (design.md, "Faults"): the job row is the work, written in the request's transaction; its task is sent
    # after the commit, and the beat sweeper (services.sweep_import_jobs) sends it again when it was never sent, its
    # message was lost, or its worker died.
    enqueued_at = models.DateTimeField(null=True, blank=True, help_text="When its task was last handed to the broker; "
                                       "empty: never (the broker was down).")
    attempts = models.PositiveIntegerField(default=0, help_text="How many times its task was handed to the broker.")
    heartbeat_at = models.DateTimeField(null=True, blank=True,
                                        help_text="A running job's last progress (each batch of hands).")

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "created_at"], name="feed_job_status_created",
                                condition=models.Q(status__in=["queued", "running"]))]

    def __str__(self) -> str:
        return f"Import {self.pk} ({self.name}): {self.status}"


class WinningsWritten(models.TextChoices):
    """How a hand history wrote its `winnings`: with the uncalled bet given back (14.14(d)) in the amounts, or without
    it; a hand with no uncalled bet reads the same either way."""

    WITHOUT_UNCALLED = "without_uncalled", "Without the uncalled bet"
    WITH_UNCALLED = "with_uncalled", "With the uncalled bet given back"
    NO_UNCALLED = "no_uncalled", "No uncalled bet (either way)"


class SourceSettlement(models.Model):
    """The rake audit of one round of play imported from a hand history that records `winnings` (issue 35): what the
    source says the players received, the source's rake worked out from it, and our posted rake for the round (the
    round's RakeRecord, 14.14), written in the transaction that records the round. Append-only.

    Amounts are Decimal dollars. pot: what the players put in less the uncalled bet given back, by our accounting
    (14.14(d)); winnings_total: the source's amounts as written; source_rake = pot − what the winnings pay from the pots
    (the amounts, less the uncalled bet when they include it), None when the hand does not reconcile at all (a
    negative amount, more than the pot, or winnings to a player who folded or is eligible for no pot): the round is
    still recorded, settled by our accounting, and flagged here. same_winners: the players the source pays are the
    players our settlement paid.
    """

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+",
                               db_index=False)  # source_settlement_newest leads with it
    round_of_play = models.OneToOneField(RoundOfPlay, on_delete=models.PROTECT, related_name="source_settlement")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    pot = MoneyField(help_text="Put in less the uncalled bet given back, by our accounting.")
    uncalled = MoneyField(default=Decimal("0.00"), help_text="The uncalled bet given back, by our accounting.")
    winnings_total = MoneyField(help_text="The source's winnings as written, added up.")
    written = models.CharField(max_length=20, choices=WinningsWritten.choices)
    source_rake = MoneyField(null=True, blank=True, help_text="Empty when the winnings do not reconcile at all.")
    our_rake = MoneyField(help_text="The rake our posted structure took (the round's rake record).")
    reconciles = models.BooleanField(help_text="The winnings fit the pot: none negative, none to a player who folded "
                                               "or is eligible for no pot, no more than the pot.")
    same_winners = models.BooleanField(help_text="The source pays the players our settlement paid.")
    cards_not_revealed = models.BooleanField(default=False, help_text="A player at the showdown without cards in the "
                                                                      "history: settled by what the history records.")
    note = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]  # newest first: ids are taken in the order the rows are written
        indexes = [models.Index(fields=["casino", "-id"], name="source_settlement_newest"),
                   models.Index(fields=["casino", "gaming_day", "-id"], name="source_settlement_day_newest")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Source settlement of round {self.round_of_play_id}"

    @property
    def difference(self) -> Decimal | None:
        """The source's rake less ours (Decimal dollars); None when the hand does not reconcile."""
        return None if self.source_rake is None else self.source_rake - self.our_rake


class SourceRakeDay(models.Model):
    """The rake audit of one table's gaming day, kept as a running total beside the SourceSettlement rows in the
    transaction that writes them (one upsert per batch, apps.core.writer), so that the audit page reads a day's sums
    without adding up its rows. hands: rows written; flagged: of them, the hands that do not reconcile at all; pot,
    source_rake and our_rake: Decimal dollars over the hands that reconcile."""

    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    hands = models.PositiveIntegerField(default=0)
    flagged = models.PositiveIntegerField(default=0)
    pot = MoneyField(default=Decimal("0.00"))
    source_rake = MoneyField(default=Decimal("0.00"))
    our_rake = MoneyField(default=Decimal("0.00"))

    class Meta:
        ordering = ["-gaming_day", "-id"]
        constraints = [models.UniqueConstraint(fields=["table", "gaming_day"], name="one_source_rake_per_table_day")]
        indexes = [models.Index(fields=["-gaming_day", "-id"], name="source_rake_day_newest")]

    def __str__(self) -> str:
        return f"Table {self.table_id} {self.gaming_day}: rake audit of {self.hands} hands"

    @property
    def difference(self) -> Decimal:
        """The source's rake less ours over the hands that reconcile (Decimal dollars)."""
        return self.source_rake - self.our_rake
