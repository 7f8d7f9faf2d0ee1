"""Reads of the floor's seats and waitlists (N.J.A.C. 13:69F-14.18: the games offered, their minimum/maximum wagers
and the vacant seats at each table).

The seats the floor keeps are reconciled on read with the seats the feed reports in the rounds of play (no write on a
request): a seat the newest (recent) round shows taken but the floor shows vacant is flagged and counted as taken; a
seat the floor shows seated that the feed's newest rounds no longer show — missing from `feed_absent_rounds` rounds in
a row, or from the rounds dealt over `feed_absent_minutes` — shows as vacant. Only the newest rounds of each open
table within a bounded window are read (index round_table_newest_first).

`room_board` is what the room's screens and the public feed show (initials only); `floor_board` is the floorperson's
board (the full lists and the next call).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.utils.text import slugify

from apps.casinos.models import Casino
from apps.core.money import posted_dollars
from apps.rounds.models import RoundOfPlay, RoundPlayer
from apps.rounds.selectors import SEATS_FRESH_FOR
from apps.tables.models import Game, GamePosting, PokerTable

from .models import ON_LIST, EntryStatus, FloorEvent, RoomRules, Seat, SeatStatus, Waitlist, WaitlistEntry


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


# --- seats against the feed ------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat of an open table as the boards show it. `status` is "seated", "away" or "vacant" after reconciling
    with the feed; `kept` is the floor's row (None when the floor shows it vacant). `feed_taken`: the newest recent
    round shows a player there (the name the feed gave, may be blank) though the floor shows it vacant — flagged, and
    counted as taken. `feed_gone`: the floor shows a player seated whom the feed's newest rounds no longer show; the
    seat shows as vacant. `away_left`: for an away seat, the time left of the posted away limit (negative: over)."""

    number: int
    status: str
    kept: Seat | None = None
    feed_taken: str | None = None
    feed_gone: bool = False
    away_left: timedelta | None = None
    called: WaitlistEntry | None = None  # a player called to this seat, on the way

    @property
    def is_open(self) -> bool:
        """Vacant and nobody called to it: a seat to call the next player to."""
        return self.status == "vacant" and self.feed_taken is None and self.called is None


@dataclass(frozen=True, slots=True)
class TableSeats:
    table: PokerTable
    key: str
    seats: tuple[SeatView, ...]
    seen_at: datetime | None  # the newest round's start, None when the window holds none

    @property
    def vacant(self) -> int:
        """Seats neither kept taken nor shown taken by the feed (a called player's seat is still vacant)."""
        return sum(1 for s in self.seats if s.status == "vacant" and s.feed_taken is None)


def _feed_rounds(*, table_ids: list[int], rules: RoomRules, now: datetime) -> dict[int, list[tuple[datetime, dict]]]:
    """Table id -> its newest rounds of play in the window (at most `feed_absent_rounds` + 1 each, started within
    max(feed_absent_minutes, SEATS_FRESH_FOR) before `now`), newest first, each (started_at, {seat number: name}).
    Two queries (the rounds by the round_table_newest_first index, then their players)."""
    if not table_ids:
        return {}
    window = max(timedelta(minutes=rules.feed_absent_minutes), SEATS_FRESH_FOR)
    rounds = list(
        RoundOfPlay.objects.filter(table_id__in=table_ids, started_at__gt=now - window, started_at__lte=now)
        .annotate(rank=Window(RowNumber(), partition_by=[F("table_id")], order_by=[F("started_at").desc(),
                                                                                   F("id").desc()]))
        .filter(rank__lte=rules.feed_absent_rounds + 1).order_by().values_list("pk", "table_id", "started_at"))
    seats: dict[int, dict[int, str]] = defaultdict(dict)
    for round_id, seat, name in RoundPlayer.objects.filter(round_of_play_id__in=[r[0] for r in rounds]).order_by() \
            .values_list("round_of_play_id", "seat", "name"):
        seats[round_id][seat] = name
    out: dict[int, list[tuple[datetime, dict]]] = defaultdict(list)
    for round_id, table_id, started_at in sorted(rounds, key=lambda r: (r[2], r[0]), reverse=True):
        out[table_id].append((started_at, seats[round_id]))
    return out


def feed_left(*, seat: Seat, rounds: list[tuple[datetime, dict]], rules: RoomRules) -> bool:
    """Whether the feed no longer shows a seated player (`rounds`: the table's newest rounds, newest first, each
    (started_at, {seat number: name})): the rounds since the player was last shown there (or was seated) leave the seat out
    `feed_absent_rounds` times in a row, or over at least `feed_absent_minutes` (first to last such round). An away
    seat is the away limit's business, never the feed's."""
    if seat.status != SeatStatus.SEATED:
        return False
    missing = []
    for started_at, numbers in rounds:
        if started_at <= seat.since or seat.number in numbers:
            break
        missing.append(started_at)
    if len(missing) >= rules.feed_absent_rounds:
        return True
    return bool(missing) and missing[0] - missing[-1] >= timedelta(minutes=rules.feed_absent_minutes)


