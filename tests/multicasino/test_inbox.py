"""The multi-casino system's messages (N.J.A.C. 13:69F-14.20(e)2, 3): signing and every rejection with nothing
changed, exactly-once and in-order application under duplicates and reordering, gap recovery, the outbox."""
import json
import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from apps.multicasino.models import InboxMessage, OutboxMessage, PoolEntry, RejectedMessage
from apps.multicasino.services.outbox import deliver, enqueue, pump, sweep_outbox
from apps.multicasino.services.setup import add_site, set_up_system
from apps.multicasino.signing import body_hash, canonical, sign
from tests.multicasino.support import receive

D = Decimal
pytestmark = pytest.mark.django_db
T_HEARD = datetime(2026, 11, 22, 21, 30, tzinfo=UTC)
SITE_TO_HOST = "whsec_" + "c2l0ZS10by1ob3N0LXNlY3JldC0xMjM0NTY3OA=="
OLD_SECRET = "whsec_" + "b2xkLXNpdGUtdG8taG9zdC1zZWNyZXQtMDAwMA=="
RULES = {"qualifying_hand": "four_of_a_kind", "qualifying_minimum_rank": None, "both_hole_cards_must_play": True,
         "minimum_players_dealt": 4, "contribution_amount": "1.00", "contribution_percentage": None,
         "minimum_pot": "20.00", "maximum_contribution": "1.00", "reset_percentage": "10.00",
         "losing_share": "50.00", "winning_share": "25.00", "table_share": "25.00"}


@pytest.fixture
def host():
    """This deployment is the host; site 'borgata' sends to it."""
    system = set_up_system(code="nj-bad-beat", name="NJ Bad Beat", host_name="Boardwalk Casino Hotel LLC",
                           host_address="1 Boardwalk, Atlantic City", rules=RULES)
    add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, is_self=True)
    peer = add_site(system=system, code="borgata", name="Borgata", inbox_url="http://borgata.test/inbox",
                    inbound_secrets=[SITE_TO_HOST, OLD_SECRET], outbound_secrets=["whsec_" + "aG9zdC10by1zaXRl"])
    return system, peer


def message(seq, amount="1.00", *, kind="contribution", sender="borgata", secrets=(SITE_TO_HOST,), at=None, mid=None,
            ref=None):
    text = canonical({"kind": kind, "sequence": seq, "system": "nj-bad-beat", "sender": sender,
                      "body": {"reference": str(ref or seq), "amount": amount, "gaming_day": "2026-11-22",
                               "site_total": "0.00"}})
    return signed_request(text, mid=mid or f"msg_{seq}", sender=sender, secrets=secrets, at=at)


def signed_request(text, *, mid, sender="borgata", system="nj-bad-beat", secrets=(SITE_TO_HOST,), at=None):
    """(headers, raw body) of `text` signed as a request from `sender` of `system`."""
    headers = sign(message_id=mid, text=text, secrets=list(secrets), at=at)
    headers.update({"x-pokerroom-system": system, "x-pokerroom-site": sender})
    return headers, text.encode()


def pool(system):
    system.refresh_from_db()
    return system.pool


