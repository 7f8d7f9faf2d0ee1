"""Decks and their clocks, N.J.A.C. 13:69F-14.2, 14.4 and 14.6(e)4, at their edges (time-machine)."""
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.decks.models import AlertKind, DeckAlert, DeckEvent, DeckStatus
from apps.decks.selectors import ClockState, due_alerts, rotation_board
from apps.decks.services import assign_deck, receive_deck, record_deck_event, refresh_deck_alerts
from apps.decks.tasks import refresh_all_deck_alerts
from tests.decks.factories import deck_at_table
from tests.factories import PokerTableFactory

NEW_YORK = ZoneInfo("America/New_York")
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=NEW_YORK)
pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(staff):
    return staff(Role.FLOORPERSON)


@pytest.fixture
def dealer(staff):
    return staff(Role.DEALER)


@pytest.fixture
def table(casino):
    return PokerTableFactory(casino=casino, number=4)


@pytest.fixture
def opened(table, floor, dealer):
    """Table 4 with a red and a blue deck; the red one put in use at T0."""
    with time_machine.travel(T0, tick=False):
        red = deck_at_table(table, "R-1", "red", floor)
        deck_at_table(table, "B-1", "blue", floor)
        record_deck_event(deck=red, kind="put_in_use", by=dealer)
    return red


def raised(table, kind, when):
    """The moments the board's alerts of `kind` at `table` at `when` say their clocks ran out, by deck serial."""
    rows = [r for r in rotation_board(casino=table.casino, now=when) if r.table == table]
    return {a.deck.serial: a.raised_at for a in due_alerts(rows=rows) if a.kind == kind}


def state_at(table, serial, clock_name, when):
    row = next(r for r in rotation_board(casino=table.casino, now=when) if r.table == table)
    deck_row = next(d for d in row.decks if d.deck.serial == serial)
    return getattr(deck_row, clock_name).state


