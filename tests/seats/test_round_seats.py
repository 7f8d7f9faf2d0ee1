"""A table whose seats record disagrees with its newest round is flagged, and the floor accepts the seats the round
reports in one click (N.J.A.C. 13:69F-14.18: the vacant seats the room announces are the floor's record)."""
import re
from datetime import timedelta

import pytest
from django.db import DatabaseError, transaction
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.seats.models import EventKind, FloorEvent, RoundSeatsAccepted, Seat, SeatStatus
from apps.seats.selectors import floor_board
from apps.seats.services import accept_round_seats
from tests.factories import StaffFactory

from .factories import deal, keep
from .test_selectors import dealing_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return dealing_table(number=3, seats=9)


def disagreeing(table, now):
    """The record: Ann in 1, Bo in 2, Cy away from 5; the newest round: Ann in 1, Di in 3, a nameless player in 4."""
    since = now - timedelta(minutes=20)
    keep(table, 1, "Ann", since)
    keep(table, 2, "Bo", since)
    keep(table, 5, "Cy", since, away_since=now - timedelta(minutes=3))
    deal(table, {1: "Ann", 2: "Bo"}, now - timedelta(minutes=5))
    return deal(table, {1: "Ann", 3: "Di", 4: ""}, now - timedelta(minutes=1))


def seats_record(table) -> dict[int, tuple[str, str]]:
    return {s.number: (s.player, s.status) for s in Seat.objects.filter(table=table)}


class TestAcceptTheRoundsSeats:
    def test_14_18_the_record_becomes_what_the_round_reports_recorded_once(self, table):
        now = timezone.now()
        newest = disagreeing(table, now)
        floor = StaffFactory(casino=table.casino, roles=[Role.FLOORPERSON])
        seats = floor_board(casino=table.casino, now=now).tables[0]
        assert seats.disagrees and (seats.round_adds, seats.round_vacates) == ((3, 4), (2,))

        taken = accept_round_seats(table=table, round_id=newest.pk, by=floor, now=now)

        assert (taken.seated, taken.vacated) == ((3, 4), (2,))
        assert seats_record(table) == {1: ("Ann", "seated"), 3: ("Di", "seated"),
                                       4: (f"Seat 4, round {newest.pk}", "seated"), 5: ("Cy", SeatStatus.AWAY)}
        record = RoundSeatsAccepted.objects.get()
        assert (record.by, record.at, record.round_of_play_id, record.table, record.seated, record.vacated) == (
            floor, now, newest.pk, table, [3, 4], [2])
        assert sorted(FloorEvent.objects.filter(at=now, by=floor).values_list("kind", "seat")) == [
            (EventKind.VACATED, 2), (EventKind.WALK_IN, 3), (EventKind.WALK_IN, 4)]
        assert not floor_board(casino=table.casino, now=now).tables[0].disagrees  # the flag is gone

        again = accept_round_seats(table=table, round_id=newest.pk, by=floor, now=now + timedelta(seconds=5))
        assert not again.changed and again.record is None  # idempotent: nothing changes, nothing is recorded
        assert RoundSeatsAccepted.objects.count() == 1 and FloorEvent.objects.count() == 3

    def test_a_newer_round_or_a_stale_one_is_refused_writing_nothing(self, table):
        now = timezone.now()
        older = deal(table, {1: "Ann", 2: "Bo"}, now - timedelta(minutes=40))
        floor = StaffFactory(casino=table.casino, roles=[Role.FLOORPERSON])
        with pytest.raises(DomainError, match="too old") as stale:
            accept_round_seats(table=table, round_id=older.pk, by=floor, now=now)
        newest = deal(table, {1: "Ann", 2: "Bo", 3: "Cy"}, now - timedelta(minutes=1))
        with pytest.raises(DomainError, match="newer round") as newer:
            accept_round_seats(table=table, round_id=older.pk, by=floor, now=now)
        assert stale.value.field == newer.value.field == "round"
        assert not Seat.objects.exists() and not RoundSeatsAccepted.objects.exists()
        assert accept_round_seats(table=table, round_id=newest.pk, by=floor, now=now).seated == (1, 2, 3)

    def test_the_record_of_an_acceptance_is_append_only(self, table):
        now = timezone.now()
        newest = disagreeing(table, now)
        accept_round_seats(table=table, round_id=newest.pk,
                           by=StaffFactory(casino=table.casino, roles=[Role.FLOORPERSON]), now=now)
        with pytest.raises(DatabaseError), transaction.atomic():
            RoundSeatsAccepted.objects.update(vacated=[])
        with pytest.raises(DatabaseError), transaction.atomic():
            RoundSeatsAccepted.objects.all().delete()


