from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pghistory
import pgtrigger
from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

from apps.casinos.models import Casino
from apps.core.fields import MoneyField


class Game(models.TextChoices):
    """Permissible poker games, N.J.A.C. 13:69F-14.8(a) plus 14.12A and 14.12B. Values are the engine's."""

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
    SINGLE_DRAW_27 = "single_draw_27", "Single draw low ball deuce to seven"
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
    Game.SINGLE_DRAW_27: (8, "14.12(b)"),  # five-card draw with one draw, ranked as 14.12A(l)
    Game.BADUGI: (9, "14.12B(b)"),
    Game.FIVE_CARD_STUD: (8, "14.13(b)"),
    Game.MAMBO_STUD: (11, "14.13A(b)"),
}


class KillOption(models.TextChoices):
    """Optional kill or half-kill in Omaha high-low split eight or better (N.J.A.C. 13:69F-14.1, 14.11(i)-placed,
    14.11(i)-limits)."""

    NONE = "none", "No kill"
    KILL = "kill", "Kill (limits doubled)"
    HALF_KILL = "half_kill", "Half-kill (limits increased by one half)"


class BettingStructure(models.TextChoices):
    FIXED_LIMIT = "fixed_limit", "Fixed limit"
    POT_LIMIT = "pot_limit", "Pot limit"
    NO_LIMIT = "no_limit", "No limit"


class StraddleOption(models.TextChoices):
    """Where a table allows a straddle, a voluntary live blind raise posted before the cards are dealt (posted with
    the game, 14.17-limits-posted): nowhere, under the gun (the player to the left of the big blind, then each next
    player to the left for a re-straddle), on the button (one straddle, by the player on the button), or from any
    seat."""

    NONE = "none", "No straddle"
    UNDER_THE_GUN = "under_the_gun", "Under the gun"
    BUTTON = "button", "On the button"
    ANY_SEAT = "any_seat", "From any seat"


#: A posted amount (a blind, a limit) is never below zero.
not_negative = [MinValueValidator(Decimal("0.00"))]


class GamePosting(models.Model):
    """A game as a table posts it (N.J.A.C. 13:69F-14.8, 14.17-limits-posted, 14.17-raises-posted): the game, its
    betting structure, wagering limits and forced bets, and whether its pots contribute to the bad beat payout
    (14.19(b)-table-notice, 14.19(c)-designated). A single-game table posts one (its own fields); a mixed-game table
    posts one per game of its rotation (RotationGame)."""

    game = models.CharField(max_length=20, choices=Game.choices, default=Game.HOLDEM)
    betting_structure = models.CharField(max_length=12, choices=BettingStructure.choices,
                                         default=BettingStructure.NO_LIMIT)
    small_blind = MoneyField(validators=not_negative, default=Decimal("0.00"))
    big_blind = MoneyField(validators=not_negative, default=Decimal("0.00"))
    ante = MoneyField(validators=not_negative, default=Decimal("0.00"))
    bring_in = MoneyField(validators=not_negative, default=Decimal("0.00"),
                          help_text="Stud: the forced bet of the lowest (or highest) up-card (14.9(d)).")
    minimum_wager = MoneyField(validators=not_negative, help_text="Posted minimum wager (14.17).")
    maximum_wager = MoneyField(validators=not_negative, null=True, blank=True,
                               help_text="Posted maximum wager (14.17); empty for no limit.")
    raise_cap = models.PositiveSmallIntegerField(null=True, blank=True,
                                                 help_text="Maximum raises per betting round (14.17); empty for none.")
    bad_beat_participation = models.BooleanField(default=False,
                                                 help_text="Its pots contribute to the bad beat payout (14.19(b)).")
    straddles = models.CharField(max_length=14, choices=StraddleOption.choices, default=StraddleOption.NONE,
                                 help_text="Where a straddle (a live blind raise before the cards) may be posted.")
    maximum_straddles = models.PositiveSmallIntegerField(
        default=1, help_text="The most straddles in one round (a straddle and its re-straddles); one on the button.")
    bomb_pot_ante = MoneyField(validators=not_negative, default=Decimal("0.00"),
                               help_text="The ante every player puts in for a bomb pot, which has no betting before "
                                         "the flop; 0.00 when bomb pots are not offered.")

    class Meta:
        abstract = True

    @property
    def posted_seat_maximum(self) -> int:
        """The most players the game seats (14.9(b)-seat-maximum, 14.10(b)-seat-maximum, 14.11(b)-seat-maximum,
        14.12(b)-seat-maximum, 14.12A(b)-seat-maximum, 14.12B(b)-seat-maximum, 14.13(b)-seat-maximum,
        14.13A(b)-seat-maximum)."""
        return SEAT_MAXIMUM[self.game][0]

    @property
    def game_label(self) -> str:
        """The game and its betting structure, e.g. "Texas hold 'em (high), no limit"."""
        return f"{Game(self.game).label}, {BettingStructure(self.betting_structure).label.lower()}"

    @property
    def limits_label(self) -> str:
        """The posted limits (14.17-limits-posted) in dollars and cents, e.g. "$1.00/$2.00 no limit"."""
        return self.limits_text()

    def limits_text(self, amount: Callable[[Decimal], str] = lambda value: f"${value:,.2f}") -> str:
        """The posted limits (14.17-limits-posted) with each amount written by `amount` (Decimal dollars -> text):
        the blinds, or the minimum/maximum wager, or the minimum alone, then the betting structure."""
        structure = BettingStructure(self.betting_structure).label.lower()
        if self.maximum_wager is None:
            if self.big_blind:
                return f"{amount(self.small_blind)}/{amount(self.big_blind)} {structure}"
            return f"minimum {amount(self.minimum_wager)}, {structure}"
        return f"{amount(self.minimum_wager)}/{amount(self.maximum_wager)} {structure}"

    @property
    def forced_bets_label(self) -> str:
        """The forced bets as posted, with the straddles allowed and the bomb-pot ante when offered, e.g. "blinds
        $1.00/$2.00, straddle under the gun (at most 2), bomb pot ante $5.00"."""
        parts = []
        if self.big_blind:
            parts.append(f"blinds ${self.small_blind:,.2f}/${self.big_blind:,.2f}")
        if self.ante:
            parts.append(f"ante ${self.ante:,.2f}")
        if self.bring_in:
            parts.append(f"bring-in ${self.bring_in:,.2f}")
        if self.straddles != StraddleOption.NONE:
            parts.append(self.straddles_label.lower())
        if self.bomb_pot_ante:
            parts.append(self.bomb_pot_label.lower())
        return ", ".join(parts) or "none"

    @property
    def straddles_label(self) -> str:
        """The straddles allowed, e.g. "Straddle under the gun (at most 2)" or "No straddle"."""
        if self.straddles == StraddleOption.NONE:
            return "No straddle"
        where = StraddleOption(self.straddles).label.lower()
        return f"Straddle {where} (at most {self.maximum_straddles})"

    @property
    def bomb_pot_label(self) -> str:
        """The bomb pot as posted, e.g. "Bomb pot ante $5.00" or "No bomb pot"."""
        return f"Bomb pot ante ${self.bomb_pot_ante:,.2f}" if self.bomb_pot_ante else "No bomb pot"


