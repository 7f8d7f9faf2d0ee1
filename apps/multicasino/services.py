"""Writes of the multi-casino bad beat system (N.J.A.C. 13:69F-14.20): the agreement's rules and their hash,
the outbox (written with the change it reports, sent on commit, swept with backoff), the inbox (verified,
stored once, applied once and in order, gaps asked for again), heartbeats and suspension.
"""
from __future__ import annotations

import hashlib
import json
import logging
import time
import uuid
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, models, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.module_loading import import_string

from apps.badbeat import services as badbeat
from apps.badbeat.models import Claim, Contribution
from apps.casinos.models import User
from apps.core.exceptions import DomainError
from apps.core.money import CENT, ZERO, floor_to, money

from .models import (
    BadBeatSystem,
    InboxMessage,
    Link,
    MessageKind,
    Notice,
    NoticeKind,
    OutboxMessage,
    PoolEntry,
    PoolMovement,
    PoolMovementKind,
    RejectedMessage,
    RuleApproval,
    RuleChangeStatus,
    Site,
    SystemClaim,
    SystemClaimStatus,
    SystemRuleChange,
    SystemStatus,
    TwoClaimsRule,
    UndeliveredNotice,
)
from .signing import WebhookVerificationError, body_hash, canonical, sign, verify

log = logging.getLogger(__name__)

#: The rule fields every participating casino must hold identically (14.20(a), (c)1).
RULE_KEYS = ("qualifying_hand", "qualifying_minimum_rank", "both_hole_cards_must_play", "minimum_players_dealt",
             "contribution_amount", "contribution_percentage", "minimum_pot", "maximum_contribution",
             "reset_percentage", "losing_share", "winning_share", "table_share")


def rules_hash(*, rules: dict, two_claims_rule: str, contributions_while_suspended: bool) -> str:
    """SHA-256 of the system's one rule set in canonical JSON: equal at every casino, or the casino is suspended."""
    text = canonical({"rules": rules, "two_claims_rule": two_claims_rule,
                      "contributions_while_suspended": contributions_while_suspended})
    return hashlib.sha256(text.encode()).hexdigest()


def _check_rule_keys(rules: dict) -> None:
    """Every rule of the system and nothing else (14.20(a), (c)1). Raises DomainError: a missing rule names
    `rules`, an unknown one names itself."""
    missing = [k for k in RULE_KEYS if k not in rules]
    if missing:
        raise DomainError(f"Rules missing: {', '.join(missing)}.", field="rules")
    unknown = sorted(set(rules) - set(RULE_KEYS))
    if unknown:
        raise DomainError(f"Not a rule of the system: {', '.join(unknown)}.", field=unknown[0])


@transaction.atomic
def set_up_system(*, code: str, name: str, host_name: str, host_address: str, rules: dict,
                  two_claims_rule: str = TwoClaimsRule.FIRST_RECEIVED, contributions_while_suspended: bool = False,
                  jackpot=None, funds_and_fees: str = "", records_kept_by: str = "") -> BadBeatSystem:
    """Record the bad beat system agreement (14.20(b), (c)) with its one rule set and that set's hash.
    Raises DomainError for a rule set missing a required rule or with an unknown one (`_check_rule_keys`)."""
    _check_rule_keys(rules)
    if two_claims_rule not in TwoClaimsRule.values:
        raise DomainError(f"Choose one of {', '.join(TwoClaimsRule.values)}.", field="two_claims_rule")
    system, _ = BadBeatSystem.objects.update_or_create(code=code, defaults={
        "name": name, "host_name": host_name, "host_address": host_address, "rules": rules,
        "two_claims_rule": two_claims_rule, "contributions_while_suspended": contributions_while_suspended,
        "jackpot": jackpot, "funds_and_fees": funds_and_fees, "records_kept_by": records_kept_by,
        "rules_hash": rules_hash(rules=rules, two_claims_rule=two_claims_rule,
                                 contributions_while_suspended=contributions_while_suspended)})
    return system


def add_site(*, system: BadBeatSystem, code: str, name: str, address: str = "", is_host: bool = False,
             is_self: bool = False, inbox_url: str = "", outbound_secrets: list[str] | None = None,
             inbound_secrets: list[str] | None = None) -> Site:
    """Add a participating casino; a peer (not this deployment) gets a link with its secrets."""
    site, _ = Site.objects.update_or_create(system=system, code=code, defaults={
        "name": name, "address": address, "is_host": is_host, "is_self": is_self, "inbox_url": inbox_url})
    if not is_self:
        Link.objects.update_or_create(peer=site, defaults={"outbound_secrets": outbound_secrets or [],
                                                           "inbound_secrets": inbound_secrets or []})
    return site


def self_site(system: BadBeatSystem) -> Site | None:
    return system.sites.filter(is_self=True).first()


def host_site(system: BadBeatSystem) -> Site | None:
    return system.sites.filter(is_host=True).first()


def linked_peers(system: BadBeatSystem):
    """The other casinos this deployment exchanges messages with (a site links with the host only; it learns of
    the other participants from the host's heartbeats)."""
    return system.sites.filter(is_self=False, link__isnull=False).select_related("link")


# --- outbox ------------------------------------------------------------------------------------------------------

def enqueue(*, link: Link, kind: str, body: dict) -> OutboxMessage:
    """Write a message to a peer in the current transaction, under the link's row lock (its sequence number is
    the next of the link), and send it once the transaction commits (14.20(e)2)."""
    link = Link.objects.select_for_update().get(pk=link.pk)
    message = OutboxMessage.objects.create(link=link, sequence=link.next_out_sequence, kind=kind, body=body,
                                           message_id=f"msg_{uuid.uuid4().hex}", next_attempt_at=timezone.now())
    link.next_out_sequence += 1
    link.save(update_fields=["next_out_sequence"])
    transaction.on_commit(lambda: _send_later(message.pk, urgent=kind in URGENT_KINDS))
    return message


#: Messages a display or a player waits for: retried within seconds rather than by the sweeper's backoff.
URGENT_KINDS = frozenset({MessageKind.CLAIM, MessageKind.NOTICE, MessageKind.PAYOUT, MessageKind.RULES})


def _send_later(message_pk: int, *, urgent: bool = False, countdown: float = 0) -> None:
    """Queue the sending task: claims, notices and payouts on the link queue (settings.MULTICASINO_LINK_QUEUE),
    which heartbeats share and a worker of its own serves, so they never wait behind a backlog of contributions."""
    from .tasks import send_message

    options = {"queue": settings.MULTICASINO_LINK_QUEUE} if urgent else {}
    send_message.apply_async((message_pk,), countdown=countdown or None, **options)


def _transport():
    return import_string(getattr(settings, "MULTICASINO_TRANSPORT", "apps.multicasino.transport.http_post"))


def _post(*, link: Link, me: Site, message_id: str, text: str, now: datetime) -> tuple[int, dict]:
    """Sign `text` with the link's outbound secrets (Standard Webhooks) and POST it to the peer's inbox;
    (HTTP status, JSON answer). Raises whatever the transport raises when the peer is unreachable."""
    headers = {**sign(message_id=message_id, text=text, secrets=link.outbound_secrets, at=now),
               "x-pokerroom-system": me.system.code, "x-pokerroom-site": me.code}
    return _transport()(link.peer.inbox_url, text, headers)


