"""The floorperson's board (/seats/), the kiosk and the record: who may keep the lists, bad input answered 400 beside
the form that sent it, writing nothing (N.J.A.C. 13:69F-14.18)."""
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.core.roles import Role
from apps.seats.models import EntryStatus, FloorEvent, Seat, WaitlistEntry
from apps.seats.services import join_at_kiosk
from tests.factories import PokerTableFactory, StaffFactory
from tests.support.shown import shown

from .factories import entry, waitlist_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def room():
    table = PokerTableFactory(number=3, seats=9)
    waitlist = waitlist_for(table)
    return table, waitlist


def signed_in(client, table, role):
    client.force_login(StaffFactory(casino=table.casino, roles=[role]))
    return client


@pytest.mark.parametrize("role, reads, keeps", [
    (Role.FLOORPERSON, 200, 302), (Role.POKER_SHIFT_SUPERVISOR, 200, 302), (Role.DEALER, 200, 403),
    (Role.SURVEILLANCE, 200, 403), (Role.ACCOUNTING, 403, 403)])
def test_who_reads_and_who_keeps_the_lists(client, room, role, reads, keeps):
    table, waitlist = room
    signed_in(client, table, role)
    assert client.get("/seats/").status_code == reads
    answer = client.post("/seats/", {"action": "add", "waitlist": waitlist.pk, "name": "Ann Lee", "phone": "",
                                     "source": "in_person"})
    assert answer.status_code == keeps
    assert WaitlistEntry.objects.exists() == (keeps == 302)


def test_a_dealer_sees_the_lists_without_phones_or_forms(client, room):
    table, waitlist = room
    entry(waitlist, "Ann Lee", timezone.now(), phone="609 555 0100")
    page = signed_in(client, table, Role.DEALER).get("/seats/").content.decode()
    assert "Ann Lee" in page and "609 555 0100" not in page and 'name="action"' not in page


def test_anonymous_is_sent_to_sign_in(client, room):
    for url in ("/seats/", "/seats/kiosk/", "/seats/record/"):
        assert client.get(url)["Location"].startswith("/accounts/login/")
    assert client.post("/seats/", {"action": "seat"}).status_code == 302 and not Seat.objects.exists()


def test_a_floorperson_adds_calls_and_seats_a_player(client, room):
    table, waitlist = room
    client = signed_in(client, table, Role.FLOORPERSON)
    client.post("/seats/", {"action": "add", "waitlist": waitlist.pk, "name": "Ann Lee", "source": "in_person"})
    page = client.get("/seats/").content.decode()
    assert "Call A.L. to table 3, seat 1" in page
    client.post("/seats/", {"action": "call", "waitlist": waitlist.pk, "table": table.pk, "number": "1"})
    ann = WaitlistEntry.objects.get()
    assert ann.status == EntryStatus.CALLED
    assert client.post("/seats/", {"action": "seat_called", "entry": ann.pk}).status_code == 302
    assert Seat.objects.get().player == "Ann Lee"
    record = client.get("/seats/record/").content.decode()
    assert "Called to a seat" in record and "Ann" not in shown(record)  # the record names no one


@pytest.mark.parametrize("data, message", [
    ({"action": "seat", "table": "x", "number": "1", "player": "Bo"}, "Choose one from the board."),
    ({"action": "seat", "table": "{table}", "number": "12", "player": "Bo"}, "A seat number from 1 to 11."),
    ({"action": "seat", "table": "{table}", "number": "1", "player": ""}, "Give the player"),
    ({"action": "explode"}, "Choose an action of the board."),
    ({"action": "call", "waitlist": "{waitlist}", "table": "{table}", "number": "1"}, "Nobody on the list"),
])
def test_bad_input_answers_400_beside_its_form_and_writes_nothing(client, room, data, message):
    table, waitlist = room
    client = signed_in(client, table, Role.FLOORPERSON)
    data = {k: v.format(table=table.pk, waitlist=waitlist.pk) for k, v in data.items()} | {"form_id": "seat-x"}
    answer = client.post("/seats/", data)
    assert answer.status_code == 400 and message in answer.content.decode()
    assert not Seat.objects.exists() and not FloorEvent.objects.exists()