@pghistory.track()
class PokerTable(GamePosting):
    """A poker table and its posted game, limits and blinds (N.J.A.C. 13:69F-14.8, 14.17-limits-posted,
    14.17-raises-posted).

    A mixed-game table deals a posted rotation of games (H.O.R.S.E., eight-game, the Players Championship mix):
    `rotation_name` names it and `rotation` holds each game with its own limits, forced bets and bad beat
    eligibility; the table's own game fields then repeat the rotation's first game. Its seats are at most the
    smallest seat maximum of the rotation's games.
    """

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveIntegerField()
    seats = models.PositiveSmallIntegerField(default=9, help_text="Seats offered; at most the game's maximum.")
    location = models.CharField(max_length=60, blank=True, help_text="Area or pit of the poker room.")
    rotation_name = models.CharField(max_length=60, blank=True,
                                     help_text="A mixed-game table's rotation, e.g. 'H.O.R.S.E.'; empty for one game.")
    rounds_per_game = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Mixed games: rounds dealt of each game before the next; empty for one "
                                         "orbit of the button.")
    kill_option = models.CharField(max_length=10, choices=KillOption.choices, default=KillOption.NONE,
                                   help_text="Omaha high-low eight or better only (14.11(i)).")
    kill_pot_minimum = MoneyField(validators=not_negative, null=True, blank=True,
                                  help_text="Pot that qualifies for the kill (14.11(i)).")
    uses_automated_shuffler = models.BooleanField(
        default=False, help_text="Both decks alternate every round, backs of different colours (14.2(d)).")
    counting_shuffler_approval = models.CharField(
        max_length=60, blank=True,
        help_text="The Division's approval of the table's automated shuffler as one that counts the cards of a deck "
                  "as it shuffles them (N.J.A.C. 13:69F-14.6(e)4-counting-shuffler): its counts are taken in for the "
                  "15-minute count. Blank when the shuffler does not count, or there is none.")
    contribution_container_capacity = MoneyField(
        "contribution container capacity", null=True, blank=True,
        help_text="Dollars: the most the table's approved bad beat contribution container holds, for a table whose "
                  "contributions are counted and returned to the table inventory (N.J.A.C. 13:69F-14.19(f)); a count "
                  "is due when the uncounted contributions reach it, and the table closes once its container is "
                  "counted (14.19(f)1). Empty for a bad beat payout box counted under 14.19(d), (e).")
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
            models.CheckConstraint(condition=models.Q(contribution_container_capacity__isnull=True)
                                   | models.Q(contribution_container_capacity__gt=0),
                                   name="table_container_capacity_positive"),
            models.CheckConstraint(condition=models.Q(counting_shuffler_approval="")
                                   | models.Q(uses_automated_shuffler=True),
                                   name="table_counting_shuffler_is_a_shuffler"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.rotation_name or self.get_game_display()})"

    @property
    def is_mixed(self) -> bool:
        """Deals a rotation of games rather than one game."""
        return bool(self.rotation_name)

    @property
    def rotation_game(self) -> None:
        """A single-game table's posting is the table itself, not a game of a rotation."""
        return None

    def posted_games(self) -> list[GamePosting]:
        """The games the table deals as posted: itself for one game, each RotationGame in order for a mixed-game
        table (one query, or none when `rotation` is prefetched)."""
        return list(self.rotation.all()) if self.is_mixed else [self]

    def posting_for(self, game: str, betting_structure: str | None = None) -> GamePosting | None:
        """The posted game a round of `game` is dealt as here: the posting of that game, of that betting structure
        when the table deals the game in several; None when the table does not deal the game."""
        matches = [p for p in self.posted_games() if p.game == game]
        exact = [p for p in matches if p.betting_structure == betting_structure]
        return next(iter(exact or matches), None)

    @property
    def seat_maximum(self) -> int:
        """The most players the table seats: its game's maximum, or the smallest of its rotation's games."""
        return min(p.posted_seat_maximum for p in self.posted_games())

    @property
    def game_label(self) -> str:
        return self.rotation_name if self.is_mixed else super().game_label