def _record_failure(*, message: OutboxMessage, error: str, now: datetime, quiet: bool) -> None:
    """A send failed: the attempt and its error are kept on the message; unless the pump is about to try again
    at once (`quiet`), it backs off — 2 s doubling to 30 s, or for what a display waits for 0.5 s doubling to 4 s,
    retried by a task of its own."""
    attempts = message.attempts + 1
    if quiet:
        OutboxMessage.objects.filter(pk=message.pk).update(attempts=attempts, last_error=error)
        return
    urgent = message.kind in URGENT_KINDS
    delay = min(0.25 * 2 ** attempts, 4) if urgent else min(2 ** attempts, 30)
    OutboxMessage.objects.filter(pk=message.pk).update(attempts=attempts, last_error=error,
                                                       next_attempt_at=now + timedelta(seconds=delay))
    if urgent and not getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        _send_later(message.pk, urgent=True, countdown=delay)


def deliver(*, message_pk: int, now: datetime | None = None, quiet: bool = False) -> bool:
    """Send one outbox message if it is unacknowledged; True once it is acknowledged. A failure is recorded
    with its backoff (`_record_failure`). An answer asking to resend from an earlier number makes that message
    due at once (gap recovery)."""
    now = now or timezone.now()
    message = OutboxMessage.objects.select_related("link__peer__system").filter(pk=message_pk).first()
    if message is None or message.acked_at is not None:
        return message is not None
    link = message.link
    me = self_site(link.peer.system)
    text = canonical({"kind": message.kind, "sequence": message.sequence, "system": me.system.code,
                      "sender": me.code, "body": message.body})
    try:
        status, answer = _post(link=link, me=me, message_id=message.message_id, text=text, now=now)
        error = "" if status in (200, 202, 409) and answer.get("ack") == body_hash(text) else \
            f"HTTP {status}: {answer.get('error') or answer}"[:300]
    except Exception as exc:  # noqa: BLE001 - any transport failure is retried
        answer, error = {}, f"{type(exc).__name__}: {exc}"[:300]
    if error:
        _record_failure(message=message, error=error, now=now, quiet=quiet)
        return False
    OutboxMessage.objects.filter(pk=message.pk).update(acked_at=now, ack_body_hash=answer["ack"],
                                                       attempts=message.attempts + 1, last_error="")
    if answer.get("resend_from"):  # the receiver misses an earlier one: it is due now, and the pump goes on from it
        OutboxMessage.objects.filter(link=link, acked_at__isnull=True,
                                     sequence=int(answer["resend_from"])).update(next_attempt_at=now)
    return True


def pump(*, link_pk: int, now: datetime | None = None, budget_seconds: float = 20.0) -> int:
    """Send a link's unacknowledged messages in sequence order, one sender per link at a time (a lock in the
    cache, so that neither duplicates nor lock contention arise between workers): the lowest is sent if it is
    due, then each next one while the peer answers. A message that fails is tried again at once up to
    QUICK_TRIES times (a lost packet on a live link must not stall it); then it keeps its backoff and the pump
    stops. A message written while the lock was held is picked up before returning. Returns how many were
    acknowledged; 0 when another worker is sending on the link."""
    key = f"multicasino:pump:{link_pk}"
    acknowledged, started = 0, time.monotonic()
    while cache.add(key, 1, timeout=int(budget_seconds) + 30):
        try:
            progressed = _pump_locked(link_pk=link_pk, now=now, started=started, budget_seconds=budget_seconds)
            acknowledged += progressed
        finally:
            cache.delete(key)
        # a new message whose own task found the lock taken is sent now, not at the next sweep
        if not progressed or not OutboxMessage.objects.filter(link_id=link_pk, acked_at__isnull=True,
                                                              attempts=0).exists():
            break
    return acknowledged


#: Immediate retries of a message that failed on a link that otherwise works (a dropped packet).
QUICK_TRIES = 3


def _pump_locked(*, link_pk: int, now: datetime | None, started: float, budget_seconds: float) -> int:
    acknowledged = 0
    while time.monotonic() - started < budget_seconds:
        message = (OutboxMessage.objects.filter(link_id=link_pk, acked_at__isnull=True).order_by("sequence")
                   .only("pk", "next_attempt_at").first())
        if message is None:
            break
        if acknowledged == 0 and message.next_attempt_at and message.next_attempt_at > (now or timezone.now()):
            break  # backing off
        sent = 0
        for try_ in range(QUICK_TRIES):
            sent = deliver_batch(link_pk=link_pk, now=now, quiet=try_ < QUICK_TRIES - 1)
            if sent:
                break
        if not sent:
            break
        acknowledged += sent
    return acknowledged


#: How many consecutive messages travel in one signed request.
BATCH_SIZE = 100


def _item_text(*, message_id: str, sequence: int, kind: str, body: dict) -> str:
    """One message of a batch as text: what the sender signs within the batch and the receiver acknowledges with
    its SHA-256 (14.20(e)3) — one function on both sides, so the two hashes are of the same text."""
    return canonical({"id": message_id, "sequence": sequence, "kind": kind, "body": body})


def deliver_batch(*, link_pk: int, now: datetime | None = None, quiet: bool = False) -> int:
    """Send the link's lowest unacknowledged messages (up to BATCH_SIZE, consecutive) in one signed request
    (14.20(e)2): each keeps its own id and sequence number and is acknowledged one by one, with the SHA-256 of
    its own text as the receiver stored it (14.20(e)3). Returns how many were acknowledged; a failure is recorded
    on the lowest message (`_record_failure`)."""
    now = now or timezone.now()
    messages = list(OutboxMessage.objects.filter(link_id=link_pk, acked_at__isnull=True).order_by("sequence")
                    [:BATCH_SIZE])
    if len(messages) <= 1:
        return int(bool(messages) and deliver(message_pk=messages[0].pk, now=now, quiet=quiet))
    link = Link.objects.select_related("peer__system").get(pk=link_pk)
    me = self_site(link.peer.system)
    items = [_item_text(message_id=m.message_id, sequence=m.sequence, kind=m.kind, body=m.body) for m in messages]
    text = canonical({"kind": MessageKind.BATCH, "sequence": None, "system": me.system.code, "sender": me.code,
                      "body": {"messages": [json.loads(item) for item in items]}})
    try:
        status, answer = _post(link=link, me=me, message_id=f"batch_{uuid.uuid4().hex}", text=text, now=now)
        ok = status in (200, 202) and answer.get("ack") == body_hash(text)
    except Exception as exc:  # noqa: BLE001 - any transport failure is retried
        status, answer, ok = 0, {"error": f"{type(exc).__name__}: {exc}"}, False
    acks = answer.get("acks", {}) if ok else {}
    done = [(m, acks[m.message_id]) for m, item in zip(messages, items, strict=True)
            if acks.get(m.message_id) == body_hash(item)]
    for message, ack in done:
        OutboxMessage.objects.filter(pk=message.pk).update(acked_at=now, ack_body_hash=ack,
                                                           attempts=message.attempts + 1, last_error="")
    if not done:
        _record_failure(message=messages[0], error=f"HTTP {status}: {answer.get('error') or answer}"[:300],
                        now=now, quiet=quiet)
    return len(done)


