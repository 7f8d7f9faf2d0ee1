"""Opening and closing a table (issue 34, item 1): POST /api/tables/{id}/open/ and /close/, who may, what a closing
asks for (decks collected, 14.2(a); the drop box removed for the count, 14.19(d)1), the record on the table's history
and what a closed table refuses (a round of play, a seat)."""
import pytest
from django.db import DatabaseError, transaction
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.decks.models import Deck
from apps.decks.services import assign_deck, receive_deck, record_deck_event
from apps.seats.services import seat_player
from apps.tables.models import PokerTable, TableStatusChange, TableStatusKind
from apps.tables.services import TableStateConflict, close_table, open_table
from tests.factories import PokerTableFactory, RakeStructureFactory
from tests.feed.test_duplicates import round_body

pytestmark = pytest.mark.django_db

CLOSE = {"reason": "End of the game", "drop_box_removed": True}


@pytest.fixture
def closed(casino):
    return PokerTableFactory(casino=casino, number=7, is_open=False)


@pytest.fixture
def opened(casino):
    return PokerTableFactory(casino=casino, number=8, is_open=True, opened_at=timezone.now())


def deck_at(table, serial, by, *, in_use=False) -> Deck:
    deck = assign_deck(deck=receive_deck(casino=table.casino, serial=serial, back_colour=serial, by=by),
                       table=table, by=by)
    if in_use:
        record_deck_event(deck=deck, kind="put_in_use", by=by)
    return deck


class TestApi:
    def test_open_then_close_with_idempotency_keys_each_applied_once(self, api, supervisor, closed, staff):
        """An opening and a closing are each one record; a retry with the same Idempotency-Key replays the answer and
        records nothing more (design.md, "Shapes to keep")."""
        dealer = staff(Role.DEALER)
        api.force_authenticate(supervisor)
        url = f"/api/tables/{closed.pk}/open/"
        body = {"seats": 8, "dealer": dealer.pk}
        first = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="open-7")
        assert first.status_code == 201, first.json()
        again = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="open-7")
        assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
        assert again.json() == first.json()
        opening = first.json()
        assert opening["kind"] == "opened" and opening["by"] == supervisor.pk and opening["dealer"] == dealer.pk
        assert opening["seats"] == 8 and opening["table"]["is_open"] and opening["limits"]

        close_url = f"/api/tables/{closed.pk}/close/"
        closing = api.post(close_url, CLOSE, format="json", HTTP_IDEMPOTENCY_KEY="close-7")
        assert closing.status_code == 201, closing.json()
        replay = api.post(close_url, CLOSE, format="json", HTTP_IDEMPOTENCY_KEY="close-7")
        assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
        assert closing.json()["reason"] == "End of the game" and closing.json()["drop_box_removed"] is True
        assert [c.kind for c in TableStatusChange.objects.filter(table=closed).order_by("id")] == ["opened", "closed"]
        closed.refresh_from_db()
        assert not closed.is_open and closed.seats == 8

    def test_already_open_or_closed_is_a_409(self, api, supervisor, closed, opened):
        api.force_authenticate(supervisor)
        refused = api.post(f"/api/tables/{opened.pk}/open/", {}, format="json")
        assert refused.status_code == 409 and "open already" in refused.json()["table"][0]
        refused = api.post(f"/api/tables/{closed.pk}/close/", CLOSE, format="json")
        assert refused.status_code == 409 and "closed already" in refused.json()["table"][0]
        assert not TableStatusChange.objects.exists()

    def test_bad_input_is_a_400_naming_the_field(self, api, supervisor, opened, closed):
        """14.19(d)1: the count takes place at a closed table, so a closing confirms the drop box removed."""
        api.force_authenticate(supervisor)
        url = f"/api/tables/{opened.pk}/close/"
        assert "reason" in api.post(url, {"drop_box_removed": True}, format="json").json()
        response = api.post(url, {"reason": "x", "drop_box_removed": False}, format="json")
        assert response.status_code == 400 and "14.19(d)1" in response.json()["drop_box_removed"][0]
        response = api.post(f"/api/tables/{closed.pk}/open/", {"seats": 12}, format="json")
        assert response.status_code == 400 and "seats" in response.json()
        response = api.post(f"/api/tables/{closed.pk}/open/", {"dealer": supervisor.pk}, format="json")
        assert response.status_code == 400 and "dealer" in response.json()
        assert not TableStatusChange.objects.exists()

    @pytest.mark.parametrize(("role", "status"), [
        (Role.POKER_SHIFT_SUPERVISOR, 201), (Role.FLOORPERSON, 201), (Role.DEALER, 403), (Role.ACCOUNTING, 403),
        (Role.SECURITY, 403), (Role.SURVEILLANCE, 403), (Role.ADMIN, 403)])
    def test_who_may_open_and_close(self, api, staff, closed, role, status):
        api.force_authenticate(staff(role))
        assert api.post(f"/api/tables/{closed.pk}/open/", {}, format="json").status_code == status
        PokerTable.objects.filter(pk=closed.pk).update(is_open=True)
        assert api.post(f"/api/tables/{closed.pk}/close/", CLOSE, format="json").status_code == status

    def test_anonymous_and_another_casino(self, api, staff, closed):
        assert api.post(f"/api/tables/{closed.pk}/open/", {}, format="json").status_code in (401, 403)
        other = PokerTableFactory(is_open=False)  # another casino
        api.force_authenticate(staff(Role.POKER_SHIFT_SUPERVISOR))
        assert api.post(f"/api/tables/{other.pk}/open/", {}, format="json").status_code == 404

    @pytest.mark.proves("14.2(a)-two-decks")
    def test_14_2_a_closing_with_decks_at_the_table_lists_them(self, api, staff, opened):
        """N.J.A.C. 13:69F-14.2(a): two decks are kept at an open table; a closing while decks are still at the
        table (one in use) is refused with their list, until they are confirmed collected."""
        floor = staff(Role.FLOORPERSON)
        deck_at(opened, "A1", floor, in_use=True)
        deck_at(opened, "B2", floor)
        api.force_authenticate(floor)
        url = f"/api/tables/{opened.pk}/close/"
        refused = api.post(url, CLOSE, format="json")
        assert refused.status_code == 400
        assert "deck A1 (in use), deck B2" in refused.json()["decks_collected"][0]
        opened.refresh_from_db()
        assert opened.is_open and not TableStatusChange.objects.exists()
        closing = api.post(url, {**CLOSE, "decks_collected": True}, format="json")
        assert closing.status_code == 201
        assert closing.json()["decks_collected"] == "deck A1 (in use), deck B2"

    def test_schema_declares_both(self, api, supervisor):
        api.force_authenticate(supervisor)
        schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
        for action in ("open", "close"):
            operation = schema["paths"][f"/api/tables/{{id}}/{action}/"]["post"]
            assert "Idempotency-Key" in [p["name"] for p in operation.get("parameters", [])]


