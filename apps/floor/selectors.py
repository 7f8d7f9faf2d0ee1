"""Reads for the supervisor's floor pages: one gaming day of one casino at a glance, every table as a tile."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db.models import OuterRef, QuerySet, Subquery, Sum, prefetch_related_objects
from django.utils import timezone

from apps.badbeat.models import Claim, Contribution, Jackpot
from apps.badbeat.selectors import (
    AdjustmentUponVerification,
    JackpotDisplay,
    contributions_of_day,
    displays_to_adjust_upon_verification,
    jackpot_displays,
    open_notifications,
    payable_amount,
    payouts_pending,
    pending_claims,
)
from apps.casinos.models import Casino
from apps.casinos.selectors import gaming_day_bounds
from apps.core.fields import MoneyField
from apps.core.money import dollars
from apps.counts.selectors import ContainerFull, containers_full
from apps.dealers.models import DealerDown
from apps.dealers.selectors import downs_in_force
from apps.decks.models import DeckAlert
from apps.decks.selectors import ClockState, TableRow, current_alerts, rotation_board
from apps.irregularities.models import Irregularity
from apps.irregularities.selectors import unresolved_irregularities
from apps.rake.selectors import rake_by_table_id, rake_for_gaming_day
from apps.rounds.models import RoundOfPlay
from apps.rounds.selectors import rounds_by_table
from apps.seats.models import ON_LIST, EntryStatus, Waitlist, WaitlistEntry
from apps.seats.selectors import TableSeats, eligible
from apps.tables.models import PokerTable

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class SeatsWaitedFor:
    """Open seats at an open table spreading a game while players wait for it (14.18): the table, its open seats
    (vacant in the floor's record, nobody called to them, none reported taken by the newest round), the game's list
    and how many of its players could be called to them now (waiting, checked in, not having declined the table)."""

    table: PokerTable
    seats: tuple[int, ...]
    waitlist: Waitlist
    waiting: int

    def __str__(self) -> str:
        seats = f"seat{'s' if len(self.seats) > 1 else ''} {', '.join(map(str, self.seats))}"
        players = f"{self.waiting} player{'s wait' if self.waiting > 1 else ' waits'}"
        return f"{seats} open while {players} for {self.waitlist.game} {self.waitlist.limits} (14.18)"


def seats_waited_for(*, casino: Casino, tables: list[TableSeats]) -> list[SeatsWaitedFor]:
    """Each open table of `tables` (apps.seats.selectors.seats_of) with open seats while its game's list has players
    who could take them (SeatsWaitedFor), by table number: an alert until the seats are filled (or a player called
    to them) or nobody waits. A list's tables are those dealing its game and limits (seats.selectors.line_key) and
    its must-move table. The floor map's one reading of the lists: switch it here. Two queries."""
    lists = list(Waitlist.objects.filter(casino=casino).order_by("key"))
    entries: dict[int, list[WaitlistEntry]] = {}
    called: set[tuple[int | None, int | None]] = set()
    for entry in WaitlistEntry.objects.filter(waitlist__casino=casino, status__in=ON_LIST).order_by("created_at", "id"):
        entries.setdefault(entry.waitlist_id, []).append(entry)
        if entry.status == EntryStatus.CALLED:
            called.add((entry.called_table_id, entry.called_seat))
    out = []
    for waitlist in lists:
        for t in tables:
            if t.key != waitlist.key and t.table.pk != waitlist.must_move_table_id:
                continue
            open_seats = tuple(s.number for s in t.seats if s.is_open and (t.table.pk, s.number) not in called)
            waiting = sum(1 for e in entries.get(waitlist.pk, []) if eligible(e, t.table))
            if open_seats and waiting:
                out.append(SeatsWaitedFor(table=t.table, seats=open_seats, waitlist=waitlist, waiting=waiting))
    return sorted(out, key=lambda w: (w.table.number, w.waitlist.key))


@dataclass(frozen=True)
class TableTile:
    """One table of the floor map. An open table carries its rotation-board row (`board`: its decks and their 3 h,
    6 h and 15 min clocks, as apps.decks.selectors computes them),
    the deck alerts in force at it (`alerts`, from the same selector as the board), its seats (`seats`:
    apps.seats.selectors.seats_of, the floor's record with the newest round's report against it, as the seats board and
    the room's screens read them, 14.18), the dealer in the box (`dealer`: the down under way, since `dealer.starts_at`;
    None when no down is planned for it now), its rounds and rake (Decimal dollars) of the gaming day from the running
    totals, and its bad beat claims waiting for verification (14.19(i)) and verified claims whose payout is still to be
    delivered (`payouts`, 14.19(i)1, 2), the irregularities reported there that nobody has resolved (`irregularities`,
    14.15) and its open seats while players wait for its game (`waited_for`, 14.18). `container_full`: its contribution
    container has reached its posted capacity, a count is due (apps.counts.selectors.containers_full), on an open or
    a closed table; None otherwise. A closed table has only `table` (and `container_full`)."""

    table: PokerTable
    board: TableRow | None = None
    alerts: list[DeckAlert] = field(default_factory=list)
    seats: TableSeats | None = None
    dealer: DealerDown | None = None
    rotation_in_use: bool = False
    rounds_today: int = 0
    rake_today: Decimal = ZERO
    claims: list[Claim] = field(default_factory=list)
    payouts: list[Claim] = field(default_factory=list)
    irregularities: list[Irregularity] = field(default_factory=list)
    waited_for: list[SeatsWaitedFor] = field(default_factory=list)
    container_full: ContainerFull | None = None

    @property
    def is_open(self) -> bool:
        return self.table.is_open

    @property
    def games(self) -> list:
        """The games posted at the table (a mixed-game table's rotation, prefetched), each with its limits."""
        return self.table.posted_games()

    @property
    def seated(self) -> int | None:
        """Players the floor's record has at the table (seated or away); None for a closed table."""
        return self.seats.seated if self.seats is not None else None

    @property
    def missing_dealer(self) -> bool:
        """An open table with no dealer in the box while the dealer rotation is in use for this moment."""
        return self.is_open and self.rotation_in_use and self.dealer is None

    @property
    def problems(self) -> list[str]:
        """What needs a person at this table now, in words: each deck alert in force, a missing dealer, each claim
        to verify, each payout to deliver, each irregularity to resolve and open seats while players wait. Empty for
        a table in order (and for a closed one)."""
        out = [f"{'Deck ' + a.deck.serial + ': ' if a.deck is not None else ''}{a.get_kind_display()}"
               for a in self.alerts]
        if self.missing_dealer:
            out.append("No dealer in the box")
        out += [f"Bad beat claim on round #{c.round_of_play_id} waits for verification (14.19(i))" for c in self.claims]
        out += [f"Payout of {dollars(c.payout_amount or ZERO)} to deliver (14.19(i)2)" for c in self.payouts]
        out += [f"Irregularity to resolve: {i.get_kind_display()}" for i in self.irregularities]
        out += [f"{str(w)[:1].upper()}{str(w)[1:]}" for w in self.waited_for]
        if self.container_full is not None:
            out.append(self.container_full.message)
        return out

    @property
    def state(self) -> str:
        """The tile's colour: "closed", "overdue" (something needs a person now), "due_soon" (a deck clock runs out
        soon) or "ok"."""
        if not self.is_open:
            return "closed"
        if self.problems or (self.board is not None and self.board.state == ClockState.OVERDUE):
            return ClockState.OVERDUE.value
        return self.board.state.value if self.board is not None else ClockState.OK.value


@dataclass(frozen=True)
class JackpotTile:
    """A live jackpot as the floor sees it: as the room's displays show it (`display`: the amount accounting set on
    the display and its status, apps.badbeat.selectors.display_status, 14.19(i)1, (o), 14.19(k)2) and the verified
    claims whose payout is pending (14.19(i)1)."""

    jackpot: Jackpot
    display: JackpotDisplay
    pending: list[Claim]

    @property
    def amount(self) -> Decimal:
        """Decimal dollars: the amount the room's displays show, as accounting adjusted it (14.19(k)2)."""
        return self.display.amount

    @property
    def record(self) -> Decimal:
        """Decimal dollars: what the jackpot would pay now by accounting's record (its balance, or a secondary's
        share of the primary's, 14.19(m)2-deducted) — the figure accounting adjusts the display to (14.19(k)2)."""
        return payable_amount(jackpot=self.jackpot)

    @property
    def payout_pending(self) -> bool:
        return self.display.payout_pending

    @property
    def pending_adjustment(self) -> bool:
        return self.display.pending_adjustment


@dataclass(frozen=True)
class FloorSummary:
    gaming_day: date
    updated_at: datetime
    open_tables: list[PokerTable]
    tiles: list[TableTile]
    rounds_today: int
    rake_today: Decimal
    contributions_today: Decimal
    jackpot: Jackpot | None
    jackpots: list[JackpotTile]
    pending_claims: list[Claim]
    payouts_pending: list[Claim]
    payouts_to_deliver: list
    deck_alerts: list[DeckAlert]
    #: Displays pending adjustment: a payout was paid and accounting has not adjusted the display since (14.19(k)).
    displays_awaiting_adjustment: list[JackpotDisplay] = field(default_factory=list)
    #: Irregularities reported at the tables that nobody has resolved yet, oldest first (14.15).
    irregularities: list[Irregularity] = field(default_factory=list)
    #: Open seats at open tables while players wait for their game (14.18).
    seats_waited_for: list[SeatsWaitedFor] = field(default_factory=list)
    #: Tables whose contribution container reached its posted capacity: a count is due (14.19(f)1).
    containers_full: list[ContainerFull] = field(default_factory=list)
    #: Displays accounting has not adjusted since a supervisor verified a bad beat, newest verification first.
    adjustments_upon_verification: list[AdjustmentUponVerification] = field(default_factory=list)

    @property
    def payouts_pending_with_displays(self) -> list[tuple[Claim, list[Jackpot]]]:
        """Each verified claim whose payout is pending (`payouts_pending`), with the displays accounting has still
        to adjust upon its verification (14.19(k)-upon-verification): its line asks for both, so the bad beat is
        one thing that needs a person until it is paid."""
        return [(claim, [a.jackpot for a in self.adjustments_upon_verification if a.claim.pk == claim.pk])
                for claim in self.payouts_pending]

    @property
    def displays_to_adjust_upon_verification(self) -> list[AdjustmentUponVerification]:
        """The displays accounting has still to adjust upon a supervisor's verification of a bad beat
        (14.19(k)-upon-verification) that no other line asks for: not of a claim whose payout is pending (its own
        line asks, `payouts_pending_with_displays`), nor a display already awaiting adjustment after a payout (one
        line a display)."""
        pending = {claim.pk for claim in self.payouts_pending}
        awaiting = {d.jackpot.pk for d in self.displays_awaiting_adjustment}
        return [a for a in self.adjustments_upon_verification
                if a.claim.pk not in pending and a.jackpot.pk not in awaiting]

    @property
    def tables_needing_attention(self) -> list[TableTile]:
        """Open tables short of a dealer (the deck alerts, claims and payouts are listed on their own)."""
        return [t for t in self.tiles if t.missing_dealer]

    @property
    def attention_count(self) -> int:
        return (len(self.deck_alerts) + len(self.pending_claims) + len(self.payouts_pending)
                + len(self.tables_needing_attention)
                + len(self.displays_awaiting_adjustment) + len(self.displays_to_adjust_upon_verification)
                + len(self.irregularities) + len(self.seats_waited_for) + len(self.containers_full))


def floor_summary(*, casino: Casino, gaming_day: date, now: datetime | None = None) -> FloorSummary:
    """The floor at `now` (aware; the present when None): every table as a tile, open ones first by number, then the
    closed ones; the day's totals, the jackpots as their displays show them (with the displays awaiting accounting's
    adjustment after a payout, 14.19(k)-upon-verification), the claims to verify and the payouts to deliver,
    and the deck alerts in force. Every figure of the day comes from the running totals kept beside the records (one
    row per table or jackpot), never a count or a sum of the day's rounds, and each kind of fact is read once for all
    the tables: the number of queries depends neither on the rounds nor on the tables. The deck clocks and alerts are
    the rotation board's (`apps.decks.selectors.rotation_board`, `current_alerts`): the board and the dashboard
    cannot disagree on what is due or overdue. Likewise the open tables are apps.tables.selectors.open_tables
    (through the rotation board) and their seats apps.seats.selectors.seats_of, as on the seats board and the room's
    screens. Also what else needs a person: the irregularities nobody has resolved (14.15), the open seats while
    players wait for their game (`seats_waited_for`, 14.18), the contribution containers full to their posted
    capacity (`containers_full`: "count due: container full"; two queries when a table posts a capacity, none
    otherwise) and the displays accounting has still to adjust upon a supervisor's
    verification of a bad beat since the previous gaming day began (`adjustments_upon_verification`,
    14.19(k)-upon-verification; one query)."""
    now = now or timezone.now()
    rounds = rounds_by_table(casino=casino, gaming_day=gaming_day)
    rake = rake_by_table_id(casino=casino, gaming_day=gaming_day)
    board = rotation_board(casino=casino, now=now)  # the open tables by number (open_tables), decks and clocks
    open_tables = [row.table for row in board]
    closed = list(PokerTable.objects.filter(casino=casino, is_open=False).order_by("number"))
    prefetch_related_objects(closed, "rotation")  # a closed mixed-game table's posted games (open: read along)
    alerts = current_alerts(casino=casino, now=now, rows=board)
    claims, payouts = list(pending_claims(casino=casino)), list(payouts_pending(casino=casino))
    seats = {row.table.pk: row.seats for row in board if row.seats is not None}  # read once, with the board
    downs = downs_in_force(casino=casino, now=now)
    in_box = {d.table_id: d for d in downs if d.table_id is not None}
    irregularities = list(unresolved_irregularities(casino=casino))  # 14.15, to resolve
    waited_for = seats_waited_for(casino=casino, tables=list(seats.values()))  # 14.18: seats open, players waiting
    full = containers_full(casino=casino, tables=open_tables + closed)  # 14.19(f)1: a count due before it overflows
    full_at = {f.table.pk: f for f in full}

    def of_today(table: PokerTable) -> tuple[int, Decimal]:  # its rounds and rake from the running totals
        return (rounds[table.pk].rounds if table.pk in rounds else 0), rake.get(table.pk, ZERO)

    tiles = []
    for row in board:
        table = row.table
        count, taken = of_today(table)
        table.rounds_today, table.rake_today = count, taken  # type: ignore[attr-defined]  # FloorSummary.open_tables
        tiles.append(TableTile(
            table=table, board=row, alerts=[a for a in alerts if a.table_id == table.pk], seats=seats.get(table.pk),
            dealer=in_box.get(table.pk), rotation_in_use=bool(downs), rounds_today=count,
            rake_today=taken, claims=[c for c in claims if c.round_of_play.table_id == table.pk],
            payouts=[c for c in payouts if c.round_of_play.table_id == table.pk],
            irregularities=[i for i in irregularities if i.table_id == table.pk],
            waited_for=[w for w in waited_for if w.table.pk == table.pk], container_full=full_at.get(table.pk)))
    for table in closed:
        count, taken = of_today(table)
        tiles.append(TableTile(table=table, rounds_today=count, rake_today=taken, container_full=full_at.get(table.pk)))
    displays = jackpot_displays(casino=casino)
    jackpots = [d.jackpot for d in displays]
    return FloorSummary(
        gaming_day=gaming_day,
        updated_at=now,
        open_tables=open_tables,
        tiles=tiles,
        rounds_today=sum(t.rounds for t in rounds.values()),
        rake_today=rake_for_gaming_day(casino=casino, gaming_day=gaming_day),
        contributions_today=contributions_of_day(casino=casino, gaming_day=gaming_day)[0],
        jackpot=next((j for j in jackpots if not j.is_secondary), None),
        jackpots=[JackpotTile(jackpot=d.jackpot, display=d,
                              pending=[c for c in payouts if c.jackpot_id == d.jackpot.pk]) for d in displays],
        pending_claims=claims,
        payouts_pending=payouts,
        payouts_to_deliver=list(open_notifications(casino=casino)),
        deck_alerts=alerts,
        displays_awaiting_adjustment=[d for d in displays if d.pending_adjustment],
        irregularities=irregularities,
        seats_waited_for=waited_for,
        containers_full=full,
        adjustments_upon_verification=displays_to_adjust_upon_verification(
            casino=casino, since=gaming_day_bounds(casino=casino, gaming_day=gaming_day - timedelta(days=1))[0]),
    )


def table_rounds(*, table: PokerTable, gaming_day: date | None = None) -> QuerySet[RoundOfPlay]:
    """The table's rounds of play, newest first (started_at, id: the index round_table_newest_first), each with its
    rake record and its bad beat contributions (`contribution_total`, Decimal dollars or None) summed per round by
    a correlated subquery, so that a page of rounds reads only its own rows. Page it (keyset_page)."""
    contributions = (Contribution.objects.filter(round_of_play=OuterRef("pk")).order_by().values("round_of_play")
                     .annotate(total=Sum("amount")).values("total"))
    qs = (RoundOfPlay.objects.filter(table=table).select_related("rake_record")
          .annotate(contribution_total=Subquery(contributions, output_field=MoneyField()))
          .order_by("-started_at", "-id"))
    return qs.filter(gaming_day=gaming_day) if gaming_day else qs


def round_detail(*, round_of_play: RoundOfPlay) -> dict:
    """Everything the round page shows: players and cards, pots and awards, rake and contribution."""
    pots = list(round_of_play.pots.prefetch_related("awards"))
    rake = getattr(round_of_play, "rake_record", None)
    contributions = list(Contribution.objects.filter(round_of_play=round_of_play).select_related("jackpot"))
    players = list(round_of_play.players.all())
    draws = max((len(p.draws) for p in players), default=0)
    for p in players:  # a player who folded before the last draw has fewer
        p.missing_draws = range(draws - len(p.draws))  # type: ignore[attr-defined]  # read by floor/round.html
    return {
        "round": round_of_play,
        "players": players,
        "has_draws": draws > 0 or any(p.dealt_cards for p in players),
        "draw_numbers": range(1, draws + 1),
        "pots": pots,
        "rake": rake,
        "contributions": contributions,
        "contribution_total": sum((c.amount for c in contributions), ZERO),
        "claims": list(round_of_play.bad_beat_claims.all()),
        "awarded_total": sum((p.amount for p in pots), ZERO),
    }
