"""Heartbeats, suspension and resumption (N.J.A.C. 13:69F-14.20(a), 14.20(e)4-notify): every peer hears this casino's
rules hash and running total, and from the host the official pool and every participating casino; a peer silent too
long, or holding other rules, is suspended, and it resumes only when heard again with the same rules and nothing left to
deliver."""
from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from apps.core.money import money

from ..models import (
    BadBeatSystem,
    Link,
    MessageKind,
    Notice,
    OutboxMessage,
    Site,
    SystemStatus,
    UndeliveredNotice,
)
from ..signing import canonical
from .common import linked_peers, self_site, the_host
from .contributions import site_total
from .outbox import post_signed, send_later

log = logging.getLogger(__name__)


def apply_heartbeat(*, peer: Site, body: dict, now: datetime) -> None:
    """A peer is alive: when heard, its rules hash, its running total; from the host, the official pool. A peer
    heard while messages to it are backing off gets them at once rather than at the end of the backoff."""
    lowest = OutboxMessage.objects.filter(link=peer.link, acked_at__isnull=True).order_by("sequence").first()
    if lowest is not None and lowest.next_attempt_at and lowest.next_attempt_at > now:
        # the peer is alive: what was backing off is sent now (after a restart, within one heartbeat)
        OutboxMessage.objects.filter(pk=lowest.pk).update(next_attempt_at=now)
        transaction.on_commit(lambda: send_later(lowest.pk))
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
    first heartbeat (14.20(d)1-participants). A casino this site has no link with shows its status as the host sees
    it."""
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
        body: dict[str, Any] = {"rules_hash": system.rules_hash, "total": f"{site_total(system=system):.2f}",
                                "sent_at": now.isoformat()}
        if me.is_host:
            body["pool"] = f"{system.pool:.2f}"
            body["participants"] = [{"code": s.code, "name": s.name, "address": s.address, "status": s.status}
                                    for s in system.sites.all()]
        for peer in linked_peers(system):
            text = canonical({"kind": MessageKind.HEARTBEAT, "sequence": None, "system": system.code,
                              "sender": me.code, "body": body})
            try:
                post_signed(link=peer.link, me=me, message_id=f"hb_{uuid.uuid4().hex}", text=text, now=now)
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


def _rules_differ(peer: Site, system: BadBeatSystem) -> bool:
    """Whether `peer` holds other rules than this casino's (N.J.A.C. 13:69F-14.20(a): one payout, interconnected, under
    one rule set): the rules hash of its last heartbeat differs from the system's here. A peer that has reported none
    yet does not differ (its silence is a reason of its own)."""
    return bool(peer.reported_rules_hash) and peer.reported_rules_hash != system.rules_hash


def refresh_status(*, system: BadBeatSystem, now: datetime | None = None) -> str:
    """Suspend or resume (N.J.A.C. 13:69F-14.20(e)4-notify: no further payouts until it is operational). A peer is
    suspended after `silence_seconds` without a word, or when its rules hash differs from ours; it resumes only
    when it is heard again, its rules hash matches and its backlog (every message written until it was heard
    again) has been acknowledged. At a site,
    its own casino is suspended whenever the host is. Returns this casino's status."""
    now = now or timezone.now()
    system = BadBeatSystem.objects.get(pk=system.pk)
    silence = timedelta(seconds=system.silence_seconds)
    for peer in linked_peers(system):
        reasons = []
        if peer.last_heard_at is None or now - peer.last_heard_at > silence:
            reasons.append(f"no word for more than {system.silence_seconds} s")
        if _rules_differ(peer, system):
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
        host = the_host(system)
        _set_status(me, host.status, f"link with the host: {host.status_reason}" if host.status_reason else "", now)
    return me.status
