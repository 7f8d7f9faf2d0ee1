"""Turning a casino's public feed and page on and off (N.J.A.C. 13:69F-14.18): an administrator of the casino only,
recorded with who and when and in the audit trail; a refusal writes nothing; the admin site goes through the same
service."""
import pytest

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.public.models import PublicFeed
from apps.public.selectors import published_casino
from apps.public.services import set_published
from tests.factories import CasinoFactory, StaffFactory

pytestmark = pytest.mark.django_db


def test_published_until_the_room_turns_it_off(casino, staff):
    admin = staff(Role.ADMIN)
    assert published_casino(code=casino.code) == casino  # no row: published
    feed = set_published(casino=casino, published=False, changed_by=admin)
    assert (feed.published, feed.changed_by) == (False, admin) and published_casino(code=casino.code) is None
    set_published(casino=casino, published=True, changed_by=admin)
    assert PublicFeed.objects.get(casino=casino).published and published_casino(code=casino.code) == casino
    assert [e.published for e in PublicFeed.pgh_event_model.objects.order_by("pgh_id")] == [False, True]


@pytest.mark.parametrize("role", [r for r in Role if r != Role.ADMIN])
def test_only_an_administrator_of_the_casino(casino, staff, role):
    with pytest.raises(DomainError) as refused:
        set_published(casino=casino, published=False, changed_by=staff(role))
    assert refused.value.field == "changed_by" and not PublicFeed.objects.exists()


def test_not_an_administrator_of_another_casino(casino):
    elsewhere = StaffFactory(casino=CasinoFactory(), roles=[Role.ADMIN])
    with pytest.raises(DomainError):
        set_published(casino=casino, published=False, changed_by=elsewhere)
    assert published_casino(code=casino.code) == casino


def test_the_admin_site_turns_it_off(client, casino, staff):
    admin = staff(Role.ADMIN, is_staff=True)  # administrators are staff of the admin site (casinos.services)
    client.force_login(admin)
    assert client.get("/admin/public/publicfeed/add/").status_code == 200
    response = client.post("/admin/public/publicfeed/add/", {"published": ""})
    assert response.status_code == 302
    feed = PublicFeed.objects.get(casino=casino)
    assert (feed.published, feed.changed_by) == (False, admin)
    assert client.get("/admin/public/publicfeed/add/").status_code == 403  # one row a casino
    client.post(f"/admin/public/publicfeed/{feed.pk}/change/", {"published": "on"})
    feed.refresh_from_db()
    assert feed.published
    client.force_login(staff(Role.POKER_SHIFT_SUPERVISOR, is_staff=True))  # were one made staff: still refused
    assert client.get("/admin/public/publicfeed/").status_code == 403
