from decimal import Decimal

import pghistory
from django.core.validators import MinValueValidator
from django.db import models

from apps.casinos.models import Casino


class Game(models.TextChoices):
    """Permissible poker games, N.J.A.C. 13:69F-14.8 plus 14.12A and 14.12B. Values are the engine's."""

    HOLDEM = "holdem", "Texas hold 'em (high)"
    OMAHA = "omaha", "Omaha (high)"
    OMAHA_HILO8 = "omaha_hilo8", "Omaha high-low split eight or better"
    STUD = "stud", "Seven-card stud (high)"
    STUD_LOW = "stud_low", "Seven-card stud (low)"
    STUD_HILO = "stud_hilo", "Seven-card stud high-low split"
    STUD_HILO8 = "stud_hilo8", "Seven-card stud high-low split eight or better"
    DRAW_HIGH = "draw_high", "Five-card draw (high)"
    DRAW_LOW = "draw_low", "Five-card draw (low)"
    TRIPLE_DRAW_27 = "triple_draw_27", "Triple draw low ball deuce to seven"
    BADUGI = "badugi", "Badugi"
    FIVE_CARD_STUD = "five_card_stud", "Five-card stud (high)"
    MAMBO_STUD = "mambo_stud", "Mambo stud high-low split six or better"


#: Maximum players per table by game, and the section that sets it.
SEAT_MAXIMUM: dict[str, tuple[int, str]] = {
    Game.HOLDEM: (11, "14.10(b)"),
    Game.OMAHA: (10, "14.11(b)"),
    Game.OMAHA_HILO8: (10, "14.11(b)"),
    Game.STUD: (9, "14.9(b)"),
    Game.STUD_LOW: (9, "14.9(b)"),
    Game.STUD_HILO: (9, "14.9(b)"),
    Game.STUD_HILO8: (9, "14.9(b)"),
    Game.DRAW_HIGH: (8, "14.12(b)"),
    Game.DRAW_LOW: (8, "14.12(b)"),
    Game.TRIPLE_DRAW_27: (7, "14.12A(b)"),
    Game.BADUGI: (9, "14.12B(b)"),
    Game.FIVE_CARD_STUD: (8, "14.13(b)"),
    Game.MAMBO_STUD: (11, "14.13A(b)"),
}


class KillOption(models.TextChoices):
    """Optional kill or half-kill in Omaha high-low split eight or better (N.J.A.C. 13:69F-14.1, 14.11(i))."""

    NONE = "none", "No kill"
    KILL = "kill", "Kill (limits doubled)"
    HALF_KILL = "half_kill", "Half-kill (limits increased by one half)"


class BettingStructure(models.TextChoices):
    FIXED_LIMIT = "fixed_limit", "Fixed limit"
    POT_LIMIT = "pot_limit", "Pot limit"
    NO_LIMIT = "no_limit", "No limit"


money_field = dict(max_digits=14, decimal_places=2, validators=[MinValueValidator(Decimal("0.00"))])


@pghistory.track()
class PokerTable(models.Model):
    """A poker table and its posted game, limits and blinds (N.J.A.C. 13:69F-14.8, 14.17)."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveIntegerField()
    game = models.CharField(max_length=20, choices=Game.choices, default=Game.HOLDEM)
    betting_structure = models.CharField(max_length=12, choices=BettingStructure.choices,
                                         default=BettingStructure.NO_LIMIT)
    seats = models.PositiveSmallIntegerField(default=9, help_text="Seats offered; at most the game's maximum.")
    location = models.CharField(max_length=60, blank=True, help_text="Area or pit of the poker room.")
    small_blind = models.DecimalField(**money_field, default=Decimal("0.00"))
    big_blind = models.DecimalField(**money_field, default=Decimal("0.00"))
    ante = models.DecimalField(**money_field, default=Decimal("0.00"))
    minimum_wager = models.DecimalField(**money_field, help_text="Posted minimum wager (14.17).")
    maximum_wager = models.DecimalField(**money_field, null=True, blank=True,
                                        help_text="Posted maximum wager (14.17); empty for no limit.")
    raise_cap = models.PositiveSmallIntegerField(null=True, blank=True,
                                                 help_text="Maximum raises per betting round (14.17); empty for none.")
    bad_beat_participation = models.BooleanField(default=False, help_text="The table contributes to the bad-beat jackpot (14.19(b)).")
    kill_option = models.CharField(max_length=10, choices=KillOption.choices, default=KillOption.NONE,
                                   help_text="Omaha high-low eight or better only (14.11(i)).")
    kill_pot_minimum = models.DecimalField(**money_field, null=True, blank=True,
                                           help_text="Pot that qualifies for the kill (14.11(i)).")
    uses_automated_shuffler = models.BooleanField(
        default=False, help_text="Both decks alternate every round, backs of different colours (14.2(d)).")
    is_open = models.BooleanField(default=False)
    opened_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["casino", "number"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "number"], name="table_number_unique_per_casino"),
            models.CheckConstraint(condition=models.Q(seats__gte=2) & models.Q(seats__lte=11), name="table_seats_2_to_11"),
            models.CheckConstraint(
                condition=models.Q(maximum_wager__isnull=True) | models.Q(maximum_wager__gte=models.F("minimum_wager")),
                name="table_max_wager_at_least_min",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.get_game_display()})"

    @property
    def seat_maximum(self) -> int:
        return SEAT_MAXIMUM[self.game][0]

    @property
    def limits_label(self) -> str:
        if self.maximum_wager is None:
            return f"${self.small_blind:,.2f}/${self.big_blind:,.2f} {self.get_betting_structure_display().lower()}"
        return f"${self.minimum_wager:,.2f}/${self.maximum_wager:,.2f} {self.get_betting_structure_display().lower()}"
