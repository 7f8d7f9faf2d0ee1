"""The seats the feed last reported at each table (rounds.selectors.seats_seen), read by the floor map and the
room's games-and-seats board (14.18)."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.rounds.selectors import SEATS_FRESH_FOR, seats_seen
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory

D = Decimal
pytestmark = pytest.mark.django_db


def _round(table, seats, started_at):
    players = [PlayerIn(seat=seat, name=name, contributed=D("2.00"), folded=i > 0)
               for i, (seat, name) in enumerate(seats)]
    return record_round_of_play(table=table, round_in=RoundIn(players=players, board="", started_at=started_at))


def test_14_18_seats_are_those_of_each_tables_newest_round_in_two_queries():
    table = RakeStructureFactory(table__number=1).table
    JackpotFactory(casino=table.casino)
    other = RakeStructureFactory(table__casino=table.casino, table__number=2).table
    empty = PokerTableFactory(casino=table.casino, number=3)
    now = timezone.now()
    _round(table, [(1, "Ann"), (2, "Bo"), (5, "Cy")], now - timedelta(minutes=3))
    _round(table, [(1, "Ann"), (5, "Cy")], now - timedelta(minutes=1))          # the newest: seat 2 has left
    _round(other, [(3, ""), (4, "Di")], now - SEATS_FRESH_FOR - timedelta(minutes=1))

    with CaptureQueriesContext(connection) as queries:
        seen = seats_seen(table_ids=[table.pk, other.pk, empty.pk], now=now)
    assert len(queries) == 2
    assert seen[table.pk].seats == {1: "Ann", 5: "Cy"} and seen[table.pk].current
    assert seen[other.pk].seats == {3: "", 4: "Di"} and not seen[other.pk].current  # too old to say who sits now
    assert empty.pk not in seen
    assert seats_seen(table_ids=[], now=now) == {}
