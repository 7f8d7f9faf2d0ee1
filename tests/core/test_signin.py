"""Sign-in and sessions (issue 13, item 6): the lockout after repeated failures, per user name and per address, on
the sign-in page and the token endpoint; an administrator's unlock and its record; API tokens that expire and are
revoked at log-out; the API's throttles; at most 200 rows a page."""
from datetime import timedelta

import pytest
import time_machine
from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.db import DatabaseError, transaction
from django.urls import get_resolver
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.generics import GenericAPIView
from rest_framework.settings import api_settings
from rest_framework.throttling import UserRateThrottle

from apps.core.models import SignInUnlock
from apps.core.pagination import BoundedLimitOffsetPagination, NewestFirstPagination
from apps.core.roles import Role
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db
PASSWORD = "pw-for-tests-1"  # tests.factories.StaffFactory's
LIMIT = settings.AXES_FAILURE_LIMIT


def sign_in(client, username, password, address="10.0.0.1"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def token_for(api, username, password=PASSWORD, address="10.0.0.1"):
    return api.post("/api/token/", {"username": username, "password": password}, format="json",
                    REMOTE_ADDR=address)


class TestLockout:
    def test_wrong_passwords_then_the_right_one_is_locked_out(self, client, supervisor):
        for _ in range(LIMIT - 1):
            response = sign_in(client, supervisor.username, "guess")
            assert response.status_code == 200 and b"Please enter a correct username and password" in response.content
        locked = sign_in(client, supervisor.username, "guess")
        assert locked.status_code == 429
        assert "registration/locked_out.html" in [t.name for t in locked.templates]
        assert b"Sign-in locked" in locked.content and b"Try again after" in locked.content
        # the whole cool-off from this attempt, less the moments the request itself took on a busy machine
        cool_off = settings.AXES_COOLOFF_TIME.total_seconds()
        assert cool_off - 30 <= int(locked["Retry-After"]) <= cool_off
        # The right password now fails too (and restarts the wait); no session is opened.
        right = sign_in(client, supervisor.username, PASSWORD)
        assert right.status_code == 429 and "_auth_user_id" not in client.session
        assert AccessFailureLog.objects.filter(username=supervisor.username, locked_out=True).count() == 2

    def test_the_lockout_ends_after_the_cool_off(self, client, supervisor):
        for _ in range(LIMIT):
            sign_in(client, supervisor.username, "guess")
        assert sign_in(client, supervisor.username, PASSWORD).status_code == 429
        with time_machine.travel(timezone.now() + settings.AXES_COOLOFF_TIME + timedelta(seconds=5)):
            response = sign_in(client, supervisor.username, PASSWORD)
        assert response.status_code == 302 and response.url == "/home/"  # LOGIN_REDIRECT_URL

    def test_per_user_name_from_any_address(self, client, supervisor):
        for i in range(LIMIT):
            sign_in(client, supervisor.username, "guess", address=f"10.0.1.{i}")
        assert sign_in(client, supervisor.username, PASSWORD, address="10.0.2.1").status_code == 429

    def test_per_address_for_any_user_name(self, client, staff):
        victim = staff(Role.ACCOUNTING)
        for i in range(LIMIT):
            sign_in(client, f"nobody{i}", "guess", address="10.0.3.3")
        assert sign_in(client, victim.username, PASSWORD, address="10.0.3.3").status_code == 429
        assert sign_in(client, victim.username, PASSWORD, address="10.0.3.4").status_code == 302

    def test_the_token_endpoint_counts_and_answers_in_the_api_shape(self, api, client, supervisor):
        for _ in range(LIMIT - 1):
            response = token_for(api, supervisor.username, "guess")
            assert response.status_code == 400 and "non_field_errors" in response.json()
        locked = token_for(api, supervisor.username, "guess")
        assert locked.status_code == 429 and locked["Content-Type"] == "application/json"
        assert "Too many failed sign-ins" in locked.json()["detail"] and int(locked["Retry-After"]) > 0
        assert token_for(api, supervisor.username).status_code == 429  # the right password
        assert not AuthToken.objects.exists()
        assert sign_in(client, supervisor.username, PASSWORD, address="10.0.9.9").status_code == 429  # same user

    def test_a_success_below_the_limit_keeps_the_user_signing_in(self, client, supervisor):
        for _ in range(LIMIT - 1):
            sign_in(client, supervisor.username, "guess")
        assert sign_in(client, supervisor.username, PASSWORD).status_code == 302


class TestUnlock:
    @pytest.fixture
    def administrator(self, staff):
        user = staff(Role.ADMIN)
        assert user.has_perm("core.unlock_sign_in")
        user.is_staff = True  # as casinos.services.create_staff_member makes administrators
        user.save()
        return user

    def lock(self, client, user):
        for _ in range(LIMIT):
            sign_in(client, user.username, "guess")
        assert sign_in(client, user.username, PASSWORD).status_code == 429

    def test_an_administrator_unlocks_and_the_unlock_is_recorded(self, client, supervisor, administrator):
        self.lock(client, supervisor)
        admin_client = type(client)()
        admin_client.force_login(administrator)
        page = admin_client.get("/admin/axes/accessattempt/")
        assert page.status_code == 200 and supervisor.username.encode() in page.content
        ids = list(AccessAttempt.objects.filter(username=supervisor.username).values_list("pk", flat=True))
        response = admin_client.post("/admin/axes/accessattempt/", {"action": "unlock", "_selected_action": ids})
        assert response.status_code == 302
        unlock = SignInUnlock.objects.get()
        assert (unlock.unlocked_by, unlock.username, unlock.ip_address) == (administrator, supervisor.username,
                                                                           "10.0.0.1")
        assert unlock.failures == LIMIT + 1 and unlock.created_at is not None
        assert not AccessAttempt.objects.filter(username=supervisor.username).exists()
        assert sign_in(client, supervisor.username, PASSWORD).status_code == 302
        # The record is append-only: PostgreSQL refuses the app's login the UPDATE (tests/core/test_database_roles.py),
        # and the trigger refuses anyone else.
        with pytest.raises(DatabaseError, match="permission denied|Cannot update or delete"), transaction.atomic():
            SignInUnlock.objects.filter(pk=unlock.pk).update(username="someone else")

    def test_only_administrators_see_the_lockouts_and_nobody_deletes_them(self, client, staff, supervisor,
                                                                           administrator):
        self.lock(client, supervisor)
        floor = staff(Role.POKER_SHIFT_SUPERVISOR)
        floor.is_staff = True
        floor.save()
        client.force_login(floor)
        assert client.get("/admin/axes/accessattempt/").status_code == 403
        client.force_login(administrator)
        ids = list(AccessAttempt.objects.values_list("pk", flat=True))
        client.post("/admin/axes/accessattempt/", {"action": "delete_selected", "_selected_action": ids})
        assert AccessAttempt.objects.count() == len(ids) and not SignInUnlock.objects.exists()


class TestApiTokens:
    def test_a_token_for_username_and_password_json_or_form(self, api, supervisor):
        answer = token_for(api, supervisor.username)
        assert answer.status_code == 200 and set(answer.json()) == {"token", "expiry"}
        form = api.post("/api/token/", {"username": supervisor.username, "password": PASSWORD})
        assert form.status_code == 200
        api.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
        assert api.get("/api/tables/").status_code == 200

    def test_a_token_expires(self, api, supervisor):
        answer = token_for(api, supervisor.username).json()
        token = AuthToken.objects.get()
        assert abs(token.expiry - token.created - settings.REST_KNOX["TOKEN_TTL"]) < timedelta(seconds=1)
        api.credentials(HTTP_AUTHORIZATION=f"Token {answer['token']}")
        with time_machine.travel(token.expiry - timedelta(minutes=1)):
            assert api.get("/api/tables/").status_code == 200
        with time_machine.travel(token.expiry + timedelta(seconds=1)):
            expired = api.get("/api/tables/")
        assert expired.status_code == 403 and expired.json() == {"detail": "Invalid token."}
        assert not AuthToken.objects.exists()  # deleted when it was refused

    @pytest.mark.parametrize("header", ["Token \xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9", "Token zzzzzzzzzzzzzzzz", "Token " + "0" * 64])
    def test_a_malformed_or_unknown_token_is_refused_not_a_server_error(self, api, supervisor, header):
        token_for(api, supervisor.username)
        api.credentials(HTTP_AUTHORIZATION=header)
        refused = api.get("/api/tables/")
        assert refused.status_code == 403 and refused.json() == {"detail": "Invalid token."}

    def test_the_roles_come_with_the_token_each_request(self, api, supervisor):
        """The role check reads the roles the token's query brought (apps.core.authentication): a role taken away is
        gone at the next request; an inactive user's token is refused."""
        api.credentials(HTTP_AUTHORIZATION=f"Token {token_for(api, supervisor.username).json()['token']}")
        assert api.get("/api/tables/").status_code == 200
        supervisor.groups.clear()
        assert api.get("/api/tables/").status_code == 403
        supervisor.is_active = False
        supervisor.save(update_fields=["is_active"])
        inactive = api.get("/api/tables/")
        assert inactive.status_code == 403 and inactive.json() == {"detail": "User inactive or deleted."}

    def test_a_request_reads_only_the_token_it_presents_and_the_hourly_purge_drops_the_expired(self, api,
                                                                                              supervisor):
        """knox read every token of the user on each request; ours checks the one presented (one query, however
        many tablets the user signed in from) and leaves the others' expiry to apps.core.tasks.expire_api_tokens."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from apps.core.tasks import expire_api_tokens

        now = timezone.now()
        for _ in range(5):
            AuthToken.objects.create(user=supervisor, expiry=timedelta(hours=1))
        old, _ = AuthToken.objects.create(user=supervisor, expiry=timedelta(hours=1))
        AuthToken.objects.filter(pk=old.pk).update(expiry=now - timedelta(minutes=1))
        _, token = AuthToken.objects.create(user=supervisor, expiry=timedelta(hours=1))
        api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        with CaptureQueriesContext(connection) as queries:
            assert api.get("/api/tables/").status_code == 200
        assert sum('"knox_authtoken"' in q["sql"] for q in queries.captured_queries) == 1
        assert AuthToken.objects.filter(pk=old.pk).exists()  # not presented: left to the purge
        assert expire_api_tokens() == 1
        assert AuthToken.objects.count() == 6 and not AuthToken.objects.filter(pk=old.pk).exists()
        assert expire_api_tokens() == 0  # idempotent

    def test_logout_revokes_the_token_used_and_logout_all_every_one(self, api, supervisor):
        first, second, third = (token_for(api, supervisor.username).json()["token"] for _ in range(3))
        api.credentials(HTTP_AUTHORIZATION=f"Token {first}")
        assert api.post("/api/token/logout/").status_code == 204
        assert api.get("/api/tables/").status_code == 403
        api.credentials(HTTP_AUTHORIZATION=f"Token {second}")
        assert api.get("/api/tables/").status_code == 200
        assert api.post("/api/token/logout-all/").status_code == 204
        for token in (second, third):
            api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
            assert api.get("/api/tables/").status_code == 403
        assert not AuthToken.objects.exists()

    def test_signing_out_of_the_browser_revokes_the_users_tokens(self, api, client, supervisor, staff):
        token = token_for(api, supervisor.username).json()["token"]
        other = staff(Role.DEALER)
        AuthToken.objects.create(user=other)
        client.force_login(supervisor)
        assert client.post("/accounts/logout/").status_code == 302
        api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert api.get("/api/tables/").status_code == 403
        assert list(AuthToken.objects.values_list("user", flat=True)) == [other.pk]

    def test_create_api_token_command(self, supervisor, api):
        from io import StringIO

        from django.core.management import call_command

        out = StringIO()
        call_command("create_api_token", supervisor.username, stdout=out)
        token = out.getvalue().split()[2]
        api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert api.get("/api/tables/").status_code == 200


class TestThrottles:
    def test_the_token_endpoint_is_throttled_per_address(self, api, supervisor):
        allowed = int(api_settings.DEFAULT_THROTTLE_RATES["api_token"].split("/")[0])
        for _ in range(allowed):
            assert token_for(api, supervisor.username).status_code == 200
        throttled = token_for(api, supervisor.username)
        assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
        assert set(throttled.json()) == {"detail"}
        assert token_for(api, supervisor.username, address="10.0.0.2").status_code == 200  # another address

    def test_the_api_is_throttled_per_user(self, api, supervisor, monkeypatch):
        monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/min"})
        api.force_authenticate(supervisor)
        assert [api.get("/api/tables/").status_code for _ in range(4)] == [200, 200, 200, 429]
        assert "throttled" in api.get("/api/tables/").json()["detail"]

    def test_default_rates_leave_room_for_the_feed(self):
        rates = api_settings.DEFAULT_THROTTLE_RATES
        assert int(rates["user"].split("/")[0]) >= 600 and rates["user"].endswith("/min")


class TestPageSize:
    def test_a_list_returns_at_most_200_rows_whatever_is_asked(self, api, supervisor):
        PokerTableFactory.create_batch(205, casino=supervisor.casino)
        api.force_authenticate(supervisor)
        page = api.get("/api/tables/?limit=100000").json()
        assert page["count"] == 205 and len(page["results"]) == 200 and "limit=200" in page["next"]
        assert len(api.get("/api/tables/").json()["results"]) == api_settings.PAGE_SIZE

    def test_every_paginated_list_uses_the_bounded_pagination(self):
        views = []

        def walk(patterns):
            for pattern in patterns:
                if hasattr(pattern, "url_patterns"):
                    walk(pattern.url_patterns)
                    continue
                view = getattr(pattern.callback, "cls", None)
                if view is not None and issubclass(view, GenericAPIView):
                    views.append(view)

        walk(get_resolver().url_patterns)
        assert views
        for view in views:
            paginator = view.pagination_class
            assert paginator is None or issubclass(paginator, BoundedLimitOffsetPagination | NewestFirstPagination), view
            if paginator is not None and issubclass(paginator, BoundedLimitOffsetPagination):
                assert paginator.max_limit <= 200
            elif paginator is not None:
                assert paginator.max_page_size <= 200 and paginator.page_size <= 200
