"""Decks of cards, their life as append-only events, and the alerts of the rotation schedule."""
import pgtrigger
from django.conf import settings
from django.db import models

from apps.casinos.models import Casino
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable


class DeckStatus(models.TextChoices):
    IN_STORAGE = "in_storage", "In storage"
    AT_TABLE = "at_table", "At a table"
    REMOVED = "removed", "Removed"
    DESTROYED = "destroyed", "Destroyed"


class Deck(models.Model):
    """A 52-card deck with a recorded back (N.J.A.C. 13:69F-14.2(a)-distinguishable). Its clocks are kept from its
    events."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="decks")
    serial = models.CharField(max_length=40, help_text="The deck's identifier, e.g. the seal number.")
    back_colour = models.CharField(max_length=30)
    back_design = models.CharField(max_length=60, blank=True)
    status = models.CharField(max_length=12, choices=DeckStatus.choices, default=DeckStatus.IN_STORAGE)
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, null=True, blank=True, related_name="decks")
    in_use = models.BooleanField(default=False, help_text="The deck being dealt at its table.")
    opened_at = models.DateTimeField(null=True, blank=True, help_text="First put in use at the table (6-hour clock).")
    last_sorted_at = models.DateTimeField(null=True, blank=True,
                                          help_text="Last placed into suit and sequence (3-hour clock).")
    last_counted_at = models.DateTimeField(null=True, blank=True, help_text="Last counted (15-minute clock).")
    in_use_since = models.DateTimeField(null=True, blank=True, help_text="Last put in use.")
    received_at = models.DateTimeField()

    class Meta:
        ordering = ["casino", "serial"]
        constraints = [models.UniqueConstraint(fields=["casino", "serial"], name="deck_serial_unique_per_casino")]

    def __str__(self) -> str:
        return f"Deck {self.serial} ({self.back_colour})"


class DeckEventKind(models.TextChoices):
    RECEIVED = "received", "Received"
    ASSIGNED = "assigned", "Assigned to the table"
    INSPECTED = "inspected", "Inspected by the dealer"
    VERIFIED = "verified", "Inspection verified by the floorperson"
    SPREAD = "spread", "Spread for the first two players"
    PUT_IN_USE = "put_in_use", "Put in use"
    ROTATED_OUT = "rotated_out", "Rotated out"
    SORTED = "sorted", "Placed into suit and sequence"
    COUNTED = "counted", "Counted"
    CHANGED = "changed", "Changed (taken out of play)"
    REMOVED = "removed", "Removed from the table"
    DESTROYED = "destroyed", "Destroyed"


class DeckEvent(models.Model):
    """One step in a deck's life, with who and when (N.J.A.C. 13:69F-14.2, 14.4, 14.6(e)4-every-fifteen-minutes,
    14.6(e)4-wrong-count, 14.6(e)4-counting-shuffler). Append-only."""

    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=12, choices=DeckEventKind.choices)
    at = models.DateTimeField(db_index=True)
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, null=True, blank=True, related_name="deck_events")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    card_count = models.PositiveSmallIntegerField(null=True, blank=True, help_text="For a count: cards found.")
    by_shuffler = models.BooleanField(
        default=False, help_text="A count made by the table's approved counting shuffler as it shuffled the deck "
                                 "(N.J.A.C. 13:69F-14.6(e)4-counting-shuffler), recorded by `by` from the shuffler.")
    round_of_play = models.ForeignKey(RoundOfPlay, on_delete=models.PROTECT, null=True, blank=True,
                                      related_name="deck_events", help_text="The round during which it happened.")
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]
        constraints = [models.CheckConstraint(condition=models.Q(by_shuffler=False) | models.Q(kind="counted"),
                                              name="deck_event_shuffler_counts_only")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.deck.serial} at {self.at:%H:%M}"


class AlertKind(models.TextChoices):
    SORT_OVERDUE = "sort_overdue", "Not placed into suit and sequence for 3 hours (14.2(b))"
    CHANGE_OVERDUE = "change_overdue", "Not changed for 6 hours (14.2(b))"
    COUNT_OVERDUE = "count_overdue", "Not counted for 15 minutes (14.6(e)4)"
    TWO_DECKS = "two_decks", "Fewer than two decks at an open table (14.2(a))"
    WRONG_COUNT = "wrong_count", ("A count found the wrong number of cards: deck pulled, a replacement to put in use "
                                  "(14.6(e)4)")
    ALTERNATION = "alternation", "Shuffler decks not alternated every round (14.2(d)3)"
    NO_DECK_IN_USE = "no_deck_in_use", "Players at the table and no deck in use (14.4(c), 14.2(a))"


class DeckAlert(models.Model):
    """An alert of the rotation schedule, raised and cleared by the every-minute beat task; a wrong count's alert is
    raised by the count and cleared when a replacement deck is put in use at the table (services.record_deck_event)."""

    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="deck_alerts")
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, null=True, blank=True, related_name="alerts")
    kind = models.CharField(max_length=16, choices=AlertKind.choices)
    raised_at = models.DateTimeField()
    cleared_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-raised_at"]
        constraints = [models.UniqueConstraint(fields=["table", "deck", "kind"], condition=models.Q(cleared_at=None),
                                               name="deck_alert_one_open", nulls_distinct=False)]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — table {self.table.number}"


class RoundDeck(models.Model):
    """The deck dealt in a round of play, as the feed reports it (for the 14.2(d)3 alternation check)."""

    round_of_play = models.OneToOneField(RoundOfPlay, on_delete=models.PROTECT, related_name="deck_used")
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="rounds_dealt")

    class Meta:
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Round {self.round_of_play_id}: deck {self.deck.serial}"


class DeckDistribution(models.Model):
    """A gaming day's distribution of decks among the open tables (N.J.A.C. 13:69F-14.2(c)-daily-distribution,
    14.2(c)-considerations), as decided by the poker shift supervisor, with the reasoning of the proposal it started
    from."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="deck_distributions")
    gaming_day = models.DateField(db_index=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(auto_now_add=True)
    considerations = models.TextField(help_text="Limits, location and game considered (14.2(c)).")

    class Meta:
        ordering = ["-decided_at"]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Deck distribution of {self.gaming_day} by {self.decided_by}"


class DeckDistributionLine(models.Model):
    distribution = models.ForeignKey(DeckDistribution, on_delete=models.PROTECT, related_name="lines")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="+")
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["distribution", "deck"], name="distribution_deck_once")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Deck {self.deck.serial} to table {self.table.number}"