class TestServices:
    def test_the_record_is_append_only(self, supervisor, opened):
        close_table(table=opened, by=supervisor, reason="Short-handed", drop_box_removed=True)
        change = TableStatusChange.objects.get()
        assert change.kind == TableStatusKind.CLOSED and change.by == supervisor and change.reason == "Short-handed"
        with pytest.raises(DatabaseError, match="permission denied|append_only"), transaction.atomic():
            TableStatusChange.objects.filter(pk=change.pk).update(reason="edited")
        with pytest.raises(TableStateConflict):
            close_table(table=opened, by=supervisor, reason="again", drop_box_removed=True)

    @pytest.mark.proves("14.19(d)1-closed-table")
    def test_14_19_d_1_the_closing_confirms_the_drop_box_removed_for_the_count(self, supervisor, opened):
        """N.J.A.C. 13:69F-14.19(d)1: the box is counted at the closed table, so the closing confirms the drop box was
        removed for the count: without the confirmation the table stays open and nothing is recorded; with it the
        closing is recorded with the confirmation."""
        with pytest.raises(DomainError) as refused:
            close_table(table=opened, by=supervisor, reason="End of the game", drop_box_removed=False)
        assert refused.value.field == "drop_box_removed" and "14.19(d)1" in refused.value.message
        opened.refresh_from_db()
        assert opened.is_open and not TableStatusChange.objects.exists()
        close_table(table=opened, by=supervisor, reason="End of the game", drop_box_removed=True)
        change = TableStatusChange.objects.get()
        assert change.kind == TableStatusKind.CLOSED and change.drop_box_removed
        assert not PokerTable.objects.get(pk=opened.pk).is_open

    def test_opening_records_what_it_opened_with(self, supervisor, closed):
        """N.J.A.C. 13:69F-14.8, 14.17: the opening keeps the game and limits posted."""
        open_table(table=closed, by=supervisor, seats=6)
        change = TableStatusChange.objects.get()
        assert (change.kind, change.seats, change.by) == ("opened", 6, supervisor)
        assert change.game == closed.game_label and change.limits == closed.limits_label