def send_from(*, message_pk: int) -> int:
    """The task behind each new message: pump its link (a no-op when another worker already is)."""
    link_pk = OutboxMessage.objects.filter(pk=message_pk).values_list("link_id", flat=True).first()
    return pump(link_pk=link_pk) if link_pk else 0


def sweep_outbox(*, now: datetime | None = None) -> int:
    """The beat sweeper: pump every link whose lowest unacknowledged message is due. Returns how many messages
    were acknowledged."""
    links = (OutboxMessage.objects.filter(acked_at__isnull=True).values_list("link_id", flat=True)
             .distinct().order_by())
    return sum(pump(link_pk=link_pk, now=now) for link_pk in links)


# --- inbox -------------------------------------------------------------------------------------------------------

def _reject(*, raw: bytes, sender: str, message_id: str, status: int, reason: str) -> tuple[int, dict]:
    RejectedMessage.objects.create(sender=sender[:40], message_id=message_id[:64], reason=reason[:300],
                                   body_hash=body_hash(raw))
    log.warning("multicasino: rejected %s from %s: %s", message_id, sender, reason)
    return status, {"error": reason}


def receive(*, headers: dict[str, str], raw: bytes, now: datetime | None = None) -> tuple[int, dict]:
    """The inbox (N.J.A.C. 13:69F-14.20(e)2, 3): verify and apply one message from a peer.

    Refused, logged and without effect: an unknown system or sender (401), a bad signature or a timestamp
    outside ±5 minutes (401), a body that is not the JSON it claims (400), a repeated id (409, with the
    acknowledgement of the first receipt so a retrying sender stops). Otherwise the message is stored once
    (unique sender and id) and applied in sequence order; a gap answers 202 with `resend_from`. Every answer
    that accepts carries `ack`, the SHA-256 of the body received. Returns (HTTP status, JSON answer).
    """
    now = now or timezone.now()
    headers = {k.lower(): v for k, v in headers.items()}
    sender, message_id = headers.get("x-pokerroom-site", ""), headers.get("webhook-id", "")
    peer = (Site.objects.select_related("system", "link").filter(
        system__code=headers.get("x-pokerroom-system", ""), code=sender, is_self=False).first())
    if peer is None or not hasattr(peer, "link"):
        return _reject(raw=raw, sender=sender, message_id=message_id, status=401, reason="Unknown sender")
    text = raw.decode("utf-8", errors="replace")
    try:
        verify(text=text, headers=headers, secrets=peer.link.inbound_secrets)
    except WebhookVerificationError as exc:
        return _reject(raw=raw, sender=sender, message_id=message_id, status=401, reason=f"Signature: {exc}")
    try:
        envelope = json.loads(text)
        kind, sequence, body = envelope["kind"], envelope.get("sequence"), envelope["body"]
        if envelope.get("sender") != sender or envelope.get("system") != peer.system.code:
            raise ValueError("envelope names another sender")
    except (ValueError, KeyError, TypeError) as exc:
        return _reject(raw=raw, sender=sender, message_id=message_id, status=400, reason=f"Malformed body: {exc}")
    ack = body_hash(raw)
    if kind in (MessageKind.HEARTBEAT, MessageKind.BATCH):
        # Unsequenced envelopes: the id is remembered for longer than the ±5 minute window, so a replay is refused
        # (a batch's messages are also stored once each, by their own ids).
        if not cache.add(f"multicasino:seen:{peer.pk}:{message_id}", 1, timeout=900):
            return _reject(raw=raw, sender=sender, message_id=message_id, status=409, reason="Repeated id")
        if kind == MessageKind.BATCH:
            return _receive_batch(peer=peer, raw=raw, body=body, now=now)
        apply_heartbeat(peer=peer, body=body, now=now)
        return 200, {"ack": ack}
    if kind not in MessageKind.values or not isinstance(sequence, int) or sequence < 1:
        return _reject(raw=raw, sender=sender, message_id=message_id, status=400, reason="Unknown kind or sequence")
    with transaction.atomic():
        link = Link.objects.select_for_update().get(pk=peer.link.pk)
        first = InboxMessage.objects.filter(link=link, message_id=message_id).first()
        if first is not None:
            _reject(raw=raw, sender=sender, message_id=message_id, status=409, reason="Repeated id")
            return 409, {"error": "Repeated id", "ack": first.body_hash}
        if sequence < link.next_in_sequence or InboxMessage.objects.filter(link=link, sequence=sequence).exists():
            return _reject(raw=raw, sender=sender, message_id=message_id, status=409,
                           reason=f"Sequence {sequence} already received")
        try:
            with transaction.atomic():
                InboxMessage.objects.create(link=link, message_id=message_id, sequence=sequence, kind=kind, body=body,
                                            body_hash=ack)
        except IntegrityError:
            return _reject(raw=raw, sender=sender, message_id=message_id, status=409, reason="Repeated id")
        _apply_in_order(link=link, now=now)
        link.refresh_from_db(fields=["next_in_sequence"])
        peer.last_heard_at = now
        peer.save(update_fields=["last_heard_at"])
    if link.next_in_sequence <= sequence:
        return 202, {"ack": ack, "resend_from": link.next_in_sequence}
    return 200, {"ack": ack}


def _receive_batch(*, peer: Site, raw: bytes, body: dict, now: datetime) -> tuple[int, dict]:
    """Consecutive messages signed together: each is stored once (by its own id), all are applied in sequence
    order in one transaction; `acks` holds the SHA-256 of each message's text as stored (a message already
    received is acknowledged with its first receipt's hash). A gap answers 202 with `resend_from`."""
    try:
        items = [(str(m["id"]), m["sequence"], m["kind"], m["body"]) for m in body["messages"]]
        if any(k not in MessageKind.values or k in (MessageKind.BATCH, MessageKind.HEARTBEAT)
               or not isinstance(q, int) or q < 1 for _, q, k, _ in items):
            raise ValueError("unknown kind or sequence")
    except (KeyError, TypeError, ValueError) as exc:
        return _reject(raw=raw, sender=peer.code, message_id="batch", status=400, reason=f"Malformed batch: {exc}")
    acks = {}
    with transaction.atomic():
        link = Link.objects.select_for_update().get(pk=peer.link.pk)
        known = dict(InboxMessage.objects.filter(link=link, message_id__in=[i[0] for i in items])
                     .values_list("message_id", "body_hash"))
        taken = set(InboxMessage.objects.filter(link=link, sequence__in=[i[1] for i in items])
                    .values_list("sequence", flat=True))
        for message_id, sequence, kind, message_body in items:
            if message_id in known:
                acks[message_id] = known[message_id]
                continue
            if sequence < link.next_in_sequence or sequence in taken:
                continue  # another id under a number already received: not acknowledged, logged
            digest = body_hash(_item_text(message_id=message_id, sequence=sequence, kind=kind, body=message_body))
            InboxMessage.objects.create(link=link, message_id=message_id, sequence=sequence, kind=kind,
                                        body=message_body, body_hash=digest)
            taken.add(sequence)
            acks[message_id] = digest
        _apply_in_order(link=link, now=now)
        link.refresh_from_db(fields=["next_in_sequence"])
        Site.objects.filter(pk=peer.pk).update(last_heard_at=now)
    answer = {"ack": body_hash(raw), "acks": acks}
    if InboxMessage.objects.filter(link=link, applied_at__isnull=True).exists():
        answer["resend_from"] = link.next_in_sequence
        return 202, answer
    return 200, answer