class TestSigning:
    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_signed_message_is_applied_and_acknowledged_with_the_body_hash(self, host):
        system, _ = host
        headers, raw = message(1, "2.50")
        status, answer = receive(headers=headers, raw=raw)
        assert status == 200 and answer["ack"] == body_hash(raw)
        assert pool(system) == D("2.50")

    @pytest.mark.parametrize("case", ["tampered", "wrong_key", "stale", "future", "unknown_sender", "unsigned",
                                      "signature_without_comma", "signature_of_three_parts", "signature_not_base64"])
    @pytest.mark.proves("14.20(e)3")
    def test_14_20_e_3_rejections_change_nothing_and_are_logged(self, host, case):
        system, _ = host
        now = datetime.now(UTC)
        if case == "tampered":
            headers, raw = message(1, "1.00")
            raw = raw.replace(b'"1.00"', b'"9.00"')
        elif case == "wrong_key":
            headers, raw = message(1, secrets=("whsec_" + "d3Jvbmcta2V5LXdyb25nLWtleQ==",))
        elif case == "stale":
            headers, raw = message(1, at=now - timedelta(minutes=5, seconds=5))
        elif case == "future":
            headers, raw = message(1, at=now + timedelta(minutes=5, seconds=5))
        elif case == "unknown_sender":
            headers, raw = message(1, sender="tropicana")
        elif case == "unsigned":
            headers, raw = message(1)
            del headers["webhook-signature"]
        else:  # a header no signer writes: not "v1,<base64>" each
            headers, raw = message(1)
            headers["webhook-signature"] = {"signature_without_comma": "garbage", "signature_of_three_parts": "v1,a,b",
                                            "signature_not_base64": "v1,%%%"}[case]
        status, answer = receive(headers=headers, raw=raw)
        assert status in (400, 401) and answer["error"]
        assert pool(system) == 0 and not InboxMessage.objects.exists() and not PoolEntry.objects.exists()
        assert RejectedMessage.objects.get().body_hash == body_hash(raw)

    @pytest.mark.proves("14.20(e)3")
    def test_14_20_e_3_replayed_id_is_rejected_but_acknowledged(self, host):
        system, _ = host
        headers, raw = message(1, "3.00")
        assert receive(headers=headers, raw=raw)[0] == 200
        status, answer = receive(headers=headers, raw=raw)
        assert status == 409 and answer["ack"] == body_hash(raw)
        assert pool(system) == D("3.00") and RejectedMessage.objects.get().reason == "Repeated id"

    @pytest.mark.proves("14.20(e)2-complete")
    def test_a_new_id_on_an_old_sequence_is_refused(self, host):
        system, _ = host
        receive(headers=message(1)[0], raw=message(1)[1])
        headers, raw = message(1, "5.00", mid="msg_other")
        assert receive(headers=headers, raw=raw) == (409, {"error": "Sequence 1 already received"})
        assert pool(system) == D("1.00")

    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_a_new_id_on_a_number_held_after_a_gap_is_refused(self, host):
        """Message 3 arrives before 2 and is held; another id under number 3 is refused as a number received, and
        only the first 3 is applied once 2 comes."""
        system, _ = host
        receive(headers=message(1)[0], raw=message(1)[1])
        assert receive(headers=message(3)[0], raw=message(3)[1])[0] == 202
        headers, raw = message(3, "9.00", mid="msg_other")
        assert receive(headers=headers, raw=raw) == (409, {"error": "Sequence 3 already received"})
        assert receive(headers=message(2)[0], raw=message(2)[1])[0] == 200
        assert pool(system) == D("3.00") and InboxMessage.objects.count() == 3

    @pytest.mark.proves("14.20(e)2-complete")
    @pytest.mark.parametrize(("kind", "sequence"), [("contribution", 0), ("contribution", -1), ("contribution", "1"),
                                                    ("contribution", None), ("contribution", 1.0), ("payment", 1)])
    def test_14_20_e_2_a_message_of_no_known_kind_or_numbered_from_1_is_malformed(self, host, kind, sequence):
        system, _ = host
        headers, raw = message(sequence, kind=kind)
        assert receive(headers=headers, raw=raw) == (400, {"error": "Unknown kind or sequence"})
        assert RejectedMessage.objects.get().reason == "Unknown kind or sequence"
        assert pool(system) == 0 and not InboxMessage.objects.exists()

    @pytest.mark.proves("14.20(e)3")
    def test_rotation_without_downtime_old_and_new_secrets_both_accepted(self, host):
        """Any inbound secret of the link verifies: the old one alone, the new one beside it, the old one second in
        the link's list; a link left with no inbound secret hears no one."""
        system, peer = host
        assert receive(headers=message(1, secrets=(OLD_SECRET,))[0], raw=message(1, secrets=(OLD_SECRET,))[1])[0] == 200
        headers, raw = message(2, secrets=(SITE_TO_HOST, OLD_SECRET))
        assert receive(headers=headers, raw=raw)[0] == 200
        assert pool(system) == D("2.00")
        peer.link.inbound_secrets = []
        peer.link.save(update_fields=["inbound_secrets"])
        headers, raw = message(3, "3.00")
        assert receive(headers=headers, raw=raw) == (401, {"error": "Signature: No secret is configured for this "
                                                                    "sender"})
        assert pool(system) == D("2.00")

    @pytest.mark.proves("14.20(e)3")
    @pytest.mark.parametrize(("case", "status", "reason"), [
        ("another_system", 401, "Unknown sender"),
        ("this_casino", 401, "Unknown sender"),
        ("no_link", 401, "Unknown sender"),
        ("envelope_sender_before", 400, "Malformed body: envelope names another sender"),
        ("envelope_sender_after", 400, "Malformed body: envelope names another sender"),
        ("envelope_system_before", 400, "Malformed body: envelope names another sender"),
        ("envelope_system_after", 400, "Malformed body: envelope names another sender"),
        ("not_json", 400, "Malformed body: "),
        ("no_kind", 400, "Malformed body: 'kind'"),
        ("no_body", 400, "Malformed body: 'body'"),
    ])
    def test_14_20_e_3_only_a_peer_of_the_named_system_signing_as_itself_is_heard(self, host, case, status, reason):
        """A request is heard only from a casino of the system its headers name, other than this one, with a link
        here, whose signed envelope names that system and that sender and holds a kind and a body. Each other request
        is refused and logged with its sender and id, and changes nothing."""
        from apps.multicasino.models import Site

        system, _ = host
        sender, header_system = "borgata", "nj-bad-beat"
        envelope = {"kind": "contribution", "sequence": 1, "system": "nj-bad-beat", "sender": "borgata",
                    "body": {"reference": "1", "amount": "1.00", "gaming_day": "2026-11-22"}}
        if case == "another_system":
            header_system = "pa-bad-beat"
        elif case == "this_casino":
            sender = envelope["sender"] = "boardwalk"
        elif case == "no_link":  # a casino known from the host's notices only
            Site.objects.create(system=system, code="tropicana", name="Tropicana")
            sender = envelope["sender"] = "tropicana"
        elif case.startswith("envelope_"):  # a peer's own key, signing as another casino or for another system
            field, _, order = case.removeprefix("envelope_").partition("_")
            envelope[field] = {("sender", "before"): "boardwalk", ("sender", "after"): "tropicana",
                               ("system", "before"): "de-bad-beat", ("system", "after"): "pa-bad-beat"}[field, order]
        elif case in ("no_kind", "no_body"):
            del envelope[case.removeprefix("no_")]
        text = "not json {" if case == "not_json" else canonical(envelope)
        headers, raw = signed_request(text, mid="msg_x", sender=sender, system=header_system)
        got_status, answer = receive(headers=headers, raw=raw)
        assert got_status == status and answer["error"].startswith(reason) and "ack" not in answer
        rejected = RejectedMessage.objects.get()
        assert (rejected.sender, rejected.message_id, rejected.reason) == (sender, "msg_x", answer["error"])
        assert pool(system) == 0 and not InboxMessage.objects.exists() and not PoolEntry.objects.exists()

    @pytest.mark.proves("14.20(e)3", "14.20(e)2-complete")
    def test_14_20_e_3_a_refusal_is_logged_with_the_sender_and_id_cut_to_their_columns(self, host):
        """A stranger's request with a sender of 45 characters and an id of 70: refused and logged with the first 40
        and the first 64 (the columns' sizes)."""
        headers, raw = message(1)
        headers.update({"x-pokerroom-site": "s" * 45, "webhook-id": "i" * 70})
        assert receive(headers=headers, raw=raw) == (401, {"error": "Unknown sender"})
        rejected = RejectedMessage.objects.get()
        assert (rejected.sender, rejected.message_id, rejected.body_hash) == ("s" * 40, "i" * 64, body_hash(raw))

    @pytest.mark.proves("14.20(e)3")
    def test_14_20_e_3_a_heartbeat_sent_again_is_refused_as_a_replay(self, host):
        """An unsequenced heartbeat, validly signed, heard once: the same request again is refused (409) and logged,
        though its signature is still within its five minutes."""
        system, peer = host
        text = canonical({"kind": "heartbeat", "sequence": None, "system": "nj-bad-beat", "sender": "borgata",
                          "body": {"rules_hash": system.rules_hash, "pool": "0.00"}})
        headers, raw = signed_request(text, mid="hb_once")
        assert receive(headers=headers, raw=raw) == (200, {"ack": body_hash(text)})
        assert receive(headers=headers, raw=raw) == (409, {"error": "Repeated id"})
        rejected = RejectedMessage.objects.get()
        assert (rejected.sender, rejected.message_id, rejected.reason) == ("borgata", "hb_once", "Repeated id")


    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_a_heartbeat_is_heard_and_acknowledged_not_taken_for_a_batch(self, host):
        """An unsequenced heartbeat is acknowledged with its body's hash and heard (the peer's last word), neither
        stored as a message of the sequence nor refused as a malformed batch."""
        system, peer = host
        text = canonical({"kind": "heartbeat", "sequence": None, "system": "nj-bad-beat", "sender": "borgata",
                          "body": {"rules_hash": system.rules_hash, "pool": "0.00"}})
        headers, raw = signed_request(text, mid="hb_heard")
        assert receive(headers=headers, raw=raw, now=T_HEARD) == (200, {"ack": body_hash(text)})
        peer.refresh_from_db()
        assert peer.last_heard_at == T_HEARD
        assert not InboxMessage.objects.exists() and not RejectedMessage.objects.exists()


