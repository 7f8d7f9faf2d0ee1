"""The floor's seats and waitlists: calls, passes, must-move moves and the room's posted rules at their edges
(N.J.A.C. 13:69F-14.18), and the scheduled jobs, each idempotent."""
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.seats.models import (
    ON_LIST,
    UNDO_WITHIN,
    EntryState,
    EntryStatus,
    EventKind,
    FloorEvent,
    PassReason,
    RemoveReason,
    RoomRules,
    Seat,
    WaitlistSource,
    pass_reasons_for,
)
from apps.seats.selectors import floor_board, place_on_list, recently_removed
from apps.seats.services import (
    add_to_list,
    apply_away_limit,
    call_next,
    change_table,
    check_in,
    expire_remote_sign_ups,
    join_at_kiosk,
    mark_away,
    mark_back,
    mark_here,
    move_from_must_move,
    pass_over,
    purge_player_data,
    remove_from_list,
    restore_to_list,
    seat_called,
    seat_player,
    start_list,
)
from tests.factories import PokerTableFactory, StaffFactory

from .factories import entry, keep

pytestmark = pytest.mark.django_db
NEW_YORK = ZoneInfo("America/New_York")
T0 = datetime(2025, 3, 14, 20, 0, tzinfo=NEW_YORK)


@pytest.fixture
def room():
    table = PokerTableFactory(number=1, seats=9)
    floor = StaffFactory(casino=table.casino, roles=[Role.FLOORPERSON])
    RoomRules.objects.create(casino=table.casino, check_in_minutes=30, call_minutes=3, away_limit_minutes=20,
                             table_change_minutes=60, retention_hours=24)
    return table, floor


def kinds(casino):
    return list(FloorEvent.objects.filter(casino=casino).order_by("at", "id").values_list("kind", "reason"))


