"""Writes of the floor's seats and waitlists (N.J.A.C. 13:69F-14.18: the vacant seats the room announces are the
floor's). Every write runs in a transaction, holds the table's row (seats) or the list's row (its entries) under a
lock, and records what it did in FloorEvent (append-only, no personal data). A broken rule raises DomainError naming
the field; nothing is written then.

The room's posted rules (RoomRules, per casino): a phone sign-up checks in within `check_in_minutes`; a called player
takes the seat within `call_minutes`; one table change per `table_change_minutes`; an away player keeps the seat for
`away_limit_minutes`; names and phone numbers are removed `retention_hours` after the player leaves the list. The
scheduled jobs (tasks.py) call `expire_remote_sign_ups`, `apply_away_limit` and `purge_player_data`; each is
idempotent (a second run at the same moment changes nothing).

Off a list, always recorded with when, by whom (empty: the scheduled job) and why: seat_called (SEATED),
remove_from_list (REMOVED with a RemoveReason; restore_to_list undoes it within UNDO_WITHIN) and
expire_remote_sign_ups (EXPIRED, not checked in). pass_over keeps the player on the list (models.PASS_REASONS).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.casinos.models import Casino, User
from apps.core.exceptions import DomainError
from apps.rounds.selectors import seats_seen
from apps.tables.models import PokerTable

from .models import (
    ON_LIST,
    PASS_REASONS,
    UNDO_WITHIN,
    EntryState,
    EntryStatus,
    EventKind,
    FloorEvent,
    PassReason,
    RemoveReason,
    RoomRules,
    RoundSeatsAccepted,
    Seat,
    SeatStatus,
    Waitlist,
    WaitlistEntry,
    WaitlistSource,
)
from .selectors import SeatView, eligible, line_key, line_texts, rules_of, seat_views, seats_of

PHONE = re.compile(r"^\+?[0-9 ()\-.]{7,20}$")


def _event(casino: Casino, kind: str, at: datetime, *, by: User | None, **fields) -> FloorEvent:
    return FloorEvent.objects.create(casino=casino, kind=kind, at=at, by=by, **fields)


def _local(casino: Casino, moment: datetime) -> str:
    return timezone.localtime(moment, casino.zone).strftime("%H:%M")


def _locked_table(table: PokerTable, casino: Casino | None) -> PokerTable:
    table = PokerTable.objects.select_for_update().prefetch_related("rotation").get(pk=table.pk)
    if casino is None or table.casino_id != casino.pk:
        raise DomainError("That table is not in this room.", field="table")
    if not table.is_open:
        raise DomainError(f"Table {table.number} is closed.", field="table")
    return table


def _player(text: str, field: str = "name") -> str:
    text = " ".join((text or "").split())
    if not text:
        raise DomainError("Give the player's name or initials.", field=field)
    if len(text) > 40:
        raise DomainError("At most 40 characters: a name or initials.", field=field)
    return text


def _seat_view(table: PokerTable, number: int, rules: RoomRules, now: datetime) -> SeatView:
    if not 1 <= number <= table.seats:
        raise DomainError(f"Table {table.number} has seats 1 to {table.seats}.", field="seat")
    called = list(WaitlistEntry.objects.filter(status=EntryStatus.CALLED, called_table=table, called_seat=number))
    return seats_of(tables=[table], rules=rules, now=now, called=called)[0].seats[number - 1]


def _free_seat(table: PokerTable, number: int, rules: RoomRules, now: datetime, by: User | None, *,
               called: WaitlistEntry | None = None, feed_taken_ok: bool = False) -> None:
    """Check that seat `number` of the (locked) table may be given now: vacant in the floor's record; not shown taken
    by the newest (current) round, unless `feed_taken_ok` (the floor writing down the player sitting there); not held
    for another called player. The record changes only by a service: a seat the rounds no longer show stays taken
    until the floor vacates it (or accepts the round's seats: accept_round_seats)."""
    view = _seat_view(table, number, rules, now)
    if view.status != "vacant":
        raise DomainError(f"Seat {number} at table {table.number} is taken.", field="seat")
    if view.feed_taken is not None and not feed_taken_ok:
        raise DomainError(f"The newest round of play shows a player in seat {number} at table {table.number}: check "
                          "the table first.", field="seat")
    if view.called is not None and view.called != called:
        raise DomainError(f"A player is called to seat {number} at table {table.number}.", field="seat")


def _create_seat(table: PokerTable, number: int, **fields) -> Seat:
    try:
        with transaction.atomic():
            return Seat.objects.create(table=table, number=number, **fields)
    except IntegrityError:
        raise DomainError(f"Seat {number} at table {table.number} is taken.", field="seat") from None


# --- seats -----------------------------------------------------------------------------------------------------------

@transaction.atomic
def seat_player(*, table: PokerTable, number: int, player: str, by: User, now: datetime | None = None) -> Seat:
    """Seat a player who walked up (no list) at seat `number` (1..table.seats) of an open table, as the floor keeps
    it (14.18); also how the floor writes down the player a seat the feed's newest round shows taken holds (the seat
    flagged on the board). player: name or initials (1-40 characters). Raises DomainError (field table, seat,
    name)."""
    now = now or timezone.now()
    table = _locked_table(table, by.casino)
    player = _player(player)
    _free_seat(table, number, rules_of(casino=table.casino), now, by, feed_taken_ok=True)
    seat = _create_seat(table, number, player=player, since=now)
    _event(table.casino, EventKind.WALK_IN, now, by=by, table=table, seat=number)
    return seat


def _locked_seat(seat: Seat, by: User) -> Seat:
    table = _locked_table(seat.table, by.casino)
    locked = Seat.objects.select_for_update().filter(pk=seat.pk).first()
    if locked is None:
        raise DomainError("That seat was vacated meanwhile.", field="seat")
    locked.table = table
    return locked


@transaction.atomic
def mark_away(*, seat: Seat, by: User, now: datetime | None = None) -> Seat:
    """The seated player stepped away: the seat is kept for the room's posted away limit (RoomRules.away_limit)."""
    now = now or timezone.now()
    seat = _locked_seat(seat, by)
    if seat.status == SeatStatus.AWAY:
        raise DomainError("The player is already away.", field="seat")
    seat.status, seat.away_since = SeatStatus.AWAY, now
    seat.save(update_fields=["status", "away_since"])
    _event(seat.table.casino, EventKind.AWAY, now, by=by, table=seat.table, seat=seat.number)
    return seat


@transaction.atomic
def mark_back(*, seat: Seat, by: User, now: datetime | None = None) -> Seat:
    """The away player is back within the posted away limit (at its last moment included); after it the seat is
    lost (apply_away_limit vacates it): raises DomainError."""
    now = now or timezone.now()
    seat = _locked_seat(seat, by)
    away_since = seat.away_since  # set on every seat away (seat_away_has_since)
    if seat.status != SeatStatus.AWAY or away_since is None:
        raise DomainError("The player is not away.", field="seat")
    rules = rules_of(casino=seat.table.casino)
    if now > away_since + rules.away_limit:
        raise DomainError(f"The away limit of {rules.away_limit_minutes} minutes passed at "
                          f"{_local(seat.table.casino, away_since + rules.away_limit)}: the seat is lost.",
                          field="seat")
    seat.status, seat.away_since = SeatStatus.SEATED, None
    seat.save(update_fields=["status", "away_since"])
    _event(seat.table.casino, EventKind.BACK, now, by=by, table=seat.table, seat=seat.number)
    return seat


@transaction.atomic
def vacate(*, seat: Seat, by: User, now: datetime | None = None) -> None:
    """The player left: the seat is vacant (its row removed, the event recorded with the seat number only)."""
    now = now or timezone.now()
    seat = _locked_seat(seat, by)
    seat.delete()
    _event(seat.table.casino, EventKind.VACATED, now, by=by, table=seat.table, seat=seat.number)


@transaction.atomic
def change_table(*, seat: Seat, to_table: PokerTable, to_number: int, by: User, now: datetime | None = None) -> Seat:
    """A seated player's requested table change to a vacant seat of another open table of the same game and limits;
    one per the room's posted period (RoomRules.table_change_minutes, 0: no limit; a must-move move does not count).
    Raises DomainError (field table, seat)."""
    now = now or timezone.now()
    casino = by.casino
    if casino is None:
        raise DomainError("That table is not in this room.", field="table")
    for table in sorted([seat.table, to_table], key=lambda t: t.pk):
        _locked_table(table, casino)
    seat = _locked_seat(seat, by)
    to_table = PokerTable.objects.prefetch_related("rotation").get(pk=to_table.pk)
    if to_table.pk == seat.table_id:
        raise DomainError("A table change is to another table.", field="table")
    if line_key(to_table) != line_key(seat.table):
        raise DomainError(f"Table {to_table.number} deals another game or limits.", field="table")
    rules = rules_of(casino=casino)
    if rules.table_change_minutes and seat.changed_table_at and now < seat.changed_table_at + \
            rules.table_change_period:
        raise DomainError(f"One table change per {rules.table_change_minutes} minutes: the next from "
                          f"{_local(casino, seat.changed_table_at + rules.table_change_period)}.", field="table")
    _free_seat(to_table, to_number, rules, now, by)
    player, entry = seat.player, seat.entry_id
    seat.delete()
    moved = _create_seat(to_table, to_number, player=player, since=now, changed_table_at=now, entry_id=entry)
    _event(casino, EventKind.TABLE_CHANGE, now, by=by, table=to_table, seat=to_number)
    return moved


@dataclass(frozen=True)
class SeatsTaken:
    """What accept_round_seats changed in the record: the seats taken as the round reported them and the seats
    vacated (numbers, in order), and its record (None when nothing changed)."""

    seated: tuple[int, ...]
    vacated: tuple[int, ...]
    record: RoundSeatsAccepted | None

    @property
    def changed(self) -> bool:
        return bool(self.seated or self.vacated)


@transaction.atomic
def accept_round_seats(*, table: PokerTable, round_id: int, by: User, now: datetime | None = None) -> SeatsTaken:
    """Make the floor's seats record of an open table what its newest round of play `round_id` reports (14.18): each
    seat the round shows and the record has vacant is taken (the round's name for the player, or "Seat N, round R"
    when it gave none; since the round started); each seat the record has seated that the round does not show is
    vacated. An away player is not expected in the rounds: the seat stays. Recorded (RoundSeatsAccepted: who, when,
    which round, what changed; a FloorEvent per seat). Idempotent: once the record agrees with the round, nothing
    changes and nothing is recorded (`SeatsTaken.changed` False).

    Raises DomainError (field "round") when `round_id` is no longer the table's newest round, or that round is older
    than SEATS_FRESH_FOR (it says nothing of who sits there now); (field "table") a table of another casino or closed.
    """
    now = now or timezone.now()
    table = _locked_table(table, by.casino)
    seen = seats_seen(table_ids=[table.pk], now=now).get(table.pk)
    if seen is None or seen.round_id != round_id:
        raise DomainError(f"A newer round of play came in at table {table.number}: look at its seats again.",
                          field="round")
    if not seen.current:
        raise DomainError(f"The newest round at table {table.number} is too old to say who sits there now.",
                          field="round")
    kept = {seat.number: seat for seat in Seat.objects.select_for_update().filter(table=table)}
    views = seat_views(table=table, kept=kept, seen=seen, rules=rules_of(casino=table.casino), now=now)
    seated = tuple(v.number for v in views if v.feed_taken is not None)
    vacated = tuple(v.number for v in views if v.feed_gone)
    if not seated and not vacated:
        return SeatsTaken(seated=(), vacated=(), record=None)
    for number in vacated:
        kept[number].delete()
        _event(table.casino, EventKind.VACATED, now, by=by, table=table, seat=number)
    for number in seated:
        name = " ".join(seen.seats[number].split())[:40] or f"Seat {number}, round {round_id}"[:40]
        _create_seat(table, number, player=name, since=seen.seen_at)
        _event(table.casino, EventKind.WALK_IN, now, by=by, table=table, seat=number)
    record = RoundSeatsAccepted.objects.create(casino=table.casino, table=table, round_of_play_id=round_id, at=now,
                                               by=by, seated=list(seated), vacated=list(vacated))
    return SeatsTaken(seated=seated, vacated=vacated, record=record)


# --- waitlists -------------------------------------------------------------------------------------------------------

@transaction.atomic
def start_list(*, table: PokerTable, by: User, must_move_table: PokerTable | None = None) -> Waitlist:
    """The list of the game and limits (or rotation) that `table` posts (open or closed: a list may wait for a
    game to start); the existing one when the room keeps it already. A must-move table (open or not, dealing the same
    game and limits, not the table itself) may be named to feed the main game."""
    if table.casino_id != by.casino_id:
        raise DomainError("That table is not in this room.", field="table")
    table = PokerTable.objects.prefetch_related("rotation").get(pk=table.pk)
    key = line_key(table)
    game, limits, rotation = line_texts(table)
    waitlist, _ = Waitlist.objects.get_or_create(casino=table.casino, key=key, defaults={
        "game": game, "limits": limits, "rotation": rotation})
    if must_move_table is not None:
        set_must_move(waitlist=waitlist, table=must_move_table, by=by)
    return waitlist


@transaction.atomic
def set_must_move(*, waitlist: Waitlist, table: PokerTable | None, by: User) -> Waitlist:
    """Name (or, with None, clear) the list's must-move table: a table of the same game and limits whose
    longest-seated player moves to an open seat of the main game before the list is called."""
    waitlist = Waitlist.objects.select_for_update().get(pk=waitlist.pk)
    if table is not None:
        table = PokerTable.objects.prefetch_related("rotation").get(pk=table.pk)
        if table.casino_id != waitlist.casino_id or table.casino_id != by.casino_id:
            raise DomainError("That table is not in this room.", field="must_move_table")
        if line_key(table) != waitlist.key:
            raise DomainError(f"Table {table.number} deals another game or limits.", field="must_move_table")
    waitlist.must_move_table = table
    waitlist.save(update_fields=["must_move_table"])
    return waitlist


@transaction.atomic
def add_to_list(*, waitlist: Waitlist, name: str, source: str, by: User, phone: str = "",
                now: datetime | None = None) -> WaitlistEntry:
    """Put a player at the end of a list: name or initials (1-40 characters), a phone number only if the player
    gives one (7-20 digits, spaces, +()-.), `source` in person, by phone or at the kiosk. A player in the room (in
    person, kiosk) is checked in at once; a phone sign-up checks in at the desk within the room's posted time
    (RoomRules.check_in_minutes) or leaves the list (expire_remote_sign_ups). Raises DomainError (name, phone,
    source)."""
    return _add_entry(waitlist=waitlist, casino_id=by.casino_id, name=name, phone=phone, source=source,
                      now=now or timezone.now(), by=by)


@transaction.atomic
def join_at_kiosk(*, waitlist: Waitlist, casino: Casino, kiosk: str, name: str, phone: str = "",
                  now: datetime | None = None) -> WaitlistEntry:
    """A player puts their own name on a list at the room's kiosk (14.18): a tablet opened by a kiosk link
    (apps.screens, ScreenKind.KIOSK), with no staff session, so nobody of the staff adds them. As add_to_list with
    source "kiosk" (checked in at once); the record's `by` is empty and `kiosk` names the kiosk (its link's name).
    `casino`: the kiosk link's. Raises DomainError: a list of another casino (waitlist), the name or phone
    (name, phone)."""
    return _add_entry(waitlist=waitlist, casino_id=casino.pk, name=name, phone=phone, source=WaitlistSource.KIOSK,
                      now=now or timezone.now(), by=None, kiosk=kiosk)


def _add_entry(*, waitlist: Waitlist, casino_id: int | None, name: str, phone: str, source: str, now: datetime,
               by: User | None, kiosk: str = "") -> WaitlistEntry:
    waitlist = Waitlist.objects.select_for_update().get(pk=waitlist.pk)
    if waitlist.casino_id != casino_id:
        raise DomainError("That list is not in this room.", field="waitlist")
    if source not in WaitlistSource.values:
        raise DomainError("In person, by phone or at the kiosk.", field="source")
    name = _player(name)
    phone = " ".join((phone or "").split())
    if phone and not PHONE.match(phone):
        raise DomainError("A phone number of 7 to 20 digits (spaces, +, (), - and . allowed).", field="phone")
    entry = WaitlistEntry.objects.create(
        waitlist=waitlist, name=name, phone=phone, source=source, created_at=now,
        checked_in_at=None if source == WaitlistSource.PHONE else now)
    _event(waitlist.casino, EventKind.ADDED, now, by=by, waitlist=waitlist, entry=entry, kiosk=kiosk[:80])
    return entry


def _locked_entry(entry: WaitlistEntry, by: User) -> WaitlistEntry:
    waitlist = Waitlist.objects.select_for_update().get(pk=entry.waitlist_id)
    if waitlist.casino_id != by.casino_id:
        raise DomainError("That list is not in this room.", field="entry")
    entry = WaitlistEntry.objects.select_for_update().get(pk=entry.pk)
    entry.waitlist = waitlist
    return entry


@transaction.atomic
def check_in(*, entry: WaitlistEntry, by: User, now: datetime | None = None) -> WaitlistEntry:
    """A phone sign-up arrived at the desk within the posted check-in time (its last moment included); after it, or
    when already checked in or off the list, raises DomainError."""
    now = now or timezone.now()
    entry = _locked_entry(entry, by)
    if entry.status not in ON_LIST or entry.checked_in_at is not None:
        raise DomainError("The player is not waiting to check in.", field="entry")
    rules = rules_of(casino=entry.waitlist.casino)
    deadline = entry.created_at + rules.check_in_within
    if now > deadline:
        raise DomainError(f"The check-in time passed at {_local(entry.waitlist.casino, deadline)}: add the player "
                          "again.", field="entry")
    entry.checked_in_at = now
    entry.save(update_fields=["checked_in_at"])
    _event(entry.waitlist.casino, EventKind.CHECKED_IN, now, by=by, waitlist=entry.waitlist, entry=entry)
    return entry


def _list_tables(waitlist: Waitlist, table: PokerTable) -> None:
    if line_key(table) != waitlist.key and table.pk != waitlist.must_move_table_id:
        raise DomainError(f"Table {table.number} does not deal this list's game and limits.", field="table")


def _must_move_first(waitlist: Waitlist, table: PokerTable) -> Seat | None:
    """The must-move table's longest-seated player, who moves to an open seat of the main game before the list is
    called (None: no must-move table, the seat is at it, or nobody seated there)."""
    if waitlist.must_move_table_id is None or table.pk == waitlist.must_move_table_id:
        return None
    return (Seat.objects.filter(table_id=waitlist.must_move_table_id, status=SeatStatus.SEATED)
            .order_by("since", "number").first())


@transaction.atomic
def call_next(*, waitlist: Waitlist, table: PokerTable, seat: int, by: User,
              now: datetime | None = None) -> WaitlistEntry:
    """Call the list's next player to open seat `seat` of `table` (a table of the list's game, or its must-move
    table): the first player in the order added who is checked in and has not declined this table. The player has
    the room's posted call time (RoomRules.call_minutes) to take it. At a main-game table with a must-move table, the
    must-move table's longest-seated player moves first (move_from_must_move): raises DomainError. Raises
    DomainError (table, seat, or waitlist when nobody can be called)."""
    now = now or timezone.now()
    table = _locked_table(table, by.casino)
    waitlist = Waitlist.objects.select_for_update().get(pk=waitlist.pk)
    _list_tables(waitlist, table)
    rules = rules_of(casino=table.casino)
    _free_seat(table, seat, rules, now, by)
    if (mover := _must_move_first(waitlist, table)) is not None:
        raise DomainError(f"The must-move player in seat {mover.number} at table {mover.table.number} moves to this "
                          "seat first.", field="seat")
    entries = WaitlistEntry.objects.select_for_update().filter(waitlist=waitlist, status__in=ON_LIST) \
        .order_by("created_at", "id")
    entry = next((e for e in entries if eligible(e, table)), None)
    if entry is None:
        raise DomainError("Nobody on the list can be called to this table now.", field="waitlist")
    entry.status, entry.called_at, entry.call_expires_at = EntryStatus.CALLED, now, now + rules.call_time
    entry.called_table, entry.called_seat = table, seat
    entry.save(update_fields=["status", "called_at", "call_expires_at", "called_table", "called_seat"])
    _event(table.casino, EventKind.CALLED, now, by=by, waitlist=waitlist, entry=entry, table=table, seat=seat)
    return entry


@transaction.atomic
def seat_called(*, entry: WaitlistEntry, by: User, now: datetime | None = None) -> Seat:
    """The called player takes the seat within the call time (its last moment included): seated there, off the
    list. After the call time the floor passes the player over (pass_over, not in time) or calls again: raises
    DomainError."""
    now = now or timezone.now()
    entry = WaitlistEntry.objects.select_related("called_table").get(pk=entry.pk)
    if entry.status != EntryStatus.CALLED or entry.called_table is None:
        raise DomainError("The player has not been called.", field="entry")
    table = _locked_table(entry.called_table, by.casino)
    entry = _locked_entry(entry, by)
    if entry.status != EntryStatus.CALLED or entry.call_expires_at is None or entry.called_seat is None:
        raise DomainError("The player has not been called.", field="entry")
    if now > entry.call_expires_at:
        raise DomainError(f"The call expired at {_local(table.casino, entry.call_expires_at)}: pass the player over "
                          "or call again.", field="entry")
    _free_seat(table, entry.called_seat, rules_of(casino=table.casino), now, by, called=entry)
    seat = _create_seat(table, entry.called_seat, player=entry.name or "—", since=now, entry=entry)
    entry.status, entry.ended_at = EntryStatus.SEATED, now
    entry.save(update_fields=["status", "ended_at"])
    _event(table.casino, EventKind.SEATED, now, by=by, waitlist=entry.waitlist, entry=entry, table=table,
           seat=seat.number)
    return seat


@transaction.atomic
def pass_over(*, entry: WaitlistEntry, reason: str, by: User, now: datetime | None = None) -> WaitlistEntry:
    """Pass over a called player, with a reason that fits the player's state (models.PASS_REASONS: no answer or
    declined this table while the call runs; after the call time also not in time). The player stays on the list at
    their place: declined this table, not called to it again; no answer or not in time, skipped by the calls until
    the floor marks them back at the desk (mark_here). Only removal takes a player off the list. The call ends; the
    record keeps the reason and the seat called to. Raises DomainError (reason: not a pass reason, or not one for the
    player's state, e.g. a player never called; entry: off the list); nothing is written then."""
    now = now or timezone.now()
    entry = _locked_entry(entry, by)
    if reason not in PassReason.values:
        raise DomainError("Choose why the player is passed over.", field="reason")
    state = entry.state(now)
    if state == EntryState.OFF:
        raise DomainError("The player is no longer on the list.", field="entry")
    fits = PASS_REASONS.get(state, ())
    if reason not in fits:
        expires = entry.call_expires_at
        if reason == PassReason.NOT_IN_TIME and state == EntryState.CALLED and expires is not None:
            raise DomainError(f"The player has until {_local(entry.waitlist.casino, expires)} to take the "
                              "seat.", field="reason")
        if not fits:
            raise DomainError(f"Only a called player is passed over: this one is {state.label.lower()}.",
                              field="reason")
        if reason == PassReason.LEFT:
            raise DomainError("A player who left the room is removed from the list, not passed over.",
                              field="reason")
        raise DomainError(f"“{PassReason(reason).label}” is not a reason to pass over a player "
                          f"{state.label.lower()}; choose: {', '.join(str(r.label) for r in fits)}.", field="reason")
    table, seat = entry.called_table, entry.called_seat
    entry.status = EntryStatus.WAITING
    if reason == PassReason.DECLINED_TABLE:
        entry.declined_table = table
    else:
        entry.passed_at = now
    entry.called_at = entry.call_expires_at = entry.called_table = entry.called_seat = None
    entry.save(update_fields=["status", "declined_table", "passed_at", "called_at", "call_expires_at",
                              "called_table", "called_seat"])
    _event(entry.waitlist.casino, EventKind.PASSED, now, by=by, waitlist=entry.waitlist, entry=entry, table=table,
           seat=seat, reason=reason)
    return entry


@transaction.atomic
def mark_here(*, entry: WaitlistEntry, by: User, now: datetime | None = None) -> WaitlistEntry:
    """A player passed over (no answer, not in time) is back at the desk: called again, at their place on the list.
    Recorded (HERE). Raises DomainError (entry: not a player passed over and skipped)."""
    now = now or timezone.now()
    entry = _locked_entry(entry, by)
    if entry.state(now) != EntryState.SKIPPED:
        raise DomainError("The player is not skipped: nothing to mark.", field="entry")
    entry.passed_at = None
    entry.save(update_fields=["passed_at"])
    _event(entry.waitlist.casino, EventKind.HERE, now, by=by, waitlist=entry.waitlist, entry=entry)
    return entry


@transaction.atomic
def remove_from_list(*, entry: WaitlistEntry, reason: str, by: User, note: str = "",
                     now: datetime | None = None) -> WaitlistEntry:
    """Take a player off the list (waiting, passed over or called; a call ends), with the reason (RemoveReason: left
    the room, seated in another game, asked, duplicate entry, or other with `note`: 1-200 characters, no names; kept
    on the entry and blanked with the name). Recorded (REMOVED: reason, by, when). The floor may undo it within
    UNDO_WITHIN (restore_to_list). Raises DomainError (reason, note, entry: off the list); nothing is written
    then."""
    now = now or timezone.now()
    entry = _locked_entry(entry, by)
    if reason not in RemoveReason.values:
        raise DomainError("Choose why the player is removed.", field="reason")
    note = " ".join((note or "").split())
    if reason == RemoveReason.OTHER and not note:
        raise DomainError("Say why in a few words (no names).", field="note")
    if len(note) > 200:
        raise DomainError("At most 200 characters.", field="note")
    if entry.status not in ON_LIST:
        raise DomainError("The player is no longer on the list.", field="entry")
    table, seat = entry.called_table, entry.called_seat
    entry.status, entry.ended_at, entry.removal_note = EntryStatus.REMOVED, now, note
    entry.called_at = entry.call_expires_at = entry.called_table = entry.called_seat = None
    entry.save(update_fields=["status", "ended_at", "removal_note", "called_at", "call_expires_at", "called_table",
                              "called_seat"])
    _event(entry.waitlist.casino, EventKind.REMOVED, now, by=by, waitlist=entry.waitlist, entry=entry, table=table,
           seat=seat, reason=reason)
    return entry


@transaction.atomic
def restore_to_list(*, entry: WaitlistEntry, by: User, now: datetime | None = None) -> WaitlistEntry:
    """Undo a removal within UNDO_WITHIN of it (its last moment included): the player is back on the list at their
    place (the order added is kept), waiting (a call the removal ended is not given back; a player skipped stays
    skipped). Recorded (RESTORED). Raises DomainError (entry: not removed, or removed too long ago)."""
    now = now or timezone.now()
    entry = _locked_entry(entry, by)
    ended = entry.ended_at
    if entry.status != EntryStatus.REMOVED or ended is None or entry.purged_at is not None:
        raise DomainError("The player was not removed from the list.", field="entry")
    if now > ended + UNDO_WITHIN:
        raise DomainError(f"A removal is undone within {UNDO_WITHIN.seconds // 60} minutes: add the player "
                          "again.", field="entry")
    entry.status, entry.ended_at = EntryStatus.WAITING, None
    entry.save(update_fields=["status", "ended_at"])
    _event(entry.waitlist.casino, EventKind.RESTORED, now, by=by, waitlist=entry.waitlist, entry=entry)
    return entry


@transaction.atomic
def move_from_must_move(*, waitlist: Waitlist, table: PokerTable, seat: int, by: User,
                        now: datetime | None = None) -> Seat:
    """Move the must-move table's longest-seated player to open seat `seat` of a main-game `table` (the list's
    game, not the must-move table). The move is the house's: it is not a table change (the player's own period is
    kept). The must-move seat left is then the list's to fill. Raises DomainError (table, seat, waitlist)."""
    now = now or timezone.now()
    waitlist = Waitlist.objects.get(pk=waitlist.pk)
    if waitlist.must_move_table_id is None:
        raise DomainError("This list has no must-move table.", field="waitlist")
    for locked in sorted({table.pk, waitlist.must_move_table_id}):
        _locked_table(PokerTable(pk=locked), by.casino)
    table = PokerTable.objects.prefetch_related("rotation").get(pk=table.pk)
    if table.pk == waitlist.must_move_table_id:
        raise DomainError("The must-move table's players move to the main game.", field="table")
    _list_tables(waitlist, table)
    _free_seat(table, seat, rules_of(casino=table.casino), now, by)
    mover = _must_move_first(waitlist, table)
    if mover is None:
        raise DomainError("Nobody is seated at the must-move table.", field="waitlist")
    mover = Seat.objects.select_for_update().get(pk=mover.pk)
    from_seat = mover.number
    player, entry, changed = mover.player, mover.entry_id, mover.changed_table_at
    mover.delete()
    moved = _create_seat(table, seat, player=player, since=now, entry_id=entry, changed_table_at=changed)
    _event(table.casino, EventKind.VACATED, now, by=by, table_id=waitlist.must_move_table_id, seat=from_seat)
    _event(table.casino, EventKind.MUST_MOVE, now, by=by, waitlist=waitlist, table=table, seat=seat)
    return moved


# --- the scheduled jobs ----------------------------------------------------------------------------------------------

def _rules_by_casino() -> dict[int, RoomRules]:
    posted = {r.casino_id: r for r in RoomRules.objects.all()}
    return {c.pk: posted.get(c.pk) or RoomRules(casino=c) for c in Casino.objects.all()}


@transaction.atomic
def expire_remote_sign_ups(*, now: datetime | None = None) -> int:
    """Take off their lists the phone sign-ups not checked in within their casino's posted time (strictly after the
    deadline), recorded as expired. Returns how many; a second run at the same moment finds none."""
    now = now or timezone.now()
    expired = 0
    for casino_id, rules in _rules_by_casino().items():
        entries = WaitlistEntry.objects.select_for_update(skip_locked=True).filter(
            waitlist__casino_id=casino_id, status=EntryStatus.WAITING, checked_in_at__isnull=True,
            created_at__lt=now - rules.check_in_within).select_related("waitlist")
        for entry in entries:
            entry.status, entry.ended_at = EntryStatus.EXPIRED, now
            entry.save(update_fields=["status", "ended_at"])
            _event(entry.waitlist.casino, EventKind.EXPIRED, now, by=None, waitlist=entry.waitlist, entry=entry,
                   reason=PassReason.NOT_CHECKED_IN)
            expired += 1
    return expired


@transaction.atomic
def apply_away_limit(*, now: datetime | None = None) -> int:
    """Vacate every seat whose player has been away longer than the casino's posted away limit, recorded. Returns
    how many; a second run at the same moment finds none."""
    now = now or timezone.now()
    vacated = 0
    for casino_id, rules in _rules_by_casino().items():
        for seat in Seat.objects.select_for_update(skip_locked=True).filter(
                table__casino_id=casino_id, status=SeatStatus.AWAY, away_since__lt=now - rules.away_limit) \
                .select_related("table__casino"):
            seat.delete()
            _event(seat.table.casino, EventKind.AWAY_LIMIT, now, by=None, table=seat.table, seat=seat.number)
            vacated += 1
    return vacated


@transaction.atomic
def purge_player_data(*, now: datetime | None = None) -> int:
    """Remove the name and phone number of every player off a list for longer than the casino's posted retention
    period (the entry stays, blank, for the record of calls, which names no one), and the seats the floor still keeps
    at a table that has closed (no one sits at a closed table; each recorded as vacated). Returns how many entries
    and seats; a second run finds none."""
    now = now or timezone.now()
    purged = 0
    for casino_id, rules in _rules_by_casino().items():
        purged += WaitlistEntry.objects.filter(
            waitlist__casino_id=casino_id, purged_at__isnull=True, ended_at__lt=now - rules.retention,
        ).update(name="", phone="", removal_note="", purged_at=now)
    for seat in Seat.objects.select_for_update(skip_locked=True).filter(table__is_open=False) \
            .select_related("table__casino"):
        seat.delete()
        _event(seat.table.casino, EventKind.VACATED, now, by=None, table=seat.table, seat=seat.number)
        purged += 1
    return purged


@transaction.atomic
def unseat_at_closing(table: PokerTable, by: User, at: datetime) -> int:
    """The players still in the seats of a closing `table` have left or moved (the person closing it, `by`, confirms
    it): each seat vacated at `at`, a `vacated` event recorded by seat number, as `vacate` records it. Called by
    apps.tables.services.close_table through apps.tables.closing, before the table closes; returns the seats vacated.
    Raises DomainError when `by` is not of the table's casino."""
    if by.casino_id != table.casino_id:
        raise DomainError("That table is not in this room.", field="table")
    seats = list(Seat.objects.select_for_update().filter(table=table).order_by("number"))
    for seat in seats:
        seat.delete()
        _event(table.casino, EventKind.VACATED, at, by=by, table=table, seat=seat.number)
    return len(seats)