class TestClosedTableRefuses:
    def test_a_round_at_a_table_closed_through_the_api(self, api, supervisor, casino):
        """A round of play is dealt at an open table only (issue 34): after the closing, the round is a 400."""
        table = RakeStructureFactory(table__casino=casino).table
        api.force_authenticate(supervisor)
        assert api.post(f"/api/tables/{table.pk}/close/", CLOSE, format="json").status_code == 201
        refused = api.post("/api/rounds/", round_body(table), format="json")
        assert refused.status_code == 400 and "is closed" in refused.json()["table"][0]

    def test_a_seat_at_a_closed_table(self, supervisor, opened):
        close_table(table=opened, by=supervisor, reason="Closed", drop_box_removed=True)
        with pytest.raises(DomainError, match="closed"):
            seat_player(table=opened, number=1, player="Ana", by=supervisor)


class TestWhatLeavesWithTheClosing:
    @pytest.mark.proves("14.2(a)-two-decks")
    def test_14_2_a_the_decks_collected_leave_the_table(self, supervisor, staff, opened):
        """N.J.A.C. 13:69F-14.2(a): a closed table keeps no decks. Confirming their collection removes each from the
        table, a `removed` event naming the closing; the decks board no longer shows them at the table."""
        from apps.decks.models import DeckEvent, DeckStatus

        floor = staff(Role.FLOORPERSON)
        in_use, standby = deck_at(opened, "C1", floor, in_use=True), deck_at(opened, "C2", floor)
        close_table(table=opened, by=floor, reason="Game broke", drop_box_removed=True, decks_collected=True)
        for deck in (in_use, standby):
            deck.refresh_from_db()
            assert (deck.status, deck.table_id, deck.in_use) == (DeckStatus.REMOVED, None, False)
            event = DeckEvent.objects.filter(deck=deck).order_by("-id").first()
            assert event.kind == "removed" and event.by == floor and "table 8 closed" in event.note
        assert TableStatusChange.objects.get(kind="closed").decks_collected == "deck C1 (in use), deck C2"

    def test_the_players_still_seated_are_listed_then_unseated(self, api, staff, opened):
        """A closed table seats no one: a closing with players in its seats is refused with their seat numbers
        (never their names) until the floor confirms they left or moved; then their seats are vacated, recorded."""
        from apps.seats.models import EventKind, FloorEvent, Seat
        from apps.seats.services import mark_away

        floor = staff(Role.FLOORPERSON)
        seat_player(table=opened, number=2, player="Ana", by=floor)
        mark_away(seat=seat_player(table=opened, number=5, player="Bo", by=floor), by=floor)
        api.force_authenticate(floor)
        url = f"/api/tables/{opened.pk}/close/"
        refused = api.post(url, CLOSE, format="json")
        assert refused.status_code == 400
        message = refused.json()["players_unseated"][0]
        assert "seat 2, seat 5 (away)" in message and "Ana" not in message
        assert Seat.objects.filter(table=opened).count() == 2 and not TableStatusChange.objects.exists()
        closing = api.post(url, {**CLOSE, "players_unseated": True}, format="json")
        assert closing.status_code == 201 and closing.json()["players_unseated"] == "seat 2, seat 5 (away)"
        assert not Seat.objects.filter(table=opened).exists()
        vacated = FloorEvent.objects.filter(table=opened, kind=EventKind.VACATED).order_by("seat")
        assert [(e.seat, e.by) for e in vacated] == [(2, floor), (5, floor)]

    def test_nothing_is_collected_when_the_closing_is_refused(self, staff, opened):
        """A closing refused for a missing confirmation writes nothing: the decks stay, the seats stay."""
        from apps.decks.models import DeckStatus
        from apps.seats.models import Seat

        floor = staff(Role.FLOORPERSON)
        deck = deck_at(opened, "D1", floor)
        seat_player(table=opened, number=1, player="Cy", by=floor)
        with pytest.raises(DomainError) as refused:
            close_table(table=opened, by=floor, reason="x", drop_box_removed=True, decks_collected=True)
        assert refused.value.field == "players_unseated"
        with pytest.raises(DomainError) as refused:
            close_table(table=opened, by=floor, reason="x", drop_box_removed=False, decks_collected=True,
                        players_unseated=True)
        assert refused.value.field == "drop_box_removed"
        deck.refresh_from_db()
        assert deck.status == DeckStatus.AT_TABLE and Seat.objects.filter(table=opened).exists()
        opened.refresh_from_db()
        assert opened.is_open

    def test_opening_with_other_limits(self, supervisor, closed):
        """N.J.A.C. 13:69F-14.17: a table may open with other limits than posted; the opening records them."""
        from decimal import Decimal

        open_table(table=closed, by=supervisor, small_blind=Decimal("2.00"), big_blind=Decimal("5.00"),
                   minimum_wager=Decimal("5.00"))
        closed.refresh_from_db()
        assert (closed.small_blind, closed.big_blind) == (Decimal("2.00"), Decimal("5.00"))
        assert TableStatusChange.objects.get().limits == closed.limits_label