def test_the_add_form_shows_its_errors_beside_its_fields(client, room):
    table, waitlist = room
    answer = signed_in(client, table, Role.FLOORPERSON).post("/seats/", {
        "action": "add", "waitlist": waitlist.pk, "name": "Ann", "phone": "call me", "source": "phone"})
    assert answer.status_code == 400 and 'id="id_phone_error"' in answer.content.decode()
    assert not WaitlistEntry.objects.exists()


def test_the_board_poll_returns_the_board_part(client, room):
    table, _ = room
    answer = signed_in(client, table, Role.FLOORPERSON).get("/seats/", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and b"<html" not in answer.content and b"Table 3" in answer.content


@pytest.mark.parametrize("role, issues", [(Role.FLOORPERSON, False), (Role.POKER_SHIFT_SUPERVISOR, False),
                                           (Role.ADMIN, True)])
def test_a_staff_member_at_the_kiosk_address_is_told_how_to_get_a_kiosk_link(client, room, role, issues):
    """Issue 32, item 6: the kiosk is not a staff session. /seats/kiosk/ has no join form: it says the kiosk runs from
    a kiosk link (issued on the room screens page by an administrator); posting to it writes nothing. The kiosk itself
    is tested in tests/screens/test_kiosk.py."""
    table, waitlist = room
    entry(waitlist, "Zed Early", timezone.now() - timedelta(minutes=5))
    client = signed_in(client, table, role)
    answer = client.get("/seats/kiosk/")
    page = answer.content.decode()
    assert answer.status_code == 200 and 'data-testid="kiosk-instructions"' in page and "kiosk link" in page
    assert 'name="waitlist"' not in page and 'name="name"' not in page and "Zed" not in shown(page)
    assert ('href="/screens/"' in page) == (role != Role.FLOORPERSON)  # who may open the room screens page
    assert ("Ask an administrator" in page) != issues
    assert client.post("/seats/kiosk/", {"waitlist": waitlist.pk, "name": "Ann Lee", "phone": ""}).status_code == 405
    assert not WaitlistEntry.objects.filter(name="Ann Lee").exists() and not FloorEvent.objects.exists()


def test_roles_that_keep_no_list_are_refused_the_kiosk_instructions(client, room):
    table, _ = room
    assert signed_in(client, table, Role.DEALER).get("/seats/kiosk/").status_code == 403


def test_the_record_says_a_kiosk_added_the_player(client, room):
    """A player who joined at a kiosk (no staff member added them) shows in the record as added by that kiosk, not by
    a scheduled job, and still by entry number only."""
    table, waitlist = room
    join_at_kiosk(waitlist=waitlist, casino=table.casino, kiosk="Desk tablet", name="Ann Lee")
    record = signed_in(client, table, Role.FLOORPERSON).get("/seats/record/").content.decode()
    assert "kiosk “Desk tablet”" in record and "scheduled job" not in record and "Ann" not in shown(record)


def _row(page: str, entry_id: int) -> str:
    """The board's row of one player (up to the next row or the end of the list)."""
    start = page.index(f'data-testid="entry-{entry_id}"')
    return page[start:page.find("</tr>", start)]


def test_pass_over_is_offered_only_to_a_called_player_with_the_reasons_that_fit(client, room):
    """Issue 34, item 5: a player never called is offered no "Pass over" (no answer when called cannot fit); a
    called player is offered only the reasons of their state, none chosen in advance; a reason that does not fit is
    refused 400 beside the row, writing nothing."""
    table, waitlist = room
    client = signed_in(client, table, Role.FLOORPERSON)
    ann = entry(waitlist, "Ann Lee", timezone.now() - timedelta(minutes=1))
    row = _row(client.get("/seats/").content.decode(), ann.pk)
    assert "Pass over" not in row and "No answer when called" not in row and "Remove…" in row

    answer = client.post("/seats/", {"action": "pass", "entry": ann.pk, "reason": "no_answer",
                                     "form_id": f"entry-{ann.pk}"})
    assert answer.status_code == 400 and "That reason does not fit" in _row(answer.content.decode(), ann.pk)
    ann.refresh_from_db()
    assert ann.status == EntryStatus.WAITING and not FloorEvent.objects.exists()

    client.post("/seats/", {"action": "call", "waitlist": waitlist.pk, "table": table.pk, "number": "1"})
    row = _row(client.get("/seats/").content.decode(), ann.pk)
    assert 'data-testid="pass-' in row and '<option value="" selected>Why?</option>' in row
    assert "No answer when called" in row and "Declined this table" in row and "Did not take the seat" not in row
    answer = client.post("/seats/", {"action": "pass", "entry": ann.pk, "reason": "not_in_time",
                                     "form_id": f"entry-{ann.pk}"})  # the call time runs still
    assert answer.status_code == 400 and FloorEvent.objects.filter(kind="passed").count() == 0

    assert client.post("/seats/", {"action": "pass", "entry": ann.pk, "reason": "no_answer"}).status_code == 302
    page = client.get("/seats/").content.decode()
    assert "Passed over: still on the list." in page
    row = _row(page, ann.pk)  # still on the list, at its place, skipped until back
    assert "skipped until back at the desk" in row and 'value="here"' in row
    assert client.post("/seats/", {"action": "here", "entry": ann.pk}).status_code == 302
    assert "Call A.L. to table 3" in client.get("/seats/").content.decode()


def test_remove_asks_why_and_offers_undo(client, room):
    """Issue 34, item 5: Remove… opens a confirmation with the reason (required; a note for Other); a removal with
    no reason is refused 400 beside the row, writing nothing; once removed, the board offers Undo, which puts the
    player back at their place; the record says why, by whom."""
    table, waitlist = room
    client = signed_in(client, table, Role.FLOORPERSON)
    now = timezone.now()
    ann, bo = entry(waitlist, "Ann Lee", now - timedelta(minutes=2)), entry(waitlist, "Bo Ng", now - timedelta(minutes=1))
    row = _row(client.get("/seats/").content.decode(), bo.pk)
    assert "<details" in row and "Remove B.N. from the list" in row and 'name="reason" required' in row

    for data, message in [({}, "Choose why the player is removed."),
                          ({"reason": "other", "note": ""}, "Say why in a few words")]:
        answer = client.post("/seats/", {"action": "remove", "entry": bo.pk, "form_id": f"remove-{bo.pk}"} | data)
        row = _row(answer.content.decode(), bo.pk)
        assert answer.status_code == 400 and message in row and "<details id" in row and " open>" in row
    bo.refresh_from_db()
    assert bo.status == EntryStatus.WAITING and not FloorEvent.objects.exists()

    answer = client.post("/seats/", {"action": "remove", "entry": bo.pk, "reason": "other", "note": "went to dinner"})
    assert answer.status_code == 302
    page = client.get("/seats/").content.decode()
    assert f'data-testid="entry-{bo.pk}"' not in page
    undo = page[page.index('data-testid="recently-removed"'):page.index("<h2>Lists</h2>")]
    assert "Removed Bo Ng" in undo and "Other (say why) (went to dinner)" in undo and f'data-testid="undo-{bo.pk}"' in undo
    dealer = signed_in(client.__class__(), table, Role.DEALER).get("/seats/").content.decode()
    assert 'data-testid="recently-removed"' not in dealer  # the floor's only

    assert client.post("/seats/", {"action": "restore", "entry": bo.pk}).status_code == 302
    page = client.get("/seats/").content.decode()
    assert page.index(f'data-testid="entry-{ann.pk}"') < page.index(f'data-testid="entry-{bo.pk}"')
    assert 'data-testid="recently-removed"' not in page
    record = client.get("/seats/record/").content.decode()
    assert "Removed from the list" in record and "Other (say why): went to dinner" in record
    assert "Put back on the list (removal undone)" in record and "Bo" not in shown(record)
