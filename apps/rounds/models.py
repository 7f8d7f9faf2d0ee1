from __future__ import annotations

from decimal import Decimal

import pgtrigger
from django.conf import settings
from django.db import models

from apps.core.fields import MoneyField
from apps.tables.models import BettingStructure, Game, PokerTable, RotationGame

append_only = pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)


class RoundSource(models.TextChoices):
    PHH = "phh", "PHH hand history"
    JSON = "json", "JSON (API)"
    SIMULATOR = "simulator", "Dealer simulator"


class RoundOfPlay(models.Model):
    """One round of play (N.J.A.C. 13:69F-14.1) as recorded from the hand feed. Append-only."""

    # indexed by (table, gaming_day) and (table, -started_at, -id), which lead with it: no index of its own
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="rounds", db_index=False)
    game = models.CharField(max_length=20, choices=Game.choices, help_text="The game the round was dealt in.")
    betting_structure = models.CharField(max_length=12, choices=BettingStructure.choices, blank=True)
    rotation_game = models.ForeignKey(RotationGame, on_delete=models.PROTECT, null=True, blank=True,
                                      related_name="rounds",
                                      help_text="At a mixed-game table: the game of the rotation, as posted.")
    started_at = models.DateTimeField()  # indexed by round_newest_first (started_at, id), read either way
    gaming_day = models.DateField(db_index=True, help_text="The casino's gaming day, fixed when recorded.")
    board = models.CharField(max_length=20, blank=True, help_text="Community cards, e.g. '7d 5h 9d 7c Qh'.")
    total_bet = MoneyField(help_text="Everything the players put in, uncalled bet included.")
    uncalled_amount = MoneyField(default=Decimal("0.00"),
                                 help_text="Uncalled final bet returned; not part of the pot (14.14(d)).")
    pot_total = MoneyField(help_text="The sums bet: pot and side pots before rake and contribution.")
    refunded_amount = MoneyField(default=Decimal("0.00"),
                                 help_text="Returned to the players when the round is called dead (14.15(g)).")
    is_dead = models.BooleanField(default=False, help_text="Called dead: every chip returned, nothing raked (14.15(g)).")
    dead_reason = models.CharField(max_length=200, blank=True)
    went_to_showdown = models.BooleanField(default=False)
    betting_rounds = models.JSONField(default=list, blank=True,
                                      help_text="Sums bet in each betting round, uncalled bet excluded, as Decimal strings.")
    straddles = models.PositiveSmallIntegerField(
        default=0, help_text="Straddles posted (live blind raises before the cards); 0 for an unstraddled round.")
    bomb_pot = models.BooleanField(default=False, help_text="A bomb pot: every player put in the posted bomb-pot ante, "
                                                            "no betting before the flop.")
    run_boards = models.JSONField(default=list, blank=True,
                                  help_text="A hand run two or three times: each run's board, in order (`board` is the "
                                            "first run's); empty for a hand run once.")
    button = models.PositiveSmallIntegerField(null=True, blank=True,
                                              help_text="The seat of the dealer button, when the feed gave it.")
    source = models.CharField(max_length=12, choices=RoundSource.choices)
    source_name = models.CharField(max_length=300, blank=True, help_text="File and hand number, or the client's id.")
    # unique (round_source_digest_unique), NULL where there is no source hand: the constraint takes any number of
    # NULLs, not of ''
    source_digest = models.CharField(max_length=64, null=True, blank=True,  # noqa: DJ001
                                     help_text="SHA-256 of the source hand: each source hand is stored once.")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-started_at", "-pk"]
        indexes = [models.Index(fields=["table", "gaming_day"]),
                   # the newest-first lists (keyset on started_at, id): all tables, and one table
                   models.Index(fields=["-started_at", "-id"], name="round_newest_first"),
                   models.Index(fields=["table", "-started_at", "-id"], name="round_table_newest_first")]
        constraints = [
            models.CheckConstraint(condition=models.Q(pot_total=models.F("total_bet") - models.F("uncalled_amount")
                                                      - models.F("refunded_amount")),
                                   name="round_pot_is_bets_less_returns"),
            # each source hand is stored once; a constraint, not unique=True, which also adds a LIKE index no query uses
            models.UniqueConstraint(fields=["source_digest"], name="round_source_digest_unique"),
        ]
        triggers = [append_only]

    #: The seats and pots as the money path has just written them (apps.feed sets them on the rounds it records), so
    #: that the answer to the request that recorded a round shows them without reading them back; None otherwise.
    written_players: list[RoundPlayer] | None = None
    written_pots: list[Pot] | None = None

    def __str__(self) -> str:
        return f"Round {self.pk} at table {self.table.number}"

    @property
    def runs(self) -> int:
        """How many times the hand was run: the run boards, or 1."""
        return len(self.run_boards) or 1

    @property
    def returned_amount(self) -> Decimal:
        """Decimal dollars given back to the players: the uncalled final bet (14.14(d)) and a dead round's refund
        (14.15(g)-returned); total_bet less pot_total."""
        return self.uncalled_amount + self.refunded_amount

    @property
    def players_list(self) -> list[RoundPlayer]:
        """The round's seats in seat order: as just written, else read (prefetched by a list's query)."""
        return self.written_players if self.written_players is not None else list(self.players.all())

    @property
    def pots_list(self) -> list[Pot]:
        """The main pot and the side pots in order: as just written, else read (prefetched by a list's query)."""
        return self.written_pots if self.written_pots is not None else list(self.pots.all())