class TestCalls:
    def test_14_18_call_the_next_player_who_takes_the_seat_in_time(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        ann = add_to_list(waitlist=waitlist, name="Ann Lee", source=WaitlistSource.IN_PERSON, by=floor, now=T0)
        add_to_list(waitlist=waitlist, name="Bo", source=WaitlistSource.IN_PERSON, by=floor, now=T0)
        called = call_next(waitlist=waitlist, table=table, seat=4, by=floor, now=T0 + timedelta(minutes=1))
        assert called == ann and called.status == EntryStatus.CALLED
        assert called.call_expires_at == T0 + timedelta(minutes=4)
        with pytest.raises(DomainError) as held:  # the seat is the called player's now
            call_next(waitlist=waitlist, table=table, seat=4, by=floor, now=T0 + timedelta(minutes=1))
        assert held.value.field == "seat"
        seat = seat_called(entry=called, by=floor, now=T0 + timedelta(minutes=4))  # the call's last moment
        assert (seat.number, seat.player, seat.since) == (4, "Ann Lee", T0 + timedelta(minutes=4))
        called.refresh_from_db()
        assert called.status == EntryStatus.SEATED and called.ended_at == seat.since
        assert [k for k, _ in kinds(table.casino)] == ["added", "added", "called", "seated"]

    def test_14_18_a_call_expired_is_passed_over_not_seated(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        ann = entry(waitlist, "Ann", T0)
        call_next(waitlist=waitlist, table=table, seat=2, by=floor, now=T0)
        late = T0 + timedelta(minutes=3, seconds=1)
        with pytest.raises(DomainError, match="call expired"):
            seat_called(entry=ann, by=floor, now=late)
        with pytest.raises(DomainError, match="until"):  # still in time: not yet "not in time"
            pass_over(entry=ann, reason=PassReason.NOT_IN_TIME, by=floor, now=T0 + timedelta(minutes=3))
        pass_over(entry=ann, reason=PassReason.NOT_IN_TIME, by=floor, now=late)
        ann.refresh_from_db()  # still on the list (issue 34, item 5), skipped until back at the desk
        assert (ann.status, ann.passed_at, ann.called_seat) == (EntryStatus.WAITING, late, None)
        assert not Seat.objects.exists()
        assert kinds(table.casino)[-1] == (EventKind.PASSED, PassReason.NOT_IN_TIME)
        assert FloorEvent.objects.get(kind=EventKind.PASSED).seat == 2  # the record keeps the seat called to

    def test_14_18_declining_a_table_keeps_the_place_for_another_table(self, room):
        table, floor = room
        other = PokerTableFactory(casino=table.casino, number=2)
        waitlist = start_list(table=table, by=floor)
        ann, bo = entry(waitlist, "Ann", T0), entry(waitlist, "Bo", T0 + timedelta(seconds=1))
        call_next(waitlist=waitlist, table=table, seat=1, by=floor, now=T0)
        pass_over(entry=ann, reason=PassReason.DECLINED_TABLE, by=floor, now=T0)
        assert call_next(waitlist=waitlist, table=table, seat=1, by=floor, now=T0) == bo  # not Ann, at table 1
        assert call_next(waitlist=waitlist, table=other, seat=1, by=floor, now=T0) == ann  # Ann, at table 2
        assert kinds(table.casino)[-3] == (EventKind.PASSED, PassReason.DECLINED_TABLE)

    def test_a_phone_sign_up_is_called_only_once_checked_in(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        phoned = add_to_list(waitlist=waitlist, name="Cy", phone="609 555 0100", source=WaitlistSource.PHONE,
                             by=floor, now=T0)
        with pytest.raises(DomainError) as nobody:
            call_next(waitlist=waitlist, table=table, seat=1, by=floor, now=T0)
        assert nobody.value.field == "waitlist"
        check_in(entry=phoned, by=floor, now=T0 + timedelta(minutes=5))
        assert call_next(waitlist=waitlist, table=table, seat=1, by=floor, now=T0 + timedelta(minutes=6)) == phoned

    @pytest.mark.parametrize("name, phone, field", [("", "", "name"), ("x" * 41, "", "name"),
                                                    ("Ann", "call me", "phone"), ("Ann", "12", "phone")])
    def test_bad_input_names_the_field_and_writes_nothing(self, room, name, phone, field):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        with pytest.raises(DomainError) as refused:
            add_to_list(waitlist=waitlist, name=name, phone=phone, source=WaitlistSource.PHONE, by=floor, now=T0)
        assert refused.value.field == field and not waitlist.entries.exists()

    def test_a_seat_out_of_the_table_or_taken_is_refused(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        entry(waitlist, "Ann", T0)
        keep(table, 5, "Di", T0)
        for seat in (0, 10, 5):
            with pytest.raises(DomainError) as refused:
                call_next(waitlist=waitlist, table=table, seat=seat, by=floor, now=T0)
            assert refused.value.field == "seat"


class TestLeavingTheList:
    """Issue 34, item 5: a player passed over stays on the list; only a removal with its reason (undone within
    UNDO_WITHIN), a seat taken or a check-in missed takes a player off, each recorded with why, who and when."""

    def test_14_18_only_a_called_player_is_passed_over_for_reasons_that_fit(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        ann = entry(waitlist, "Ann", T0)
        assert pass_reasons_for(ann, T0) == []  # never called: no answer, not in time, declined cannot be
        for reason in (PassReason.NO_ANSWER, PassReason.NOT_IN_TIME, PassReason.DECLINED_TABLE, PassReason.LEFT, "x"):
            with pytest.raises(DomainError) as refused:
                pass_over(entry=ann, reason=reason, by=floor, now=T0)
            assert refused.value.field == "reason"
        ann.refresh_from_db()
        assert (ann.status, ann.passed_at) == (EntryStatus.WAITING, None) and not FloorEvent.objects.exists()

        call_next(waitlist=waitlist, table=table, seat=1, by=floor, now=T0)
        ann.refresh_from_db()
        assert [v for v, _ in pass_reasons_for(ann, T0)] == ["no_answer", "declined_table"]
        after = T0 + timedelta(minutes=3, seconds=1)
        assert [v for v, _ in pass_reasons_for(ann, after)] == ["not_in_time", "no_answer", "declined_table"]
        with pytest.raises(DomainError, match="removed from the list, not passed over") as refused:
            pass_over(entry=ann, reason=PassReason.LEFT, by=floor, now=T0)
        assert refused.value.field == "reason" and kinds(table.casino)[-1][0] == EventKind.CALLED

    def test_14_18_a_player_who_does_not_answer_keeps_the_place_skipped_until_back(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        ann, bo = entry(waitlist, "Ann", T0), entry(waitlist, "Bo", T0 + timedelta(seconds=1))
        call_next(waitlist=waitlist, table=table, seat=1, by=floor, now=T0)
        pass_over(entry=ann, reason=PassReason.NO_ANSWER, by=floor, now=T0 + timedelta(minutes=1))
        ann.refresh_from_db()
        assert ann.state(T0 + timedelta(minutes=1)) == EntryState.SKIPPED and place_on_list(entry=ann) == 1
        passed = FloorEvent.objects.get(kind=EventKind.PASSED)
        assert (passed.reason, passed.table, passed.seat, passed.by) == (PassReason.NO_ANSWER, table, 1, floor)
        # the seat goes to the next player; Ann is not called while away from the desk
        assert call_next(waitlist=waitlist, table=table, seat=1, by=floor, now=T0 + timedelta(minutes=1)) == bo
        with pytest.raises(DomainError) as nobody:
            call_next(waitlist=waitlist, table=table, seat=2, by=floor, now=T0 + timedelta(minutes=2))
        assert nobody.value.field == "waitlist"
        mark_here(entry=ann, by=floor, now=T0 + timedelta(minutes=5))
        entry(waitlist, "Cy", T0 + timedelta(minutes=4))
        assert call_next(waitlist=waitlist, table=table, seat=2, by=floor, now=T0 + timedelta(minutes=5)) == ann
        assert [k for k, _ in kinds(table.casino)] == ["called", "passed", "called", "here", "called"]

    def test_a_removal_needs_its_reason_and_a_note_for_other_else_writes_nothing(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        ann = entry(waitlist, "Ann", T0)
        for reason, note, field in [("", "", "reason"), ("no_answer", "", "reason"), (RemoveReason.OTHER, " ", "note"),
                                    (RemoveReason.OTHER, "x" * 201, "note")]:
            with pytest.raises(DomainError) as refused:
                remove_from_list(entry=ann, reason=reason, note=note, by=floor, now=T0)
            assert refused.value.field == field
        ann.refresh_from_db()
        assert ann.status == EntryStatus.WAITING and not FloorEvent.objects.exists()

    def test_removing_a_called_player_ends_the_call_and_records_why_who_when(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        ann, bo = entry(waitlist, "Ann", T0), entry(waitlist, "Bo", T0 + timedelta(seconds=1))
        call_next(waitlist=waitlist, table=table, seat=4, by=floor, now=T0)
        later = T0 + timedelta(minutes=1)
        remove_from_list(entry=ann, reason=RemoveReason.OTHER, note="  went to  the tournament ", by=floor, now=later)
        ann.refresh_from_db()
        assert (ann.status, ann.ended_at, ann.removal_note, ann.called_seat) == (
            EntryStatus.REMOVED, later, "went to the tournament", None)
        removed = FloorEvent.objects.get(kind=EventKind.REMOVED)
        assert (removed.reason, removed.by, removed.at, removed.seat) == (RemoveReason.OTHER, floor, later, 4)
        assert call_next(waitlist=waitlist, table=table, seat=4, by=floor, now=later) == bo  # the seat is free

    def test_undo_puts_the_player_back_at_their_place_within_the_undo_time(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        ann, bo, cy = (entry(waitlist, name, T0 + timedelta(seconds=i)) for i, name in enumerate(("Ann", "Bo", "Cy")))
        removed_at = T0 + timedelta(minutes=1)
        remove_from_list(entry=bo, reason=RemoveReason.DUPLICATE, by=floor, now=removed_at)
        assert place_on_list(entry=cy) == 2
        assert [r.entry for r in recently_removed(casino=table.casino, now=removed_at)] == [bo]
        assert recently_removed(casino=table.casino, now=removed_at)[0].reason == "Duplicate entry"
        restore_to_list(entry=bo, by=floor, now=removed_at + UNDO_WITHIN)  # its last moment
        bo.refresh_from_db()
        assert (bo.status, bo.ended_at, place_on_list(entry=bo), place_on_list(entry=cy)) == (
            EntryStatus.WAITING, None, 2, 3)
        restored = FloorEvent.objects.get(kind=EventKind.RESTORED)
        assert (restored.entry, restored.by, restored.at) == (bo, floor, removed_at + UNDO_WITHIN)

        remove_from_list(entry=cy, reason=RemoveReason.ASKED, by=floor, now=removed_at)
        with pytest.raises(DomainError, match="within 10 minutes") as late:
            restore_to_list(entry=cy, by=floor, now=removed_at + UNDO_WITHIN + timedelta(seconds=1))
        with pytest.raises(DomainError):
            restore_to_list(entry=ann, by=floor, now=removed_at)  # never removed
        cy.refresh_from_db()
        assert late.value.field == "entry" and cy.status == EntryStatus.REMOVED
        assert FloorEvent.objects.filter(kind=EventKind.RESTORED).count() == 1

    def test_every_way_off_a_list_is_recorded_with_why_who_and_when(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        seated = entry(waitlist, "Ann", T0)
        removed = entry(waitlist, "Bo", T0 + timedelta(seconds=1))
        phoned = entry(waitlist, "Cy", T0 + timedelta(seconds=2), source=WaitlistSource.PHONE, checked_in=False)
        passed = entry(waitlist, "Di", T0 + timedelta(seconds=3))
        call_next(waitlist=waitlist, table=table, seat=1, by=floor, now=T0)
        seat_called(entry=seated, by=floor, now=T0 + timedelta(minutes=1))
        remove_from_list(entry=removed, reason=RemoveReason.SEATED_ELSEWHERE, by=floor, now=T0 + timedelta(minutes=2))
        call_next(waitlist=waitlist, table=table, seat=2, by=floor, now=T0 + timedelta(minutes=2))
        pass_over(entry=passed, reason=PassReason.DECLINED_TABLE, by=floor, now=T0 + timedelta(minutes=3))
        with time_machine.travel(T0 + timedelta(minutes=31), tick=False):
            expire_remote_sign_ups()
        off = {e.pk: e for e in waitlist.entries.exclude(status__in=ON_LIST)}
        assert set(off) == {seated.pk, removed.pk, phoned.pk}  # passed over: still on the list
        why = {e.entry_id: (e.kind, e.reason, e.by, e.at) for e in FloorEvent.objects.filter(
            kind__in=[EventKind.SEATED, EventKind.REMOVED, EventKind.EXPIRED])}
        assert why == {
            seated.pk: (EventKind.SEATED, "", floor, off[seated.pk].ended_at),
            removed.pk: (EventKind.REMOVED, RemoveReason.SEATED_ELSEWHERE, floor, off[removed.pk].ended_at),
            phoned.pk: (EventKind.EXPIRED, PassReason.NOT_CHECKED_IN, None, off[phoned.pk].ended_at)}  # the job

    def test_the_removal_note_is_blanked_with_the_name_after_retention(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        ann = entry(waitlist, "Ann", T0)
        remove_from_list(entry=ann, reason=RemoveReason.OTHER, note="barred tonight", by=floor, now=T0)
        with time_machine.travel(T0 + timedelta(hours=24, seconds=1), tick=False):
            assert purge_player_data() == 1
        ann.refresh_from_db()
        assert (ann.name, ann.removal_note) == ("", "")


class TestTheKiosk:
    def test_14_18_a_player_joins_at_the_kiosk_added_by_no_staff_member(self, room):
        """Issue 32, item 6: the kiosk (a kiosk link, no staff session) adds the player itself; the record names the
        kiosk, not a member of the staff."""
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        first = add_to_list(waitlist=waitlist, name="Bo", source=WaitlistSource.IN_PERSON, by=floor, now=T0)
        ann = join_at_kiosk(waitlist=waitlist, casino=table.casino, kiosk="Desk tablet", name=" Ann  Lee ",
                            phone="609 555 0100", now=T0)  # the same moment: after Bo all the same (by id)
        assert (ann.name, ann.source, ann.checked_in_at) == ("Ann Lee", WaitlistSource.KIOSK, T0)
        added = FloorEvent.objects.get(entry=ann)
        assert (added.kind, added.by, added.kiosk) == (EventKind.ADDED, None, "Desk tablet")
        assert (place_on_list(entry=first), place_on_list(entry=ann)) == (1, 2)
        remove_from_list(entry=first, reason=RemoveReason.LEFT, by=floor, now=T0 + timedelta(minutes=1))
        assert place_on_list(entry=ann) == 1

    @pytest.mark.parametrize("name, phone, field", [("", "", "name"), ("Ann", "call me", "phone")])
    def test_bad_input_at_the_kiosk_names_the_field_and_writes_nothing(self, room, name, phone, field):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        with pytest.raises(DomainError) as refused:
            join_at_kiosk(waitlist=waitlist, casino=table.casino, kiosk="Desk", name=name, phone=phone, now=T0)
        assert refused.value.field == field and not waitlist.entries.exists()

    def test_a_kiosk_adds_to_the_lists_of_its_own_casino_only(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        elsewhere = PokerTableFactory(number=1).casino
        with pytest.raises(DomainError) as refused:
            join_at_kiosk(waitlist=waitlist, casino=elsewhere, kiosk="Theirs", name="Ann", now=T0)
        assert refused.value.field == "waitlist" and not waitlist.entries.exists()
        assert not FloorEvent.objects.filter(kind=EventKind.ADDED).exists()


class TestMustMove:
    def test_14_18_the_must_move_tables_longest_seated_moves_to_the_main_game_first(self, room):
        main, floor = room
        must_move = PokerTableFactory(casino=main.casino, number=2)
        waitlist = start_list(table=main, by=floor, must_move_table=must_move)
        keep(must_move, 3, "Early", T0 - timedelta(hours=1))
        keep(must_move, 6, "Later", T0 - timedelta(minutes=10))
        eve = entry(waitlist, "Eve", T0)
        for number in range(2, 10):  # the main game is full but for seat 1, which just opened
            keep(main, number, f"P{number}", T0 - timedelta(hours=2))

        board = floor_board(casino=main.casino, now=T0)
        nxt = board.lists[0].next_call
        assert (nxt.table, nxt.seat, nxt.move_from.player) == (main, 1, "Early")
        with pytest.raises(DomainError, match="must-move"):
            call_next(waitlist=waitlist, table=main, seat=1, by=floor, now=T0)
        moved = move_from_must_move(waitlist=waitlist, table=main, seat=1, by=floor, now=T0)
        assert (moved.table, moved.number, moved.player, moved.changed_table_at) == (main, 1, "Early", None)
        # the list fills the must-move seat left
        nxt = floor_board(casino=main.casino, now=T0).lists[0].next_call
        assert (nxt.table, nxt.seat, nxt.entry) == (must_move, 1, eve)  # seat 1: the first open seat there
        assert call_next(waitlist=waitlist, table=must_move, seat=3, by=floor, now=T0) == eve
        assert [k for k, _ in kinds(main.casino)][-3:] == ["vacated", "must_move", "called"]

    def test_a_must_move_table_deals_the_same_game(self, room):
        main, floor = room
        omaha = PokerTableFactory(casino=main.casino, number=2, game="omaha", betting_structure="pot_limit")
        with pytest.raises(DomainError) as refused:
            start_list(table=main, by=floor, must_move_table=omaha)
        assert refused.value.field == "must_move_table"


class TestPostedRules:
    def test_14_18_check_in_at_the_last_moment_of_the_posted_time_and_not_after(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        on_time = add_to_list(waitlist=waitlist, name="Ann", source=WaitlistSource.PHONE, by=floor, now=T0)
        late = add_to_list(waitlist=waitlist, name="Bo", source=WaitlistSource.PHONE, by=floor, now=T0)
        check_in(entry=on_time, by=floor, now=T0 + timedelta(minutes=30))
        with pytest.raises(DomainError, match="check-in time passed"):
            check_in(entry=late, by=floor, now=T0 + timedelta(minutes=30, seconds=1))

    def test_14_18_one_table_change_per_posted_period(self, room):
        table, floor = room
        other = PokerTableFactory(casino=table.casino, number=2)
        seat = seat_player(table=table, number=1, player="Ann", by=floor, now=T0)
        seat = change_table(seat=seat, to_table=other, to_number=4, by=floor, now=T0 + timedelta(minutes=5))
        assert (seat.table, seat.number) == (other, 4)
        with pytest.raises(DomainError, match="One table change per 60 minutes") as refused:
            change_table(seat=seat, to_table=table, to_number=2, by=floor,
                         now=T0 + timedelta(minutes=64, seconds=59))
        assert refused.value.field == "table"
        moved = change_table(seat=seat, to_table=table, to_number=2, by=floor, now=T0 + timedelta(minutes=65))
        assert (moved.table, moved.number) == (table, 2)

    def test_a_table_change_stays_in_the_game_and_limits(self, room):
        table, floor = room
        omaha = PokerTableFactory(casino=table.casino, number=2, game="omaha", betting_structure="pot_limit")
        seat = seat_player(table=table, number=1, player="Ann", by=floor, now=T0)
        with pytest.raises(DomainError, match="another game"):
            change_table(seat=seat, to_table=omaha, to_number=1, by=floor, now=T0)

    def test_14_18_back_within_the_away_limit_and_not_after(self, room):
        table, floor = room
        seat = mark_away(seat=seat_player(table=table, number=1, player="Ann", by=floor, now=T0), by=floor,
                         now=T0 + timedelta(minutes=1))
        mark_back(seat=seat, by=floor, now=T0 + timedelta(minutes=21))  # the limit's last moment
        seat = mark_away(seat=seat, by=floor, now=T0 + timedelta(minutes=30))
        with pytest.raises(DomainError, match="seat is lost"):
            mark_back(seat=seat, by=floor, now=T0 + timedelta(minutes=50, seconds=1))


class TestScheduledJobs:
    def test_14_18_expire_phone_sign_ups_not_checked_in_idempotent(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        phoned = add_to_list(waitlist=waitlist, name="Ann", source=WaitlistSource.PHONE, by=floor, now=T0)
        walked = add_to_list(waitlist=waitlist, name="Bo", source=WaitlistSource.IN_PERSON, by=floor, now=T0)
        with time_machine.travel(T0 + timedelta(minutes=30), tick=False):
            assert expire_remote_sign_ups() == 0  # the deadline itself is still in time
        with time_machine.travel(T0 + timedelta(minutes=30, seconds=1), tick=False):
            assert expire_remote_sign_ups() == 1
            assert expire_remote_sign_ups() == 0
        phoned.refresh_from_db(), walked.refresh_from_db()
        assert (phoned.status, walked.status) == (EntryStatus.EXPIRED, EntryStatus.WAITING)
        assert kinds(table.casino)[-1] == (EventKind.EXPIRED, PassReason.NOT_CHECKED_IN)
        assert FloorEvent.objects.filter(kind=EventKind.EXPIRED).count() == 1

    def test_14_18_apply_the_away_limit_idempotent(self, room):
        table, floor = room
        keep(table, 1, "Ann", T0 - timedelta(hours=1), away_since=T0)
        keep(table, 2, "Bo", T0 - timedelta(hours=1), away_since=T0 + timedelta(minutes=1))
        with time_machine.travel(T0 + timedelta(minutes=20), tick=False):
            assert apply_away_limit() == 0
        with time_machine.travel(T0 + timedelta(minutes=20, seconds=30), tick=False):
            assert apply_away_limit() == 1
            assert apply_away_limit() == 0
        assert list(Seat.objects.values_list("number", flat=True)) == [2]
        assert FloorEvent.objects.get(kind=EventKind.AWAY_LIMIT).seat == 1

    def test_purge_player_data_past_retention_idempotent(self, room):
        table, floor = room
        waitlist = start_list(table=table, by=floor)
        gone = entry(waitlist, "Ann Lee", T0, phone="609 555 0100", status=EntryStatus.PASSED, ended_at=T0)
        waiting = entry(waitlist, "Bo", T0 - timedelta(days=3))
        with time_machine.travel(T0 + timedelta(hours=24), tick=False):
            assert purge_player_data() == 0
        with time_machine.travel(T0 + timedelta(hours=24, seconds=1), tick=False):
            assert purge_player_data() == 1
            assert purge_player_data() == 0
        gone.refresh_from_db(), waiting.refresh_from_db()
        assert (gone.name, gone.phone, gone.initials) == ("", "", "") and gone.purged_at is not None
        assert waiting.name == "Bo"  # still on the list

    def test_purge_vacates_the_seats_kept_at_a_closed_table_idempotent(self, room):
        """No one sits at a closed table: the seats the floor still keeps there (names) go, each recorded as vacated
        (the record names no one); a second run finds none; an open table's seats stay."""
        table, floor = room
        other = PokerTableFactory(casino=table.casino, number=2, seats=9)
        keep(table, 1, "Ann Lee", T0)
        keep(other, 3, "Bo", T0)
        type(table).objects.filter(pk=table.pk).update(is_open=False)
        with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
            assert purge_player_data() == 1
            assert purge_player_data() == 0
        assert list(Seat.objects.values_list("table_id", "player")) == [(other.pk, "Bo")]
        assert kinds(table.casino)[-1] == (EventKind.VACATED, "")

    def test_the_beat_schedule_runs_the_three_jobs(self, settings):
        tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
        assert {"apps.seats.tasks.expire_sign_ups", "apps.seats.tasks.enforce_away_limit",
                "apps.seats.tasks.purge_players"} <= tasks
        from apps.seats import tasks as seat_tasks
        assert seat_tasks.expire_sign_ups.delay().get() == 0


def test_14_18_the_floor_writes_down_the_player_the_feed_shows_but_calls_no_one_there():
    """The newest round shows a player in seat 4 the floor shows vacant: the floor may record who sits there (the
    flag is cleared), but a waitlist player is never called to that seat."""
    from django.utils import timezone

    from .factories import deal, waitlist_for
    from .test_selectors import dealing_table

    now = timezone.now()
    table = dealing_table(number=1, seats=9)
    floor = StaffFactory(casino=table.casino, roles=[Role.FLOORPERSON])
    deal(table, {4: "Di", 7: "Ed"}, now - timedelta(minutes=2))
    waitlist = waitlist_for(table)
    entry(waitlist, "Gus", now)
    with pytest.raises(DomainError, match="newest round of play shows a player in seat 4"):
        call_next(waitlist=waitlist, table=table, seat=4, by=floor, now=now)
    seat = seat_player(table=table, number=4, player="Di", by=floor, now=now)
    view = floor_board(casino=table.casino, now=now).tables[0].seats[3]
    assert seat.player == "Di" and view.status == "seated" and view.feed_taken is None
