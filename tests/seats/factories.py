"""Factories and helpers of the seats tests: a room's rounds of play through the feed, seats and waitlist entries."""
from datetime import datetime
from decimal import Decimal

from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.seats.models import Seat, SeatStatus, Waitlist, WaitlistEntry, WaitlistSource
from apps.seats.selectors import line_key, line_texts
from apps.tables.models import PokerTable


def deal(table: PokerTable, seats: dict[int, str], started_at: datetime):
    """Record a round of play at `table` through the feed's one function, the players of `seats` (number -> name)."""
    players = [PlayerIn(seat=number, name=name, contributed=Decimal("2.00"), folded=i > 0)
               for i, (number, name) in enumerate(sorted(seats.items()))]
    return record_round_of_play(table=table, round_in=RoundIn(players=players, board="", started_at=started_at))


def keep(table: PokerTable, number: int, player: str, since: datetime, *, away_since: datetime | None = None) -> Seat:
    return Seat.objects.create(table=table, number=number, player=player, since=since, away_since=away_since,
                               status=SeatStatus.AWAY if away_since else SeatStatus.SEATED)


def waitlist_for(table: PokerTable, **kwargs) -> Waitlist:
    game, limits, rotation = line_texts(table)
    return Waitlist.objects.create(casino=table.casino, key=line_key(table), game=game, limits=limits,
                                   rotation=rotation, **kwargs)


def entry(waitlist: Waitlist, name: str, at: datetime, *, source=WaitlistSource.IN_PERSON, checked_in=True,
          **kwargs) -> WaitlistEntry:
    return WaitlistEntry.objects.create(waitlist=waitlist, name=name, source=source, created_at=at,
                                        checked_in_at=at if checked_in else None, **kwargs)