class TestOrdering:
    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_exactly_once_in_order_under_duplicates_and_reordering(self, host):
        system, peer = host
        rng = random.Random(2026)
        messages = [message(seq, f"{seq}.{seq % 100:02d}") for seq in range(1, 61)]
        deliveries = messages + rng.sample(messages, 30)  # 30 duplicates
        rng.shuffle(deliveries)
        for headers, raw in deliveries:
            assert receive(headers=headers, raw=raw)[0] in (200, 202, 409)
        expected = sum(D(f"{seq}.{seq % 100:02d}") for seq in range(1, 61))
        assert pool(system) == expected
        applied = list(InboxMessage.objects.order_by("applied_at", "sequence").values_list("sequence", flat=True))
        assert applied == list(range(1, 61))
        peer.link.refresh_from_db()
        assert peer.link.next_in_sequence == 61 and PoolEntry.objects.count() == 60

    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_a_gap_asks_the_sender_to_resend(self, host):
        system, _ = host
        assert receive(headers=message(1)[0], raw=message(1)[1])[0] == 200
        status, answer = receive(headers=message(3)[0], raw=message(3)[1])
        assert status == 202 and answer["resend_from"] == 2
        assert pool(system) == D("1.00")  # 3 is kept, not applied before 2
        assert receive(headers=message(2)[0], raw=message(2)[1]) == (200, {"ack": body_hash(message(2)[1])})
        assert pool(system) == D("3.00")


