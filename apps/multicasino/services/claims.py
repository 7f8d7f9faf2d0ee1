"""Claims, notices and payouts of a system's payout (N.J.A.C. 13:69F-14.20(e)4-notify, 14.20(e)4-document,
14.20(e)4-two-claims with 14.19(i), (j)): a site sends a claim its supervisor verified to the host, which orders claims
by arrival, freezes the pool for the first and answers a second by the agreement, and tells every casino at once; a site
delivers and documents the payout, which the host takes from the pool once. Badbeat calls this module through the
registered system (shared_payout.py) after doing its own part; this module calls badbeat's services only for what the
host decided."""
from __future__ import annotations

import logging
import uuid
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.badbeat import services as badbeat
from apps.badbeat.models import Claim, ClaimStatus
from apps.casinos.models import User
from apps.core.exceptions import DomainError
from apps.core.money import CENT, ZERO, floor_to, money

from ..models import (
    BadBeatSystem,
    MessageKind,
    Notice,
    NoticeKind,
    PoolMovement,
    PoolMovementKind,
    Site,
    SystemClaim,
    SystemClaimStatus,
    SystemStatus,
    TwoClaimsRule,
    UndeliveredNotice,
)
from .common import funded_system, linked_peers, own_site, person_name
from .heartbeats import refresh_status
from .outbox import enqueue, tell_host

log = logging.getLogger(__name__)


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
def submit_claim(*, claim: Claim, supervisor: User, now: datetime | None = None) -> SystemClaim:
    """A claim on the system's payout that a poker shift supervisor has just verified at this casino with the
    engine (badbeat's verify_claim: the hands and cards as judged, 14.19(i)) goes to the host, which orders claims
    by arrival and freezes the amount (14.20(e)4-two-claims, 14.20(e)4-notify); this casino keeps its copy. At the
    host's own casino the claim is applied at once, as its inbox applies a site's. Call in the transaction that verified
    it: a DomainError rolls the verification back with it. Raises DomainError when the system is suspended at this
    casino (no multi-casino claim is opened while it is, 14.20(e)4-two-claims, 14.20(e)4-notify) or the claim was not
    verified here."""
    now = now or timezone.now()
    system = funded_system(jackpot=claim.jackpot)
    me = own_site(system)
    if refresh_status(system=system, now=now) == SystemStatus.SUSPENDED:
        me.refresh_from_db()
        raise DomainError(f"The {system.name} is suspended at this casino ({me.status_reason}): no multi-casino "
                          "claim can be opened until it resumes (14.20(e)4.i).", field="status")
    if claim.status != ClaimStatus.VERIFIED:
        raise DomainError("Only a claim verified here with the engine goes to the host.", field="claim")
    body: dict[str, Any] = {"reference": str(claim.pk), "table_number": claim.round_of_play.table.number,
            "round_reference": str(claim.round_of_play_id), "losing_hand": claim.losing_hand,
            "losing_cards": claim.losing_cards, "winning_hand": claim.winning_hand,
            "winning_cards": claim.winning_cards, "verified_by": person_name(supervisor),
            "verified_at": now.isoformat()}
    mine = SystemClaim.objects.create(system=system, site=me, reference=body["reference"], verified_at=now,
                                      **{k: body[k] for k in _CLAIM_FIELDS})
    tell_host(system=system, me=me, kind=MessageKind.CLAIM, body=body, now=now, apply_at_host=apply_claim)
    return mine


def _split(total: Decimal, count: int) -> list[Decimal]:
    """`total` dollars in `count` equal parts rounded down to the cent, the odd cents to the first received."""
    part = floor_to(total / count, CENT)
    odd = int((total - part * count) / CENT)
    return [part + (CENT if i < odd else ZERO) for i in range(count)]


