"""The room's board of games and seats (14.18) and the floor's seats record against the newest round of play."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.seats.selectors import GameLine, floor_board, line_key, room_board
from apps.tables.models import BettingStructure, Game, RotationGame
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory

from .factories import deal, entry, keep, waitlist_for

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def now():
    return timezone.now()


def dealing_table(casino=None, **kwargs):
    table = RakeStructureFactory(table__casino=casino, **{f"table__{k}": v for k, v in kwargs.items()}).table \
        if casino else RakeStructureFactory(**{f"table__{k}": v for k, v in kwargs.items()}).table
    JackpotFactory(casino=table.casino)
    return table


def test_14_18_one_line_per_game_and_limits_with_vacant_seats_and_initials(now):
    t1 = dealing_table(number=1, seats=9, small_blind=D("2"), big_blind=D("5"), minimum_wager=D("5"))
    casino = t1.casino
    t2 = dealing_table(casino, number=2, seats=9, small_blind=D("2"), big_blind=D("5"), minimum_wager=D("5"))
    t3 = dealing_table(casino, number=3, seats=8, game=Game.OMAHA, betting_structure=BettingStructure.POT_LIMIT)
    PokerTableFactory(casino=casino, number=4, is_open=False, small_blind=D("2"), big_blind=D("5"))
    keep(t1, 1, "Ann Lee", now - timedelta(minutes=40))
    keep(t1, 2, "Bo", now - timedelta(minutes=40), away_since=now - timedelta(minutes=5))
    deal(t2, {3: "Cy", 4: "Di"}, now - timedelta(minutes=1))  # the record has them vacant: flagged, still vacant
    waitlist = waitlist_for(t1)
    entry(waitlist, "Eve Park", now - timedelta(minutes=20))
    entry(waitlist, "fj", now - timedelta(minutes=10))

    with CaptureQueriesContext(connection) as queries:
        lines = room_board(casino=casino, now=now)
    assert len(queries) <= 8
    assert [line.key for line in lines] == ["holdem-2-5-nl", "omaha-1-2-pl"]
    holdem = lines[0]
    assert holdem == GameLine(key="holdem-2-5-nl", game="Texas hold 'em (high)", limits="$2/$5 no limit",
                              rotation="", tables=("Table 1", "Table 2"), seats=18, vacant_seats=18 - 2,
                              waitlist_length=2, waitlist_initials=("E.P.", "F.J."))
    assert lines[1].tables == ("Table 3",) and lines[1].vacant_seats == 8 and lines[1].waitlist_length == 0
    assert line_key(t3) == "omaha-1-2-pl"


def test_14_18_a_list_without_a_table_open_and_a_rotation(now):
    closed = PokerTableFactory(number=7, is_open=False, game=Game.STUD, betting_structure=BettingStructure.FIXED_LIMIT,
                               small_blind=D("0"), big_blind=D("0"), minimum_wager=D("10"), maximum_wager=D("20"))
    mixed = PokerTableFactory(casino=closed.casino, number=8, rotation_name="H.O.R.S.E.", seats=8,
                              betting_structure=BettingStructure.FIXED_LIMIT, minimum_wager=D("4"),
                              maximum_wager=D("8"))
    for position, game in enumerate([Game.HOLDEM, Game.OMAHA_HILO8], 1):
        RotationGame.objects.create(table=mixed, position=position, game=game, minimum_wager=D("4"),
                                    maximum_wager=D("8"), betting_structure=BettingStructure.FIXED_LIMIT)
    entry(waitlist_for(closed), "Gus", now)
    lines = room_board(casino=closed.casino, now=now)
    assert [(line.key, line.tables, line.waitlist_length) for line in lines] == [
        ("rotation-horse-4-8-fl", ("Table 8",), 0), ("stud-10-20-fl", (), 1)]
    assert lines[0].rotation == "H.O.R.S.E." and lines[0].limits == "$4/$8 fixed limit"
    assert lines[1].game == "Seven-card stud (high)" and lines[1].seats == 0


class TestSeatsAgainstTheNewestRound:
    """Who sits where is the floor's record; the newest (current) round's report is compared against it and a table
    where they disagree is flagged, never counted otherwise."""

    def test_14_18_newest_round_shows_a_seat_the_floor_shows_vacant_flagged(self, now):
        table = dealing_table(number=1)
        deal(table, {4: "Di", 7: "Ed"}, now - timedelta(minutes=2))
        seats = floor_board(casino=table.casino, now=now).tables[0]
        seat = seats.seats[3]
        assert seat.status == "vacant" and seat.feed_taken == "Di" and not seat.is_open  # no one is called there
        assert seats.disagrees and seats.round_adds == (4, 7) and seats.round_vacates == ()
        assert seats.vacant == table.seats and seats.taken == ()  # the record's count, flagged until corrected

    def test_14_18_a_stale_round_flags_nothing(self, now):
        table = dealing_table(number=1)
        deal(table, {4: "Di", 7: "Ed"}, now - timedelta(minutes=31))
        seats = floor_board(casino=table.casino, now=now).tables[0]
        assert seats.seats[3].feed_taken is None and seats.vacant == table.seats and not seats.disagrees

    def test_14_18_a_seated_player_the_newest_round_does_not_show_stays_seated_flagged(self, now):
        table = dealing_table(number=1)
        keep(table, 5, "Ann", now - timedelta(minutes=20))
        deal(table, {5: "Ann", 6: "Bo"}, now - timedelta(minutes=10))
        seats = floor_board(casino=table.casino, now=now).tables[0]
        assert seats.round_vacates == () and seats.round_adds == (6,)
        deal(table, {6: "Bo", 7: "Ed"}, now - timedelta(minutes=2))  # the newest round without her
        seats = floor_board(casino=table.casino, now=now).tables[0]
        seat = seats.seats[4]
        assert seat.status == "seated" and seat.feed_gone and seat.kept.player == "Ann"
        assert seats.disagrees and seats.round_vacates == (5,) and seats.taken == (5,)
        assert seats.vacant == table.seats - 1

    def test_rounds_before_the_player_sat_down_say_nothing(self, now):
        table = dealing_table(number=1)
        for minutes in (9, 8, 7):
            deal(table, {6: "Bo", 7: "Ed"}, now - timedelta(minutes=minutes))
        keep(table, 5, "Ann", now - timedelta(minutes=6))
        seats = floor_board(casino=table.casino, now=now).tables[0]
        assert seats.seats[4].status == "seated" and not seats.seats[4].feed_gone and seats.round_vacates == ()

    def test_an_away_seat_is_not_flagged_by_the_rounds(self, now):
        table = dealing_table(number=1)
        keep(table, 5, "Ann", now - timedelta(minutes=20), away_since=now - timedelta(minutes=4))
        keep(table, 6, "Bo", now - timedelta(minutes=20))
        keep(table, 7, "Ed", now - timedelta(minutes=20))
        deal(table, {6: "Bo", 7: "Ed"}, now - timedelta(minutes=1))
        seats = floor_board(casino=table.casino, now=now).tables[0]
        seat = seats.seats[4]
        assert seat.status == "away" and seat.away_left == timedelta(minutes=26) and not seat.feed_gone
        assert not seats.disagrees and seats.taken == (5, 6, 7)