class TableGamingDay(models.Model):
    """The rounds of play of one table on one gaming day, kept as a running total beside the RoundOfPlay records in
    the transaction that writes them (one upsert per batch, apps.core.writer): the floor pages read a
    day's rounds without counting them. `apps.rounds.selectors.table_day_problems` re-derives it from the records."""

    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="day_rounds")
    gaming_day = models.DateField()
    rounds = models.PositiveIntegerField(default=0, help_text="Rounds of play recorded, dead ones included.")
    dead_rounds = models.PositiveIntegerField(default=0, help_text="Rounds called dead (14.15(g)).")
    pot_total = MoneyField(default=Decimal("0.00"), help_text="The sums bet in the day's rounds.")

    class Meta:
        ordering = ["-gaming_day", "table"]
        constraints = [models.UniqueConstraint(fields=["table", "gaming_day"], name="one_round_total_per_table_day")]
        indexes = [models.Index(fields=["gaming_day"], name="round_total_by_day")]

    def __str__(self) -> str:
        return f"Table {self.table_id} {self.gaming_day}: {self.rounds} rounds"


class RoundPlayer(models.Model):
    """A seat in a round of play: what the player put in, the cards, and what the player won."""

    round_of_play = models.ForeignKey(RoundOfPlay, on_delete=models.PROTECT, related_name="players",
                                      db_index=False)  # round_player_seat_unique leads with it
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80, blank=True)
    starting_stack = MoneyField(null=True, blank=True)
    contributed = MoneyField(help_text="Everything put in, uncalled bet included.")
    returned = MoneyField(default=Decimal("0.00"),
                          help_text="Given back: the uncalled bet, or everything in a dead round.")
    hole_cards = models.CharField(max_length=40, blank=True,
                                  help_text="The cards held at the end (after the last draw); empty where unknown.")
    dealt_cards = models.CharField(max_length=40, blank=True, help_text="Draw games: the hand as first dealt.")
    draws = models.JSONField(default=list, blank=True,
                             help_text='Draw games: [{"discarded": "As Qs", "drawn": "2h Qh"}, ...] per draw.')
    folded = models.BooleanField(default=False)
    at_showdown = models.BooleanField(default=False)
    high_hand = models.CharField(max_length=40, blank=True, help_text="Category of the best high hand at showdown.")
    high_cards = models.CharField(max_length=20, blank=True, help_text="The five cards that make it.")
    low_hand = models.CharField(max_length=40, blank=True, help_text="Best (qualifying) low hand, where the game has one.")
    low_cards = models.CharField(max_length=20, blank=True)
    awarded = MoneyField(default=Decimal("0.00"), help_text="Won from the pots.")
    straddle = MoneyField(default=Decimal("0.00"), help_text="The straddle posted, part of what was put in.")
    dead_money = MoneyField(default=Decimal("0.00"),
                            help_text="Posted as dead money (a dead blind, an ante posted dead): in the main pot, "
                                      "unmatched; part of what was put in.")

    class Meta:
        ordering = ["round_of_play", "seat"]
        constraints = [models.UniqueConstraint(fields=["round_of_play", "seat"], name="round_player_seat_unique")]
        # The round search (apps.rounds.filters): the players who showed a hand, by category (the others have none).
        # Its search by name uses round_player_name_prefix, on UPPER(name) text_pattern_ops, made in SQL by migration
        # 0009.
        indexes = [models.Index(fields=["high_hand", "round_of_play"], name="round_player_high_hand",
                                condition=~models.Q(high_hand=""))]
        triggers = [append_only]

    def __str__(self) -> str:
        return f"Seat {self.seat} {self.name}"