#: What applying each kind of sequenced message does, by the receiving side's role: (peer, body, now).
_APPLIERS = {
    MessageKind.CONTRIBUTION: lambda peer, body, now: apply_contribution(site=peer, body=body),
    MessageKind.CLAIM: lambda peer, body, now: apply_claim(site=peer, body=body, now=now),
    MessageKind.PAYOUT: lambda peer, body, now: apply_payout(site=peer, body=body, now=now),
    MessageKind.APPROVAL: lambda peer, body, now: apply_approval(site=peer, body=body, now=now),
    MessageKind.NOTICE: lambda peer, body, now: apply_notice(host=peer, body=body),
    MessageKind.RULES: lambda peer, body, now: apply_rule_change(host=peer, body=body, now=now),
}


def _apply_in_order(*, link: Link, now: datetime) -> None:
    """Apply the stored messages that follow without a gap, each once, under the link's lock."""
    while True:
        message = InboxMessage.objects.filter(link=link, sequence=link.next_in_sequence, applied_at__isnull=True).first()
        if message is None:
            break
        if apply := _APPLIERS.get(message.kind):
            apply(link.peer, message.body, now)
        message.applied_at = now
        message.save(update_fields=["applied_at"])
        link.next_in_sequence += 1
        link.save(update_fields=["next_in_sequence"])


def _tell_host(*, system: BadBeatSystem, me: Site, kind: str, body: dict, now: datetime) -> None:
    """Report to the host in the current transaction: an outbox message, or at the host's own casino (the host
    also runs a site) the same change applied at once."""
    if me.is_host:
        _APPLIERS[kind](me, body, now)
    else:
        enqueue(link=host_site(system).link, kind=kind, body=body)


def apply_contribution(*, site: Site, body: dict) -> PoolEntry | None:
    """At the host: add a site's contribution to the system pool, once per site and reference, under the
    system's row lock; the entry keeps the casino identifiable (14.20(e)3). Its reset part (14.19(p)) goes to
    the reset reserve, the rest to the pool. None when already applied."""
    system = BadBeatSystem.objects.select_for_update().get(pk=site.system_id)
    entry, created = PoolEntry.objects.get_or_create(
        site=site, reference=str(body["reference"]),
        defaults={"system": system, "amount": money(body["amount"]), "gaming_day": body["gaming_day"],
                  "to_reset": money(body.get("to_reset", "0"))})
    if not created:
        return None
    system.pool += entry.amount - entry.to_reset
    system.reset_reserve += entry.to_reset
    system.save(update_fields=["pool", "reset_reserve", "updated_at"])
    if "site_total" in body:
        Site.objects.filter(pk=site.pk).update(reported_total=money(body["site_total"]))
    return entry


def apply_heartbeat(*, peer: Site, body: dict, now: datetime) -> None:
    """A peer is alive: when heard, its rules hash, its running total; from the host, the official pool. A peer
    heard while messages to it are backing off gets them at once rather than at the end of the backoff."""
    lowest = OutboxMessage.objects.filter(link=peer.link, acked_at__isnull=True).order_by("sequence").first()
    if lowest is not None and lowest.next_attempt_at and lowest.next_attempt_at > now:
        # the peer is alive: what was backing off is sent now (after a restart, within one heartbeat)
        OutboxMessage.objects.filter(pk=lowest.pk).update(next_attempt_at=now)
        transaction.on_commit(lambda: _send_later(lowest.pk))
    if peer.status == SystemStatus.SUSPENDED:
        Link.objects.filter(pk=peer.link.pk, backlog_until__isnull=True).update(
            backlog_until=models.F("next_out_sequence") - 1)
    peer.last_heard_at = now
    peer.reported_rules_hash = str(body.get("rules_hash", ""))[:64]
    fields = ["last_heard_at", "reported_rules_hash"]
    if body.get("total") is not None:
        peer.reported_total = money(body["total"])
        fields.append("reported_total")
    peer.save(update_fields=fields)
    if peer.is_host and body.get("pool") is not None:
        BadBeatSystem.objects.filter(pk=peer.system_id).update(pool=money(body["pool"]))
    if peer.is_host and isinstance(body.get("participants"), list):
        _learn_participants(system=peer.system, listed=body["participants"])
    refresh_status(system=peer.system, now=now)


def _learn_participants(*, system: BadBeatSystem, listed: list) -> None:
    """At a site: every participating casino as the host lists it, so that the posting names them all from the
    first heartbeat (14.20(d)1). A casino this site has no link with shows its status as the host sees it."""
    known = {s.code: s for s in system.sites.select_related("link")}
    for item in listed:
        if not isinstance(item, dict) or not isinstance(item.get("code"), str) or not item["code"]:
            continue
        values = {"name": str(item.get("name", ""))[:200] or item["code"][:40],
                  "address": str(item.get("address", ""))[:300]}
        if item.get("status") in SystemStatus.values:
            values["status"] = item["status"]
        site = known.get(item["code"][:40])
        if site is None:
            Site.objects.create(system=system, code=item["code"][:40], **values)
            continue
        if site.is_self or site.is_host or hasattr(site, "link"):
            continue  # this casino, the host and linked peers: this deployment's own records and observations
        if any(getattr(site, field) != value for field, value in values.items()):
            Site.objects.filter(pk=site.pk).update(**values)


# --- contributions, heartbeats, suspension --------------------------------------------------------------------

def site_total(*, system: BadBeatSystem) -> Decimal:
    """This site's running total of contributions to the system's payout (Decimal dollars)."""
    if system.jackpot_id is None:
        return ZERO
    return Contribution.objects.filter(jackpot_id=system.jackpot_id).aggregate(t=Sum("amount", default=ZERO))["t"]


def report_contribution(*, contribution: Contribution) -> None:
    """In the contribution's transaction: a site writes an outbox message to the host; the host, which also
    runs a site, adds its own casino's contribution to the pool directly (14.20(d), (e)2)."""
    for system in BadBeatSystem.objects.filter(jackpot_id=contribution.jackpot_id):
        me, host = self_site(system), host_site(system)
        if me is None or host is None:
            continue
        body = {"reference": str(contribution.pk), "amount": f"{contribution.amount:.2f}",
                "to_reset": f"{contribution.to_reset:.2f}",
                "gaming_day": contribution.gaming_day.isoformat(), "site_total": f"{site_total(system=system):.2f}"}
        _tell_host(system=system, me=me, kind=MessageKind.CONTRIBUTION, body=body, now=contribution.created_at)


