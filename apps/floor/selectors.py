"""Reads for the supervisor's floor pages: one gaming day of one casino at a glance, every table as a tile."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.db.models import OuterRef, QuerySet, Subquery, Sum, prefetch_related_objects
from django.utils import timezone

from apps.badbeat.models import Claim, Contribution, Jackpot, JackpotStatus
from apps.badbeat.selectors import (
    contributions_of_day,
    live_jackpots,
    open_notifications,
    payable_amount,
    payouts_pending,
    pending_claims,
)
from apps.casinos.models import Casino
from apps.core.fields import MoneyField
from apps.dealers.models import DealerDown
from apps.dealers.selectors import downs_in_force
from apps.decks.models import DeckAlert
from apps.decks.selectors import ClockState, TableRow, current_alerts, rotation_board
from apps.rake.selectors import rake_by_table_id, rake_for_gaming_day
from apps.rounds.models import RoundOfPlay
from apps.rounds.selectors import SeatsSeen, rounds_by_table, seats_seen
from apps.tables.models import PokerTable

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class TableTile:
    """One table of the floor map. An open table carries its rotation-board row (`board`: its decks and their 3 h,
    6 h and 15 min clocks, 14.2(a), (b), 14.6(e)4), the deck alerts in force at it (`alerts`, from the same
    selector as the board), the seats its newest round reported (`seats`, None before any round; not current when
    that round is too old to say who sits there now, 14.18), the dealer in the box (`dealer`: the down under way,
    since `dealer.starts_at`; None when no down is planned for it now), its rounds and rake (Decimal dollars) of the
    gaming day from the running totals, and its bad beat claims waiting for verification (14.19(i)) and verified
    claims whose payout is still to be delivered (`payouts`, 14.19(i)1, 2). A closed table has only `table`."""

    table: PokerTable
    board: TableRow | None = None
    alerts: list[DeckAlert] = field(default_factory=list)
    seats: SeatsSeen | None = None
    dealer: DealerDown | None = None
    rotation_in_use: bool = False
    rounds_today: int = 0
    rake_today: Decimal = ZERO
    claims: list[Claim] = field(default_factory=list)
    payouts: list[Claim] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        return self.table.is_open

    @property
    def games(self) -> list:
        """The games posted at the table (a mixed-game table's rotation, prefetched), each with its limits."""
        return self.table.posted_games()

    @property
    def seated(self) -> int | None:
        """Players seated as the newest round reported them, None when not known (no round, or too old)."""
        return len(self.seats.seats) if self.seats is not None and self.seats.current else None

    @property
    def missing_dealer(self) -> bool:
        """An open table with no dealer in the box while the dealer rotation is in use for this moment."""
        return self.is_open and self.rotation_in_use and self.dealer is None

    @property
    def problems(self) -> list[str]:
        """What needs a person at this table now, in words: each deck alert in force, a missing dealer, each claim
        to verify and each payout to deliver. Empty for a table in order (and for a closed one)."""
        out = [f"{'Deck ' + a.deck.serial + ': ' if a.deck is not None else ''}{a.get_kind_display()}"
               for a in self.alerts]
        if self.missing_dealer:
            out.append("No dealer in the box")
        out += [f"Bad beat claim on round #{c.round_of_play_id} waits for verification (14.19(i))" for c in self.claims]
        out += [f"Payout of ${c.payout_amount or ZERO:,.2f} to deliver (14.19(i)2)" for c in self.payouts]
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
    """A live jackpot as the floor sees it: what it would pay now (`payable`, Decimal dollars, 14.19(m)2), what the
    room's displays show (14.19(k)), and the verified claims whose payout is pending (14.19(i)1)."""

    jackpot: Jackpot
    payable: Decimal
    pending: list[Claim]

    @property
    def payout_pending(self) -> bool:
        return bool(self.pending) or self.jackpot.status == JackpotStatus.PAYOUT_PENDING


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

    @property
    def tables_needing_attention(self) -> list[TableTile]:
        """Open tables short of a dealer (the deck alerts, claims and payouts are listed on their own)."""
        return [t for t in self.tiles if t.missing_dealer]

    @property
    def attention_count(self) -> int:
        return (len(self.deck_alerts) + len(self.pending_claims) + len(self.payouts_pending)
                + len(self.tables_needing_attention))


def floor_summary(*, casino: Casino, gaming_day: date, now: datetime | None = None) -> FloorSummary:
    """The floor at `now` (aware; the present when None): every table as a tile, open ones first by number, then the
    closed ones; the day's totals, the jackpots with their status, the claims to verify and the payouts to deliver,
    and the deck alerts in force. Every figure of the day comes from the running totals kept beside the records (one
    row per table or jackpot), never a count or a sum of the day's rounds, and each kind of fact is read once for all
    the tables: the number of queries depends neither on the rounds nor on the tables. The deck clocks and alerts are
    the rotation board's (`apps.decks.selectors.rotation_board`, `current_alerts`): the board and the dashboard
    cannot disagree on what is due or overdue."""
    now = now or timezone.now()
    rounds = rounds_by_table(casino=casino, gaming_day=gaming_day)
    rake = rake_by_table_id(casino=casino, gaming_day=gaming_day)
    board = rotation_board(casino=casino, now=now)  # the open tables by number, with their decks and clocks
    open_tables = [row.table for row in board]
    closed = list(PokerTable.objects.filter(casino=casino, is_open=False).order_by("number"))
    prefetch_related_objects(open_tables + closed, "rotation")  # a mixed-game table's posted games
    alerts = current_alerts(casino=casino, now=now, rows=board)
    claims, payouts = list(pending_claims(casino=casino)), list(payouts_pending(casino=casino))
    seats = seats_seen(table_ids=[t.pk for t in open_tables], now=now)
    downs = downs_in_force(casino=casino, now=now)
    in_box = {d.table_id: d for d in downs if d.table_id is not None}

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
            payouts=[c for c in payouts if c.round_of_play.table_id == table.pk]))
    for table in closed:
        count, taken = of_today(table)
        tiles.append(TableTile(table=table, rounds_today=count, rake_today=taken))
    jackpots = list(live_jackpots(casino=casino).select_related("primary"))
    return FloorSummary(
        gaming_day=gaming_day,
        updated_at=now,
        open_tables=open_tables,
        tiles=tiles,
        rounds_today=sum(t.rounds for t in rounds.values()),
        rake_today=rake_for_gaming_day(casino=casino, gaming_day=gaming_day),
        contributions_today=contributions_of_day(casino=casino, gaming_day=gaming_day)[0],
        jackpot=next((j for j in jackpots if not j.is_secondary), None),
        jackpots=[JackpotTile(jackpot=j, payable=payable_amount(jackpot=j),
                              pending=[c for c in payouts if c.jackpot_id == j.pk]) for j in jackpots],
        pending_claims=claims,
        payouts_pending=payouts,
        payouts_to_deliver=list(open_notifications(casino=casino)),
        deck_alerts=alerts,
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
