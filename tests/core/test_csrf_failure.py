"""A form refused by the CSRF check (a session expired or replaced while the form was open) gets the room's styled
page that says nothing was saved and what to do, not Django's bare page; under /api/ the API's JSON shape."""
import pytest
from django.test import Client

from apps.badbeat.models import DisplayAdjustment

pytestmark = pytest.mark.django_db


def test_a_form_posted_without_its_csrf_token_gets_the_styled_page_and_writes_nothing(supervisor):
    client = Client(enforce_csrf_checks=True)
    client.force_login(supervisor)
    response = client.post("/jackpot/display/adjust/", {"displayed_amount": "10.00"})
    page = response.content.decode()
    assert response.status_code == 403
    assert "403_csrf.html" in [t.name for t in response.templates] and "base.html" in [t.name for t in response.templates]
    assert 'data-testid="csrf-failure"' in page and "Nothing was saved or changed." in page
    assert "Go to your home page" in page
    assert not DisplayAdjustment.objects.exists()


def test_signed_out_the_page_offers_to_sign_in():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "someone", "password": "x"})
    assert response.status_code == 403 and "Sign in" in response.content.decode()
