"""Reads of the floor's seats and waitlists (N.J.A.C. 13:69F-14.18: the games offered, their minimum/maximum wagers
and the vacant seats at each table).

One truth per fact: who sits where is the floor's record (Seat rows), read for every page by `seats_of` from the open
tables of apps.tables.selectors.open_tables; a seat is vacant when the record has no one in it, and a game line's
vacant seats are its tables' seats minus those the record has taken. The newest round of play's report (when current)
is evidence compared against the record, never a second count: a table where they disagree is flagged, and the floor
corrects the record (services.accept_round_seats, or seat by seat). No write on a request.

`room_board` is what the room's screens and the public feed show (initials only); `floor_board` is the floorperson's
board (the full lists and the next call); the floor map (apps.floor.selectors) reads `seats_of` itself.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from django.db.models import OuterRef, Q, Subquery
from django.utils.text import slugify

from apps.casinos.models import Casino
from apps.core.money import posted_dollars
from apps.rounds.selectors import SeatsSeen, seats_seen
from apps.tables.models import Game, GamePosting, PokerTable
from apps.tables.selectors import open_tables

from .models import (
    ON_LIST,
    RECORD_REASONS,
    UNDO_WITHIN,
    EntryStatus,
    EventKind,
    FloorEvent,
    RoomRules,
    Seat,
    SeatStatus,
    Waitlist,
    WaitlistEntry,
)


def rules_of(*, casino: Casino) -> RoomRules:
    """The casino's posted seat and waitlist rules; the defaults (unsaved) when it has posted none."""
    return RoomRules.objects.filter(casino=casino).first() or RoomRules(casino=casino)


# --- game lines ------------------------------------------------------------------------------------------------------

_STRUCTURE = {"fixed_limit": "fl", "pot_limit": "pl", "no_limit": "nl"}


def _amount_key(value: Decimal) -> str:
    return f"{value.normalize():f}".replace(".", "p")


def _posting_key(posting: GamePosting) -> str:
    if posting.maximum_wager is not None:
        amounts = [posting.minimum_wager, posting.maximum_wager]
    elif posting.big_blind:
        amounts = [posting.small_blind, posting.big_blind]
    else:
        amounts = [posting.minimum_wager]
    parts = [_amount_key(a) for a in amounts] + [_STRUCTURE[posting.betting_structure]]
    if posting.ante:
        parts.append(f"ante{_amount_key(posting.ante)}")
    return "-".join(parts)


def line_key(table: PokerTable) -> str:
    """The stable id of a table's game and limits, e.g. "holdem-2-5-nl", or of its rotation, e.g.
    "rotation-horse-4-8-fl" (with the rotation prefetched, no query)."""
    if table.is_mixed:
        return "-".join(["rotation", slugify(table.rotation_name) or "mixed",
                         *dict.fromkeys(_posting_key(p) for p in table.posted_games())])
    return f"{table.game.replace('_', '')}-{_posting_key(table)}"


def line_texts(table: PokerTable) -> tuple[str, str, str]:
    """(game, limits, rotation) of a table's game line as the boards write them: the game's label (a rotation: its
    name and games), the posted limits (GamePosting.limits_text, whole dollars; a rotation's distinct limits in its
    order, joined by " · ") and the rotation's name ("" for one game)."""
    postings = table.posted_games()
    limits = " · ".join(dict.fromkeys(p.limits_text(amount=posted_dollars) for p in postings))
    if table.is_mixed:
        games = ", ".join(dict.fromkeys(Game(p.game).label for p in postings))
        return f"{table.rotation_name} ({games})", limits, table.rotation_name
    return Game(table.game).label, limits, ""


# --- the seats of the open tables: the floor's record, and the newest round's report against it ---------------------

