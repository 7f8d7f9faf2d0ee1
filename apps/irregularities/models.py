import pgtrigger
from django.conf import settings
from django.db import models

from apps.decks.models import Deck
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable


class IrregularityKind(models.TextChoices):
    """Irregularities of N.J.A.C. 13:69F-14.15, with the clause that governs each."""

    MISDEAL = "misdeal", "Misdeal (14.15(e))"
    DEAD_ROUND = "dead_round", "Round called dead, chips returned (14.15(g))"
    CARD_FACE_UP_IN_DECK = "face_up_in_deck", "Card found face up in the deck (14.15(h))"
    FOULED_HAND = "fouled_hand", "Fouled hand (14.15(i))"
    EXPOSED_CARD = "exposed_card", "Exposed card while dealing (14.15(k), (l), (m), (o))"
    CARD_OFF_TABLE = "card_off_table", "Card dealt off the table (14.15(n))"
    SHUFFLER_JAM = "shuffler_jam", "Automated shuffler jammed or failed (14.15(p))"
    WRONG_COUNT = "wrong_count", "Wrong number of cards in a deck (14.6(e)4)"
    OTHER = "other", "Other (internal controls, 14.15(r))"


class Irregularity(models.Model):
    """An irregularity at a table, with who, when, table, deck and round (N.J.A.C. 13:69F-14.15). Append-only."""

    kind = models.CharField(max_length=20, choices=IrregularityKind.choices)
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="irregularities")
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, null=True, blank=True, related_name="irregularities")
    round_of_play = models.ForeignKey(RoundOfPlay, on_delete=models.PROTECT, null=True, blank=True,
                                      related_name="irregularities")
    at = models.DateTimeField(db_index=True)
    gaming_day = models.DateField(db_index=True)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+")
    description = models.CharField(max_length=500)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = "irregularities"
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at table {self.table.number}"


class IrregularityResolution(models.Model):
    """An irregularity seen to by the floor: who resolved it, when, and what was done (N.J.A.C. 13:69F-14.15). Until
    then it needs a person (the floor map). One per irregularity; append-only."""

    irregularity = models.OneToOneField(Irregularity, on_delete=models.PROTECT, related_name="resolution")
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    resolved_at = models.DateTimeField()
    note = models.CharField(max_length=300, blank=True, help_text="What was done.")

    class Meta:
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"{self.irregularity} resolved at {self.resolved_at:%H:%M}"
