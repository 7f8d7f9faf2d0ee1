"""Reads for the supervisor's floor pages: one gaming day of one casino at a glance."""
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import DecimalField, OuterRef, QuerySet, Subquery, Sum
from django.utils import timezone

from apps.badbeat.models import Claim, Contribution, Jackpot
from apps.badbeat.selectors import contributions_of_day, jackpot_of, open_notifications, pending_claims
from apps.casinos.models import Casino
from apps.decks.models import DeckAlert
from apps.decks.selectors import current_alerts, rotation_board
from apps.rake.selectors import rake_by_table_id, rake_for_gaming_day
from apps.rounds.models import RoundOfPlay
from apps.rounds.selectors import rounds_by_table
from apps.tables.models import PokerTable

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class FloorSummary:
    gaming_day: date
    open_tables: list[PokerTable]
    rounds_today: int
    rake_today: Decimal
    contributions_today: Decimal
    jackpot: Jackpot | None
    pending_claims: list[Claim]
    payouts_to_deliver: list
    deck_alerts: list[DeckAlert]


def floor_summary(*, casino: Casino, gaming_day: date) -> FloorSummary:
    """Open tables (with their rounds and rake of the day), totals, jackpot and pending claims. Every figure of the
    day comes from the running totals kept beside the records (one row per table or jackpot), never a count or a sum
    of the day's rounds."""
    rounds = rounds_by_table(casino=casino, gaming_day=gaming_day)
    rake = rake_by_table_id(casino=casino, gaming_day=gaming_day)
    now = timezone.now()
    board = rotation_board(casino=casino, now=now)  # the open tables by number, with their decks and clocks
    open_tables = [row.table for row in board]
    for table in open_tables:
        table.rounds_today = rounds[table.pk].rounds if table.pk in rounds else 0
        table.rake_today = rake.get(table.pk, ZERO)
    return FloorSummary(
        gaming_day=gaming_day,
        open_tables=open_tables,
        rounds_today=sum(t.rounds for t in rounds.values()),
        rake_today=rake_for_gaming_day(casino=casino, gaming_day=gaming_day),
        contributions_today=contributions_of_day(casino=casino, gaming_day=gaming_day)[0],
        jackpot=jackpot_of(casino=casino),
        pending_claims=list(pending_claims(casino=casino)),
        payouts_to_deliver=list(open_notifications(casino=casino)),
        deck_alerts=current_alerts(casino=casino, now=now, rows=board),
    )


def table_rounds(*, table: PokerTable, gaming_day: date | None = None) -> QuerySet[RoundOfPlay]:
    """The table's rounds of play, newest first (started_at, id: the index round_table_newest_first), each with its
    rake record and its bad beat contributions (`contribution_total`, Decimal dollars or None) summed per round by
    a correlated subquery, so that a page of rounds reads only its own rows. Page it (keyset_page)."""
    contributions = (Contribution.objects.filter(round_of_play=OuterRef("pk")).order_by().values("round_of_play")
                     .annotate(total=Sum("amount")).values("total"))
    qs = (RoundOfPlay.objects.filter(table=table).select_related("rake_record")
          .annotate(contribution_total=Subquery(contributions, output_field=DecimalField(max_digits=14,
                                                                                         decimal_places=2)))
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
        p.missing_draws = range(draws - len(p.draws))
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
