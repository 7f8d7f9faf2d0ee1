"""Payouts and resets of a bad beat payout (N.J.A.C. 13:69F-14.19(i)2, (j), 14.19(p)-reset, 14.19(p)-documented): the
delivery of a verified payout, which takes the amount from the jackpot and seeds it with its reset reserve;
security's or accounting's acknowledgement of the notice to deliver it; the documented reset amount of each gaming
day."""
from __future__ import annotations

from datetime import date

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from apps.casinos.models import User
from apps.casinos.selectors import current_gaming_day
from apps.casinos.services import hold_open_gaming_days
from apps.core.exceptions import DomainError
from apps.core.money import ZERO
from apps.core.roles import Role

from ..models import (
    Claim,
    ClaimStatus,
    DailyReset,
    Jackpot,
    JackpotStatus,
    Payout,
    PayoutLocation,
    PayoutMethod,
    PayoutNotification,
    ResetSeed,
)
from .claims import _mark_shared_claim_paid, shared_payout
from .locking import drawn_from, lock_jackpots_by_id


@transaction.atomic
def record_payout(*, claim: Claim, method: str, location: str, delivered_by: User,
                  recorded_by: User) -> Payout | Claim:
    """Record the delivery of a verified payout (N.J.A.C. 13:69F-14.19(i)2, (j)): in cash, a cash equivalent or
    chips, at the table or the cage, delivered by security or accounting. The amount leaves the jackpot (or,
    for a secondary funded from the primary, the primary, 14.19(m)2-deducted); a payout won from its own fund is then
    seeded with its reset reserve (`_seed_next_payout`). Returns the Payout; for a payout shared with other casinos
    (14.20), the claim, which the system's pool pays. Raises DomainError naming the field."""
    if method not in PayoutMethod.values:
        raise DomainError(f"Choose one of {', '.join(PayoutMethod.labels)}.", field="method")
    if location not in PayoutLocation.values:
        raise DomainError("At the table or at the cage.", field="location")
    if not delivered_by.has_role(Role.SECURITY, Role.ACCOUNTING):
        raise DomainError("A representative of security or accounting delivers the payout (14.19(i)2).",
                          field="delivered_by")
    if system := shared_payout(claim.jackpot):  # paid here from the system's pool: the shares, then the system
        return system.record_payout(claim=_mark_shared_claim_paid(claim=claim, delivered_by=delivered_by),
                                    method=method, location=location, delivered_by=delivered_by,
                                    recorded_by=recorded_by)
    claim = Claim.objects.select_for_update(of=("self",)).select_related("jackpot").get(pk=claim.pk)
    if claim.status != ClaimStatus.VERIFIED:
        raise DomainError("Only a verified claim is paid.", field="claim")
    if delivered_by.casino_id != claim.jackpot.casino_id:
        raise DomainError("The person delivering works at another casino.", field="delivered_by")
    debited_id = drawn_from(claim.jackpot)
    locked = lock_jackpots_by_id(claim.jackpot_id, debited_id)
    jackpot, debited = locked[claim.jackpot_id], locked[debited_id]
    amount = claim.payout_amount
    if amount is None:  # verified without an amount: a claim the host of a multi-casino system was to freeze
        raise DomainError("This payout's amount has not been frozen: it cannot be delivered yet.", field="claim")
    if debited.balance < amount:
        raise DomainError(f"{debited.name} holds ${debited.balance:,.2f}, less than ${amount:,.2f}.", field="claim")
    today = current_gaming_day(casino=jackpot.casino)
    hold_open_gaming_days(casino=jackpot.casino, days=[today], what="a payout")
    payout = Payout.objects.create(claim=claim, debited=debited, amount=amount, method=method, location=location,
                                   delivered_by=delivered_by, recorded_by=recorded_by, gaming_day=today)
    debited.balance -= amount
    _seed_next_payout(won=jackpot, debited=debited, payout=payout)
    debited.save(update_fields=["balance", "reset_reserve", "updated_at"])
    if not jackpot.claims.filter(status=ClaimStatus.VERIFIED).exclude(pk=claim.pk).exists():
        Jackpot.objects.filter(pk=jackpot.pk).update(status=JackpotStatus.ACTIVE)
    claim.status = ClaimStatus.PAID
    claim.save(update_fields=["status"])
    claim.notifications.filter(acknowledged_at__isnull=True).update(acknowledged_by=delivered_by,
                                                                    acknowledged_at=timezone.now())
    return payout


def _seed_next_payout(*, won: Jackpot, debited: Jackpot, payout: Payout) -> None:
    """A payout won from its own fund seeds the next one with its reset reserve (N.J.A.C. 13:69F-14.19(p)-reset): the
    reserve moves to the balance, recorded as a ResetSeed of `payout`; nothing moves when the reserve is empty, or
    when `debited`, the fund that paid, is not the payout `won` (a secondary funded from a portion of the primary:
    the primary was not won). Changes `debited` in memory; the caller saves it under its lock."""
    if debited.pk == won.pk and debited.reset_reserve > 0:
        ResetSeed.objects.create(jackpot=debited, payout=payout, amount=debited.reset_reserve)
        debited.balance += debited.reset_reserve
        debited.reset_reserve = ZERO


@transaction.atomic
def acknowledge_notification(*, notification: PayoutNotification, user: User) -> PayoutNotification:
    """Security or accounting takes charge of delivering a payout (14.19(i)2)."""
    if not user.has_role(Role.SECURITY, Role.ACCOUNTING):
        raise DomainError("Security or accounting acknowledges a payout notice.", field="user")
    notification = PayoutNotification.objects.select_for_update().get(pk=notification.pk)
    if notification.acknowledged_at is None:
        notification.acknowledged_by, notification.acknowledged_at = user, timezone.now()
        notification.save(update_fields=["acknowledged_by", "acknowledged_at"])
    return notification


@transaction.atomic
def document_daily_reset(*, jackpot: Jackpot, gaming_day: date) -> DailyReset | None:
    """Document the reset amount of a gaming day (N.J.A.C. 13:69F-14.19(p)-documented): the day's contributions, the
    posted percentage and the amount set aside for the next payout. Idempotent; None for a jackpot funded from
    the primary (it has no contributions of its own)."""
    if jackpot.funded_from_primary:
        return None
    existing = DailyReset.objects.filter(jackpot=jackpot, gaming_day=gaming_day).first()
    if existing:
        return existing
    totals = jackpot.contributions.filter(gaming_day=gaming_day).aggregate(
        amount=Sum("amount", default=ZERO), to_reset=Sum("to_reset", default=ZERO))
    percentage = jackpot.reset_percentage
    reset, _ = DailyReset.objects.get_or_create(
        jackpot=jackpot, gaming_day=gaming_day,
        defaults={"contributions": totals["amount"], "percentage": percentage, "amount": totals["to_reset"]})
    return reset