class TestTheButton:
    def test_14_18_the_floor_map_flags_the_table_and_one_click_takes_the_rounds_seats(self, client, table):
        now = timezone.now()
        newest = disagreeing(table, now)
        client.force_login(StaffFactory(casino=table.casino, roles=[Role.FLOORPERSON]))
        floor_map = client.get("/").content.decode()
        assert 'data-testid="seats-flag-3"' in floor_map and "it shows seats 3, 4 taken; it does not show seat 2" \
            in floor_map
        assert re.search(r'data-testid="seats-3" data-seated="1,2,5">3 of 9', floor_map)
        board = client.get("/seats/").content.decode()
        assert 'data-testid="seats-flag-3"' in board and 'data-testid="accept-round-3"' in board

        answer = client.post(f"/seats/tables/{table.pk}/accept-round/", {"round": newest.pk, "next": "floor"})
        assert answer.status_code == 302 and answer["Location"] == "/"
        floor_map = client.get("/").content.decode()
        assert "Table 3: seats 3, 4 taken and seat 2 vacated, as round" in floor_map  # the message
        assert 'data-testid="seats-flag-3"' not in floor_map
        assert re.search(r'data-testid="seats-3" data-seated="1,3,4,5">4 of 9', floor_map)
        assert 'data-testid="seats-flag-3"' not in client.get("/seats/").content.decode()

        again = client.post(f"/seats/tables/{table.pk}/accept-round/", {"round": newest.pk})
        assert again.status_code == 302 and again["Location"] == "/seats/"
        assert "the seats already agree with round" in client.get("/seats/").content.decode()
        assert RoundSeatsAccepted.objects.count() == 1

    @pytest.mark.parametrize(("role", "status"), [(Role.POKER_SHIFT_SUPERVISOR, 302), (Role.DEALER, 403),
                                                  (Role.SURVEILLANCE, 403), (Role.ACCOUNTING, 403)])
    def test_the_supervisor_and_the_floor_accept_others_do_not(self, client, table, role, status):
        newest = disagreeing(table, timezone.now())
        client.force_login(StaffFactory(casino=table.casino, roles=[role]))
        assert client.post(f"/seats/tables/{table.pk}/accept-round/", {"round": newest.pk}).status_code == status
        assert RoundSeatsAccepted.objects.exists() == (status == 302)
        assert client.get(f"/seats/tables/{table.pk}/accept-round/").status_code in (405, 403)

    def test_bad_or_outdated_input_answers_with_the_message_and_writes_nothing(self, client, table):
        now = timezone.now()
        newest = disagreeing(table, now)
        client.force_login(StaffFactory(casino=table.casino, roles=[Role.FLOORPERSON]))
        bad = client.post(f"/seats/tables/{table.pk}/accept-round/", {"round": "x"})
        assert bad.status_code == 400 and "Choose one from the board." in bad.content.decode()
        deal(table, {1: "Ann", 2: "Bo"}, now)  # a newer round meanwhile
        outdated = client.post(f"/seats/tables/{table.pk}/accept-round/", {"round": newest.pk})
        assert outdated.status_code == 409 and "A newer round of play came in at table 3" in outdated.content.decode()
        assert client.post("/seats/tables/999999/accept-round/", {"round": newest.pk}).status_code == 404
        assert not RoundSeatsAccepted.objects.exists() and Seat.objects.count() == 3