def send_heartbeats(*, now: datetime | None = None) -> int:
    """Send a signed heartbeat to every peer (every 2 s by default): this casino's rules hash and running total,
    and from the host the official pool and every participating casino with its status. Unsequenced, not
    stored; a lost one is simply followed by the next."""
    now = now or timezone.now()
    sent = 0
    for system in BadBeatSystem.objects.all():
        me = self_site(system)
        if me is None:
            continue
        body = {"rules_hash": system.rules_hash, "total": f"{site_total(system=system):.2f}",
                "sent_at": now.isoformat()}
        if me.is_host:
            body["pool"] = f"{system.pool:.2f}"
            body["participants"] = [{"code": s.code, "name": s.name, "address": s.address, "status": s.status}
                                    for s in system.sites.all()]
        for peer in linked_peers(system):
            text = canonical({"kind": MessageKind.HEARTBEAT, "sequence": None, "system": system.code,
                              "sender": me.code, "body": body})
            try:
                _post(link=peer.link, me=me, message_id=f"hb_{uuid.uuid4().hex}", text=text, now=now)
                sent += 1
            except Exception:  # noqa: BLE001 - silence is what the peer will notice
                log.info("multicasino: heartbeat to %s failed", peer.code)
        refresh_status(system=system, now=now)
    return sent


def _set_status(site: Site, status: str, reason: str, now: datetime) -> None:
    if site.status != status or site.status_reason != reason:
        Site.objects.filter(pk=site.pk).update(status=status, status_reason=reason[:300], status_changed_at=now)
        site.status, site.status_reason = status, reason


def _record_undelivered_notices(peer: Site) -> None:
    """Every notice still unacknowledged by a suspended casino is recorded for delivery by other means."""
    waiting = OutboxMessage.objects.filter(link=peer.link, kind=MessageKind.NOTICE, acked_at__isnull=True)
    for reference in waiting.values_list("body__notice", flat=True):
        notice = Notice.objects.filter(system=peer.system, reference=reference).first()
        if notice is not None:
            UndeliveredNotice.objects.get_or_create(notice=notice, site=peer)


def refresh_status(*, system: BadBeatSystem, now: datetime | None = None) -> str:
    """Suspend or resume (N.J.A.C. 13:69F-14.20(e)4.i). A peer is suspended after `silence_seconds` without a
    word, or when its rules hash differs from ours; it resumes only when it is heard again, its rules hash
    matches and its backlog (every message written until it was heard again) has been acknowledged. At a site,
    its own casino is suspended whenever the host is. Returns this casino's status."""
    now = now or timezone.now()
    system = BadBeatSystem.objects.get(pk=system.pk)
    silence = timedelta(seconds=system.silence_seconds)
    for peer in linked_peers(system):
        reasons = []
        if peer.last_heard_at is None or now - peer.last_heard_at > silence:
            reasons.append(f"no word for more than {system.silence_seconds} s")
        if peer.reported_rules_hash and peer.reported_rules_hash != system.rules_hash:
            reasons.append("its rules differ from the system's (hash mismatch)")
        if peer.status == SystemStatus.SUSPENDED and not reasons:
            # The backlog is what was written before the peer was heard again; what is written since is the
            # ordinary traffic of a live link, which must not keep it suspended.
            waiting = OutboxMessage.objects.filter(link=peer.link, acked_at__isnull=True)
            if peer.link.backlog_until is not None:
                waiting = waiting.filter(sequence__lte=peer.link.backlog_until)
            if backlog := waiting.count():
                reasons.append(f"{backlog} message(s) still to deliver")
        _set_status(peer, SystemStatus.SUSPENDED if reasons else SystemStatus.ACTIVE, "; ".join(reasons), now)
        if reasons:
            _record_undelivered_notices(peer)
        elif peer.link.backlog_until is not None:
            Link.objects.filter(pk=peer.link.pk).update(backlog_until=None)
    me = self_site(system)
    if me is None:
        return SystemStatus.ACTIVE
    if me.is_host:
        _set_status(me, SystemStatus.ACTIVE, "", now)
    else:
        host = host_site(system)
        _set_status(me, host.status, f"link with the host: {host.status_reason}" if host.status_reason else "", now)
    return me.status


# --- claims, notices and payouts (14.20(e)4 with 14.19(i)) -------------------------------------------------------

def system_of(*, jackpot) -> BadBeatSystem | None:
    """The multi-casino system whose payout this deployment's `jackpot` funds, or None."""
    return BadBeatSystem.objects.filter(jackpot=jackpot, sites__is_self=True).first()


def _name(user: User) -> str:
    return (user.get_full_name() or user.username)[:150]


def claim_document(claim: SystemClaim) -> dict:
    """A claim as the host tells every casino of it: the payout's documentation (date, time, amount, the winning
    and losing hands, the casino, who verified and who authorised it)."""
    def when(value):
        return value.isoformat() if value else None
    return {"site": claim.site.code, "site_name": claim.site.name, "site_address": claim.site.address,
            "reference": claim.reference, "arrival": claim.arrival, "status": claim.status,
            "amount": f"{claim.amount:.2f}" if claim.amount is not None else None,
            "table_number": claim.table_number, "round_reference": claim.round_reference,
            "losing_hand": claim.losing_hand, "losing_cards": claim.losing_cards, "winning_hand": claim.winning_hand,
            "winning_cards": claim.winning_cards, "verified_by": claim.verified_by,
            "verified_at": when(claim.verified_at), "received_at": when(claim.received_at),
            "decided_at": when(claim.decided_at), "answer": claim.answer, "paid_at": when(claim.paid_at),
            "payout_method": claim.payout_method, "payout_location": claim.payout_location,
            "delivered_by": claim.delivered_by, "authorised_by": claim.authorised_by}


_CLAIM_FIELDS = ("table_number", "round_reference", "losing_hand", "losing_cards", "winning_hand", "winning_cards",
                 "verified_by")


@transaction.atomic
def submit_claim(*, claim: Claim, supervisor: User, now: datetime | None = None) -> Claim:
    """A poker shift supervisor verifies a claim on the system's payout (14.19(i), 14.20(e)4.ii): the engine
    judges it here, then it is sent to the host, which orders claims by arrival and freezes the amount. Raises
    DomainError when the system is suspended at this casino (no multi-casino claim is opened while it is,
    14.20(e)4.i), or the claim is not pending or does not qualify."""
    now = now or timezone.now()
    system = system_of(jackpot=claim.jackpot)
    me = self_site(system)
    if refresh_status(system=system, now=now) == SystemStatus.SUSPENDED:
        me.refresh_from_db()
        raise DomainError(f"The {system.name} is suspended at this casino ({me.status_reason}): no multi-casino "
                          "claim can be opened until it resumes (14.20(e)4.i).", field="status")
    claim = badbeat.send_shared_claim(claim=claim, supervisor=supervisor)
    body = {"reference": str(claim.pk), "table_number": claim.round_of_play.table.number,
            "round_reference": str(claim.round_of_play_id), "losing_hand": claim.losing_hand,
            "losing_cards": claim.losing_cards, "winning_hand": claim.winning_hand,
            "winning_cards": claim.winning_cards, "verified_by": _name(supervisor), "verified_at": now.isoformat()}
    SystemClaim.objects.create(system=system, site=me, reference=body["reference"], verified_at=now,
                               **{k: body[k] for k in _CLAIM_FIELDS})
    _tell_host(system=system, me=me, kind=MessageKind.CLAIM, body=body, now=now)
    return claim


def _split(total: Decimal, count: int) -> list[Decimal]:
    """`total` dollars in `count` equal parts rounded down to the cent, the odd cents to the first received."""
    part = floor_to(total / count, CENT)
    odd = int((total - part * count) / CENT)
    return [part + (CENT if i < odd else ZERO) for i in range(count)]


