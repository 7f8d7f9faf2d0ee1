"""GET /api/public/<code>/, the room's official public feed (N.J.A.C. 13:69F-14.18; 14.19(b), (i)1, (k) for the
jackpots): its content against the room's records, its caching (a strong ETag, 304 on If-None-Match, Cache-Control),
its rate limit per address (429 in the error shape), CORS, no personal data, no authentication read, the room
turning it off (404, as for an unknown code), a fixed number of queries, and its OpenAPI description."""
import json
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.core.roles import Role
from apps.public.feed import MAX_AGE
from apps.public.services import set_published
from apps.seats.models import Seat
from apps.seats.selectors import line_key
from tests.factories import JackpotFactory, PokerTableFactory, StaffFactory

from .rooms import ROUND_NAME, SEATED_NAME, SECRET_INITIALS, SECRET_NAME, SECRET_PHONE, add_to_list

pytestmark = pytest.mark.django_db
D = Decimal


def url(casino) -> str:
    return f"/api/public/{casino.code}/"


class TestContent:
    @pytest.mark.proves("14.18", "14.19(i)1", "14.19(b)-current-amount")
    def test_14_18_games_limits_seats_waitlists_and_jackpots(self, client, public_room):
        """The games running (one line for tables 3 and 5 at $1/$2, one for table 7 at $2/$5; closed table 8 not
        listed), their seats and vacant seats (the floor's record: table 3, the round's two players; table 5, one
        player), the list's length, and the jackpot as its display shows it, payout pending (14.19(i)1)."""
        response = client.get(url(public_room.casino))
        assert response.status_code == 200 and response["Content-Type"] == "application/json"
        body = response.json()
        tables = public_room.tables
        assert body["casino"] == {"code": public_room.casino.code, "name": public_room.casino.name}
        assert body["tables_open"] == 3 and body["vacant_seats"] == (9 - 2) + (9 - 1) + 9
        small, big = body["games"]
        assert small == {"key": line_key(tables[3]), "game": "Texas hold 'em (high)", "limits": "$1/$2 no limit",
                         "rotation": "", "tables": ["Table 3", "Table 5"], "seats": 18, "vacant_seats": 15,
                         "waitlist_length": 2}
        assert (big["key"], big["limits"], big["tables"], big["vacant_seats"], big["waitlist_length"]) == (
            line_key(tables[7]), "$2/$5 no limit", ["Table 7"], 9, 0)
        assert body["jackpots"] == [{"name": public_room.jackpot.name, "kind": "primary", "amount": "1234.56",
                                     "status": "payout_pending"}]
        updated = timezone.datetime.fromisoformat(body["updated_at"])
        assert abs(timezone.now() - updated) < timedelta(minutes=1)
        assert updated.utcoffset() == timezone.localtime(timezone.now(), public_room.casino.zone).utcoffset()

    def test_14_19_i_1_a_jackpot_with_no_verified_claim_is_active(self, client, casino):
        jackpot = JackpotFactory(casino=casino, displayed_amount=D("500.00"))
        assert client.get(url(casino)).json()["jackpots"] == [
            {"name": jackpot.name, "kind": "primary", "amount": "500.00", "status": "active"}]

    def test_no_personal_data(self, client, public_room):
        """Never a player's name, initials or phone: not the list's, not the floor's seats', not the feed's rounds'."""
        text = client.get(url(public_room.casino)).content.decode()
        for secret in (SECRET_NAME, "Marguerite", "Xylophone", SECRET_PHONE, "5550142", SECRET_INITIALS, "B.O.",
                       SEATED_NAME, "Zebediah", ROUND_NAME, "Annabel", "initials", "phone", "9s 9c"):
            assert secret not in text, secret
        assert "waitlist_initials" not in json.loads(text)["games"][0]

    def test_an_empty_room(self, client, casino):
        body = client.get(url(casino)).json()
        assert (body["games"], body["jackpots"], body["tables_open"], body["vacant_seats"]) == ([], [], 0, 0)


class TestCaching:
    def test_a_strong_etag_304_while_nothing_changes_200_after_a_change(self, client, public_room):
        first = client.get(url(public_room.casino))
        etag = first["ETag"]
        assert etag.startswith('"') and not etag.startswith("W/")
        assert set(first["Cache-Control"].split(", ")) == {"public", f"max-age={MAX_AGE}"}
        later = timezone.now() + timedelta(minutes=3)
        with time_machine.travel(later, tick=False):
            same = client.get(url(public_room.casino), HTTP_IF_NONE_MATCH=etag)
            assert same.status_code == 304 and same.content == b"" and same["ETag"] == etag
            assert client.get(url(public_room.casino)).json()["updated_at"] == first.json()["updated_at"]
            add_to_list(public_room.waitlist, "Cy")  # the list grows: the content changes
            changed = client.get(url(public_room.casino), HTTP_IF_NONE_MATCH=etag)
        assert changed.status_code == 200 and changed["ETag"] != etag
        assert changed.json()["games"][0]["waitlist_length"] == 3
        assert timezone.datetime.fromisoformat(changed.json()["updated_at"]) == later
        again = client.get(url(public_room.casino), HTTP_IF_NONE_MATCH=changed["ETag"])
        assert again.status_code == 304

    def test_a_seat_taken_changes_the_etag(self, client, public_room):
        etag = client.get(url(public_room.casino))["ETag"]
        Seat.objects.create(table=public_room.tables[7], number=4, player="Dee", since=timezone.now())
        changed = client.get(url(public_room.casino), HTTP_IF_NONE_MATCH=etag)
        assert changed.status_code == 200 and changed.json()["games"][1]["vacant_seats"] == 8

    def test_head_answers_the_headers(self, client, public_room):
        head = client.head(url(public_room.casino))
        assert head.status_code == 200 and head.content == b""
        assert head["ETag"] == client.get(url(public_room.casino))["ETag"]


