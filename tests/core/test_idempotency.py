"""Idempotency-Key on the money POSTs (apps.core.idempotency), as Stripe defines it: a retry with the same key and
body replays the first response and records nothing more; another body is a 422; a key still running is a 409; keys
are kept per user for 24 hours; ten concurrent identical requests make exactly one record and no server error."""
import threading
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from apps.badbeat.models import Contribution, DisplayAdjustment, GamingDayContributions, Jackpot
from apps.core.idempotency import IDEMPOTENCY_KEY_HOURS
from apps.core.models import IdempotencyKey
from apps.core.roles import Role
from apps.core.services import delete_expired_idempotency_keys
from apps.rake.models import RakeRecord
from apps.rounds.models import RoundOfPlay, TableGamingDay
from tests.factories import JackpotFactory, RakeStructureFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(casino):
    table = RakeStructureFactory(table__casino=casino).table
    JackpotFactory(casino=casino, balance=Decimal("0.00"), minimum_pot=Decimal("0"))
    return table


def round_body(table, **overrides):
    return {"table": table.pk, "board": "Ah Kd 5c 9s 3h", "external_id": "", "players": [
        {"seat": 1, "name": "Ana", "contributed": "50.00", "hole_cards": "As Ks"},
        {"seat": 2, "name": "Ben", "contributed": "50.00", "hole_cards": "2c 7d"}]} | overrides


def post(api, path, body, key):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return api.post(path, body, format="json", **headers)


def money_rows():
    return RoundOfPlay.objects.count(), RakeRecord.objects.count(), Contribution.objects.count()


