"""Seats and waitlists kept by the floor (N.J.A.C. 13:69F-14.18: the games offered, their limits and the vacant seats).

Player data is minimal: a name or initials, a telephone number only if the player gives one, and it is removed after
the room's posted retention period (`RoomRules.retention_hours`, services.purge_player_data). The record of calls
(`FloorEvent`) is append-only and holds no personal data: it names the waitlist entry by its id, the table and seat.

A player leaves a list in three ways only, each recorded (FloorEvent: what, when, by whom, why): seated from a call
(SEATED), removed by the floor with a reason (REMOVED, RemoveReason; undone within UNDO_WITHIN: RESTORED), or a phone
sign-up not checked in in time (EXPIRED by the scheduled job, reason NOT_CHECKED_IN). Passing a called player over
(PassReason, those of PASS_REASONS for the player's state) keeps the player on the list at their place: declined a
table, not called to it again; no answer or not in time, skipped by the calls until the floor marks them back at the
desk (HERE).
"""
from __future__ import annotations

from datetime import datetime, timedelta

import pghistory
import pgtrigger
from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from apps.casinos.models import Casino
from apps.tables.models import PokerTable

append_only = pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)


@pghistory.track()
class RoomRules(models.Model):
    """The room's posted rules of seats and waitlists, as data (one row per casino; `rules_of` gives the defaults
    when a room has posted none). Every period is in minutes (retention in hours)."""

    casino = models.OneToOneField(Casino, on_delete=models.CASCADE, related_name="seat_rules")
    away_limit_minutes = models.PositiveSmallIntegerField(
        default=30, validators=[MinValueValidator(1), MaxValueValidator(240)],
        help_text="A player away from the table longer than this loses the seat.")
    check_in_minutes = models.PositiveSmallIntegerField(
        default=30, validators=[MinValueValidator(1), MaxValueValidator(240)],
        help_text="A player who signed up by phone checks in at the desk within this, or leaves the list.")
    call_minutes = models.PositiveSmallIntegerField(
        default=3, validators=[MinValueValidator(1), MaxValueValidator(30)],
        help_text="The time a called player has to take the seat.")
    table_change_minutes = models.PositiveSmallIntegerField(
        default=60, validators=[MaxValueValidator(24 * 60)],
        help_text="One table change per this period (0: no limit). A must-move move does not count.")
    feed_absent_rounds = models.PositiveSmallIntegerField(
        default=3, validators=[MinValueValidator(1), MaxValueValidator(20)],
        help_text="A seated player missing from this many rounds of play in a row shows as vacant.")
    feed_absent_minutes = models.PositiveSmallIntegerField(
        default=15, validators=[MinValueValidator(1), MaxValueValidator(240)],
        help_text="... or missing from the rounds dealt over this many minutes.")
    retention_hours = models.PositiveSmallIntegerField(
        default=24, validators=[MinValueValidator(1), MaxValueValidator(24 * 90)],
        help_text="Player names and telephone numbers are removed this long after the player leaves the list.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "posted seat and waitlist rules"
        verbose_name_plural = "posted seat and waitlist rules"

    def __str__(self) -> str:
        return f"Seat and waitlist rules of {self.casino}"

    @property
    def away_limit(self) -> timedelta:
        return timedelta(minutes=self.away_limit_minutes)

    @property
    def check_in_within(self) -> timedelta:
        return timedelta(minutes=self.check_in_minutes)

    @property
    def call_time(self) -> timedelta:
        return timedelta(minutes=self.call_minutes)

    @property
    def table_change_period(self) -> timedelta:
        return timedelta(minutes=self.table_change_minutes)

    @property
    def retention(self) -> timedelta:
        return timedelta(hours=self.retention_hours)


class SeatStatus(models.TextChoices):
    SEATED = "seated", "Seated"
    AWAY = "away", "Away"


class Seat(models.Model):
    """A taken seat at a table, as the floor keeps it: seated or away. A vacant seat has no row. Not tracked by
    pghistory (it holds a player's name); its changes are in FloorEvent, by seat number."""

    table = models.ForeignKey(PokerTable, on_delete=models.CASCADE, related_name="floor_seats")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(11)])
    player = models.CharField(max_length=40, help_text="Name or initials.")
    status = models.CharField(max_length=8, choices=SeatStatus.choices, default=SeatStatus.SEATED)
    since = models.DateTimeField(help_text="Seated at this table since.")
    away_since = models.DateTimeField(null=True, blank=True)
    changed_table_at = models.DateTimeField(null=True, blank=True,
                                            help_text="When the player last changed table at their request.")
    entry = models.ForeignKey("WaitlistEntry", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                              help_text="The waitlist entry the player was seated from, if any.")

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_one_player_per_seat"),
            models.CheckConstraint(condition=~models.Q(status="away") | models.Q(away_since__isnull=False),
                                   name="seat_away_has_since"),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id} seat {self.number}"