@pghistory.track()
class RotationGame(GamePosting):
    """One game of a mixed-game table's posted rotation, with its own limits, forced bets and bad beat eligibility
    (N.J.A.C. 13:69F-14.8, 14.17-limits-posted, 14.17-raises-posted, 14.19(b)-table-notice). Rounds of play record
    the rotation game they were dealt in."""

    table = models.ForeignKey(PokerTable, on_delete=models.CASCADE, related_name="rotation")
    position = models.PositiveSmallIntegerField(help_text="Order in the rotation, from 1.")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="rotation_position_unique"),
            models.UniqueConstraint(fields=["table", "game", "betting_structure"], name="rotation_game_unique"),
            models.CheckConstraint(
                condition=models.Q(maximum_wager__isnull=True) | models.Q(maximum_wager__gte=models.F("minimum_wager")),
                name="rotation_max_wager_at_least_min",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.game_label} at table {self.table.number}"

    @property
    def rotation_game(self) -> RotationGame:
        return self


class TableStatusKind(models.TextChoices):
    OPENED = "opened", "Opened"
    CLOSED = "closed", "Closed"


@pghistory.track()
class TableStatusChange(models.Model):
    """One opening or closing of a poker table: who, when, why (append-only; a correction is a new row).

    An opening keeps what the table opened with: its game or rotation, its limits as posted (14.8,
    14.17-limits-posted), its seats and the dealer in the box. A closing keeps its reason, the decks collected from
    the table (14.2(a)-two-decks: the two decks belong to an open table) and the confirmation that the drop box was
    removed for the count, which takes place at a closed table (N.J.A.C. 13:69F-14.19(d)1-closed-table). Written by
    apps.tables.services.open_table and close_table only. """

    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="status_changes")
    kind = models.CharField(max_length=6, choices=TableStatusKind.choices)
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                           related_name="+", help_text="Empty for a change made by the system.")
    reason = models.CharField(max_length=300, blank=True)
    game = models.CharField(max_length=60, blank=True, help_text="Opening: the game or rotation dealt (14.8).")
    limits = models.CharField(max_length=300, blank=True, help_text="Opening: the posted limits (14.17).")
    seats = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Opening: the seats offered.")
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                               related_name="+", help_text="Opening: the dealer in the box.")
    decks_collected = models.CharField(max_length=300, blank=True,
                                       help_text="Closing: the serials of the decks collected from the table.")
    players_unseated = models.CharField(max_length=300, blank=True,
                                        help_text="Closing: the seats vacated (by number) as the table closed.")
    drop_box_removed = models.BooleanField(default=False,
                                           help_text="Closing: the drop box removed for the count (14.19(d)1).")

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["table", "-id"], name="table_status_change_newest")]
        constraints = [
            models.CheckConstraint(condition=models.Q(kind="opened") | (models.Q(drop_box_removed=True) & ~models.Q(reason="")),
                                   name="table_closing_has_reason_and_box"),
        ]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Table {self.table_id} {self.get_kind_display().lower()} at {self.at:%Y-%m-%d %H:%M}"
