"""Reads about decks: the rotation board's clocks (N.J.A.C. 13:69F-14.2(b)-three-hours, 14.2(b)-six-hours,
14.6(e)4-every-fifteen-minutes)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from django.db.models import QuerySet

from apps.casinos.models import Casino
from apps.seats.selectors import TableSeats, seats_of
from apps.tables.models import PokerTable
from apps.tables.selectors import open_tables

from .models import AlertKind, Deck, DeckAlert, DeckStatus, RoundDeck

#: N.J.A.C. 13:69F-14.2(b): placed into suit and sequence at least every 3 hours of use.
SORT_LIMIT = timedelta(hours=3)
#: N.J.A.C. 13:69F-14.2(b): every deck opened for use at a table changed at least every 6 hours.
CHANGE_LIMIT = timedelta(hours=6)
#: N.J.A.C. 13:69F-14.6(e)4: the deck (or stub) counted at least once every 15 minutes.
COUNT_LIMIT = timedelta(minutes=15)
#: N.J.A.C. 13:69F-14.4(c), 14.5(d): play commences once two players are at the table; before, the decks lie spread.
PLAYERS_TO_DEAL = 2
#: How early a clock shows "due soon".
DUE_SOON = {"sort": timedelta(minutes=20), "change": timedelta(minutes=30), "count": timedelta(minutes=3)}


class ClockState(StrEnum):
    OK = "ok"
    DUE_SOON = "due_soon"
    OVERDUE = "overdue"

    @property
    def label(self) -> str:
        return {"ok": "OK", "due_soon": "Due soon", "overdue": "Overdue"}[self.value]

    @property
    def severity(self) -> int:
        return ["ok", "due_soon", "overdue"].index(self.value)


@dataclass(frozen=True)
class Clock:
    """One regulatory clock of a deck: when it started, how long has run, and its state at `now`."""

    name: str
    since: datetime
    limit: timedelta
    elapsed: timedelta
    state: ClockState

    @property
    def remaining(self) -> timedelta:
        return self.limit - self.elapsed


def clock(name: str, since: datetime, limit: timedelta, now: datetime) -> Clock:
    """A clock is overdue once MORE than `limit` has run (3:00 is in time, 3:01 is not), due soon before."""
    elapsed = now - since
    state = (ClockState.OVERDUE if elapsed > limit
             else ClockState.DUE_SOON if elapsed > limit - DUE_SOON[name] else ClockState.OK)
    return Clock(name=name, since=since, limit=limit, elapsed=elapsed, state=state)


@dataclass(frozen=True)
class DeckRow:
    deck: Deck
    sort: Clock | None
    change: Clock | None
    count: Clock | None

    @property
    def clocks(self) -> list[Clock]:
        return [c for c in (self.sort, self.change, self.count) if c is not None]

    @property
    def state(self) -> ClockState:
        return max((c.state for c in self.clocks), key=lambda s: s.severity, default=ClockState.OK)


@dataclass(frozen=True)
class TableRow:
    """An open table on the rotation board: its decks with their clocks, and its seats as the floor records them
    (`seats`: apps.seats.selectors.seats_of, read once with the board; None for a row built without them)."""

    table: PokerTable
    decks: list[DeckRow]
    seats: TableSeats | None = None

    @property
    def players(self) -> int:
        """The players at the table: the seats the floor's record has taken (0 when not read)."""
        return self.seats.seated if self.seats is not None else 0

    @property
    def has_two_decks(self) -> bool:
        """Two decks maintained at each table at all times (N.J.A.C. 13:69F-14.2(a)-two-decks)."""
        return len(self.decks) >= 2

    @property
    def lacks_deck_in_use(self) -> bool:
        """Players at the table (two at least: play commences, 14.4(c)) and no deck of it in use. An automated
        shuffler's table alternates both decks round by round (an alert of its own), none is put in use."""
        return (self.players >= PLAYERS_TO_DEAL and not self.table.uses_automated_shuffler
                and not any(d.deck.in_use for d in self.decks))

    @property
    def state(self) -> ClockState:
        worst = max((d.state for d in self.decks), key=lambda s: s.severity, default=ClockState.OK)
        return ClockState.OVERDUE if not self.has_two_decks or self.lacks_deck_in_use else worst