@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat of an open table as every board shows it. `status` is the floor's record: "seated" or "away" (`kept`
    is the Seat row) or "vacant" (no row). The newest round's report, when current (SeatsSeen.current), is evidence
    beside it, never instead of it: `feed_taken` — the round shows a player here (the name it gave, may be blank)
    though the record has the seat vacant; `feed_gone` — the record has a player seated here whom the round does not
    show, the round having started after the player was seated (an away player is not expected in the rounds: never
    flagged). `away_left`: for an away seat, the time left
    of the posted away limit (negative: over)."""

    number: int
    status: str
    kept: Seat | None = None
    feed_taken: str | None = None
    feed_gone: bool = False
    away_left: timedelta | None = None
    called: WaitlistEntry | None = None  # a player called to this seat, on the way

    @property
    def is_open(self) -> bool:
        """Vacant, nobody called to it and no player in it as the newest round reports: a seat to call the next
        player to."""
        return self.status == "vacant" and self.feed_taken is None and self.called is None

    @property
    def disagrees(self) -> bool:
        """The newest (current) round reports this seat otherwise than the record."""
        return self.feed_taken is not None or self.feed_gone


@dataclass(frozen=True, slots=True)
class TableSeats:
    """An open table's seats (`seats`, 1..table.seats) as the floor records them, and `seen`: its newest round's
    report (None before any round), the evidence they are compared against."""

    table: PokerTable
    key: str
    seats: tuple[SeatView, ...]
    seen: SeatsSeen | None = None

    @property
    def seen_at(self) -> datetime | None:
        """When the newest round started (None before any round)."""
        return self.seen.seen_at if self.seen is not None else None

    @property
    def taken(self) -> tuple[int, ...]:
        """The numbers of the seats the record has taken (seated or away), in order."""
        return tuple(s.number for s in self.seats if s.status != "vacant")

    @property
    def seated(self) -> int:
        """Players the record has at the table (seated or away)."""
        return len(self.taken)

    @property
    def vacant(self) -> int:
        """Seats the record has vacant (a called player's seat is still vacant): the table's seats minus `seated`."""
        return len(self.seats) - self.seated

    @property
    def disagrees(self) -> bool:
        """The newest round is current and reports seats the record does not have, or the record has seated players
        the round does not show: flagged until the floor corrects the record (services.accept_round_seats)."""
        return any(s.disagrees for s in self.seats)

    @property
    def round_adds(self) -> tuple[int, ...]:
        """Seats the current newest round reports that the record has vacant."""
        return tuple(s.number for s in self.seats if s.feed_taken is not None)

    @property
    def round_vacates(self) -> tuple[int, ...]:
        """Seats the record has seated that the current newest round does not show."""
        return tuple(s.number for s in self.seats if s.feed_gone)


def seat_views(*, table: PokerTable, kept: dict[int, Seat], seen: SeatsSeen | None, rules: RoomRules,
               now: datetime, called: dict[int, WaitlistEntry] | None = None) -> tuple[SeatView, ...]:
    """Seats 1..table.seats of `table` from the record (`kept`: seat number -> Seat) with the newest round's report
    (`seen`) compared against it when current; `called`: seat number -> the entry called to it. No query."""
    shown = seen.seats if seen is not None and seen.current else None
    called = called or {}
    views = []
    for number in range(1, table.seats + 1):
        seat = kept.get(number)
        if seat is None:
            views.append(SeatView(number, "vacant", called=called.get(number),
                                  feed_taken=shown[number] if shown is not None and number in shown else None))
        elif seat.status == SeatStatus.AWAY and seat.away_since is not None:  # always set away (seat_away_has_since)
            views.append(SeatView(number, "away", kept=seat, away_left=seat.away_since + rules.away_limit - now))
        else:
            views.append(SeatView(number, "seated", kept=seat, feed_gone=shown is not None and number not in shown
                                  and seen is not None and seen.seen_at > seat.since))
    return tuple(views)


def seats_of(*, tables: list[PokerTable], now: datetime, rules: RoomRules | None = None,
             called: Sequence[WaitlistEntry] = ()) -> list[TableSeats]:
    """The one read of who sits where at open tables (14.18): each of `tables` (open, rotation prefetched:
    apps.tables.selectors.open_tables) with its seats as the floor records them (Seat rows: seated, away; no row:
    vacant) and its newest round's report compared against them (apps.rounds.selectors.seats_seen; a round older than
    SEATS_FRESH_FOR says nothing). The floor map, the seats board, the room's screens and the public feed read their
    seats here and nowhere else. `rules`: the casino's (rules_of, read when None); the entries of `called` (status
    CALLED) mark the seats they were called to. Three queries whatever the tables (four without `rules`)."""
    if not tables:
        return []
    casino_id = tables[0].casino_id
    rules = rules or RoomRules.objects.filter(casino_id=casino_id).first() or RoomRules(casino_id=casino_id)
    ids = [t.pk for t in tables]
    kept: dict[int, dict[int, Seat]] = defaultdict(dict)
    for seat in Seat.objects.filter(table_id__in=ids):
        kept[seat.table_id][seat.number] = seat
    seen = seats_seen(table_ids=ids, now=now)
    calls: dict[int, dict[int, WaitlistEntry]] = defaultdict(dict)
    for entry in called:
        if entry.called_table_id is not None and entry.called_seat is not None:
            calls[entry.called_table_id][entry.called_seat] = entry
    return [TableSeats(table=t, key=line_key(t), seen=seen.get(t.pk),
                       seats=seat_views(table=t, kept=kept[t.pk], seen=seen.get(t.pk), rules=rules, now=now,
                                        called=calls[t.pk])) for t in tables]


# --- the boards ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class GameLine:
    """One game the room is running (or has a waitlist for): what the boards and the public feed show."""

    key: str  # stable id of the game-and-limits (or rotation) list, e.g. "holdem-2-5-nl"
    game: str  # the game's label, e.g. "Texas hold 'em (high)" (a rotation: its name and games)
    limits: str  # the posted limits text (GamePosting.limits_text, whole dollars)
    rotation: str  # mixed-game rotation name, "" if none
    tables: tuple[str, ...]  # names of the open tables running it
    seats: int  # seats at those tables
    vacant_seats: int  # of those, the seats the floor's record has vacant (TableSeats.vacant)
    waitlist_length: int
    waitlist_initials: tuple[str, ...]  # initials only, in call order (for the room's screens)


@dataclass(frozen=True, slots=True)
class NextCall:
    """The next move of a list: the must-move table's longest-seated player to an open seat of the main game
    (`move_from` set), or the list's next checked-in player (`entry`) to an open seat."""

    table: PokerTable
    seat: int
    entry: WaitlistEntry | None = None
    move_from: Seat | None = None