class WaitlistSource(models.TextChoices):
    IN_PERSON = "in_person", "In person"
    PHONE = "phone", "By phone"
    KIOSK = "kiosk", "Kiosk"


class Waitlist(models.Model):
    """The list of one game and limits (or one mixed-game rotation) of a casino. `key` is the game line's
    (selectors.line_key): the open tables posting that game and limits are the list's tables. A must-move table
    (`must_move_table`, dealing the same game) feeds the main game: its longest-seated player moves to an open seat
    of the main game before the list is called, and the list fills the must-move table."""

    casino = models.ForeignKey(Casino, on_delete=models.CASCADE, related_name="waitlists")
    key = models.CharField(max_length=120)
    game = models.CharField(max_length=200, help_text="The game's label, or the rotation's name and games.")
    limits = models.CharField(max_length=200)
    rotation = models.CharField(max_length=60, blank=True)
    must_move_table = models.ForeignKey(PokerTable, on_delete=models.SET_NULL, null=True, blank=True,
                                        related_name="+", help_text="A table feeding the main game (must-move).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["casino", "key"]
        constraints = [models.UniqueConstraint(fields=["casino", "key"], name="waitlist_one_per_game_line")]

    def __str__(self) -> str:
        return f"{self.game} {self.limits}"


class EntryStatus(models.TextChoices):
    """The stored status of an entry. A player passed over stays WAITING (see EntryState); PASSED is only on entries
    passed over before that rule (they left the list then)."""

    WAITING = "waiting", "Waiting"
    CALLED = "called", "Called"
    SEATED = "seated", "Seated"
    PASSED = "passed", "Passed over"
    EXPIRED = "expired", "Did not check in"
    REMOVED = "removed", "Removed"


#: An entry still on its list.
ON_LIST = (EntryStatus.WAITING, EntryStatus.CALLED)

#: How long after a removal the floor may undo it (services.restore_to_list): the player goes back to their place.
UNDO_WITHIN = timedelta(minutes=10)


class WaitlistEntry(models.Model):
    """A player on a list, in the order added (`created_at`, `id`). Name or initials, a phone number only if given;
    both are blanked (`purged_at`) after the posted retention period."""

    waitlist = models.ForeignKey(Waitlist, on_delete=models.PROTECT, related_name="entries")
    name = models.CharField(max_length=40, blank=True, help_text="Name or initials.")
    phone = models.CharField(max_length=20, blank=True, help_text="Only if the player gives one.")
    source = models.CharField(max_length=10, choices=WaitlistSource.choices)
    status = models.CharField(max_length=8, choices=EntryStatus.choices, default=EntryStatus.WAITING)
    created_at = models.DateTimeField()
    checked_in_at = models.DateTimeField(null=True, blank=True, help_text="In the room (at once unless by phone).")
    called_at = models.DateTimeField(null=True, blank=True)
    call_expires_at = models.DateTimeField(null=True, blank=True)
    called_table = models.ForeignKey(PokerTable, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    called_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    declined_table = models.ForeignKey(PokerTable, on_delete=models.SET_NULL, null=True, blank=True,
                                       related_name="+", help_text="Declined a seat here: keeps the place, not "
                                                                   "called to this table again.")
    passed_at = models.DateTimeField(null=True, blank=True,
                                     help_text="Passed over (no answer, not in time): keeps the place, skipped by the "
                                               "calls until back at the desk.")
    ended_at = models.DateTimeField(null=True, blank=True, help_text="Off the list (seated, passed, expired...).")
    removal_note = models.CharField(max_length=200, blank=True,
                                    help_text="Why the floor removed the player, in a few words (reason Other); "
                                              "blanked with the name and phone.")
    purged_at = models.DateTimeField(null=True, blank=True, help_text="Name, phone and removal note removed.")

    class Meta:
        ordering = ["waitlist", "created_at", "id"]
        indexes = [
            models.Index(fields=["waitlist", "created_at", "id"], name="entry_call_order",
                         condition=models.Q(status__in=["waiting", "called"])),
            models.Index(fields=["ended_at"], name="entry_to_purge", condition=models.Q(purged_at__isnull=True)),
            models.Index(fields=["created_at"], name="entry_remote_unchecked",
                         condition=models.Q(status="waiting", checked_in_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"Entry {self.pk} on {self.waitlist}"

    @property
    def initials(self) -> str:
        """The player's initials, e.g. "A.L." for "Ann Lee" or "AL"; "" once purged."""
        return initials_of(self.name)

    def state(self, now: datetime) -> EntryState:
        """Where the entry stands at `now` (EntryState): what the floor may do with it."""
        if self.status == EntryStatus.CALLED:
            expires = self.call_expires_at
            return EntryState.CALL_EXPIRED if expires is not None and now > expires else EntryState.CALLED
        if self.status != EntryStatus.WAITING:
            return EntryState.OFF
        if self.checked_in_at is None:
            return EntryState.TO_CHECK_IN
        return EntryState.SKIPPED if self.passed_at is not None else EntryState.WAITING


def initials_of(name: str) -> str:
    """ "Ann Lee" -> "A.L."; "al" -> "A.L." (one word of up to 3 letters is taken as initials); "Ann" -> "A." """
    words = name.replace(".", " ").split()
    if len(words) == 1 and len(words[0]) <= 3:
        words = list(words[0])
    return "".join(f"{w[0].upper()}." for w in words if w[:1].isalnum())


class EventKind(models.TextChoices):
    ADDED = "added", "Added to the list"
    CHECKED_IN = "checked_in", "Checked in"
    CALLED = "called", "Called to a seat"
    SEATED = "seated", "Seated"
    PASSED = "passed", "Passed over"
    EXPIRED = "expired", "Did not check in in time"
    REMOVED = "removed", "Removed from the list"
    WALK_IN = "walk_in", "Seated by the floor"
    AWAY = "away", "Away from the table"
    BACK = "back", "Back at the table"
    VACATED = "vacated", "Seat vacated"
    AWAY_LIMIT = "away_limit", "Seat vacated: away limit"
    TABLE_CHANGE = "table_change", "Table change"
    MUST_MOVE = "must_move", "Must-move to the main game"
    HERE = "here", "Back at the desk (called again)"
    RESTORED = "restored", "Put back on the list (removal undone)"


class PassReason(models.TextChoices):
    """Why a player was passed over (or, NOT_CHECKED_IN, why a phone sign-up left the list: the scheduled job's).
    Which reasons fit which player: PASS_REASONS. LEFT is a removal's reason now (RemoveReason); it stays here for the
    records of passes before that rule."""

    NO_ANSWER = "no_answer", "No answer when called"
    NOT_IN_TIME = "not_in_time", "Did not take the seat in time"
    DECLINED_TABLE = "declined_table", "Declined this table (keeps the place)"
    LEFT = "left", "Left the room"
    NOT_CHECKED_IN = "not_checked_in", "Not checked in"


class RemoveReason(models.TextChoices):
    """Why the floor took a player off a list (services.remove_from_list); OTHER needs a note."""

    LEFT = "left", "Left the room"
    SEATED_ELSEWHERE = "seated_elsewhere", "Seated in another game"
    ASKED = "asked", "Asked to be removed"
    DUPLICATE = "duplicate", "Duplicate entry"
    OTHER = "other", "Other (say why)"


#: Every reason the record may hold (FloorEvent.reason): a pass's, an expiry's or a removal's.
RECORD_REASONS = list(dict(PassReason.choices + RemoveReason.choices).items())


class EntryState(models.TextChoices):
    """Where an entry stands (WaitlistEntry.state, derived from its fields at a moment). On the list: a phone sign-up
    to check in; waiting to be called; passed over (no answer, not in time: keeps the place, skipped by the calls
    until back at the desk); called, within the call time or after it. Off the list: seated, removed, expired."""

    TO_CHECK_IN = "to_check_in", "Waiting to check in"
    WAITING = "waiting", "Waiting"
    SKIPPED = "skipped", "Passed over: skipped until back at the desk"
    CALLED = "called", "Called, within the call time"
    CALL_EXPIRED = "call_expired", "Called, the call time passed"
    OFF = "off", "Off the list"


#: The reasons a player may be passed over for, by state (the one place: the board's form offers these, and
#: services.pass_over refuses any other). Only a called player is passed over: never called, they cannot have failed
#: to answer, run out of time or declined a seat. "Did not take the seat in time" only once the call time passed.
PASS_REASONS: dict[str, tuple[PassReason, ...]] = {
    EntryState.CALLED: (PassReason.NO_ANSWER, PassReason.DECLINED_TABLE),
    EntryState.CALL_EXPIRED: (PassReason.NOT_IN_TIME, PassReason.NO_ANSWER, PassReason.DECLINED_TABLE),
}


def pass_reasons_for(entry: WaitlistEntry, now: datetime) -> list[tuple[str, str]]:
    """The (value, label) pairs of the reasons `entry` may be passed over for at `now` (PASS_REASONS); [] when it may
    not be passed over at all."""
    return [(r.value, r.label) for r in PASS_REASONS.get(entry.state(now), ())]


class FloorEvent(models.Model):
    """The record of the floor's seats and lists (append-only): who was added, called, seated, passed over and why,
    seats vacated and changed. No personal data: the entry by id, the table, the seat number, a reason from a list."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=14, choices=EventKind.choices)
    at = models.DateTimeField()
    waitlist = models.ForeignKey(Waitlist, on_delete=models.PROTECT, null=True, blank=True, related_name="events")
    entry = models.ForeignKey(WaitlistEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="events")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=16, choices=RECORD_REASONS, blank=True,
                              help_text="Why the player was passed over, removed or left the list (a code).")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                           related_name="+", help_text="Empty for a scheduled job or a kiosk.")
    kiosk = models.CharField(max_length=80, blank=True,
                             help_text="The kiosk (its link's name) where a player added themselves; by is empty.")

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["casino", "-at", "-id"], name="floor_event_newest_first")]
        triggers = [append_only]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.at:%H:%M}"


class RoundSeatsAccepted(models.Model):
    """The floor took a round of play's seats into its record (services.accept_round_seats; append-only): who, when,
    which round (the table's newest, current then), and what changed — the seats taken as the round reported them
    (`seated`) and the seats vacated because it did not show their player (`vacated`), by number. No personal data;
    each seat changed is also in FloorEvent (WALK_IN, VACATED) with the same moment."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="+")
    round_of_play = models.ForeignKey("rounds.RoundOfPlay", on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    seated = ArrayField(models.PositiveSmallIntegerField(), default=list, blank=True,
                        help_text="Seats taken as the round reported them (numbers).")
    vacated = ArrayField(models.PositiveSmallIntegerField(), default=list, blank=True,
                         help_text="Seats vacated: the round did not show their player (numbers).")

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = "round's seats accepted"
        verbose_name_plural = "rounds' seats accepted"
        indexes = [models.Index(fields=["table", "-at", "-id"], name="round_seats_accepted_newest")]
        triggers = [append_only]

    def __str__(self) -> str:
        return f"Table {self.table_id}: seats of round {self.round_of_play_id} accepted at {self.at:%H:%M}"