def deck_row(deck: Deck, now: datetime) -> DeckRow:
    """The clocks of a deck at its table. A deck not yet opened for use has none running."""
    if deck.opened_at is None:
        return DeckRow(deck=deck, sort=None, change=None, count=None)
    sort_since = max(filter(None, [deck.last_sorted_at, deck.opened_at]))
    count = None
    if deck.in_use:
        count_since = max(filter(None, [deck.last_counted_at, deck.in_use_since]))
        count = clock("count", count_since, COUNT_LIMIT, now)
    return DeckRow(deck=deck, sort=clock("sort", sort_since, SORT_LIMIT, now),
                   change=clock("change", deck.opened_at, CHANGE_LIMIT, now), count=count)


def rotation_board(*, casino: Casino, now: datetime) -> list[TableRow]:
    """Every open table of the casino (apps.tables.selectors.open_tables: by number, its games read along) with its
    decks and their clocks at `now` (aware datetime), and its seats (apps.seats.selectors.seats_of, the one read of
    who sits where: the players at each, for the deck alerts, and the floor map's "Seated")."""
    tables = open_tables(casino=casino)
    decks: dict[int | None, list[Deck]] = {}  # by table id (a deck at a table has one)
    for deck in Deck.objects.filter(table__in=tables, status=DeckStatus.AT_TABLE).order_by("-in_use", "serial"):
        decks.setdefault(deck.table_id, []).append(deck)
    seats = {t.table.pk: t for t in seats_of(tables=tables, now=now)}  # its players: a deck in use once they play
    return [TableRow(table=t, decks=[deck_row(d, now) for d in decks.get(t.pk, [])], seats=seats.get(t.pk))
            for t in tables]


def open_alerts(*, casino: Casino) -> QuerySet[DeckAlert]:
    """The alerts kept as rows and not cleared (raised by the scheduled job, a count or a round)."""
    return (DeckAlert.objects.filter(table__casino=casino, cleared_at=None)
            .select_related("table", "deck").order_by("table__number", "raised_at"))


#: Alerts the clocks and the decks at the tables raise by themselves: computed from the rotation board on each view.
#: The others (a wrong count, shuffler decks not alternated) are raised by an event and kept as rows until cleared.
CLOCK_ALERTS = {"sort": AlertKind.SORT_OVERDUE, "change": AlertKind.CHANGE_OVERDUE, "count": AlertKind.COUNT_OVERDUE}
COMPUTED_KINDS = (AlertKind.TWO_DECKS, AlertKind.NO_DECK_IN_USE, *CLOCK_ALERTS.values())


def due_alerts(*, rows: list[TableRow]) -> list[DeckAlert]:
    """The alerts the rotation board's `rows` raise: an open table short of two decks (14.2(a)-two-decks), players at an
    open table and no deck in use (TableRow.lacks_deck_in_use, 14.4(c)), a deck not placed into suit and sequence for 3
    hours or not changed for 6 (14.2(b)-three-hours, 14.2(b)-six-hours), not counted for 15 minutes
    (14.6(e)4-every-fifteen-minutes). Unsaved DeckAlert objects, `raised_at` the moment the clock ran out (None for the
    two decks and the deck in use)."""
    alerts = []
    for row in rows:
        if not row.has_two_decks:
            alerts.append(DeckAlert(table=row.table, deck=None, kind=AlertKind.TWO_DECKS,  # type: ignore[misc]
                                    raised_at=None))  # unsaved, only shown: the two decks' alert has no moment
        if row.lacks_deck_in_use:
            alerts.append(DeckAlert(table=row.table, deck=None, kind=AlertKind.NO_DECK_IN_USE,  # type: ignore[misc]
                                    raised_at=None))
        for deck in row.decks:
            for name, kind in CLOCK_ALERTS.items():
                deck_clock = getattr(deck, name)
                if deck_clock is not None and deck_clock.state == ClockState.OVERDUE:
                    alerts.append(DeckAlert(table=row.table, deck=deck.deck, kind=kind,
                                            raised_at=deck_clock.since + deck_clock.limit))
    return alerts


def current_alerts(*, casino: Casino, now: datetime, rows: list[TableRow] | None = None) -> list[DeckAlert]:
    """Every deck alert in force at `now`, by table number: those the clocks and the decks at the tables raise,
    computed from the rotation board (`rows`, read when not given) on each view — a deck put into suit and sequence
    clears its alert at once, an overdue one is shown without waiting for the scheduled job, which only notifies —
    and the kept ones an event raised (a wrong count, shuffler decks not alternated) at the open tables (a closed
    table's are cleared by the scheduled job: nobody plays there)."""
    rows = rows if rows is not None else rotation_board(casino=casino, now=now)
    kept = list(open_alerts(casino=casino).exclude(kind__in=COMPUTED_KINDS).filter(table__is_open=True))
    return sorted(due_alerts(rows=rows) + kept, key=lambda a: (a.table.number, a.raised_at or now))