@dataclass(frozen=True, slots=True)
class ListView:
    waitlist: Waitlist
    entries: tuple[WaitlistEntry, ...]  # on the list, in call order
    next_call: NextCall | None


@dataclass(frozen=True, slots=True)
class FloorBoard:
    rules: RoomRules
    tables: list[TableSeats]
    lists: list[ListView]
    lines: list[GameLine] = field(default_factory=list)


def _entries_on_lists(casino: Casino) -> dict[int, list[WaitlistEntry]]:
    out: dict[int, list[WaitlistEntry]] = defaultdict(list)
    for entry in WaitlistEntry.objects.filter(waitlist__casino=casino, status__in=ON_LIST).order_by(
            "waitlist_id", "created_at", "id"):
        out[entry.waitlist_id].append(entry)
    return out


def eligible(entry: WaitlistEntry, table: PokerTable) -> bool:
    """Whether the list may call `entry` to a seat at `table`: waiting, checked in (a phone sign-up checks in at the
    desk first), not passed over and skipped until back at the desk, and not having declined this table."""
    return (entry.status == EntryStatus.WAITING and entry.checked_in_at is not None and entry.passed_at is None
            and entry.declined_table_id != table.pk)


def next_call(waitlist: Waitlist, entries: list[WaitlistEntry], tables: list[TableSeats]) -> NextCall | None:
    """The list's next move (NextCall) for the first open seat of its tables (by table and seat number): at a main
    table, the must-move table's longest-seated player moves first; else the first eligible player in call order.
    None when no seat is open or nobody can take it."""
    must_move = next((t for t in tables if t.table.pk == waitlist.must_move_table_id), None)
    movers = sorted((s.kept for s in must_move.seats if s.status == "seated" and s.kept is not None),
                    key=lambda s: (s.since, s.number)) if must_move is not None else []
    for line_table in tables:
        if line_table.key != waitlist.key and line_table is not must_move:
            continue
        for seat in line_table.seats:
            if not seat.is_open:
                continue
            if movers and line_table is not must_move:
                return NextCall(table=line_table.table, seat=seat.number, move_from=movers[0])
            entry = next((e for e in entries if eligible(e, line_table.table)), None)
            if entry is not None:
                return NextCall(table=line_table.table, seat=seat.number, entry=entry)
    return None


def _lines(tables: list[TableSeats], lists: list[Waitlist], entries: dict[int, list[WaitlistEntry]]) -> list[GameLine]:
    by_key: dict[str, list[TableSeats]] = {}
    for t in tables:
        by_key.setdefault(t.key, []).append(t)
    waitlists = {w.key: w for w in lists}
    lines = []
    for key in [*by_key, *(k for k in waitlists if k not in by_key)]:
        running = by_key.get(key, [])
        waitlist = waitlists.get(key)
        if running:
            game, limits, rotation = line_texts(running[0].table)
        elif waitlist is not None:
            game, limits, rotation = waitlist.game, waitlist.limits, waitlist.rotation
        else:  # never: every key is a running table's or a list's
            continue
        waiting = entries.get(waitlist.pk, []) if waitlist is not None else []
        lines.append(GameLine(
            key=key, game=game, limits=limits, rotation=rotation,
            tables=tuple(f"Table {t.table.number}" for t in running), seats=sum(len(t.seats) for t in running),
            vacant_seats=sum(t.vacant for t in running), waitlist_length=len(waiting),
            waitlist_initials=tuple(e.initials for e in waiting)))
    return lines