class TestClocks:
    @pytest.mark.proves("14.2(b)-three-hours")
    def test_14_2_b_three_hours_without_suit_and_sequence(self, table, opened, dealer):
        assert state_at(table, "R-1", "sort", T0 + timedelta(hours=2, minutes=59)) == ClockState.DUE_SOON
        assert state_at(table, "R-1", "sort", T0 + timedelta(hours=3)) == ClockState.DUE_SOON
        assert state_at(table, "R-1", "sort", T0 + timedelta(hours=3, minutes=1)) == ClockState.OVERDUE
        assert raised(table, AlertKind.SORT_OVERDUE, T0 + timedelta(hours=3)) == {}
        assert raised(table, AlertKind.SORT_OVERDUE, T0 + timedelta(hours=3, minutes=1)) == {
            "R-1": T0 + timedelta(hours=3)}  # the alert says when the three hours ran out
        with time_machine.travel(T0 + timedelta(hours=2, minutes=50), tick=False):
            record_deck_event(deck=opened, kind="sorted", by=dealer)
        assert state_at(table, "R-1", "sort", T0 + timedelta(hours=3, minutes=1)) == ClockState.OK
        assert raised(table, AlertKind.SORT_OVERDUE, T0 + timedelta(hours=5, minutes=51)) == {
            "R-1": T0 + timedelta(hours=5, minutes=50)}

    @pytest.mark.proves("14.2(b)-six-hours")
    def test_14_2_b_six_hours_since_opened_and_sorting_does_not_reset_it(self, table, opened, dealer):
        with time_machine.travel(T0 + timedelta(hours=5), tick=False):
            record_deck_event(deck=opened, kind="sorted", by=dealer)
        assert state_at(table, "R-1", "change", T0 + timedelta(hours=5, minutes=59)) == ClockState.DUE_SOON
        assert state_at(table, "R-1", "change", T0 + timedelta(hours=6, minutes=1)) == ClockState.OVERDUE
        assert raised(table, AlertKind.CHANGE_OVERDUE, T0 + timedelta(hours=5, minutes=59)) == {}
        assert raised(table, AlertKind.CHANGE_OVERDUE, T0 + timedelta(hours=6, minutes=1)) == {
            "R-1": T0 + timedelta(hours=6)}  # from when it was opened, sorting or not

    @pytest.mark.proves("14.6(e)4-every-fifteen-minutes")
    def test_14_6_e_4_count_every_fifteen_minutes(self, table, opened, dealer):
        assert state_at(table, "R-1", "count", T0 + timedelta(minutes=14, seconds=59)) == ClockState.DUE_SOON
        assert state_at(table, "R-1", "count", T0 + timedelta(minutes=15, seconds=1)) == ClockState.OVERDUE
        with time_machine.travel(T0 + timedelta(minutes=14), tick=False):
            record_deck_event(deck=opened, kind="counted", card_count=52, by=dealer)
        assert state_at(table, "R-1", "count", T0 + timedelta(minutes=28, seconds=59)) == ClockState.DUE_SOON
        assert state_at(table, "R-1", "count", T0 + timedelta(minutes=29, seconds=1)) == ClockState.OVERDUE
        assert raised(table, AlertKind.COUNT_OVERDUE, T0 + timedelta(minutes=28)) == {}
        assert raised(table, AlertKind.COUNT_OVERDUE, T0 + timedelta(minutes=29, seconds=1)) == {
            "R-1": T0 + timedelta(minutes=29)}  # fifteen minutes after the count
        # only a count of the 52 cards restarts the clock: 53 or 51 pull the deck, its clock where it was
        blue = table.decks.get(serial="B-1")
        with time_machine.travel(T0 + timedelta(minutes=20), tick=False):
            record_deck_event(deck=opened, kind="counted", card_count=53, by=dealer)
            record_deck_event(deck=blue, kind="put_in_use", by=dealer)
        with time_machine.travel(T0 + timedelta(minutes=22), tick=False):
            record_deck_event(deck=blue, kind="counted", card_count=51, by=dealer)
        opened.refresh_from_db()
        blue.refresh_from_db()
        assert (opened.last_counted_at, opened.status) == (T0 + timedelta(minutes=14), DeckStatus.REMOVED)
        assert (blue.last_counted_at, blue.status) == (None, DeckStatus.REMOVED)

    def test_the_resting_deck_has_no_count_clock_and_unopened_decks_no_clocks(self, table, opened):
        row = rotation_board(casino=table.casino, now=T0 + timedelta(hours=1))[0]
        blue = next(d for d in row.decks if d.deck.serial == "B-1")
        assert blue.sort is None and blue.change is None and blue.count is None


