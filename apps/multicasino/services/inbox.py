"""The inbox (N.J.A.C. 13:69F-14.20(e)2-complete; its authentication 14.20(e)3): a message from a peer is verified
(its Standard Webhooks signature, its sender, its timestamp), stored once, applied once and in sequence order, a gap
asked for again; what was received is acknowledged with its SHA-256. `receive` returns an `InboxResult`; the inbox's
API view gives it its HTTP status."""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.core.cache import try_add

from ..models import InboxMessage, Link, MessageKind, RejectedMessage, Site
from ..signing import WebhookVerificationError, body_hash, verify
from .claims import apply_claim, apply_notice, apply_payout
from .contributions import apply_peer_contribution
from .heartbeats import apply_heartbeat
from .outbox import item_text
from .rules import apply_approval, apply_rule_change

log = logging.getLogger(__name__)


class InboxOutcome(StrEnum):
    """What the inbox did with a request."""

    ACCEPTED = "accepted"  # stored and applied, in order (a heartbeat: heard)
    GAP = "gap"  # stored, but an earlier number is missing: applied once it comes (`resend_from`)
    DUPLICATE = "duplicate"  # an id or a sequence number already received: nothing changes
    UNAUTHENTICATED = "unauthenticated"  # an unknown system or sender, a bad signature, a stale or future timestamp
    MALFORMED = "malformed"  # not the JSON envelope it claims, or an unknown kind or sequence
    UNAVAILABLE = "unavailable"  # a heartbeat whose replay check the cache cannot make now: send it again later


@dataclass(frozen=True, slots=True)
class InboxResult:
    """The inbox's answer to one request: its outcome and the JSON body for the sender — `ack` (the SHA-256 of
    the body received) whenever it was accepted, or repeats a message accepted before; `acks` for each message of
    a batch; `resend_from` after a gap; `error`, the reason, when refused (logged with the request)."""

    outcome: InboxOutcome
    body: dict

    @property
    def reason(self) -> str | None:
        """Why the request was refused, or None."""
        return self.body.get("error")


def _reject(*, raw: bytes, sender: str, message_id: str, outcome: InboxOutcome, reason: str) -> InboxResult:
    RejectedMessage.objects.create(sender=sender[:40], message_id=message_id[:64], reason=reason[:300],
                                   body_hash=body_hash(raw))
    log.warning("multicasino: rejected %s from %s: %s", message_id, sender, reason)
    return InboxResult(outcome, {"error": reason})


@dataclass(frozen=True, slots=True)
class _Envelope:
    """A request the inbox authenticated: the peer that signed it, its id and what it carries."""

    peer: Site
    message_id: str
    kind: str
    sequence: Any
    body: Any


def _authenticated(*, headers: dict[str, str], raw: bytes) -> _Envelope | InboxResult:
    """Only the peers of a system reach its data (N.J.A.C. 13:69F-14.20(e)3): the request's sender is a casino of the
    system named in its headers with a link here; its Standard Webhooks signature verifies with one of the link's
    inbound secrets, within ±5 minutes; the signed envelope names the same system and sender. `headers`: lower-case
    names. The envelope, or the refusal (UNAUTHENTICATED, MALFORMED), logged."""
    sender, message_id = headers.get("x-pokerroom-site", ""), headers.get("webhook-id", "")
    peer = (Site.objects.select_related("system", "link").filter(
        system__code=headers.get("x-pokerroom-system", ""), code=sender, is_self=False).first())
    if peer is None or not hasattr(peer, "link"):
        return _reject(raw=raw, sender=sender, message_id=message_id, outcome=InboxOutcome.UNAUTHENTICATED,
                       reason="Unknown sender")
    text = raw.decode("utf-8", errors="replace")
    try:
        verify(text=text, headers=headers, secrets=peer.link.inbound_secrets)
    except WebhookVerificationError as exc:
        return _reject(raw=raw, sender=sender, message_id=message_id, outcome=InboxOutcome.UNAUTHENTICATED,
                       reason=f"Signature: {exc}")
    try:
        envelope = json.loads(text)
        kind, sequence, body = envelope["kind"], envelope.get("sequence"), envelope["body"]
        if envelope.get("sender") != sender or envelope.get("system") != peer.system.code:
            raise ValueError("envelope names another sender")
    except (ValueError, KeyError, TypeError) as exc:
        return _reject(raw=raw, sender=sender, message_id=message_id, outcome=InboxOutcome.MALFORMED,
                       reason=f"Malformed body: {exc}")
    return _Envelope(peer=peer, message_id=message_id, kind=kind, sequence=sequence, body=body)


def _replayed(*, envelope: _Envelope, raw: bytes) -> InboxResult | None:
    """An unsequenced envelope (a heartbeat, a batch) signed and sent again is refused (N.J.A.C. 13:69F-14.20(e)3):
    its id is remembered for 15 minutes, longer than the ±5 minutes a signature is good for. DUPLICATE for an id seen;
    UNAVAILABLE for a heartbeat when the cache cannot say (Redis down: apps.core.cache), as a heartbeat is never applied
    unchecked; None to go on — a batch goes on without the cache, each of its messages stored once by the database's
    unique id."""
    first_time = try_add(f"multicasino:seen:{envelope.peer.pk}:{envelope.message_id}", timeout=900)
    if first_time is False:
        return _reject(raw=raw, sender=envelope.peer.code, message_id=envelope.message_id,
                       outcome=InboxOutcome.DUPLICATE, reason="Repeated id")
    if first_time is None and envelope.kind == MessageKind.HEARTBEAT:
        return InboxResult(InboxOutcome.UNAVAILABLE, {"error": "Replay check unavailable; send again later"})
    return None


