"""Discontinuing a bad beat payout (N.J.A.C. 13:69F-14.19(l)-discontinue): its funds go to another live payout of the
casino, so that all of them are paid to players."""
from __future__ import annotations

from django.db import transaction

from apps.casinos.models import User
from apps.core.exceptions import DomainError
from apps.core.money import ZERO
from apps.core.roles import Role

from ..models import ClaimStatus, Funding, Jackpot, JackpotStatus, Transfer
from .locking import lock_jackpots_by_id


@transaction.atomic
def discontinue_jackpot(*, jackpot: Jackpot, target: Jackpot, reason: str, made_by: User) -> Transfer:
    """Discontinue a bad beat payout (N.J.A.C. 13:69F-14.19(l)-discontinue): contributions stop (14.19(c)-terminate)
    and its whole amount and reset reserve are transferred to another live bad beat payout of the casino, so that
    all funds are paid to players (14.19(a)-all-to-players). Refused while a payout is pending, to the same or a
    discontinued payout, or while a secondary payout funded from this one is still offered. Raises DomainError naming
    the field."""
    if not made_by.has_role(Role.ADMIN, Role.POKER_SHIFT_SUPERVISOR) and not made_by.is_superuser:
        raise DomainError("A supervisor or an administrator discontinues a payout.", field="made_by")
    if not reason.strip():
        raise DomainError("Give the reason, as in the procedures submitted to the Division (14.19(l)).",
                          field="reason")
    if target.pk == jackpot.pk:
        raise DomainError("Transfer to another bad beat payout.", field="target")
    locked = lock_jackpots_by_id(jackpot.pk, target.pk)
    source, target = locked[jackpot.pk], locked[target.pk]
    if target.casino_id != source.casino_id:
        raise DomainError("The other payout must be offered by the same casino.", field="target")
    if source.status == JackpotStatus.DISCONTINUED:
        raise DomainError("This payout is already discontinued.", field="jackpot")
    if source.status == JackpotStatus.PAYOUT_PENDING or source.claims.filter(status=ClaimStatus.VERIFIED).exists():
        raise DomainError("A payout is pending: pay it first.", field="jackpot")
    if target.status == JackpotStatus.DISCONTINUED or target.funded_from_primary:
        raise DomainError("Transfer to a live payout that holds its own funds.", field="target")
    if source.secondaries.filter(funding=Funding.PRIMARY_PORTION).exclude(
            status=JackpotStatus.DISCONTINUED).exists():
        raise DomainError("Discontinue the secondary payout funded from this one first.", field="jackpot")
    transfer = Transfer.objects.create(source=source, target=target, amount=source.balance,
                                       reset_amount=source.reset_reserve, reason=reason.strip()[:300],
                                       made_by=made_by)
    target.balance += source.balance
    target.reset_reserve += source.reset_reserve
    target.save(update_fields=["balance", "reset_reserve", "updated_at"])
    source.balance = source.reset_reserve = ZERO
    source.is_collecting, source.status = False, JackpotStatus.DISCONTINUED
    source.save(update_fields=["balance", "reset_reserve", "is_collecting", "status", "updated_at"])
    return transfer
