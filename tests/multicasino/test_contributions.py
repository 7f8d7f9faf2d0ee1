"""A site's contribution message as the host checks it before its pool takes it (apps.multicasino.services.
contributions.apply_peer_contribution): an authenticated casino's message whose body is not a contribution —
a negative, zero, sub-cent or non-numeric amount, a reset part outside the amount, no gaming day — changes neither
the pool nor the reset reserve, is recorded with its reason among the host's refused messages, and does not stop the
messages after it."""
from decimal import Decimal

import pytest

from apps.multicasino.models import InboxMessage, PoolEntry, RejectedMessage, Site
from apps.multicasino.services.contributions import contribution_body
from apps.multicasino.signing import canonical
from tests.multicasino.support import receive
from tests.multicasino.test_inbox import host, signed_request  # noqa: F401 - the fixture

D = Decimal
pytestmark = pytest.mark.django_db
GOOD = {"reference": "7", "amount": "1.00", "to_reset": "0.10", "gaming_day": "2026-11-22", "site_total": "1.00"}


def contribution(seq: int, body) -> tuple[dict, bytes]:
    """A contribution message numbered `seq` from borgata carrying `body`, signed."""
    text = canonical({"kind": "contribution", "sequence": seq, "system": "nj-bad-beat", "sender": "borgata",
                      "body": body})
    return signed_request(text, mid=f"msg_{seq}")


BAD = {
    "negative amount": ({**GOOD, "amount": "-5.00", "to_reset": "0.00"}, "amount: must be more than $0.00"),
    "zero amount": ({**GOOD, "amount": "0.00", "to_reset": "0.00"}, "amount: must be more than $0.00"),
    "tenth of a cent": ({**GOOD, "amount": "1.001"}, "amount: dollars and cents"),
    "not a number": ({**GOOD, "amount": "one dollar"}, "amount: dollars and cents"),
    "NaN": ({**GOOD, "amount": "NaN"}, "amount: dollars and cents"),
    "infinity": ({**GOOD, "amount": "Infinity"}, "amount: dollars and cents"),
    "a trillion": ({**GOOD, "amount": "1000000000000.00"}, "amount: dollars and cents"),
    "a float": ({**GOOD, "amount": 1.5}, "amount: dollars and cents"),
    "a boolean": ({**GOOD, "amount": True}, "amount: dollars and cents"),
    "no amount": ({k: v for k, v in GOOD.items() if k != "amount"}, "amount: dollars and cents"),
    "negative reset part": ({**GOOD, "to_reset": "-0.10"}, "to_reset: from $0.00 to the amount"),
    "reset part above the amount": ({**GOOD, "to_reset": "1.01"}, "to_reset: from $0.00 to the amount"),
    "no gaming day": ({k: v for k, v in GOOD.items() if k != "gaming_day"}, "gaming_day: a date"),
    "gaming day not a date": ({**GOOD, "gaming_day": "yesterday"}, "gaming_day: a date"),
    "gaming day a number": ({**GOOD, "gaming_day": 20261122}, "gaming_day: a date"),
    "no reference": ({k: v for k, v in GOOD.items() if k != "reference"}, "reference: 1 to 64 characters"),
    "empty reference": ({**GOOD, "reference": ""}, "reference: 1 to 64 characters"),
    "long reference": ({**GOOD, "reference": "r" * 65}, "reference: 1 to 64 characters"),
    "negative running total": ({**GOOD, "site_total": "-1.00"}, "site_total: must not be negative"),
    "running total not cents": ({**GOOD, "site_total": "1.005"}, "site_total: dollars and cents"),
    "not an object": ([GOOD], "the body is not an object"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_contribution_that_is_not_one_changes_no_pool_and_the_next_is_applied(host, case):  # noqa: F811
    system, peer = host
    body, reason = BAD[case]
    status, answer = receive(headers=contribution(1, body)[0], raw=contribution(1, body)[1])
    assert status == 200 and answer["ack"]  # received completely and in order: the sender does not send it again
    system.refresh_from_db()
    assert (system.pool, system.reset_reserve) == (D("0.00"), D("0.00")) and not PoolEntry.objects.exists()
    assert Site.objects.get(pk=peer.pk).reported_total is None  # no running total taken from it
    refused = RejectedMessage.objects.get()
    assert refused.sender == "borgata" and refused.reason.startswith(f"Contribution refused: {reason}")
    assert InboxMessage.objects.get(sequence=1).applied_at is not None

    headers, raw = contribution(2, {**GOOD, "reference": "8"})
    assert receive(headers=headers, raw=raw)[0] == 200
    system.refresh_from_db()
    assert (system.pool, system.reset_reserve) == (D("0.90"), D("0.10"))
    assert list(PoolEntry.objects.values_list("reference", "amount")) == [("8", D("1.00"))]


def test_a_contribution_in_whole_dollars_or_cents_is_applied_as_sent(host):  # noqa: F811
    system, peer = host
    for seq, body in enumerate([{**GOOD, "reference": 1, "amount": 2, "to_reset": 0, "site_total": 2},
                                {**GOOD, "reference": "2", "amount": "0.01", "to_reset": "0.01", "site_total": "2.01"},
                                {"reference": "3", "amount": "999999999997.98", "gaming_day": "2026-11-22"}], start=1):
        assert receive(headers=contribution(seq, body)[0], raw=contribution(seq, body)[1])[0] == 200
    system.refresh_from_db()
    assert (system.pool, system.reset_reserve) == (D("999999999999.98"), D("0.01"))
    assert not RejectedMessage.objects.exists()
    assert Site.objects.get(pk=peer.pk).reported_total == D("2.01")  # the last message with a running total

    # a cent more than the pool's column holds: refused, the pool as it was, and the link goes on
    headers, raw = contribution(4, {**GOOD, "reference": "4", "amount": "0.02", "to_reset": "0.00"})
    assert receive(headers=headers, raw=raw)[0] == 200
    system.refresh_from_db()
    assert system.pool == D("999999999999.98") and PoolEntry.objects.count() == 3
    assert RejectedMessage.objects.get().reason == "Contribution refused: amount: more than the pool can hold"
    headers, raw = contribution(5, {**GOOD, "reference": "5", "amount": "0.01", "to_reset": "0.00"})
    assert receive(headers=headers, raw=raw)[0] == 200
    system.refresh_from_db()
    assert system.pool == D("999999999999.99")


def test_the_checked_body_is_what_the_pool_takes():
    assert contribution_body({"reference": 12, "amount": "3.50", "gaming_day": "2026-11-22"}) == {
        "reference": "12", "amount": D("3.50"), "to_reset": D("0.00"), "gaming_day": "2026-11-22"}
    assert contribution_body(GOOD)["site_total"] == D("1.00")
