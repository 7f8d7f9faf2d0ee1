"""The room's public page, /public/<code>/ (N.J.A.C. 13:69F-14.18): the public feed's content for a phone, from the
same representation as GET /api/public/<code>/; refreshed by its own htmx poll; "Updated at"; no personal data; no
signed-in user's header nor cookie (a cache may keep it); 404 when the room turned it off, as for an unknown code,
and a poll of it then stops."""
import re

import pytest

from apps.core.roles import Role
from apps.core.rotation import STOP_POLLING
from apps.public.feed import MAX_AGE
from apps.public.services import set_published

from .rooms import ROUND_NAME, SEATED_NAME, SECRET_INITIALS, SECRET_NAME, SECRET_PHONE

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def page_url(casino) -> str:
    return f"/public/{casino.code}/"


@pytest.mark.proves("14.18", "14.19(b)-current-amount")
def test_14_18_the_page_shows_the_feeds_games_seats_waits_and_jackpots(client, public_room):
    response = client.get(page_url(public_room.casino))
    html = response.content.decode()
    feed = client.get(f"/api/public/{public_room.casino.code}/").json()
    assert response.status_code == 200 and "<html" in html and "css/app.css" in html
    small, big = feed["games"]
    assert f'data-testid="game-{small["key"]}"' in html and f'data-testid="game-{big["key"]}"' in html
    assert "$1/$2 no limit" in html and "$2/$5 no limit" in html and "<dt>Tables</dt><dd>3, 5</dd>" in html
    assert re.search(rf'data-testid="vacant-{small["key"]}">\s*15 of 18', html)
    assert re.search(rf'data-testid="waiting-{small["key"]}">\s*2 players', html)
    assert re.search(rf'data-testid="waiting-{big["key"]}">\s*No wait', html)
    assert "$1,234.56" in html and "Payout pending" in html
    assert f'<time datetime="{feed["updated_at"]}">' in html and "Updated at" in html
    assert f'hx-get="/public/{public_room.casino.code}/"' in html and 'hx-trigger="every 30s"' in html


def test_the_poll_answers_the_region_alone(client, public_room):
    poll = client.get(page_url(public_room.casino), **HX)
    html = poll.content.decode()
    assert poll.status_code == 200 and "<html" not in html and 'id="public-feed"' in html
    assert "HX-Request" in poll["Vary"]
    assert set(poll["Cache-Control"].split(", ")) == {"public", "no-cache"}  # a poll always revalidates
    again = client.get(page_url(public_room.casino), HTTP_IF_NONE_MATCH=poll["ETag"], **HX)
    assert again.status_code == 304 and again.content == b""
    page = client.get(page_url(public_room.casino))
    assert page["ETag"] != poll["ETag"] and page["ETag"].startswith("W/")  # two variants of the same content


def test_no_personal_data(client, public_room):
    html = client.get(page_url(public_room.casino)).content.decode()
    for secret in (SECRET_NAME, "Marguerite", "Xylophone", SECRET_PHONE, SECRET_INITIALS, "B.O.", SEATED_NAME,
                   ROUND_NAME, "Annabel"):
        assert secret not in html, secret


def test_the_same_for_everyone_a_cache_may_keep_it(client, public_room, staff):
    """Signed in or not, the page is the public's: no staff header, no CSRF token or cookie, public caching."""
    user = staff(Role.POKER_SHIFT_SUPERVISOR)
    client.force_login(user)
    response = client.get(page_url(public_room.casino))
    html = response.content.decode()
    assert response.status_code == 200 and user.username not in html and "Log out" not in html
    assert "csrf" not in html.lower() and "csrftoken" not in response.cookies
    assert set(response["Cache-Control"].split(", ")) == {"public", f"max-age={MAX_AGE}"}


def test_turned_off_404_like_an_unknown_code_and_a_poll_stops(client, public_room, staff):
    set_published(casino=public_room.casino, published=False, changed_by=staff(Role.ADMIN))
    off, unknown = client.get(page_url(public_room.casino)), client.get("/public/no-such-casino/")
    assert off.status_code == unknown.status_code == 404
    assert public_room.casino.name not in off.content.decode() and "$1,234" not in off.content.decode()
    poll = client.get(page_url(public_room.casino), **HX)
    assert poll.status_code == STOP_POLLING and 'data-testid="public-gone"' in poll.content.decode()
    assert "hx-get" not in poll.content.decode() and public_room.casino.name not in poll.content.decode()


def test_read_only(client, public_room):
    assert client.post(page_url(public_room.casino)).status_code == 405


def test_rate_limited_per_address_with_a_styled_429(client, public_room, settings):
    """Like the feed, the page is rate limited per client address (scope public_page); past it, 429 with Retry-After
    and a short page; another address is still served; a poll counts too."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "public_page": "3/min"}}
    url = page_url(public_room.casino)
    assert client.get(url).status_code == 200
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200
    assert client.get(url).status_code == 200
    busy = client.get(url)
    assert busy.status_code == 429 and int(busy["Retry-After"]) > 0
    assert 'data-testid="public-busy"' in busy.content.decode() and "public/busy.html" in [t.name for t in busy.templates]
    poll = client.get(url, HTTP_HX_REQUEST="true")
    assert poll.status_code == 429 and [t.name for t in poll.templates] == ["public/_busy.html"]
    assert client.get(url, REMOTE_ADDR="203.0.113.9").status_code == 200  # another address
