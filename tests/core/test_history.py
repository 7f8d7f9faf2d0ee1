"""The history tab's reusable piece (apps.core.history): who changed what, when, from what to what, from the pghistory
events of several tracked models at once, newest first, in keyset pages that neither repeat nor skip an event."""
from decimal import Decimal

import pghistory
import pytest
from django.core.exceptions import BadRequest
from django.test import RequestFactory

from apps.badbeat.history import CLAIM_FIELDS
from apps.badbeat.models import Claim
from apps.core.history import CURSOR_PARAM, Source, history_page, shown
from apps.core.roles import Role
from apps.floor.history import RAKE_FIELDS, TABLE_FIELDS
from apps.rake.models import RakeStructure
from apps.tables.models import PokerTable
from tests.factories import RakeStructureFactory

pytestmark = pytest.mark.django_db
D = Decimal


def sources(table):
    return [Source(events=PokerTable.pgh_event_model.objects.filter(pgh_obj_id=table.pk), fields=TABLE_FIELDS,
                   record="Table", created="Set up"),
            Source(events=RakeStructure.pgh_event_model.objects.filter(table_id=table.pk), fields=RAKE_FIELDS,
                   record="Rake", created="Posted")]


def page(url, table, **kwargs):
    return history_page(RequestFactory().get(url), sources(table), **kwargs)


def test_each_event_says_who_changed_what_from_what_to_what_newest_first(casino, staff):
    supervisor = staff(Role.POKER_SHIFT_SUPERVISOR, first_name="Sam", last_name="Stone")
    table = RakeStructureFactory(table__casino=casino, table__location="").table  # set up by no one signed in
    with pghistory.context(user=supervisor.pk, url="/api/tables/1/"):
        PokerTable.objects.filter(pk=table.pk).update(location="High limit", big_blind=D("5.00"), is_open=False)
        RakeStructure.objects.filter(table=table).update(maximum=D("6.00"))
    rows = page("/tables/1/?tab=history", table).rows
    # one moment (the test's one transaction): the later source first, then the earlier, each newest first
    assert [(r.record, r.what) for r in rows] == [("Rake", "Changed"), ("Rake", "Posted"), ("Table", "Changed"),
                                                 ("Table", "Set up")]
    rake, changed = rows[0], rows[2]
    assert rake.who == "Sam Stone" and [(c.label, c.before, c.after) for c in rake.changes] == [
        ("Maximum per pot", "$5.00", "$6.00")]
    assert {(c.label, c.before, c.after) for c in changed.changes} == {
        ("Area", "—", "High limit"), ("Big blind", "$2.00", "$5.00"), ("Open", "Yes", "No")}
    set_up = rows[-1]
    assert set_up.who == "the system" and ("Game", "", "Texas hold 'em (high)") in {
        (c.label, c.before, c.after) for c in set_up.changes}


def test_pages_follow_each_other_without_repeating_or_skipping(casino):
    table = RakeStructureFactory(table__casino=casino).table
    for seats in range(2, 10):  # 8 changes of the table and 8 of its rake, one moment (the test's transaction)
        PokerTable.objects.filter(pk=table.pk).update(seats=seats)
        RakeStructure.objects.filter(table=table).update(minimum_pot=D(seats))
    first = page("/tables/1/?tab=history", table, page_size=5)
    assert first.previous_url is None and first.next_url.startswith("/tables/1/?tab=history&history=")
    seen, current = [], first
    while True:
        seen += [(r.record, r.changes) for r in current.rows]
        if current.next_url is None:
            break
        current = page(current.next_url, table, page_size=5)
    assert len(seen) == 18 and len(set(seen)) == 18  # 16 changes, the set-up and the posting, once each
    assert seen[0] == ("Rake", seen[0][1]) and seen[0][1][0].after == "$9.00"  # the newest first
    back = page(current.previous_url, table, page_size=5)  # newer than the last page: the page before it
    assert [(r.record, r.changes) for r in back.rows] == seen[10:15]
    assert back.next_url is not None and back.previous_url is not None


def test_a_cursor_that_is_not_ours_is_a_bad_request(casino):
    table = RakeStructureFactory(table__casino=casino).table
    for cursor in ("abc", "eyJ4IjogMX0", "WyJvbGRlciIsICJub3QgYSBkYXRlIiwgMCwgMV0"):
        with pytest.raises(BadRequest):
            page(f"/tables/1/?tab=history&{CURSOR_PARAM}={cursor}", table)


def test_values_are_shown_as_people_read_them(casino, staff):
    table = sources(RakeStructureFactory(table__casino=casino).table)[0]
    claim = Source(events=Claim.pgh_event_model.objects.none(), fields=CLAIM_FIELDS, record="Claim")
    user = staff(Role.ACCOUNTING, first_name="Ada", last_name="Lee")
    assert shown(table, "big_blind", D("1234.5"), {}) == "$1,234.50"  # money: dollars and cents
    assert shown(table, "game", "omaha_hilo8", {}) == "Omaha high-low split eight or better"  # a choice: its label
    assert shown(table, "is_open", True, {}) == "Yes" and shown(table, "seats", 9, {}) == "9"
    assert shown(table, "raise_cap", None, {}) == "—"
    assert shown(claim, "decided_by", user.pk, {user.pk: user}) == "Ada Lee"  # a person: by name
    assert shown(claim, "decided_by", 999_999, {}) == "user #999999"
    assert shown(claim, "status", "verified", {}) == "Verified — payout pending"