@pytest.fixture
def site(settings):
    """This deployment is a site; the host's inbox is reached through a recording fake transport."""
    sent = []

    def transport(url, text, headers):
        sent.append((url, text, headers))
        return transport.answer(text)

    transport.answer = lambda text: (200, {"ack": body_hash(text)})
    settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_inbox.TRANSPORT"
    globals()["TRANSPORT"] = transport
    system = set_up_system(code="nj-bad-beat", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC",
                           rules=RULES)
    add_site(system=system, code="borgata", name="Borgata", is_self=True)
    host = add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, inbox_url="http://host.test/in",
                    outbound_secrets=[SITE_TO_HOST], inbound_secrets=[SITE_TO_HOST])
    return system, host, transport, sent


class TestOutbox:
    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_messages_are_numbered_per_link_in_order_and_each_link_sent_once(
            self, host, monkeypatch, django_capture_on_commit_callbacks):
        """At the host, messages to two casinos written together: each link numbers its own in the order given,
        from where it stood, and gets one sending task on commit, on the quick queue when one of its messages is
        a claim, a notice, a payout or rules; nothing written, nothing sent."""
        from apps.multicasino.services import outbox

        system, borgata = host
        tropicana = add_site(system=system, code="tropicana", name="Tropicana", inbox_url="http://tropicana.test/",
                             inbound_secrets=[OLD_SECRET], outbound_secrets=[OLD_SECRET])
        sent = []
        monkeypatch.setattr(outbox, "send_later", lambda pk, urgent=False: sent.append((pk, urgent)))
        a, b = borgata.link, tropicana.link
        with django_capture_on_commit_callbacks(execute=True):
            assert outbox.enqueue_many(messages=[]) == []
            first = outbox.enqueue(link=a, kind="contribution", body={"n": 0})
        with django_capture_on_commit_callbacks(execute=True):
            rows = outbox.enqueue_many(messages=[(a, "contribution", {"n": 1}), (b, "notice", {"n": 2}),
                                                 (a, "contribution", {"n": 3}), (b, "contribution", {"n": 4})])
        assert [(r.link_id, r.sequence, r.body["n"]) for r in rows] == [(a.pk, 2, 1), (b.pk, 1, 2), (a.pk, 3, 3),
                                                                         (b.pk, 2, 4)]
        assert sent == [(first.pk, False), (rows[0].pk, False), (rows[1].pk, True)]
        a.refresh_from_db()
        b.refresh_from_db()
        assert (a.next_out_sequence, b.next_out_sequence) == (4, 3)
        assert len({r.message_id for r in [first, *rows]}) == 5 and OutboxMessage.objects.count() == 5

    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_message_written_with_the_change_and_sent_on_commit(self, site,
                                                                           django_capture_on_commit_callbacks):
        system, host, transport, sent = site
        with django_capture_on_commit_callbacks(execute=True):
            message_row = enqueue(link=host.link, kind="contribution",
                                  body={"reference": "7", "amount": "1.00", "gaming_day": "2026-11-22"})
        message_row.refresh_from_db()
        assert message_row.sequence == 1 and message_row.acked_at is not None
        url, text, headers = sent[0]
        assert url == "http://host.test/in" and message_row.ack_body_hash == body_hash(text)
        assert headers["webhook-id"] == message_row.message_id and headers["x-pokerroom-site"] == "borgata"

    @pytest.mark.proves("14.20(e)2-complete")
    def test_rolled_back_change_leaves_no_message(self, site):
        from django.db import transaction
        _, host, _, sent = site
        with pytest.raises(RuntimeError), transaction.atomic():
            enqueue(link=host.link, kind="contribution", body={"reference": "1", "amount": "1", "gaming_day": "x"})
            raise RuntimeError
        assert not OutboxMessage.objects.exists() and sent == []

    @pytest.mark.proves("14.20(e)2-complete")
    def test_failures_back_off_and_the_sweeper_retries(self, site):
        _, host, transport, sent = site
        message_row = OutboxMessage.objects.create(link=host.link, sequence=1, message_id="msg_x", kind="contribution",
                                                   body={}, next_attempt_at=timezone.now())

        def down(text):
            raise ConnectionError("host unreachable")

        transport.answer = down
        now = timezone.now()
        assert deliver(message_pk=message_row.pk, now=now) is False
        assert deliver(message_pk=message_row.pk, now=now) is False
        message_row.refresh_from_db()
        assert message_row.attempts == 2 and "unreachable" in message_row.last_error
        assert message_row.next_attempt_at == now + timedelta(seconds=4)
        transport.answer = lambda text: (200, {"ack": body_hash(text)})
        assert sweep_outbox(now=now + timedelta(seconds=1)) == 0  # not due yet
        assert sweep_outbox(now=now + timedelta(seconds=5)) == 1

    @pytest.mark.proves("14.20(e)2-complete")
    @pytest.mark.parametrize(("kind", "delays", "retried"), [
        ("contribution", [2, 4, 8, 16, 30, 30], False),  # the sweeper's backoff, 2 s doubling to 30 s
        ("claim", [0.5, 1, 2, 4, 4, 4], True),  # what a display waits for: 0.5 s doubling to 4 s, a task of its own
    ])
    def test_14_20_e_2_each_failed_send_backs_off_longer_up_to_its_cap(self, site, settings, monkeypatch, kind,
                                                                       delays, retried):
        """A message the peer did not acknowledge is kept, with each attempt and its error, and tried again after a
        longer wait each time; a try the pump is about to repeat at once (`quiet`) counts, leaves the wait as it
        was and queues nothing."""
        from apps.multicasino.services import outbox

        _, host, transport, _ = site
        queued = []
        monkeypatch.setattr(outbox, "send_later", lambda pk, **options: queued.append((pk, options)))
        settings.CELERY_TASK_ALWAYS_EAGER = False
        start = timezone.now()
        row = OutboxMessage.objects.create(link=host.link, sequence=1, message_id="msg_z", kind=kind, body={},
                                           next_attempt_at=start)
        transport.answer = lambda text: (503, {"error": "busy"})
        for attempt, delay in enumerate(delays, start=1):
            now = start + timedelta(minutes=attempt)
            assert deliver(message_pk=row.pk, now=now) is False
            row.refresh_from_db()
            assert (row.attempts, row.last_error) == (attempt, "HTTP 503: busy")
            assert row.next_attempt_at == now + timedelta(seconds=delay)
            assert queued.pop() == (row.pk, {"urgent": True, "countdown": delay}) if retried else not queued
        assert deliver(message_pk=row.pk, now=start + timedelta(hours=1), quiet=True) is False
        waited = row.next_attempt_at
        row.refresh_from_db()
        assert (row.attempts, row.next_attempt_at, queued) == (len(delays) + 1, waited, [])

    @pytest.mark.proves("14.20(e)2-complete")
    def test_an_acknowledgement_of_another_body_is_not_an_acknowledgement(self, site):
        _, host, transport, _ = site
        message_row = OutboxMessage.objects.create(link=host.link, sequence=1, message_id="msg_y", kind="contribution",
                                                   body={}, next_attempt_at=timezone.now())
        transport.answer = lambda text: (200, {"ack": "0" * 64})
        assert deliver(message_pk=message_row.pk) is False

    @pytest.mark.proves("14.20(e)2-complete")
    def test_resend_from_makes_the_missing_messages_due(self, site):
        _, host, transport, _ = site
        later = timezone.now() + timedelta(minutes=10)
        rows = [OutboxMessage.objects.create(link=host.link, sequence=n, message_id=f"msg_{n}", kind="contribution",
                                             body={}, next_attempt_at=later) for n in (1, 2, 3)]
        transport.answer = lambda text: (202, {"ack": body_hash(text), "resend_from": 2})
        with time_machine.travel(timezone.now()):
            deliver(message_pk=rows[2].pk)
            rows[1].refresh_from_db()
            assert rows[1].next_attempt_at <= timezone.now()