def decks_in_storage(*, casino: Casino) -> QuerySet[Deck]:
    return Deck.objects.filter(casino=casino, status=DeckStatus.IN_STORAGE).order_by("serial")


@dataclass(frozen=True)
class AlternationBreak:
    """Two consecutive rounds at a shuffler table dealt from the same deck (or a round with no deck recorded)."""

    table: PokerTable
    round_id: int
    previous_round_id: int | None
    deck_serial: str | None


def alternation_breaks(*, table: PokerTable, since: datetime | None = None) -> list[AlternationBreak]:
    """With an automated shuffler both decks alternate, each used every other round (N.J.A.C. 13:69F-14.2(d)3).

    Walks the rounds recorded at `table` in time order (from `since`, if given) and returns every round dealt
    from the same deck as the round before it, and every round with no deck recorded. Empty for a table
    without a shuffler.
    """
    if not table.uses_automated_shuffler:
        return []
    rounds = table.rounds.order_by("started_at", "pk")
    if since is not None:
        rounds = rounds.filter(started_at__gte=since)
    decks = dict(RoundDeck.objects.filter(round_of_play__in=rounds).values_list("round_of_play_id", "deck__serial"))
    breaks, previous = [], None
    for round_id in rounds.values_list("pk", flat=True):
        serial = decks.get(round_id)
        if serial is None or (previous is not None and decks.get(previous) == serial):
            breaks.append(AlternationBreak(table=table, round_id=round_id, previous_round_id=previous,
                                           deck_serial=serial))
        previous = round_id
    return breaks


@dataclass(frozen=True)
class ProposedDeck:
    table: PokerTable
    deck: Deck
    reason: str


def _limit(table: PokerTable):
    return table.maximum_wager or table.big_blind or table.minimum_wager


def propose_distribution(*, casino: Casino) -> list[ProposedDeck]:
    """A proposed distribution of stored decks to open tables short of their two decks, made with the
    considerations the supervisor weighs (N.J.A.C. 13:69F-14.2(c)-considerations); the distribution itself is the
    supervisor's, recorded by `services.distribute_decks`.

    Considers the table limits (the highest limits are served first), the location (tables of one area get
    backs unlike their neighbours' where the stock allows) and the game (tables of one game in one area are
    told apart the same way); the two decks of a table always differ in back and, with an automated shuffler, in
    colour. Nothing is written: the supervisor decides, and each deck is then brought to its table by
    `services.assign_deck`, which refuses what the rules do not allow.
    """
    stock = list(decks_in_storage(casino=casino))
    tables = sorted(PokerTable.objects.filter(casino=casino, is_open=True), key=lambda t: (-_limit(t), t.number))
    at_tables = Deck.objects.filter(table__in=tables, status=DeckStatus.AT_TABLE)
    colours_by_table: dict[int | None, list[str]] = {}  # by table id (a deck at a table has one)
    for deck in at_tables:
        colours_by_table.setdefault(deck.table_id, []).append(deck.back_colour.lower())
    proposal: list[ProposedDeck] = []
    for table in tables:
        mine = colours_by_table.setdefault(table.pk, [])
        neighbours = {c for t in tables if t.pk != table.pk and t.location == table.location
                      for c in colours_by_table.get(t.pk, [])}
        same_game = {c for t in tables if t.pk != table.pk and t.game == table.game and t.location == table.location
                     for c in colours_by_table.get(t.pk, [])}
        while len(mine) < 2 and stock:
            candidates = [d for d in stock if d.back_colour.lower() not in mine]
            if not candidates:
                break
            best = min(candidates, key=lambda d: (d.back_colour.lower() in same_game,
                                                  d.back_colour.lower() in neighbours, d.received_at, d.serial))
            stock.remove(best)
            mine.append(best.back_colour.lower())
            clash = "unlike its neighbours" if best.back_colour.lower() not in neighbours else "stock allows no other"
            proposal.append(ProposedDeck(table=table, deck=best, reason=(
                f"Limits {table.limits_label}; {table.location or 'no area'}: {best.back_colour} back, {clash}.")))
    return proposal


def decks_still_at_table(table: PokerTable) -> list[str]:
    """The decks still at a closing table (N.J.A.C. 13:69F-14.2(a)-two-decks), by serial: "deck 00012 (in use)", "deck
    00013" (apps.tables.closing asks it)."""
    decks = Deck.objects.filter(table=table, status=DeckStatus.AT_TABLE).order_by("serial")
    return [f"deck {deck.serial}{' (in use)' if deck.in_use else ''}" for deck in decks]