class TestLimitsAndOrigins:
    def test_rate_limited_per_address_429_in_the_error_shape(self, client, public_room, settings):
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "public_feed": "3/min"}}
        for _ in range(3):
            assert client.get(url(public_room.casino)).status_code == 200
        throttled = client.get(url(public_room.casino))
        assert throttled.status_code == 429 and set(throttled.json()) == {"detail"}
        assert int(throttled["Retry-After"]) > 0 and throttled["Access-Control-Allow-Origin"] == "*"
        assert client.get(url(public_room.casino), REMOTE_ADDR="203.0.113.9").status_code == 200  # another address

    def test_any_origin_may_read_it(self, client, public_room):
        response = client.get(url(public_room.casino), HTTP_ORIGIN="https://example.org")
        assert response["Access-Control-Allow-Origin"] == "*"
        assert "ETag" in response["Access-Control-Expose-Headers"]
        assert "Access-Control-Allow-Origin" not in client.get("/api/jackpot/")  # this endpoint only
        preflight = client.options(url(public_room.casino), HTTP_ORIGIN="https://example.org",
                                   HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
                                   HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match")
        assert preflight.status_code == 200 and preflight["Access-Control-Allow-Origin"] == "*"
        assert preflight["Access-Control-Allow-Headers"] == "If-None-Match"

    def test_read_only(self, client, public_room):
        assert client.post(url(public_room.casino), {}).status_code == 405
        assert client.delete(url(public_room.casino)).status_code == 405


class TestNoAuthentication:
    def test_a_signed_in_user_and_a_stale_session_or_csrf_cookie_never_matter(self, client, public_room):
        client.force_login(StaffFactory(casino=public_room.casino, roles=[Role.DEALER]))
        assert client.get(url(public_room.casino)).status_code == 200
        client.cookies["sessionid"] = "stale-session-key"
        client.cookies["csrftoken"] = "x" * 32
        response = client.get(url(public_room.casino), HTTP_AUTHORIZATION="Token not-a-token")
        assert response.status_code == 200 and "csrftoken" not in response.cookies
        assert response.json()["casino"]["code"] == public_room.casino.code


class TestTurnedOff:
    def test_404_like_an_unknown_code_and_back_on(self, client, public_room, staff):
        admin = staff(Role.ADMIN)
        unknown = client.get("/api/public/no-such-casino/")
        set_published(casino=public_room.casino, published=False, changed_by=admin)
        off = client.get(url(public_room.casino))
        assert off.status_code == unknown.status_code == 404
        assert off.json() == unknown.json() == {"detail": "Not found."}
        assert public_room.casino.name not in off.content.decode()
        set_published(casino=public_room.casino, published=True, changed_by=admin)
        assert client.get(url(public_room.casino)).status_code == 200

    def test_another_casinos_setting_is_its_own(self, client, public_room):
        other = PokerTableFactory().casino
        set_published(casino=other, published=False,
                      changed_by=StaffFactory(casino=other, roles=[Role.ADMIN]))
        assert client.get(url(public_room.casino)).status_code == 200
        assert client.get(url(other)).status_code == 404


def queries_of(client, casino) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url(casino)).status_code == 200
    return len(queries)


def test_a_fixed_small_number_of_queries(client, public_room):
    """However many tables, seats and players waiting: the casino, the board (apps.seats.selectors.room_board's
    nine) and the jackpots."""
    before = queries_of(client, public_room.casino)
    for number in range(20, 26):
        table = PokerTableFactory(casino=public_room.casino, number=number, seats=10)
        Seat.objects.create(table=table, number=2, player="P", since=timezone.now())
    for name in ("Di", "Ed", "Flo"):
        add_to_list(public_room.waitlist, name)
    assert queries_of(client, public_room.casino) == before <= 12  # 10 today: casino, board (8), jackpots


def test_described_in_the_openapi_schema():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/public/{code}/"]["get"]
    # no 401/403: open to anyone; 500 and 503 ({detail, request_id}) on every operation (apps.core.schema)
    assert set(operation["responses"]) == {"200", "304", "404", "414", "429", "431", "500", "503"}
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/PublicFeedOutput")
    assert operation["responses"]["404"]["content"]["application/json"]["schema"]["$ref"].endswith("/Error")
    assert "ETag" in operation["responses"]["200"]["headers"]
    assert "If-None-Match" in {p["name"] for p in operation["parameters"]}
    games = schema["components"]["schemas"]["PublicGameOutput"]["properties"]
    assert "waitlist_initials" not in games and "waitlist_length" in games


def test_14_19_i_1_k_the_jackpot_status_is_described_with_pending_adjustment():
    """The schema names the three statuses the displays show (apps.badbeat.selectors.display_status) and says what
    the amount is while a display is pending adjustment (14.19(i)1, (k), (o))."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    status = schema["components"]["schemas"]["PublicJackpotOutput"]["properties"]["status"]
    assert status["allOf"] == [{"$ref": "#/components/schemas/PublicJackpotOutputStatusEnum"}]
    enum = schema["components"]["schemas"]["PublicJackpotOutputStatusEnum"]["enum"]
    assert set(enum) == {"active", "payout_pending", "pending_adjustment"}
    assert "pending_adjustment once it is paid, until accounting adjusts" in status["description"]