class TestReplay:
    def test_the_same_round_posted_three_times_with_one_key_is_recorded_once(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        first = post(api, "/api/rounds/", round_body(table), "tablet-7-round-1")
        assert first.status_code == 201, first.content
        assert money_rows() == (1, 1, 1)
        for _ in range(2):
            again = post(api, "/api/rounds/", round_body(table), "tablet-7-round-1")
            assert again.status_code == 201
            assert again.json() == first.json()
            assert again["Idempotent-Replayed"] == "true"
        assert money_rows() == (1, 1, 1)
        assert not first.has_header("Idempotent-Replayed")

    def test_without_a_key_each_post_is_a_new_round(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        for _ in range(2):
            assert post(api, "/api/rounds/", round_body(table), None).status_code == 201
        assert money_rows() == (2, 2, 2)

    def test_the_body_is_compared_by_its_content_not_its_encoding(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        body = round_body(table)
        first = post(api, "/api/rounds/", body, "k-order")
        reordered = dict(reversed(list(body.items())))
        again = post(api, "/api/rounds/", reordered, "k-order")
        assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
        assert again.json()["id"] == first.json()["id"]

    def test_another_body_with_the_same_key_is_a_422_and_records_nothing(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        assert post(api, "/api/rounds/", round_body(table), "k-1").status_code == 201
        other = post(api, "/api/rounds/", round_body(table, board="2h 3h 4h 9d Td"), "k-1")
        assert other.status_code == 422
        assert "Idempotency-Key" in other.json()["detail"]
        assert money_rows() == (1, 1, 1)

    def test_the_same_key_on_another_operation_is_a_422(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        assert post(api, "/api/rounds/", round_body(table), "k-2").status_code == 201
        elsewhere = post(api, f"/api/tables/{table.pk}/time-charges/", {"amount": "6.00", "seats": 1}, "k-2")
        assert elsewhere.status_code == 422

    def test_keys_are_kept_per_user(self, api, staff, supervisor, table):
        dealer = staff(Role.DEALER)
        api.force_authenticate(supervisor)
        assert post(api, "/api/rounds/", round_body(table), "shared-key").status_code == 201
        api.force_authenticate(dealer)
        theirs = post(api, "/api/rounds/", round_body(table), "shared-key")
        assert theirs.status_code == 201 and not theirs.has_header("Idempotent-Replayed")
        assert money_rows() == (2, 2, 2)

    def test_a_refused_request_is_replayed_as_refused_and_wrote_nothing(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        bad = round_body(table, players=[{"seat": 1, "contributed": "5", "hole_cards": "As Zz"},
                                         {"seat": 2, "contributed": "5", "hole_cards": "2c 7d"}])
        first = post(api, "/api/rounds/", bad, "k-bad")
        assert first.status_code == 400
        again = post(api, "/api/rounds/", bad, "k-bad")
        assert (again.status_code, again.json(), again["Idempotent-Replayed"]) == (400, first.json(), "true")
        assert money_rows() == (0, 0, 0)

    def test_a_round_refused_after_its_money_was_written_is_replayed_as_refused_and_wrote_nothing(
            self, api, supervisor, table):
        """The deck is checked last (14.2(d)3), after the round, its rake and its contribution are written; the
        money path takes no savepoint of its own under a key, and the key's savepoint rolls all of it back."""
        api.force_authenticate(supervisor)
        jackpot = Jackpot.objects.get()
        first = post(api, "/api/rounds/", round_body(table, deck="X-1"), "k-deck")
        assert first.status_code == 400 and "deck" in first.json()
        assert money_rows() == (0, 0, 0)
        assert Jackpot.objects.get().balance == jackpot.balance
        assert not GamingDayContributions.objects.exists() and not TableGamingDay.objects.exists()
        again = post(api, "/api/rounds/", round_body(table, deck="X-1"), "k-deck")
        assert (again.status_code, again.json(), again["Idempotent-Replayed"]) == (400, first.json(), "true")
        recorded = post(api, "/api/rounds/", round_body(table), "k-next")
        assert recorded.status_code == 201 and money_rows() == (1, 1, 1)

    def test_a_server_error_releases_the_key_and_the_retry_runs(self, api, supervisor, table, monkeypatch):
        from apps.feed import apis

        real = apis.record_round_of_play

        def broken(**kwargs):
            real(**kwargs)  # the round is written, then the request fails: all of it is rolled back
            raise RuntimeError("the worker died")

        monkeypatch.setattr(apis, "record_round_of_play", broken)
        api.force_authenticate(supervisor)
        with pytest.raises(RuntimeError):
            post(api, "/api/rounds/", round_body(table), "k-crash")
        assert money_rows() == (0, 0, 0)
        assert not IdempotencyKey.objects.filter(key="k-crash").exists()
        monkeypatch.setattr(apis, "record_round_of_play", real)
        retry = post(api, "/api/rounds/", round_body(table), "k-crash")
        assert retry.status_code == 201 and not retry.has_header("Idempotent-Replayed")
        assert money_rows() == (1, 1, 1)

    @pytest.mark.parametrize("key", ["", "x" * 256, "clé-non-ascii", "tab\there"])
    def test_a_malformed_key_is_a_400_naming_the_header(self, api, supervisor, table, key):
        api.force_authenticate(supervisor)
        response = post(api, "/api/rounds/", round_body(table), key)
        assert response.status_code == 400 and "Idempotency-Key" in response.json()
        assert money_rows() == (0, 0, 0)


class TestExpiry:
    def test_keys_are_kept_24_hours_then_a_reuse_is_a_new_request(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        start = timezone.now()
        with time_machine.travel(start, tick=False):
            assert post(api, "/api/rounds/", round_body(table), "k-day").status_code == 201
        with time_machine.travel(start + timedelta(hours=IDEMPOTENCY_KEY_HOURS) - timedelta(minutes=1), tick=False):
            assert post(api, "/api/rounds/", round_body(table), "k-day")["Idempotent-Replayed"] == "true"
        assert money_rows() == (1, 1, 1)
        with time_machine.travel(start + timedelta(hours=IDEMPOTENCY_KEY_HOURS, minutes=1), tick=False):
            again = post(api, "/api/rounds/", round_body(table), "k-day")
        assert again.status_code == 201 and not again.has_header("Idempotent-Replayed")
        assert money_rows() == (2, 2, 2)

    def test_the_hourly_job_deletes_only_expired_keys(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        post(api, "/api/rounds/", round_body(table), "old")
        post(api, "/api/rounds/", round_body(table, board="2h 3h 4h 9d Td"), "new")
        IdempotencyKey.objects.filter(key="old").update(expires_at=timezone.now() - timedelta(seconds=1))
        assert delete_expired_idempotency_keys() == 1
        assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["new"]


class TestEveryMoneyPost:
    def test_a_display_adjustment_retried_is_one_adjustment(self, api, staff, supervisor, table):
        jackpot = table.casino.jackpots.get()
        clerk = staff(Role.ACCOUNTING)
        api.force_authenticate(clerk)
        body = {"displayed_amount": "0.00", "supervisor_present": supervisor.pk}
        responses = [post(api, f"/api/jackpots/{jackpot.pk}/display-adjustments/", body, "adj-1") for _ in range(3)]
        assert [r.status_code for r in responses] == [201, 201, 201]
        assert DisplayAdjustment.objects.count() == 1

    def test_a_phh_import_retried_replays_its_summary(self, api, supervisor, table):
        from tests.feed.test_apis import PLURIBUS

        table.small_blind, table.big_blind = Decimal("50"), Decimal("100")
        table.save()
        api.force_authenticate(supervisor)
        text = sorted(PLURIBUS.glob("*.phhs"))[0].read_text().split("\n\n[")[0]
        body = {"table": table.pk, "phh": text}
        first = post(api, "/api/rounds/phh/", body, "phh-1")
        assert first.status_code == 201 and first.json()["imported"] >= 1
        again = post(api, "/api/rounds/phh/", body, "phh-1")
        assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
        assert RoundOfPlay.objects.count() == first.json()["imported"]

    def test_the_schema_declares_the_header_on_money_posts_only(self, api, supervisor):
        api.force_authenticate(supervisor)
        schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()

        def declares(path, method):
            return any(p["name"] == "Idempotency-Key" for p in schema["paths"][path][method].get("parameters", []))

        for path in ("/api/rounds/", "/api/rounds/phh/", "/api/counts/", "/api/jackpots/{id}/display-adjustments/",
                     "/api/claims/{id}/payout/", "/api/tables/{table_id}/time-charges/",
                     "/api/jackpots/{id}/rule-changes/", "/api/late-corrections/"):
            assert declares(path, "post"), path
            responses = schema["paths"][path]["post"]["responses"]
            assert {"400", "409", "422"} <= set(responses), path
        assert not declares("/api/rounds/", "get")


def _concurrently(make_request, n=10):
    """Run `make_request()` in n threads released at once; their responses (or exceptions)."""
    barrier, results = threading.Barrier(n), [None] * n

    def run(i):
        try:
            barrier.wait()
            results[i] = make_request()
        except Exception as exc:  # noqa: BLE001 - reported by the test
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
class TestConcurrency:
    def test_ten_concurrent_identical_display_adjustments_make_one(self, casino, staff, supervisor, table):
        jackpot = table.casino.jackpots.get()
        clerk = staff(Role.ACCOUNTING)
        body = {"displayed_amount": "0.00", "supervisor_present": supervisor.pk}

        def request():
            client = APIClient()
            client.force_authenticate(clerk)
            return post(client, f"/api/jackpots/{jackpot.pk}/display-adjustments/", body, "adj-concurrent")

        results = _concurrently(request)
        statuses = sorted(getattr(r, "status_code", repr(r)) for r in results)
        assert set(statuses) <= {201, 409}, statuses
        assert 201 in statuses
        assert DisplayAdjustment.objects.count() == 1
        first = [r for r in results if r.status_code == 201]
        assert all(r.json() == first[0].json() for r in first)
        busy = [r for r in results if r.status_code == 409]
        assert all(int(r["Retry-After"]) >= 1 for r in busy)
        replay = request()  # after they have all finished: the first response, once more
        assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"

    def test_ten_concurrent_identical_rounds_make_one_round_of_play(self, casino, supervisor, table):
        def request():
            client = APIClient()
            client.force_authenticate(supervisor)
            return post(client, "/api/rounds/", round_body(table), "round-concurrent")

        results = _concurrently(request)
        statuses = sorted(getattr(r, "status_code", repr(r)) for r in results)
        assert set(statuses) <= {201, 409}, statuses
        assert money_rows() == (1, 1, 1)