def _table_seats(table: PokerTable, kept: dict[int, Seat], rounds: list[tuple[datetime, dict]], rules: RoomRules,
                 called: dict[int, WaitlistEntry], now: datetime) -> TableSeats:
    newest = rounds[0] if rounds else None
    shown = newest[1] if newest is not None and now - newest[0] <= SEATS_FRESH_FOR else {}
    views = []
    for number in range(1, table.seats + 1):
        seat = kept.get(number)
        if seat is None:
            views.append(SeatView(number, "vacant", feed_taken=shown[number] if number in shown else None,
                                  called=called.get(number)))
        elif feed_left(seat=seat, rounds=rounds, rules=rules):
            views.append(SeatView(number, "vacant", kept=seat, feed_gone=True, called=called.get(number)))
        elif seat.status == SeatStatus.AWAY and seat.away_since is not None:  # always set away (seat_away_has_since)
            views.append(SeatView(number, "away", kept=seat, away_left=seat.away_since + rules.away_limit - now))
        else:
            views.append(SeatView(number, "seated", kept=seat))
    return TableSeats(table=table, key=line_key(table), seats=tuple(views),
                      seen_at=newest[0] if newest is not None else None)


def seats_of(*, tables: list[PokerTable], rules: RoomRules, now: datetime,
             called: Sequence[WaitlistEntry] = ()) -> list[TableSeats]:
    """Each of `tables` (open, rotation prefetched) with its seats reconciled with the feed (see the module); the
    entries of `called` (status CALLED) mark the seats they were called to. Three queries whatever the tables."""
    ids = [t.pk for t in tables]
    kept: dict[int, dict[int, Seat]] = defaultdict(dict)
    for seat in Seat.objects.filter(table_id__in=ids):
        kept[seat.table_id][seat.number] = seat
    feed = _feed_rounds(table_ids=ids, rules=rules, now=now)
    calls: dict[int, dict[int, WaitlistEntry]] = defaultdict(dict)
    for entry in called:
        if entry.called_table_id is not None and entry.called_seat is not None:
            calls[entry.called_table_id][entry.called_seat] = entry
    return [_table_seats(t, kept[t.pk], feed.get(t.pk, []), rules, calls[t.pk], now) for t in tables]


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
    vacant_seats: int
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


def _open_tables(casino: Casino) -> list[PokerTable]:
    return list(PokerTable.objects.filter(casino=casino, is_open=True).prefetch_related("rotation").order_by("number"))


def _entries_on_lists(casino: Casino) -> dict[int, list[WaitlistEntry]]:
    out: dict[int, list[WaitlistEntry]] = defaultdict(list)
    for entry in WaitlistEntry.objects.filter(waitlist__casino=casino, status__in=ON_LIST).order_by(
            "waitlist_id", "created_at", "id"):
        out[entry.waitlist_id].append(entry)
    return out


def eligible(entry: WaitlistEntry, table: PokerTable) -> bool:
    """Whether the list may call `entry` to a seat at `table`: waiting, checked in (a phone sign-up checks in at the
    desk first), and not having declined this table."""
    return (entry.status == EntryStatus.WAITING and entry.checked_in_at is not None
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
    """The floorperson's board: the posted rules, each open table's seats (reconciled with the feed), each list with
    its players in call order and its next call, and the game lines (`room_board`'s). Nine queries whatever the
    tables, lists and history."""
    rules = rules_of(casino=casino)
    open_tables = _open_tables(casino)
    lists = list(Waitlist.objects.filter(casino=casino).order_by("key"))
    entries = _entries_on_lists(casino)
    called = [e for group in entries.values() for e in group if e.status == EntryStatus.CALLED]
    tables = seats_of(tables=open_tables, rules=rules, now=now, called=called)
    views = [ListView(waitlist=w, entries=tuple(entries.get(w.pk, [])),
                      next_call=next_call(w, entries.get(w.pk, []), tables)) for w in lists]
    return FloorBoard(rules=rules, tables=tables, lists=views, lines=_lines(tables, lists, entries))


def room_board(*, casino: Casino, now: datetime) -> list[GameLine]:
    """The games the room runs or keeps a list for (14.18), one GameLine per game and limits (or rotation): the
    open tables running it (in table order), their seats and vacant seats (the floor's seats reconciled with the
    feed's rounds of play), the list's length and its players' initials in call order (never a name or a phone).
    Lines of running games first, by their lowest table number, then lists with no table open. `now`: aware.
    A fixed number of queries (nine) whatever the tables, lists and history."""
    return floor_board(casino=casino, now=now).lines


def place_on_list(*, entry: WaitlistEntry) -> int:
    """The entry's place on its list, from 1: the players still on it (waiting or called) added before it, in call
    order (created_at, id), and itself. One query."""
    return WaitlistEntry.objects.filter(waitlist_id=entry.waitlist_id, status__in=ON_LIST).filter(
        Q(created_at__lt=entry.created_at) | Q(created_at=entry.created_at, id__lte=entry.pk)).count()


def events_of(*, casino: Casino):
    """The record of the floor's seats and lists, newest first (keyset pages on (at, id): index
    floor_event_newest_first), with the table and list read along."""
    return (FloorEvent.objects.filter(casino=casino).select_related("table", "waitlist", "by")
            .order_by("-at", "-id"))