def apply_claim(*, site: Site, body: dict, now: datetime) -> SystemClaim:
    """At the host, under the system's row lock: a claim verified at `site` is numbered in the order the host
    received it (never by the sites' clocks). The first valid claim freezes the pool and every casino is told
    at once that the payout is pending; a later claim follows the agreement's rule — refused with the reason
    (first received) or sharing the frozen amount equally (split) — and is answered either way
    (14.20(e)4-notify, 14.20(e)4-two-claims).
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
        frozen = sum((c.amount for c in pending if c.amount is not None), ZERO)  # a pending claim's amount is set
        for member, part in zip(group, _split(frozen, len(group)), strict=True):
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
    """At the host: a notice to every casino at once (14.20(e)4-notify) — one outbox message per link, written
    in this transaction, plus the host's own record. A suspended casino's copy is also recorded as undelivered,
    for delivery by other means."""
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
    if local is not None and claim.status == SystemClaimStatus.PENDING and claim.amount is not None:
        badbeat.freeze_shared_claim(claim=local, amount=claim.amount, note=text)
    elif local is not None and claim.status == SystemClaimStatus.REFUSED:
        badbeat.refuse_shared_claim(claim=local, answer=claim.answer)


@transaction.atomic
def record_system_payout(*, claim: Claim, method: str, location: str, delivered_by: User, recorded_by: User,
                         now: datetime | None = None) -> SystemClaim:
    """The payout of a claim on the system's payout is delivered at this casino (14.19(i)2, (j); 14.20(e)4-document),
    which badbeat has just recorded on its claim (the shares): documented with date, time, amount, hands, casino,
    who delivered it and who authorised it, and reported to the host, which takes it from the pool once and tells
    every casino. Call in the transaction that recorded it. Raises DomainError when the host has not confirmed
    this claim's pending payout, or it is already paid."""
    now = now or timezone.now()
    system = funded_system(jackpot=claim.jackpot)
    me = own_site(system)
    mine = SystemClaim.objects.select_for_update().filter(site=me, reference=str(claim.pk)).first()
    if mine is None or mine.status != SystemClaimStatus.PENDING:
        state = mine.get_status_display().lower() if mine else "not sent to the host"
        raise DomainError(f"This claim is {state}: only a payout the host confirmed as pending is delivered.",
                          field="claim")
    mine.status, mine.paid_at, mine.payout_method, mine.payout_location = SystemClaimStatus.PAID, now, method, location
    mine.delivered_by, mine.authorised_by = person_name(delivered_by), person_name(recorded_by)
    mine.save()
    body = {"reference": mine.reference, "amount": f"{mine.amount:.2f}", "paid_at": now.isoformat(),
            "payout_method": method, "payout_location": location, "delivered_by": mine.delivered_by,
            "authorised_by": mine.authorised_by}
    tell_host(system=system, me=me, kind=MessageKind.PAYOUT, body=body, now=now, apply_at_host=apply_payout)
    return mine


def apply_payout(*, site: Site, body: dict, now: datetime) -> SystemClaim | None:
    """At the host, under the system's row lock: a payout delivered at `site` leaves the pool once (one payout
    movement per claim); when no other claim is pending, the reset reserve seeds the next payout
    (`_seed_next_payout`); every casino is told (14.20(e)4-notify). None for a claim the host never had pending
    (logged, nothing changes)."""
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
    _seed_next_payout(system=system, claim=claim)
    system.save(update_fields=["pool", "reset_reserve", "updated_at"])
    issue_notice(system=system, claim=claim, kind=NoticeKind.PAID, now=now)
    return claim


def _seed_next_payout(*, system: BadBeatSystem, claim: SystemClaim) -> None:
    """At the host, once no claim of the system is pending, its reset reserve seeds the next payout (N.J.A.C.
    13:69F-14.19(p)-reset): moved to the pool, recorded as a reset-seed movement of `claim`, the one just paid;
    nothing moves while another claim is pending or when the reserve is empty. Changes `system` in memory; the
    caller saves it under its lock."""
    if not system.claims.filter(status=SystemClaimStatus.PENDING).exists() and system.reset_reserve > 0:
        PoolMovement.objects.create(system=system, claim=claim, kind=PoolMovementKind.RESET_SEED,
                                    amount=system.reset_reserve)
        system.pool += system.reset_reserve
        system.reset_reserve = ZERO


@transaction.atomic
def record_notice_delivered(*, undelivered: UndeliveredNotice, user: User, means: str,
                            at: datetime | None = None) -> UndeliveredNotice:
    """A notice that could not reach a suspended casino was delivered by other means, by `user`, at `at`
    (14.20(e)4-notify). Raises DomainError without a means, or when it is already recorded."""
    if not means.strip():
        raise DomainError("Say how the notice was delivered (telephone, courier...).", field="means")
    undelivered = UndeliveredNotice.objects.select_for_update().get(pk=undelivered.pk)
    if undelivered.delivered_at is not None:
        raise DomainError("Its delivery is already recorded.", field="means")
    undelivered.delivered_by, undelivered.delivered_at, undelivered.means = user, at or timezone.now(), means.strip()[:200]
    undelivered.save()
    return undelivered