def apply_claim(*, site: Site, body: dict, now: datetime) -> SystemClaim:
    """At the host, under the system's row lock: a claim verified at `site` is numbered in the order the host
    received it (never by the sites' clocks). The first valid claim freezes the pool and every casino is told
    at once that the payout is pending; a later claim follows the agreement's rule — refused with the reason
    (first received) or sharing the frozen amount equally (split) — and is answered either way (14.20(e)4).
    Applying the same claim again changes nothing."""
    system = BadBeatSystem.objects.select_for_update().get(pk=site.system_id)
    claim, _ = SystemClaim.objects.get_or_create(
        site=site, reference=str(body["reference"]),
        defaults={"system": system, "verified_at": datetime.fromisoformat(body["verified_at"]),
                  **{k: body[k] for k in _CLAIM_FIELDS}})
    if claim.arrival is not None:
        return claim
    claim.arrival, claim.received_at, claim.decided_at = system.next_arrival, now, now
    system.next_arrival += 1
    system.save(update_fields=["next_arrival", "updated_at"])
    pending = list(system.claims.filter(status=SystemClaimStatus.PENDING).order_by("arrival"))
    if not pending:
        if system.pool <= 0:
            claim.status, claim.answer = SystemClaimStatus.REFUSED, "The pool holds $0.00: nothing to pay."
            claim.save()
            issue_notice(system=system, claim=claim, kind=NoticeKind.REFUSED, now=now)
            return claim
        claim.status, claim.amount = SystemClaimStatus.PENDING, system.pool
        claim.save()
        issue_notice(system=system, claim=claim, kind=NoticeKind.PENDING, now=now)
        return claim
    first = pending[0]
    if system.two_claims_rule == TwoClaimsRule.SPLIT:
        group = [*pending, claim]
        for member, part in zip(group, _split(sum(c.amount for c in pending), len(group)), strict=True):
            member.status, member.amount = SystemClaimStatus.PENDING, part
            member.answer = f"Split equally among {len(group)} claims received before the payout was confirmed."
            member.save()
            issue_notice(system=system, claim=member, kind=NoticeKind.PENDING, now=now)
        return claim
    claim.status = SystemClaimStatus.REFUSED
    claim.answer = (f"Not paid: a claim at {first.site.name} (received #{first.arrival}) was received first and its "
                    f"payout of ${first.amount:,.2f} is pending; the agreement pays the first received.")[:300]
    claim.save()
    issue_notice(system=system, claim=claim, kind=NoticeKind.REFUSED, now=now)
    return claim


def _notice_text(claim: SystemClaim, kind: str) -> str:
    where = f"{claim.site.name}, table {claim.table_number}"
    if kind == NoticeKind.PENDING:
        return (f"Payout pending: ${claim.amount:,.2f} at {where} — {claim.losing_hand} ({claim.losing_cards}) beaten "
                f"by {claim.winning_hand} ({claim.winning_cards}); verified by {claim.verified_by}.")
    if kind == NoticeKind.PAID:
        return (f"Payout confirmed: ${claim.amount:,.2f} paid at {where} by {claim.delivered_by}, authorised by "
                f"{claim.authorised_by}.")
    return f"Claim at {where} answered: {claim.answer}"


def issue_notice(*, system: BadBeatSystem, claim: SystemClaim, kind: str, now: datetime) -> Notice:
    """At the host: a notice to every casino at once (14.20(e)4.ii, iii) — one outbox message per link, written
    in this transaction, plus the host's own record. A suspended casino's copy is also recorded as undelivered,
    for delivery by other means (14.20(e)4.i)."""
    notice = Notice.objects.create(system=system, claim=claim, kind=kind, reference=f"ntc_{uuid.uuid4().hex}",
                                   text=_notice_text(claim, kind)[:500], issued_at=now)
    body = {"notice": notice.reference, "kind": kind, "text": notice.text, "issued_at": now.isoformat(),
            "claim": claim_document(claim), "pool": f"{system.pool:.2f}"}
    for peer in linked_peers(system):
        enqueue(link=peer.link, kind=MessageKind.NOTICE, body=body)
        if peer.status == SystemStatus.SUSPENDED:
            UndeliveredNotice.objects.get_or_create(notice=notice, site=peer)
    if claim.site.is_self:  # a claim at the host's own casino
        _decide_local_claim(claim, notice.text)
    return notice


def apply_notice(*, host: Site, body: dict) -> Notice:
    """At a site: a notice from the host. Its copy of the claim is brought up to date (a casino it did not know
    is added as a participant), the notice is kept for the displays, and when the claim is this casino's own,
    its payout is frozen for delivery or the claim is rejected with the host's answer. Idempotent."""
    system = host.system
    doc = body["claim"]
    site, _ = Site.objects.get_or_create(system=system, code=doc["site"],
                                         defaults={"name": doc["site_name"], "address": doc.get("site_address", "")})
    fields = {k: doc[k] for k in (*_CLAIM_FIELDS, "arrival", "status", "answer", "payout_method", "payout_location",
                                  "delivered_by", "authorised_by")}
    for key in ("verified_at", "received_at", "decided_at", "paid_at"):
        fields[key] = datetime.fromisoformat(doc[key]) if doc.get(key) else None
    fields["amount"] = money(doc["amount"]) if doc.get("amount") is not None else None
    claim, _ = SystemClaim.objects.update_or_create(site=site, reference=doc["reference"],
                                                    defaults={"system": system, **fields})
    notice, _ = Notice.objects.get_or_create(system=system, reference=body["notice"], defaults={
        "claim": claim, "kind": body["kind"], "text": body["text"][:500],
        "issued_at": datetime.fromisoformat(body["issued_at"])})
    if body.get("pool") is not None:
        BadBeatSystem.objects.filter(pk=system.pk).update(pool=money(body["pool"]))
    if site.is_self:
        _decide_local_claim(claim, notice.text)
    return notice


def _decide_local_claim(claim: SystemClaim, text: str) -> None:
    """This casino's own claim was decided by the host: its payout is frozen for delivery, or it is rejected."""
    local = Claim.objects.filter(pk=int(claim.reference)).first()
    if local is not None and claim.status == SystemClaimStatus.PENDING:
        badbeat.freeze_shared_claim(claim=local, amount=claim.amount, note=text)
    elif local is not None and claim.status == SystemClaimStatus.REFUSED:
        badbeat.refuse_shared_claim(claim=local, answer=claim.answer)