def floor_board(*, casino: Casino, now: datetime) -> FloorBoard:
    """The floorperson's board: the posted rules, each open table's seats (`seats_of`: the record, with the newest
    round's report against it), each list with its players in call order and its next call, and the game lines
    (`room_board`'s). Eight queries whatever the tables, lists and history."""
    rules = rules_of(casino=casino)
    tables_open = open_tables(casino=casino)
    lists = list(Waitlist.objects.filter(casino=casino).order_by("key"))
    entries = _entries_on_lists(casino)
    called = [e for group in entries.values() for e in group if e.status == EntryStatus.CALLED]
    tables = seats_of(tables=tables_open, rules=rules, now=now, called=called)
    views = [ListView(waitlist=w, entries=tuple(entries.get(w.pk, [])),
                      next_call=next_call(w, entries.get(w.pk, []), tables)) for w in lists]
    return FloorBoard(rules=rules, tables=tables, lists=views, lines=_lines(tables, lists, entries))


def room_board(*, casino: Casino, now: datetime) -> list[GameLine]:
    """The games the room runs or keeps a list for (14.18), one GameLine per game and limits (or rotation): the
    open tables running it (in table order: apps.tables.selectors.open_tables), their seats and vacant seats (the
    seats minus those the floor's record has taken: `seats_of`), the list's length and its players' initials in call
    order (never a name or a phone): the open seats and the players waiting are read from the same record at the
    same moment. Lines of running games first, by their lowest table number, then lists with no table open. `now`:
    aware. A fixed number of queries (eight) whatever the tables, lists and history."""
    return floor_board(casino=casino, now=now).lines


def place_on_list(*, entry: WaitlistEntry) -> int:
    """The entry's place on its list, from 1: the players still on it (waiting or called) added before it, in call
    order (created_at, id), and itself. One query."""
    return WaitlistEntry.objects.filter(waitlist_id=entry.waitlist_id, status__in=ON_LIST).filter(
        Q(created_at__lt=entry.created_at) | Q(created_at=entry.created_at, id__lte=entry.pk)).count()


def events_of(*, casino: Casino):
    """The record of the floor's seats and lists, newest first (keyset pages on (at, id): index
    floor_event_newest_first), with the table, list and entry (a removal's note) read along."""
    return (FloorEvent.objects.filter(casino=casino).select_related("table", "waitlist", "by", "entry")
            .order_by("-at", "-id"))


@dataclass(frozen=True, slots=True)
class Removed:
    """A player removed from a list a moment ago, whom the floor may put back (services.restore_to_list)."""

    entry: WaitlistEntry
    reason: str  # the removal's reason, as the record says it
    undo_until: datetime


def recently_removed(*, casino: Casino, now: datetime) -> list[Removed]:
    """The players removed from the casino's lists within UNDO_WITHIN before `now`, newest first, each with the
    reason of the removal and the last moment it may be undone. One query."""
    reason = FloorEvent.objects.filter(entry=OuterRef("pk"), kind=EventKind.REMOVED).order_by("-at", "-id")
    entries = (WaitlistEntry.objects.filter(waitlist__casino=casino, status=EntryStatus.REMOVED, purged_at__isnull=True,
                                            ended_at__gte=now - UNDO_WITHIN)
               .select_related("waitlist").annotate(removed_for=Subquery(reason.values("reason")[:1]))
               .order_by("-ended_at", "-id"))
    labels = dict(RECORD_REASONS)
    return [Removed(entry=e, reason=labels.get(e.removed_for, ""), undo_until=e.ended_at + UNDO_WITHIN)
            for e in entries if e.ended_at is not None]



def players_still_at_table(table: PokerTable) -> list[str]:
    """The seats still taken at a closing table, by number, as the floor keeps them (seated or away): "seat 3",
    "seat 7 (away)" — no names (apps.tables.closing asks it)."""
    seats = table.floor_seats.order_by("number").values_list("number", "status")
    return [f"seat {number}{' (away)' if status == 'away' else ''}" for number, status in seats]
