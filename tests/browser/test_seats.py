"""A floorperson runs a waitlist in real Chromium at a phone's width: adds a player, calls them to the open seat the
board proposes, seats them (N.J.A.C. 13:69F-14.18); the board's refresh keeps a half-typed form."""
import pytest

from apps.core.roles import Role
from apps.seats.models import EntryStatus, Seat, WaitlistEntry
from tests.factories import PokerTableFactory, StaffFactory
from tests.seats.factories import keep, waitlist_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_floorperson_adds_calls_and_seats_a_player_on_a_phone(live_server, page):
    from django.utils import timezone

    table = PokerTableFactory(number=5, seats=6)
    StaffFactory(username="floor5", casino=table.casino, roles=[Role.FLOORPERSON])
    for number in (1, 2):
        keep(table, number, f"Player {number}", timezone.now())
    waitlist = waitlist_for(table)

    page.set_viewport_size({"width": 390, "height": 844})
    page.clock.install()  # the board's poll runs when the test says
    page.goto(f"{live_server.url}/accounts/login/?next=/seats/")
    page.fill("#id_username", "floor5")
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=table-5]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll

    page.select_option("#id_waitlist", str(waitlist.pk))
    page.fill("#id_name", "Ann Lee")
    page.click("#add-player-form button[type=submit]")
    page.wait_for_selector("[data-testid=call-next]")
    assert page.inner_text("[data-testid=call-next]") == "Call A.L. to table 5, seat 3"

    page.fill("[aria-label='Player for table 5, seat 6']", "Half typ")  # a walk-in being typed...
    page.clock.run_for(21_000)  # ...survives the board's refresh (hx-preserve)
    page.wait_for_timeout(300)
    assert page.input_value("[aria-label='Player for table 5, seat 6']") == "Half typ"

    page.click("[data-testid=call-next]")
    ann = WaitlistEntry.objects.get(name="Ann Lee")
    page.wait_for_selector(f"[data-testid=seat-called-{ann.pk}]")
    assert "Called to table 5, seat 3" in page.inner_text(f"[data-testid=entry-{ann.pk}]")
    page.click(f"[data-testid=seat-called-{ann.pk}]")
    page.wait_for_selector("[data-testid=seat-5-3]:has-text('Ann Lee')")
    ann.refresh_from_db()
    assert ann.status == EntryStatus.SEATED and Seat.objects.get(table=table, number=3).player == "Ann Lee"
    assert page.inner_text("[data-testid=vacant-5]") == "3 vacant"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_floorperson_calls_removes_with_confirmation_undoes_and_seats(live_server, page):
    """Issue 34, item 5: from the call to the seat, with a removal on the way: Remove… asks why (the confirmation
    will not go without a reason), the board then offers Undo, which puts the player back at their place."""
    from django.utils import timezone

    from apps.seats.models import EventKind, FloorEvent, RemoveReason
    from tests.seats.factories import entry

    table = PokerTableFactory(number=6, seats=6)
    StaffFactory(username="floor6", casino=table.casino, roles=[Role.FLOORPERSON])
    for number in (1, 2):
        keep(table, number, f"Player {number}", timezone.now())
    waitlist = waitlist_for(table)
    ann = entry(waitlist, "Ann Lee", timezone.now() - timezone.timedelta(minutes=2))
    bo = entry(waitlist, "Bo Ng", timezone.now() - timezone.timedelta(minutes=1))

    page.clock.install()  # the board's poll runs when the test says
    page.goto(f"{live_server.url}/accounts/login/?next=/seats/")
    page.fill("#id_username", "floor6")
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")
    page.click("[data-testid=call-next]")
    page.wait_for_selector(f"[data-testid=seat-called-{ann.pk}]")

    page.click(f"[data-testid=remove-{bo.pk}] summary")
    page.click(f"[data-testid=confirm-remove-{bo.pk}]")  # no reason chosen: the form does not go
    assert page.evaluate(f"document.getElementById('id_remove_{bo.pk}_reason').validity.valueMissing")
    assert WaitlistEntry.objects.get(pk=bo.pk).status == EntryStatus.WAITING
    page.select_option(f"#id_remove_{bo.pk}_reason", RemoveReason.ASKED)
    page.click(f"[data-testid=confirm-remove-{bo.pk}]")
    page.wait_for_selector("[data-testid=recently-removed]")
    assert page.locator(f"[data-testid=entry-{bo.pk}]").count() == 0
    assert "Asked to be removed" in page.inner_text("[data-testid=recently-removed]")

    page.click(f"[data-testid=undo-{bo.pk}]")
    page.wait_for_selector(f"[data-testid=entry-{bo.pk}]")
    page.click(f"[data-testid=seat-called-{ann.pk}]")
    page.wait_for_selector("[data-testid=seat-6-3]:has-text('Ann Lee')")
    assert WaitlistEntry.objects.get(pk=bo.pk).status == EntryStatus.WAITING
    assert Seat.objects.get(table=table, number=3).player == "Ann Lee"
    assert list(FloorEvent.objects.filter(entry=bo).values_list("kind", "reason").order_by("at", "id")) == [
        (EventKind.REMOVED, RemoveReason.ASKED), (EventKind.RESTORED, "")]