@transaction.atomic
def record_system_payout(*, claim: Claim, method: str, location: str, delivered_by: User, recorded_by: User,
                         now: datetime | None = None) -> SystemClaim:
    """The payout of a claim on the system's payout is delivered at this casino (14.19(i)2, (j); 14.20(e)4.iii):
    documented with date, time, amount, hands, casino, who delivered it and who authorised it, and reported to the
    host, which takes it from the pool once and tells every casino. Raises DomainError when the host has not
    confirmed this claim's pending payout, or it is already paid."""
    now = now or timezone.now()
    system = system_of(jackpot=claim.jackpot)
    me = self_site(system)
    mine = SystemClaim.objects.select_for_update().filter(site=me, reference=str(claim.pk)).first()
    if mine is None or mine.status != SystemClaimStatus.PENDING:
        state = mine.get_status_display().lower() if mine else "not sent to the host"
        raise DomainError(f"This claim is {state}: only a payout the host confirmed as pending is delivered.",
                          field="claim")
    badbeat.mark_shared_claim_paid(claim=claim, delivered_by=delivered_by)
    mine.status, mine.paid_at, mine.payout_method, mine.payout_location = SystemClaimStatus.PAID, now, method, location
    mine.delivered_by, mine.authorised_by = _name(delivered_by), _name(recorded_by)
    mine.save()
    body = {"reference": mine.reference, "amount": f"{mine.amount:.2f}", "paid_at": now.isoformat(),
            "payout_method": method, "payout_location": location, "delivered_by": mine.delivered_by,
            "authorised_by": mine.authorised_by}
    _tell_host(system=system, me=me, kind=MessageKind.PAYOUT, body=body, now=now)
    return mine


def apply_payout(*, site: Site, body: dict, now: datetime) -> SystemClaim | None:
    """At the host, under the system's row lock: a payout delivered at `site` leaves the pool once (one payout
    movement per claim); when no other claim is pending, the reset reserve seeds the next payout (14.19(p)); every
    casino is told (14.20(e)4.iii). None for a claim the host never had pending (logged, nothing changes)."""
    system = BadBeatSystem.objects.select_for_update().get(pk=site.system_id)
    claim = SystemClaim.objects.filter(site=site, reference=str(body["reference"])).first()
    if claim is None or claim.status not in (SystemClaimStatus.PENDING, SystemClaimStatus.PAID):
        log.error("multicasino: payout reported for claim %s at %s, which is not pending", body["reference"], site.code)
        return None
    if PoolMovement.objects.filter(claim=claim, kind=PoolMovementKind.PAYOUT).exists():
        return claim
    paid = money(body["amount"])  # what the casino delivered; equal to the frozen amount unless a split raced it
    if paid != claim.amount:
        log.error("multicasino: claim %s at %s paid $%s, frozen at $%s", claim.reference, site.code, paid, claim.amount)
        claim.answer = f"Paid ${paid:,.2f} while the host's amount was ${claim.amount:,.2f}."[:300]
        claim.amount = paid
    PoolMovement.objects.create(system=system, claim=claim, kind=PoolMovementKind.PAYOUT, amount=paid)
    system.pool -= paid
    claim.status, claim.paid_at = SystemClaimStatus.PAID, datetime.fromisoformat(body["paid_at"])
    claim.payout_method, claim.payout_location = body["payout_method"], body["payout_location"]
    claim.delivered_by, claim.authorised_by = body["delivered_by"][:150], body["authorised_by"][:150]
    claim.save()
    if not system.claims.filter(status=SystemClaimStatus.PENDING).exists() and system.reset_reserve > 0:
        PoolMovement.objects.create(system=system, claim=claim, kind=PoolMovementKind.RESET_SEED,
                                    amount=system.reset_reserve)
        system.pool += system.reset_reserve
        system.reset_reserve = ZERO
    system.save(update_fields=["pool", "reset_reserve", "updated_at"])
    issue_notice(system=system, claim=claim, kind=NoticeKind.PAID, now=now)
    return claim


@transaction.atomic
def record_notice_delivered(*, undelivered: UndeliveredNotice, user: User, means: str,
                            at: datetime | None = None) -> UndeliveredNotice:
    """A notice that could not reach a suspended casino was delivered by other means, by `user`, at `at`
    (14.20(e)4.i). Raises DomainError without a means, or when it is already recorded."""
    if not means.strip():
        raise DomainError("Say how the notice was delivered (telephone, courier...).", field="means")
    undelivered = UndeliveredNotice.objects.select_for_update().get(pk=undelivered.pk)
    if undelivered.delivered_at is not None:
        raise DomainError("Its delivery is already recorded.", field="means")
    undelivered.delivered_by, undelivered.delivered_at, undelivered.means = user, at or timezone.now(), means.strip()[:200]
    undelivered.save()
    return undelivered


# --- rule changes (14.20(c)1 with 14.19(q)) ------------------------------------------------------------------

def may_approve_rules(user: User) -> bool:
    """A casino's designated key employee: an administrator, or a poker shift supervisor holding a casino key
    employee license (14.20(c)1, (f))."""
    return user.has_perm("multicasino.approve_rules")


def _qualifying(system: BadBeatSystem, rules: dict):
    from apps.badbeat.selectors import qualifying_rule

    values = {k: rules[k] for k in ("qualifying_hand", "qualifying_minimum_rank", "both_hole_cards_must_play",
                                    "minimum_players_dealt")}
    return qualifying_rule(jackpot=system.jackpot, values=values)


def _won_since_rules(system: BadBeatSystem) -> bool:
    """Whether the system's payout was won since its qualifying requirements took effect (or nothing was taken
    under them): only then may they be made harder (14.19(q))."""
    paid = system.claims.filter(status=SystemClaimStatus.PAID)
    taken = system.pool_entries.all()
    if system.rules_effective_at is not None:
        paid, taken = paid.filter(paid_at__gt=system.rules_effective_at), taken.filter(
            applied_at__gt=system.rules_effective_at)
    return paid.exists() or not taken.exists()


def rule_change_document(change: SystemRuleChange) -> dict:
    return {"reference": change.reference, "rules": change.rules, "two_claims_rule": change.two_claims_rule,
            "rules_hash": change.rules_hash, "summary": change.summary,
            "makes_qualifying_harder": change.makes_qualifying_harder, "effective_at": change.effective_at.isoformat(),
            "proposed_by": change.proposed_by, "proposed_at": change.proposed_at.isoformat(), "status": change.status,
            "applied_at": change.applied_at.isoformat() if change.applied_at else None,
            "approvals": [{"site": a.site.code, "site_name": a.site.name, "approved_by": a.approved_by,
                           "approved_at": a.approved_at.isoformat()} for a in change.approvals.select_related("site")]}


def _broadcast_rule_change(change: SystemRuleChange) -> None:
    body = rule_change_document(change)
    for peer in linked_peers(change.system):
        enqueue(link=peer.link, kind=MessageKind.RULES, body=body)


