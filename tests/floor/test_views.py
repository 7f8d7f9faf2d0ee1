"""The supervisor's pages: who may open them."""
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.core.roles import Role
from apps.rounds.services import PlayerIn, RoundIn, record_round
from tests.factories import JackpotFactory, PokerTableFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_of_play(casino):
    table = PokerTableFactory(casino=casino)
    JackpotFactory(casino=casino)
    return record_round(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
        PlayerIn(seat=1, name="Ana", contributed=Decimal("100"), hole_cards="9s 9c"),
        PlayerIn(seat=2, name="Ben", contributed=Decimal("100"), hole_cards="5s 4s")]))


@pytest.mark.parametrize("url", ["/", "/accounting/contributions/"])
def test_anonymous_users_are_sent_to_login(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response.url.startswith("/accounts/login/")


def test_a_dealer_cannot_open_accounting_pages(client, staff):
    client.force_login(staff(Role.DEALER))
    assert client.get("/accounting/contributions/").status_code == 403
    assert client.get("/").status_code == 403


@pytest.mark.parametrize("role", [Role.ACCOUNTING, Role.POKER_SHIFT_SUPERVISOR, Role.SURVEILLANCE])
def test_accounting_page_for_accounting_and_readers(client, staff, role, round_of_play):
    client.force_login(staff(role))
    response = client.get("/accounting/contributions/")
    assert response.status_code == 200
    assert b"agrees" in response.content


def test_supervisor_sees_dashboard_table_and_round(client, supervisor, round_of_play):
    client.force_login(supervisor)
    dashboard = client.get("/")
    assert dashboard.status_code == 200
    assert b"Pending bad-beat claims" in dashboard.content and b"Four" in dashboard.content
    table = client.get(f"/tables/{round_of_play.table_id}/")
    assert table.status_code == 200 and f"#{round_of_play.pk}".encode() in table.content
    page = client.get(f"/rounds/{round_of_play.pk}/")
    assert page.status_code == 200
    assert b"9h 9d 6s 7s 8s" in page.content
    assert b"Taken after the rake" in page.content


def test_dashboard_partial_for_htmx(client, supervisor, round_of_play):
    client.force_login(supervisor)
    response = client.get("/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert b"<html" not in response.content and b"Open tables" in response.content


def test_pages_of_another_casino_are_not_found(client, supervisor):
    other_round_table = PokerTableFactory()
    client.force_login(supervisor)
    assert client.get(f"/tables/{other_round_table.pk}/").status_code == 404