def receive(*, headers: dict[str, str], raw: bytes, now: datetime | None = None) -> InboxResult:
    """The inbox (N.J.A.C. 13:69F-14.20(e)2-complete): apply one message from a peer, authenticated first
    (`_authenticated`, `_replayed`), completely and in order.

    Refused, logged and without effect: an unknown system or sender, a bad signature or a timestamp outside
    ±5 minutes (UNAUTHENTICATED), a body that is not the JSON it claims (MALFORMED), a repeated id (DUPLICATE,
    with the acknowledgement of the first receipt so a retrying sender stops). Otherwise the message is stored
    once (unique sender and id) and applied in sequence order (ACCEPTED); after a gap it waits (GAP, with
    `resend_from`). Every answer that accepts carries `ack`, the SHA-256 of the body received.
    """
    now = now or timezone.now()
    envelope = _authenticated(headers={k.lower(): v for k, v in headers.items()}, raw=raw)
    if isinstance(envelope, InboxResult):
        return envelope
    peer, message_id, kind, sequence, body = (envelope.peer, envelope.message_id, envelope.kind, envelope.sequence,
                                              envelope.body)
    sender = peer.code
    ack = body_hash(raw)
    if kind in (MessageKind.HEARTBEAT, MessageKind.BATCH):
        if refused := _replayed(envelope=envelope, raw=raw):
            return refused
        if kind == MessageKind.BATCH:
            return _receive_batch(peer=peer, raw=raw, body=body, now=now)
        apply_heartbeat(peer=peer, body=body, now=now)
        return InboxResult(InboxOutcome.ACCEPTED, {"ack": ack})
    if kind not in MessageKind.values or not isinstance(sequence, int) or sequence < 1:
        return _reject(raw=raw, sender=sender, message_id=message_id, outcome=InboxOutcome.MALFORMED,
                       reason="Unknown kind or sequence")
    with transaction.atomic():
        link = Link.objects.select_for_update().get(pk=peer.link.pk)
        first = InboxMessage.objects.filter(link=link, message_id=message_id).first()
        if first is not None:
            _reject(raw=raw, sender=sender, message_id=message_id, outcome=InboxOutcome.DUPLICATE,
                    reason="Repeated id")
            return InboxResult(InboxOutcome.DUPLICATE, {"error": "Repeated id", "ack": first.body_hash})
        if sequence < link.next_in_sequence or InboxMessage.objects.filter(link=link, sequence=sequence).exists():
            return _reject(raw=raw, sender=sender, message_id=message_id, outcome=InboxOutcome.DUPLICATE,
                           reason=f"Sequence {sequence} already received")
        try:
            with transaction.atomic():
                InboxMessage.objects.create(link=link, message_id=message_id, sequence=sequence, kind=kind, body=body,
                                            body_hash=ack)
        except IntegrityError:
            return _reject(raw=raw, sender=sender, message_id=message_id, outcome=InboxOutcome.DUPLICATE,
                           reason="Repeated id")
        _apply_in_order(link=link, now=now)
        link.refresh_from_db(fields=["next_in_sequence"])
        peer.last_heard_at = now
        peer.save(update_fields=["last_heard_at"])
    if link.next_in_sequence <= sequence:
        return InboxResult(InboxOutcome.GAP, {"ack": ack, "resend_from": link.next_in_sequence})
    return InboxResult(InboxOutcome.ACCEPTED, {"ack": ack})


def _receive_batch(*, peer: Site, raw: bytes, body: dict, now: datetime) -> InboxResult:
    """Consecutive messages signed together: each is stored once (by its own id), all are applied in sequence
    order in one transaction; `acks` holds the SHA-256 of each message's text as stored (a message already
    received is acknowledged with its first receipt's hash). After a gap: GAP, with `resend_from`."""
    try:
        items = [(str(m["id"]), m["sequence"], m["kind"], m["body"]) for m in body["messages"]]
        if any(k not in MessageKind.values or k in (MessageKind.BATCH, MessageKind.HEARTBEAT)
               or not isinstance(q, int) or q < 1 for _, q, k, _ in items):
            raise ValueError("unknown kind or sequence")
    except (KeyError, TypeError, ValueError) as exc:
        return _reject(raw=raw, sender=peer.code, message_id="batch", outcome=InboxOutcome.MALFORMED,
                       reason=f"Malformed batch: {exc}")
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
            digest = body_hash(item_text(message_id=message_id, sequence=sequence, kind=kind, body=message_body))
            InboxMessage.objects.create(link=link, message_id=message_id, sequence=sequence, kind=kind,
                                        body=message_body, body_hash=digest)
            taken.add(sequence)
            acks[message_id] = digest
        _apply_in_order(link=link, now=now)
        link.refresh_from_db(fields=["next_in_sequence"])
        Site.objects.filter(pk=peer.pk).update(last_heard_at=now)
    answer: dict[str, Any] = {"ack": body_hash(raw), "acks": acks}
    if InboxMessage.objects.filter(link=link, applied_at__isnull=True).exists():
        answer["resend_from"] = link.next_in_sequence
        return InboxResult(InboxOutcome.GAP, answer)
    return InboxResult(InboxOutcome.ACCEPTED, answer)


#: What applying each kind of sequenced message does, by the receiving side's role: (peer, body, now).
_APPLIERS: dict[str, Callable[[Site, Any, datetime], object]] = {
    MessageKind.CONTRIBUTION: lambda peer, body, now: apply_peer_contribution(site=peer, body=body),
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
