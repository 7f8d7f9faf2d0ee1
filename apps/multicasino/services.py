"""Writes of the multi-casino bad beat system (N.J.A.C. 13:69F-14.20): the agreement's rules and their hash,
the outbox (written with the change it reports, sent on commit, swept with backoff), the inbox (verified,
stored once, applied once and in order, gaps asked for again), heartbeats and suspension.
"""
from __future__ import annotations

import hashlib
import json
import logging
import uuid
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.module_loading import import_string

from apps.badbeat.models import Contribution
from apps.core.exceptions import DomainError
from apps.core.money import ZERO, money

from .models import (
    BadBeatSystem,
    InboxMessage,
    Link,
    MessageKind,
    OutboxMessage,
    PoolEntry,
    RejectedMessage,
    Site,
    SystemStatus,
    TwoClaimsRule,
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


@transaction.atomic
def set_up_system(*, code: str, name: str, host_name: str, host_address: str, rules: dict,
                  two_claims_rule: str = TwoClaimsRule.FIRST_RECEIVED, contributions_while_suspended: bool = False,
                  jackpot=None, funds_and_fees: str = "", records_kept_by: str = "") -> BadBeatSystem:
    """Record the bad beat system agreement (14.20(b), (c)) with its one rule set and that set's hash.
    Raises DomainError for a rule set missing a required rule or with an unknown one."""
    missing = [k for k in RULE_KEYS if k not in rules]
    unknown = sorted(set(rules) - set(RULE_KEYS))
    if missing or unknown:
        raise DomainError(f"Rules missing: {', '.join(missing) or 'none'}; unknown: {', '.join(unknown) or 'none'}.",
                          field="rules")
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


# --- outbox ------------------------------------------------------------------------------------------------------

def enqueue(*, link: Link, kind: str, body: dict) -> OutboxMessage:
    """Write a message to a peer in the current transaction, under the link's row lock (its sequence number is
    the next of the link), and send it once the transaction commits (14.20(e)2)."""
    link = Link.objects.select_for_update().get(pk=link.pk)
    message = OutboxMessage.objects.create(link=link, sequence=link.next_out_sequence, kind=kind, body=body,
                                           message_id=f"msg_{uuid.uuid4().hex}", next_attempt_at=timezone.now())
    link.next_out_sequence += 1
    link.save(update_fields=["next_out_sequence"])
    transaction.on_commit(lambda: _send_later(message.pk))
    return message


def _send_later(message_pk: int) -> None:
    from .tasks import send_message

    send_message.delay(message_pk)


def _transport():
    return import_string(getattr(settings, "MULTICASINO_TRANSPORT", "apps.multicasino.transport.http_post"))


def _headers(system: BadBeatSystem, me: Site) -> dict[str, str]:
    return {"x-pokerroom-system": system.code, "x-pokerroom-site": me.code}


def deliver(*, message_pk: int, now: datetime | None = None) -> bool:
    """Send one outbox message if it is unacknowledged and due; True once it is acknowledged. A failure is kept
    with its error and retried with exponential backoff (2 s doubling, at most 60 s). An answer asking to resend
    from an earlier number makes those messages due at once (gap recovery)."""
    now = now or timezone.now()
    message = OutboxMessage.objects.select_related("link__peer__system").filter(pk=message_pk).first()
    if message is None or message.acked_at is not None:
        return message is not None
    link = message.link
    system = link.peer.system
    me = self_site(system)
    text = canonical({"kind": message.kind, "sequence": message.sequence, "system": system.code,
                      "sender": me.code, "body": message.body})
    headers = {**sign(message_id=message.message_id, text=text, secrets=link.outbound_secrets, at=now),
               **_headers(system, me)}
    try:
        status, answer = _transport()(link.peer.inbox_url, text, headers)
        error = "" if status in (200, 202, 409) and answer.get("ack") == body_hash(text) else \
            f"HTTP {status}: {answer.get('error') or answer}"[:300]
    except Exception as exc:  # noqa: BLE001 - any transport failure is retried
        status, answer, error = 0, {}, f"{type(exc).__name__}: {exc}"[:300]
    if error:
        attempts = message.attempts + 1
        OutboxMessage.objects.filter(pk=message.pk).update(
            attempts=attempts, last_error=error, next_attempt_at=now + timedelta(seconds=min(2 ** attempts, 60)))
        return False
    OutboxMessage.objects.filter(pk=message.pk).update(acked_at=now, ack_body_hash=answer["ack"],
                                                       attempts=message.attempts + 1, last_error="")
    if answer.get("resend_from"):
        OutboxMessage.objects.filter(link=link, acked_at__isnull=True,
                                     sequence__gte=int(answer["resend_from"])).update(next_attempt_at=now)
    return True


def sweep_outbox(*, now: datetime | None = None, limit: int = 500) -> int:
    """Send every unacknowledged message that is due, oldest first per link (the beat sweeper). Returns how many
    were acknowledged."""
    now = now or timezone.now()
    due = (OutboxMessage.objects.filter(acked_at__isnull=True, next_attempt_at__lte=now)
           .order_by("link_id", "sequence").values_list("pk", flat=True)[:limit])
    return sum(deliver(message_pk=pk, now=now) for pk in due)


# --- inbox -------------------------------------------------------------------------------------------------------

class Rejected(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


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
    if kind == MessageKind.HEARTBEAT:
        # Unsequenced; the id is remembered for longer than the ±5 minute window, so a replay is refused.
        if not cache.add(f"multicasino:seen:{peer.pk}:{message_id}", 1, timeout=900):
            return _reject(raw=raw, sender=sender, message_id=message_id, status=409, reason="Repeated id")
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


def _apply_in_order(*, link: Link, now: datetime) -> None:
    """Apply the stored messages that follow without a gap, each once, under the link's lock."""
    while True:
        message = InboxMessage.objects.filter(link=link, sequence=link.next_in_sequence, applied_at__isnull=True).first()
        if message is None:
            break
        if message.kind == MessageKind.CONTRIBUTION:
            apply_contribution(site=link.peer, body=message.body)
        message.applied_at = now
        message.save(update_fields=["applied_at"])
        link.next_in_sequence += 1
        link.save(update_fields=["next_in_sequence"])


def apply_contribution(*, site: Site, body: dict) -> PoolEntry | None:
    """At the host: add a site's contribution to the system pool, once per site and reference, under the
    system's row lock; the entry keeps the casino identifiable (14.20(e)3). None when already applied."""
    system = BadBeatSystem.objects.select_for_update().get(pk=site.system_id)
    entry, created = PoolEntry.objects.get_or_create(
        site=site, reference=str(body["reference"]),
        defaults={"system": system, "amount": money(body["amount"]), "gaming_day": body["gaming_day"]})
    if not created:
        return None
    system.pool += entry.amount
    system.save(update_fields=["pool", "updated_at"])
    if "site_total" in body:
        Site.objects.filter(pk=site.pk).update(reported_total=money(body["site_total"]))
    return entry


def apply_heartbeat(*, peer: Site, body: dict, now: datetime) -> None:
    """A peer is alive: when heard, its rules hash, its running total; from the host, the official pool."""
    peer.last_heard_at = now
    peer.reported_rules_hash = str(body.get("rules_hash", ""))[:64]
    fields = ["last_heard_at", "reported_rules_hash"]
    if body.get("total") is not None:
        peer.reported_total = money(body["total"])
        fields.append("reported_total")
    peer.save(update_fields=fields)
    if peer.is_host and body.get("pool") is not None:
        BadBeatSystem.objects.filter(pk=peer.system_id).update(pool=money(body["pool"]))
    refresh_status(system=peer.system, now=now)


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
                "gaming_day": contribution.gaming_day.isoformat(), "site_total": f"{site_total(system=system):.2f}"}
        if me.is_host:
            apply_contribution(site=me, body=body)
        else:
            enqueue(link=host.link, kind=MessageKind.CONTRIBUTION, body=body)


def send_heartbeats(*, now: datetime | None = None) -> int:
    """Send a signed heartbeat to every peer (every 2 s by default): this casino's rules hash and running total,
    and from the host the official pool. Unsequenced, not stored; a lost one is simply followed by the next."""
    now = now or timezone.now()
    sent = 0
    for system in BadBeatSystem.objects.all():
        me = self_site(system)
        if me is None:
            continue
        system.refresh_from_db(fields=["pool"])
        body = {"rules_hash": system.rules_hash, "total": f"{site_total(system=system):.2f}",
                "sent_at": now.isoformat()}
        if me.is_host:
            body["pool"] = f"{system.pool:.2f}"
        for peer in system.sites.filter(is_self=False).select_related("link"):
            text = canonical({"kind": MessageKind.HEARTBEAT, "sequence": None, "system": system.code,
                              "sender": me.code, "body": body})
            headers = {**sign(message_id=f"hb_{uuid.uuid4().hex}", text=text, secrets=peer.link.outbound_secrets,
                              at=now), **_headers(system, me)}
            try:
                _transport()(peer.inbox_url, text, headers)
                sent += 1
            except Exception:  # noqa: BLE001 - silence is what the peer will notice
                log.info("multicasino: heartbeat to %s failed", peer.code)
        refresh_status(system=system, now=now)
    return sent


def _set_status(site: Site, status: str, reason: str, now: datetime) -> None:
    if site.status != status or site.status_reason != reason:
        Site.objects.filter(pk=site.pk).update(status=status, status_reason=reason[:300], status_changed_at=now)
        site.status, site.status_reason = status, reason


def refresh_status(*, system: BadBeatSystem, now: datetime | None = None) -> str:
    """Suspend or resume (N.J.A.C. 13:69F-14.20(e)4.i). A peer is suspended after `silence_seconds` without a
    word, or when its rules hash differs from ours; it resumes only when it is heard again, its rules hash
    matches and every message to it has been acknowledged. At a site, its own casino is suspended whenever the
    host is. Returns this casino's status."""
    now = now or timezone.now()
    system = BadBeatSystem.objects.get(pk=system.pk)
    silence = timedelta(seconds=system.silence_seconds)
    for peer in system.sites.filter(is_self=False).select_related("link"):
        reasons = []
        if peer.last_heard_at is None or now - peer.last_heard_at > silence:
            reasons.append(f"no word for more than {system.silence_seconds} s")
        if peer.reported_rules_hash and peer.reported_rules_hash != system.rules_hash:
            reasons.append("its rules differ from the system's (hash mismatch)")
        backlog = OutboxMessage.objects.filter(link=peer.link, acked_at__isnull=True).count()
        if peer.status == SystemStatus.SUSPENDED and not reasons and backlog:
            reasons.append(f"{backlog} message(s) still to deliver")
        _set_status(peer, SystemStatus.SUSPENDED if reasons else SystemStatus.ACTIVE, "; ".join(reasons), now)
    me = self_site(system)
    if me is None:
        return SystemStatus.ACTIVE
    if me.is_host:
        _set_status(me, SystemStatus.ACTIVE, "", now)
    else:
        host = host_site(system)
        _set_status(me, host.status, f"link with the host: {host.status_reason}" if host.status_reason else "", now)
    return me.status
