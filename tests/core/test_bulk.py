"""apps.core.bulk.save_fields: what save(update_fields=...) writes, in one UPDATE the ORM does not build."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.badbeat.models import Jackpot
from apps.casinos.models import User
from apps.core.bulk import save_fields
from apps.core.models import IdempotencyKey
from tests.factories import CasinoFactory, JackpotFactory

pytestmark = pytest.mark.django_db


def test_the_fields_named_and_auto_now_are_written_and_nothing_else():
    jackpot = JackpotFactory(casino=CasinoFactory(code="one"))
    before = Jackpot.objects.get(pk=jackpot.pk).updated_at
    jackpot.balance, jackpot.reset_reserve, jackpot.contributions_total = \
        Decimal("1234.56"), Decimal("7.89"), Decimal("1242.45")
    jackpot.name = "not saved"
    with CaptureQueriesContext(connection) as queries:
        save_fields(jackpot, ["balance", "reset_reserve", "contributions_total", "updated_at"])
    assert [q["sql"].count("UPDATE ") for q in queries.captured_queries] == [1]
    stored = Jackpot.objects.get(pk=jackpot.pk)
    assert (stored.balance, stored.reset_reserve, stored.contributions_total) == \
        (Decimal("1234.56"), Decimal("7.89"), Decimal("1242.45"))
    assert stored.name != "not saved"
    assert stored.updated_at == jackpot.updated_at > before  # auto_now: set on the instance as save() sets it


def test_json_and_times_as_save_adapts_them():
    user = User.objects.create(username="someone", casino=CasinoFactory(code="one"))
    record = IdempotencyKey.objects.create(user=user, key="k", method="POST", path="/api/rounds/", fingerprint="f",
                                           expires_at=timezone.now() + timedelta(hours=24))
    record.completed_at = timezone.now()
    record.response_status = 201
    record.response_data = {"id": 7, "pot_total": "100.00", "players": [{"seat": 1}], "note": "ünïcode"}
    record.response_headers = {"Location": "/api/rounds/7/"}
    save_fields(record, ["completed_at", "response_status", "response_data", "response_headers"])
    stored = IdempotencyKey.objects.get(pk=record.pk)
    assert stored.completed_at == record.completed_at
    assert (stored.response_status, stored.response_data, stored.response_headers) == \
        (201, record.response_data, record.response_headers)


def test_a_broken_constraint_raises_and_writes_nothing():
    jackpot = JackpotFactory(casino=CasinoFactory(code="one"))
    balance = Jackpot.objects.get(pk=jackpot.pk).balance
    jackpot.balance = Decimal("-1.00")
    with pytest.raises(IntegrityError), transaction.atomic():
        save_fields(jackpot, ["balance"])
    assert Jackpot.objects.get(pk=jackpot.pk).balance == balance