@transaction.atomic
def propose_system_rules(*, system: BadBeatSystem, rules: dict, effective_at: datetime, proposed_by: User,
                         two_claims_rule: str | None = None, now: datetime | None = None) -> SystemRuleChange:
    """At the host: propose a new rule set for every participating casino (14.20(c)1). Its notice is posted at
    once, before it takes effect (14.19(q)); it takes effect at `effective_at` once every casino's designated key
    employee has approved it; a harder qualifying hand is refused until the payout has been won (14.19(q)).
    Raises DomainError naming the field."""
    now = now or timezone.now()
    me = self_site(system)
    if me is None or not me.is_host:
        raise DomainError("Rule changes are proposed at the host casino.", field="system")
    if not may_approve_rules(proposed_by):
        raise DomainError("Only a designated key employee proposes a rule change (14.20(c)1).", field="proposed_by")
    if timezone.is_naive(effective_at) or effective_at <= now:
        raise DomainError("A notice is posted before the change takes effect: choose a later time (14.19(q)).",
                          field="effective_at")
    _check_rule_keys(rules)
    badbeat.validate_posted_rules(values=rules, jackpot=system.jackpot)
    two_claims_rule = two_claims_rule or system.two_claims_rule
    if two_claims_rule not in TwoClaimsRule.values:
        raise DomainError(f"Choose one of {', '.join(TwoClaimsRule.values)}.", field="two_claims_rule")
    system = BadBeatSystem.objects.select_for_update().get(pk=system.pk)
    new_hash = rules_hash(rules=rules, two_claims_rule=two_claims_rule,
                          contributions_while_suspended=system.contributions_while_suspended)
    if new_hash == system.rules_hash:
        raise DomainError("Nothing would change.", field="rules")
    harder = False
    if system.jackpot is not None:
        try:
            harder = _qualifying(system, rules).is_harder_than(_qualifying(system, system.rules))
        except (KeyError, ValueError) as exc:
            raise DomainError(f"Not a qualifying hand: {exc}", field="rules") from exc
    if harder and not _won_since_rules(system):
        raise DomainError("The qualifying hand may not be made harder until the payout has been won (14.19(q)).",
                          field="rules")
    changed = [k for k in sorted(rules) if rules[k] != system.rules.get(k)]
    summary = "; ".join(f"{k.replace('_', ' ')}: {system.rules.get(k)} → {rules[k]}" for k in changed)
    if two_claims_rule != system.two_claims_rule:
        summary = "; ".join(filter(None, [summary, f"two claims: {TwoClaimsRule(two_claims_rule).label}"]))
    change = SystemRuleChange.objects.create(
        system=system, reference=f"rc_{uuid.uuid4().hex}", rules=rules, two_claims_rule=two_claims_rule,
        rules_hash=new_hash, summary=summary, makes_qualifying_harder=harder, effective_at=effective_at,
        proposed_by=_name(proposed_by), proposed_at=now)
    _broadcast_rule_change(change)
    return change


@transaction.atomic
def approve_system_rules(*, change: SystemRuleChange, user: User, now: datetime | None = None) -> SystemRuleChange:
    """This casino's designated key employee approves a proposed rule change (14.20(c)1); the approval goes to
    the host. Raises DomainError for someone else, or a change no longer proposed or already approved here."""
    now = now or timezone.now()
    if not may_approve_rules(user):
        raise DomainError("Only this casino's designated key employee approves a rule change (14.20(c)1).",
                          field="user")
    change = SystemRuleChange.objects.select_for_update().get(pk=change.pk)
    me = self_site(change.system)
    if change.status != RuleChangeStatus.PROPOSED:
        raise DomainError(f"This change is {change.get_status_display().lower()}.", field="status")
    if change.approvals.filter(site=me).exists():
        raise DomainError("This casino has already approved it.", field="status")
    body = {"reference": change.reference, "approved_by": _name(user), "approved_at": now.isoformat()}
    if not me.is_host:  # the site keeps its own approval too; the host records it when applying
        RuleApproval.objects.create(change=change, site=me, approved_by=body["approved_by"], approved_at=now)
    _tell_host(system=change.system, me=me, kind=MessageKind.APPROVAL, body=body, now=now)
    return change


def apply_approval(*, site: Site, body: dict, now: datetime) -> RuleApproval | None:
    """At the host: a casino's approval of a rule change, once; every casino is told how many have approved."""
    change = SystemRuleChange.objects.select_for_update().filter(reference=body["reference"]).first()
    if change is None or change.status != RuleChangeStatus.PROPOSED:
        return None
    approval, created = RuleApproval.objects.get_or_create(change=change, site=site, defaults={
        "approved_by": str(body["approved_by"])[:150], "approved_at": datetime.fromisoformat(body["approved_at"])})
    if created:
        _broadcast_rule_change(change)
    return approval


def apply_due_system_rules(*, now: datetime | None = None) -> int:
    """At the host (every heartbeat): put in effect each proposed change whose time has come and which every
    participating casino has approved; every casino then holds the new rules and hash (14.20(a), (c)1). A harder
    qualifying hand still waits for the payout to be won. Returns how many took effect."""
    now = now or timezone.now()
    done = 0
    for change in SystemRuleChange.objects.filter(status=RuleChangeStatus.PROPOSED, effective_at__lte=now,
                                                  system__sites__is_self=True, system__sites__is_host=True):
        with transaction.atomic():
            change = SystemRuleChange.objects.select_for_update().get(pk=change.pk)
            system = BadBeatSystem.objects.select_for_update().get(pk=change.system_id)
            approved = set(change.approvals.values_list("site_id", flat=True))
            if change.status != RuleChangeStatus.PROPOSED or set(system.sites.values_list("pk", flat=True)) - approved:
                continue
            if change.makes_qualifying_harder and not _won_since_rules(system):
                continue
            change.status, change.applied_at = RuleChangeStatus.IN_EFFECT, now
            change.save(update_fields=["status", "applied_at"])
            _adopt(system, change, now)
            _broadcast_rule_change(change)
            done += 1
    return done


def _adopt(system: BadBeatSystem, change: SystemRuleChange, now: datetime) -> None:
    """This casino now holds the change's rules: the system's rule set and hash, and its own payout's rules."""
    qualifying_changed = system.jackpot is not None and (
        _qualifying(system, change.rules) != _qualifying(system, system.rules))
    system.rules, system.two_claims_rule, system.rules_hash = change.rules, change.two_claims_rule, change.rules_hash
    if qualifying_changed or system.rules_effective_at is None:
        system.rules_effective_at = now
    system.save(update_fields=["rules", "two_claims_rule", "rules_hash", "rules_effective_at", "updated_at"])
    if system.jackpot is not None:
        badbeat.adopt_shared_rules(jackpot=system.jackpot, rules=change.rules, summary=change.summary, now=now)


def apply_rule_change(*, host: Site, body: dict, now: datetime) -> SystemRuleChange:
    """At a site: the host's proposal, its approvals and its status; once in effect, this casino adopts the new
    rules (its hash then matches the host's again). Idempotent."""
    system = BadBeatSystem.objects.select_for_update().get(pk=host.system_id)
    change, _ = SystemRuleChange.objects.update_or_create(reference=body["reference"], defaults={
        "system": system, "rules": body["rules"], "two_claims_rule": body["two_claims_rule"],
        "rules_hash": body["rules_hash"], "summary": body["summary"],
        "makes_qualifying_harder": body["makes_qualifying_harder"],
        "effective_at": datetime.fromisoformat(body["effective_at"]), "proposed_by": body["proposed_by"],
        "proposed_at": datetime.fromisoformat(body["proposed_at"]), "status": body["status"],
        "applied_at": datetime.fromisoformat(body["applied_at"]) if body.get("applied_at") else None})
    for approval in body.get("approvals", []):
        site, _ = Site.objects.get_or_create(system=system, code=approval["site"],
                                             defaults={"name": approval["site_name"]})
        RuleApproval.objects.get_or_create(change=change, site=site, defaults={
            "approved_by": approval["approved_by"], "approved_at": datetime.fromisoformat(approval["approved_at"])})
    if change.status == RuleChangeStatus.IN_EFFECT and system.rules_hash != change.rules_hash:
        _adopt(system, change, now)
    return change
