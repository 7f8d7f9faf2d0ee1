"""Reads of the official public feed and page (N.J.A.C. 13:69F-14.18: the room announces the games it offers, their
limits and the seats open; 14.19(b)-current-amount, 14.19(i)1, 14.19(k)2: the bad beat jackpots as the room's
displays show them).

What the public is told, and nothing more: games running with their limits and rotation, the tables dealing each,
the seats and vacant seats, how many players wait for each game — never who (no name, no initials, no phone) — and
each live jackpot's displayed amount with its status. The games come from the one board of the room
(apps.seats.selectors.room_board), the same the room's screens show."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from apps.badbeat.models import DisplayStatus
from apps.badbeat.selectors import jackpot_displays
from apps.casinos.models import Casino
from apps.seats.selectors import GameLine, room_board

from .models import PublicFeed

#: A public jackpot's status, as its display says it (apps.badbeat.selectors.display_status): offered, a verified bad
#: beat not yet paid (14.19(i)1), or paid and its display not yet adjusted by accounting (14.19(i)1, (k)).
ACTIVE, PAYOUT_PENDING, PENDING_ADJUSTMENT = (DisplayStatus.ACTIVE.value, DisplayStatus.PAYOUT_PENDING.value,
                                              DisplayStatus.PENDING_ADJUSTMENT.value)


def published_casino(*, code: str) -> Casino | None:
    """The casino whose code is `code` when it publishes its public feed (no PublicFeed row, or one published), else
    None — for a code no casino has and for a casino that turned its feed off alike. One query."""
    casino = Casino.objects.filter(code=code).select_related("public_feed").first()
    if casino is None:
        return None
    try:
        feed = casino.public_feed
    except PublicFeed.DoesNotExist:
        return casino
    return casino if feed.published else None


@dataclass(frozen=True, slots=True)
class PublicJackpot:
    """A live bad beat jackpot as the public is told it: its posted name, primary or secondary, the amount
    the room's displays show (Decimal dollars, 14.19(k)2) and its status (ACTIVE, PAYOUT_PENDING or
    PENDING_ADJUSTMENT, 14.19(i)1, 14.19(k)2)."""

    name: str
    kind: str
    amount: Decimal
    status: str


def public_jackpots(*, casino: Casino) -> list[PublicJackpot]:
    """The casino's live jackpots (primary first), each with the amount its display shows and its status, as the
    room's jackpot display and the floor map read them (apps.badbeat.selectors.jackpot_displays: "payout_pending"
    from a claim's verification to its payout, "pending_adjustment" from the payout until accounting adjusts the
    display, else "active"). Never a balance, reserve or claim's detail. One query."""
    return [PublicJackpot(name=d.jackpot.name, kind=d.jackpot.kind, amount=d.amount, status=d.status.value)
            for d in jackpot_displays(casino=casino)]


@dataclass(frozen=True, slots=True)
class PublicRoom:
    """Everything the public feed says of a casino at `read_at` (timezone-aware): its board's game lines (the
    serializer leaves out their waitlist initials) and its jackpots."""

    casino: Casino
    games: tuple[GameLine, ...]
    jackpots: tuple[PublicJackpot, ...]
    read_at: datetime

    @property
    def tables_open(self) -> int:
        """Open tables dealing a game of the board (each counted once)."""
        return len({table for line in self.games for table in line.tables})

    @property
    def vacant_seats(self) -> int:
        return sum(line.vacant_seats for line in self.games)


def public_room(*, casino: Casino, now: datetime) -> PublicRoom:
    """The public feed's content for `casino` at `now` (timezone-aware): apps.seats.selectors.room_board's game lines
    (14.18) and public_jackpots (14.19(b)-current-amount, 14.19(i)1, 14.19(k)2). A fixed number of queries whatever
    the room's size."""
    return PublicRoom(casino=casino, games=tuple(room_board(casino=casino, now=now)),
                      jackpots=tuple(public_jackpots(casino=casino)), read_at=now)