class TestEvents:
    @pytest.mark.proves("14.2(a)-stored")
    def test_14_2_a_putting_one_deck_in_use_rotates_the_other_out(self, table, opened, dealer):
        blue = table.decks.get(serial="B-1")
        with time_machine.travel(T0 + timedelta(minutes=30), tick=False):
            record_deck_event(deck=blue, kind="put_in_use", by=dealer)
        opened.refresh_from_db()
        blue.refresh_from_db()
        assert not opened.in_use and blue.in_use  # one deck in use, the other stored at the table
        assert list(table.decks.filter(in_use=True)) == [blue]
        rotated = DeckEvent.objects.get(deck=opened, kind="rotated_out")
        assert (rotated.table, rotated.by, rotated.at, rotated.note) == (
            table, dealer, T0 + timedelta(minutes=30), "Rotated out for deck B-1.")

    @pytest.mark.proves("14.6(e)4-wrong-count")
    def test_14_6_e_4_wrong_count_removes_the_deck_and_raises_an_alert(self, table, opened, dealer):
        with time_machine.travel(T0 + timedelta(minutes=10), tick=False):
            record_deck_event(deck=opened, kind="counted", card_count=51, by=dealer, note="Counted twice.")
        opened.refresh_from_db()
        assert (opened.status, opened.table, opened.in_use) == (DeckStatus.REMOVED, None, False)
        alert = DeckAlert.objects.get(kind=AlertKind.WRONG_COUNT, cleared_at=None)
        assert (alert.deck, alert.table, alert.raised_at) == (opened, table, T0 + timedelta(minutes=10))
        assert DeckEvent.objects.get(deck=opened, kind="counted").note == (
            "Counted twice. 51 cards found: deck removed (14.6(e)4).")

    @pytest.mark.proves("14.4(b)-inspected-verified")
    def test_14_4_b_verified_by_the_floorperson_after_the_dealer_inspects(self, table, opened, dealer, floor):
        with pytest.raises(DomainError, match="inspects the deck before"):
            record_deck_event(deck=opened, kind="verified", by=floor)
        record_deck_event(deck=opened, kind="inspected", by=dealer)
        with pytest.raises(DomainError, match="recorded by"):
            record_deck_event(deck=opened, kind="verified", by=dealer)
        record_deck_event(deck=opened, kind="verified", by=floor)

    @pytest.mark.proves("14.4(b)-inspected-verified")
    def test_14_4_b_the_dealer_is_offered_the_inspection_and_the_floor_its_verification(
            self, table, opened, dealer, floor, staff, django_user_model):
        """The event forms offer each person what they may record of a deck as it stands: at the table, the dealer
        the inspection and not its verification, the floorperson both; a deck removed from play, its destruction
        only, to a supervisor; a deck in storage, nothing. A superuser is offered every event."""
        from apps.decks.models import DeckEventKind as K
        from apps.decks.services import recordable_events

        at_table = [K.INSPECTED, K.VERIFIED, K.SPREAD, K.PUT_IN_USE, K.ROTATED_OUT, K.SORTED, K.COUNTED, K.CHANGED,
                    K.REMOVED]
        opened = type(opened).objects.get(pk=opened.pk)  # as a page reads it: its status plain text
        assert recordable_events(deck=opened, by=dealer) == [
            K.INSPECTED, K.SPREAD, K.PUT_IN_USE, K.ROTATED_OUT, K.SORTED, K.COUNTED]
        assert recordable_events(deck=opened, by=floor) == at_table
        assert recordable_events(deck=opened, by=staff(Role.SECURITY)) == []
        root = django_user_model.objects.create_superuser("root", password="x", casino=table.casino)
        assert recordable_events(deck=opened, by=root) == at_table
        record_deck_event(deck=opened, kind="removed", by=floor)
        opened.refresh_from_db()
        assert recordable_events(deck=opened, by=staff(Role.POKER_SHIFT_SUPERVISOR)) == [K.DESTROYED]
        assert recordable_events(deck=opened, by=floor) == []
        assert recordable_events(deck=opened, by=root) == [K.DESTROYED]
        stored = receive_deck(casino=table.casino, serial="S-1", back_colour="green", by=floor)
        assert recordable_events(deck=stored, by=root) == []

    @pytest.mark.proves("14.2(a)-two-decks", "14.2(a)-distinguishable")
    def test_14_2_a_two_decks_distinguishable_at_most(self, table, opened, floor):
        same = receive_deck(casino=table.casino, serial="R-2", back_colour="red", by=floor)
        with pytest.raises(DomainError, match="two decks"):
            assign_deck(deck=same, table=table, by=floor)
        other = PokerTableFactory(casino=table.casino, number=5)
        deck_at_table(other, "R-3", "red", floor)
        with pytest.raises(DomainError, match="visually distinguishable"):
            assign_deck(deck=same, table=other, by=floor)
        third = PokerTableFactory(casino=table.casino, number=6)  # backs that differ, whichever is brought first
        deck_at_table(third, "B-3", "blue", floor)
        assert assign_deck(deck=same, table=third, by=floor).table == third
        fourth = PokerTableFactory(casino=table.casino, number=7)
        plain = receive_deck(casino=table.casino, serial="R-4", back_colour="red", back_design="plain", by=floor)
        assign_deck(deck=plain, table=fourth, by=floor)
        logo = receive_deck(casino=table.casino, serial="R-5", back_colour="Red", back_design="Logo", by=floor)
        assert assign_deck(deck=logo, table=fourth, by=floor).table == fourth  # one colour, another design

    @pytest.mark.proves("14.2(d)1")
    def test_14_2_d_1_shuffler_needs_different_colours(self, casino, floor):
        table = PokerTableFactory(casino=casino, uses_automated_shuffler=True)
        deck_at_table(table, "R-1", "red", floor)
        red_b = receive_deck(casino=casino, serial="R-9", back_colour="Red", back_design="casino logo", by=floor)
        with pytest.raises(DomainError, match=r"14.2\(d\)1"):
            assign_deck(deck=red_b, table=table, by=floor)
        yellow = receive_deck(casino=casino, serial="Y-9", back_colour="Yellow", by=floor)
        assert assign_deck(deck=yellow, table=table, by=floor).table == table  # another colour: brought to the table
        second = PokerTableFactory(casino=casino, number=table.number + 1, uses_automated_shuffler=True)
        deck_at_table(second, "R-8", "red", floor)
        blue = receive_deck(casino=casino, serial="B-8", back_colour="Blue", by=floor)
        assert assign_deck(deck=blue, table=second, by=floor).table == second  # whichever colour comes first

    def test_no_event_in_the_future(self, opened, dealer):
        with pytest.raises(DomainError) as exc:
            record_deck_event(deck=opened, kind="sorted", by=dealer, at=datetime(2099, 1, 1, tzinfo=NEW_YORK))
        assert exc.value.field == "at"