def batch(seqs, *, mid="batch_1", secrets=(SITE_TO_HOST,), ids=None):
    items = [{"id": (ids or {}).get(seq, f"msg_{seq}"), "sequence": seq, "kind": "contribution",
              "body": {"reference": str(seq), "amount": f"{seq}.00", "gaming_day": "2026-11-22"}} for seq in seqs]
    text = canonical({"kind": "batch", "sequence": None, "system": "nj-bad-beat", "sender": "borgata",
                      "body": {"messages": items}})
    headers, raw = signed_request(text, mid=mid, secrets=secrets)
    return headers, raw, items


class TestBatches:
    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_batch_items_are_stored_once_applied_in_order_and_acknowledged_each(self, host):
        system, _ = host
        headers, raw, items = batch([1, 2, 4, 5])
        status, answer = receive(headers=headers, raw=raw)
        assert status == 202 and answer["resend_from"] == 3 and answer["ack"] == body_hash(raw)
        assert answer["acks"] == {i["id"]: body_hash(canonical(i)) for i in items}
        assert pool(system) == D("3.00")  # 4 and 5 wait for 3
        headers, raw, items = batch([3, 4], mid="batch_2")  # 4 again, as a lost answer makes the sender do
        status, answer = receive(headers=headers, raw=raw)
        assert status == 200 and set(answer["acks"]) == {"msg_3", "msg_4"}
        assert pool(system) == D("15.00") and PoolEntry.objects.count() == 5

    @pytest.mark.proves("14.20(e)3")
    def test_14_20_e_3_replayed_or_tampered_batch_changes_nothing(self, host):
        system, _ = host
        headers, raw, _ = batch([1, 2])
        assert receive(headers=headers, raw=raw)[0] == 200
        assert receive(headers=headers, raw=raw)[0] == 409  # the same signed request again
        headers, raw, _ = batch([3], mid="batch_3")
        assert receive(headers=headers, raw=raw.replace(b'"3.00"', b'"300.00"'))[0] == 401
        assert pool(system) == D("3.00")

    @pytest.mark.proves("14.20(e)2-complete")
    @pytest.mark.parametrize(("body", "error"), [
        ({"nothing": []}, "'messages'"),  # no list of messages
        ({"messages": "x"}, "string indices must be integers"),  # not a list of objects
        ({"messages": [{"id": "m", "sequence": 1, "kind": "contribution"}]}, "'body'"),
        ({"messages": [{"id": "m", "sequence": 1, "kind": "payment", "body": {}}]}, "unknown kind or sequence"),
        ({"messages": [{"id": "m", "sequence": 1, "kind": "heartbeat", "body": {}}]}, "unknown kind or sequence"),
        ({"messages": [{"id": "m", "sequence": 1, "kind": "batch", "body": {}}]}, "unknown kind or sequence"),
        ({"messages": [{"id": "m", "sequence": 0, "kind": "contribution", "body": {}}]}, "unknown kind or sequence"),
        ({"messages": [{"id": "m", "sequence": 2.0, "kind": "contribution", "body": {}}]},
         "unknown kind or sequence"),
        ({"messages": [{"id": "m", "sequence": "2", "kind": "contribution", "body": {}}]},
         "unknown kind or sequence"),
    ])
    def test_14_20_e_2_a_batch_not_of_numbered_messages_of_known_kinds_is_malformed(self, host, body, error):
        system, _ = host
        text = canonical({"kind": "batch", "sequence": None, "system": "nj-bad-beat", "sender": "borgata",
                          "body": body})
        headers, raw = signed_request(text, mid="batch_bad")
        status, answer = receive(headers=headers, raw=raw)
        assert status == 400 and answer["error"].startswith("Malformed batch: ") and error in answer["error"]
        assert pool(system) == 0 and not InboxMessage.objects.exists()

    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_a_batch_repeating_its_first_messages_stores_and_applies_the_rest(self, host):
        """A lost answer: the sender sends 1 and 2 again with 3; 1 and 2 are acknowledged with their first receipt's
        hashes, 3 is stored and applied."""
        system, _ = host
        headers, raw, first = batch([1, 2])
        assert receive(headers=headers, raw=raw)[0] == 200
        headers, raw, items = batch([1, 2, 3], mid="batch_2")
        status, answer = receive(headers=headers, raw=raw)
        assert status == 200 and answer["acks"] == {i["id"]: body_hash(canonical(i)) for i in items}
        assert pool(system) == D("6.00") and InboxMessage.objects.count() == 3

    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_another_id_under_a_number_held_after_a_gap_is_not_acknowledged(self, host):
        system, _ = host
        headers, raw, _ = batch([3])
        assert receive(headers=headers, raw=raw)[0] == 202  # held: 1 and 2 are missing
        headers, raw, _ = batch([3, 4], mid="batch_2", ids={3: "msg_other"})
        status, answer = receive(headers=headers, raw=raw)
        assert status == 202 and set(answer["acks"]) == {"msg_4"}
        assert sorted(InboxMessage.objects.values_list("message_id", "sequence")) == [("msg_3", 3), ("msg_4", 4)]

    @pytest.mark.proves("14.20(e)2-complete")
    def test_another_id_under_a_number_already_received_is_not_acknowledged(self, host):
        system, _ = host
        first_headers, first_raw, _ = batch([1])
        receive(headers=first_headers, raw=first_raw)
        headers, raw, _ = batch([1, 2], mid="batch_9", ids={1: "msg_other"})
        status, answer = receive(headers=headers, raw=raw)
        assert "msg_other" not in answer["acks"] and "msg_2" in answer["acks"]
        assert pool(system) == D("3.00")

    @pytest.mark.proves("14.20(e)2-complete")
    def test_the_pump_sends_consecutive_messages_together_and_marks_each_acknowledgement(self, site):
        system, host, transport, sent = site

        def host_answer(text):  # the host acknowledges all but the last of a batch; a single message alone
            envelope = json.loads(text)
            if envelope["kind"] != "batch":
                return 200, {"ack": body_hash(text)}
            items = envelope["body"]["messages"]
            return 200, {"ack": body_hash(text), "acks": {i["id"]: body_hash(canonical(i)) for i in items[:-1]}}

        transport.answer = host_answer
        rows = [enqueue(link=host.link, kind="contribution", body={"n": n}) for n in range(5)]
        assert pump(link_pk=host.link.pk) == 5  # four acknowledged together, then the last on its own
        assert len(sent) == 2 and '"kind":"batch"' in sent[0][1]
        for row in rows[:4]:
            row.refresh_from_db()
            assert row.ack_body_hash == body_hash(canonical({"id": row.message_id, "sequence": row.sequence,
                                                             "kind": "contribution", "body": row.body}))

    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_a_batch_acknowledged_as_another_body_is_acknowledged_none_of_it(self, site):
        """The host answers a batch with the hash of a body it was not sent (all zeros or all f's, below or above any
        real hash): none of
        the batch's messages counts as received, though the answer names each with its own hash. Answered 202 (held
        behind a gap) with the batch's own hash, each message it names is acknowledged."""
        from apps.multicasino.services.outbox import deliver_batch

        _, host, transport, sent = site
        start = timezone.now()
        for n in (1, 2):
            OutboxMessage.objects.create(link=host.link, sequence=n, message_id=f"msg_{n}", kind="contribution",
                                         body={"n": n}, next_attempt_at=start)

        for wrong in ("0" * 64, "f" * 64):  # below and above any real hash
            def another_body(text, wrong=wrong):
                items = json.loads(text)["body"]["messages"]
                return 200, {"ack": wrong, "acks": {i["id"]: body_hash(canonical(i)) for i in items}}

            transport.answer = another_body
            assert deliver_batch(link_pk=host.link.pk, now=start) == 0
            assert not OutboxMessage.objects.filter(acked_at__isnull=False).exists()
        assert len(sent) == 2

        def held_after_a_gap(text):  # 202: the host stored the batch, the first message acknowledged, the second not
            items = json.loads(text)["body"]["messages"]
            return 202, {"ack": body_hash(text), "acks": {items[0]["id"]: body_hash(canonical(items[0]))},
                         "resend_from": 1}

        transport.answer = held_after_a_gap
        assert deliver_batch(link_pk=host.link.pk, now=start) == 1 and len(sent) == 3
        assert list(OutboxMessage.objects.filter(acked_at__isnull=False).values_list("message_id", flat=True)) == [
            "msg_1"]

    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_a_failed_batch_is_recorded_on_its_lowest_message_and_a_later_one_counts_each_try(self, site):
        """Nothing to send sends nothing. Three messages in one batch: the host unreachable, then answering an error
        of 400 characters — each failure is kept on the lowest message only (the error cut to 300), the others wait
        behind it untouched; once the host acknowledges them, each counts the tries it took."""
        from apps.multicasino.services.outbox import deliver_batch

        _, host, transport, sent = site
        start = timezone.now()
        assert deliver_batch(link_pk=host.link.pk, now=start) == 0 and sent == []  # nothing to send: nothing sent
        rows = [OutboxMessage.objects.create(link=host.link, sequence=n, message_id=f"msg_{n}", kind="contribution",
                                             body={"n": n}, next_attempt_at=start) for n in (1, 2, 3)]

        def down(text):
            raise ConnectionError("host unreachable")

        transport.answer = down
        assert deliver_batch(link_pk=host.link.pk, now=start) == 0
        transport.answer = lambda text: (500, {"error": "E" * 400})
        assert deliver_batch(link_pk=host.link.pk, now=start + timedelta(seconds=5)) == 0
        lowest, *others = [OutboxMessage.objects.get(pk=r.pk) for r in rows]
        assert (lowest.attempts, lowest.last_error) == (2, ("HTTP 500: " + "E" * 400)[:300])
        assert [(o.attempts, o.last_error, o.acked_at) for o in others] == [(0, "", None), (0, "", None)]
        first_error = OutboxMessage.objects.get(pk=rows[0].pk)
        transport.answer = down
        deliver_batch(link_pk=host.link.pk, now=start + timedelta(seconds=10))
        first_error.refresh_from_db()
        assert first_error.last_error == "HTTP 0: ConnectionError: host unreachable"

        def host_answer(text):
            items = json.loads(text)["body"]["messages"]
            return 200, {"ack": body_hash(text), "acks": {i["id"]: body_hash(canonical(i)) for i in items}}

        transport.answer = host_answer
        later = start + timedelta(minutes=1)
        assert deliver_batch(link_pk=host.link.pk, now=later) == 3
        tries = {r.sequence: (r.attempts, r.acked_at, r.last_error) for r in OutboxMessage.objects.all()}
        assert tries == {1: (4, later, ""), 2: (1, later, ""), 3: (1, later, "")}