class Pot(models.Model):
    """The main pot (index 0) or a side pot (14.7(c)4) of a round, before and after deductions."""

    round_of_play = models.ForeignKey(RoundOfPlay, on_delete=models.PROTECT, related_name="pots",
                                      db_index=False)  # pot_index_unique leads with it
    index = models.PositiveSmallIntegerField()
    gross = MoneyField(help_text="Sums bet into this pot.")
    deducted = MoneyField(default=Decimal("0.00"), help_text="Rake and bad-beat contribution taken.")
    amount = MoneyField(help_text="Awarded to the winners: gross less deducted.")
    eligible_seats = models.JSONField(default=list)
    runs = models.JSONField(default=list, blank=True,
                            help_text='A hand run more than once: each run\'s share of the pot and its awards, '
                                      '[{"run": 1, "amount": "50.01", "awards": [{"seat": 3, "amount": "50.01"}]}, '
                                      '...] (Decimal dollars as strings); empty for a hand run once.')

    class Meta:
        ordering = ["round_of_play", "index"]
        constraints = [
            models.UniqueConstraint(fields=["round_of_play", "index"], name="pot_index_unique"),
            models.CheckConstraint(condition=models.Q(amount=models.F("gross") - models.F("deducted")),
                                   name="pot_amount_is_gross_less_deducted"),
        ]
        triggers = [append_only]

    #: The chips pushed from the pot as the money path has just written them (see RoundOfPlay.written_pots).
    written_awards: list[PotAward] | None = None

    def __str__(self) -> str:
        return f"{self.label} of round {self.round_of_play_id}"

    @property
    def awards_list(self) -> list[PotAward]:
        """The chips pushed from the pot to each winning seat: as just written, else read."""
        return self.written_awards if self.written_awards is not None else list(self.awards.all())

    @property
    def label(self) -> str:
        return "Main pot" if self.index == 0 else f"Side pot {self.index}"


class PotAward(models.Model):
    """Chips pushed from a pot to a player."""

    pot = models.ForeignKey(Pot, on_delete=models.PROTECT, related_name="awards",
                            db_index=False)  # pot_award_seat_unique leads with it
    seat = models.PositiveSmallIntegerField()
    amount = MoneyField()

    class Meta:
        ordering = ["pot", "seat"]
        constraints = [models.UniqueConstraint(fields=["pot", "seat"], name="pot_award_seat_unique")]
        triggers = [append_only]

    def __str__(self) -> str:
        return f"${self.amount} to seat {self.seat}"


class KillMove(models.TextChoices):
    PLACED = "placed", "Kill button placed"
    MOVED = "moved", "Kill button moved"
    KEPT = "kept", "Kill button stays"
    COLLECTED = "collected", "Kill button collected"


class KillRecord(models.Model):
    """Where the kill button went after a round of Omaha high-low eight or better (N.J.A.C. 13:69F-14.11(i)-placed,
    14.11(i)-moves, 14.11(i)-collected).

    `seat` holds the kill for the next round (None once collected); the next round's limits follow it.
    Append-only: the latest record of a table is its current state.
    """

    round_of_play = models.OneToOneField(RoundOfPlay, on_delete=models.PROTECT, related_name="kill_record")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="kill_records")
    move = models.CharField(max_length=10, choices=KillMove.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=200)

    class Meta:
        ordering = ["-round_of_play__started_at", "-pk"]
        triggers = [append_only]

    def __str__(self) -> str:
        return f"{self.get_move_display()} after round {self.round_of_play_id}"