class TestAlerts:
    def test_beat_task_raises_and_clears_alerts_idempotently(self, table, opened, dealer):
        with time_machine.travel(T0 + timedelta(minutes=16), tick=False):
            assert refresh_deck_alerts(casino=table.casino) == (1, 0)  # count overdue
            assert refresh_all_deck_alerts() == {table.casino.code: (0, 0)}  # run twice: nothing new
            record_deck_event(deck=opened, kind="counted", card_count=52, by=dealer)
            assert refresh_deck_alerts(casino=table.casino) == (0, 1)
        assert not DeckAlert.objects.filter(cleared_at=None).exists()

    @pytest.mark.proves("14.2(a)-two-decks")
    def test_14_2_a_open_table_with_one_deck_is_alerted(self, casino, floor):
        table = PokerTableFactory(casino=casino)
        deck_at_table(table, "G-1", "green", floor)
        refresh_deck_alerts(casino=casino)
        assert DeckAlert.objects.get(cleared_at=None).kind == AlertKind.TWO_DECKS


class TestWrongCountDuringARound:
    @pytest.mark.proves("14.15(g)-dead", "14.15(g)-deck-replaced")
    def test_14_15_g_the_round_must_be_called_dead_and_the_count_is_linked_to_it(self, table, opened, dealer):
        from decimal import Decimal

        from apps.feed.services import PlayerIn, RoundIn, record_round_of_play

        def round_in(**kwargs):
            return RoundIn(started_at=T0 + timedelta(minutes=5), players=[
                PlayerIn(seat=1, contributed=Decimal("10"), hole_cards="As Ad"),
                PlayerIn(seat=2, contributed=Decimal("10"), hole_cards="Ks Kd")], board="2c 3d 4h 9s Tc", **kwargs)

        with time_machine.travel(T0 + timedelta(minutes=10), tick=False):  # the round's gaming day is open
            played = record_round_of_play(table=table, round_in=round_in())
            with pytest.raises(DomainError, match=r"14.15\(g\)"):
                record_deck_event(deck=opened, kind="counted", card_count=53, by=dealer, round_of_play=played)
            dead = record_round_of_play(table=table, round_in=round_in(dead_reason="Deck R-1 counted 53 cards"))
            event = record_deck_event(deck=opened, kind="counted", card_count=53, by=dealer, round_of_play=dead,
                                      note="Found as the pot was pushed.")
        assert event.round_of_play == dead and dead.is_dead
        assert event.note == "Found as the pot was pushed. 53 cards found: deck removed (14.6(e)4)."
        opened.refresh_from_db()
        assert (opened.status, opened.table, opened.in_use) == (DeckStatus.REMOVED, None, False)  # out of play
        alert = DeckAlert.objects.get(kind=AlertKind.WRONG_COUNT, cleared_at=None)
        assert (alert.table, alert.deck) == (table, opened)
        # the deck is replaced: the table's other deck put in use clears the alert raised before it
        replacement = table.decks.get(serial="B-1")
        with time_machine.travel(T0 + timedelta(minutes=12), tick=False):
            record_deck_event(deck=replacement, kind="put_in_use", by=dealer)
        alert.refresh_from_db()
        assert alert.cleared_at == T0 + timedelta(minutes=12)
        replacement.refresh_from_db()
        assert replacement.in_use and replacement.status == DeckStatus.AT_TABLE
