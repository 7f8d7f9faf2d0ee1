"""The displayed amount of a bad beat payout (N.J.A.C. 13:69F-14.19(k)1, 14.19(k)-daily, 14.19(k)-upon-verification,
14.19(o)): accounting sets it to its record in a poker supervisor's presence, and it goes down only after money was
paid out."""
from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from apps.casinos.models import User
from apps.casinos.selectors import current_gaming_day
from apps.casinos.services import hold_open_gaming_days
from apps.core.exceptions import DomainError
from apps.core.money import money
from apps.core.roles import Role

from ..models import DisplayAdjustment, DisplayReason, Jackpot
from ..selectors import last_display_adjustment, paid_since, payable_amount
from .locking import drawn_from, lock_jackpots_by_id


@transaction.atomic
def adjust_display(*, jackpot: Jackpot, displayed_amount: Decimal, adjusted_by: User, supervisor_present: User,
                   reason: str = DisplayReason.DAILY) -> DisplayAdjustment:
    """Accounting adjusts a displayed bad beat payout amount and verifies it (N.J.A.C. 13:69F-14.19(k)-daily, at
    least once each gaming day; 14.19(k)-upon-verification, at once after a supervisor's verification, `reason`
    "upon_verification"): recorded as a DisplayAdjustment of the gaming day it is made in (the day's close names
    each display not adjusted that day), and the jackpot's displayed amount set. Who adjusts, in whose presence, is
    `_check_people`'s; the amount, accounting's record and never lower unless paid, `_check_amount`'s. Raises
    DomainError naming the field; nothing is recorded then."""
    _check_people(adjusted_by=adjusted_by, supervisor_present=supervisor_present)
    if reason not in DisplayReason.values:
        raise DomainError(f"Choose one of {', '.join(DisplayReason.values)}.", field="reason")
    source_id = drawn_from(jackpot)  # the jackpot itself, or the primary a secondary is funded from (14.19(m)2)
    locked = lock_jackpots_by_id(jackpot.pk, source_id)
    jackpot, source = locked[jackpot.pk], locked[source_id]
    if jackpot.funded_from_primary:
        jackpot.primary = source
    record = payable_amount(jackpot=jackpot)
    displayed_amount = _check_amount(jackpot=jackpot, source=source, displayed_amount=displayed_amount, record=record)
    today = current_gaming_day(casino=jackpot.casino)
    hold_open_gaming_days(casino=jackpot.casino, days=[today], what="a display adjustment")
    adjustment = DisplayAdjustment.objects.create(
        jackpot=jackpot, previous_amount=jackpot.displayed_amount, displayed_amount=displayed_amount,
        accounting_amount=record, reason=reason, adjusted_by=adjusted_by, supervisor_present=supervisor_present,
        gaming_day=today)
    jackpot.displayed_amount = displayed_amount
    jackpot.save(update_fields=["displayed_amount", "updated_at"])
    return adjustment


def _check_people(*, adjusted_by: User, supervisor_present: User) -> None:
    """A casino accounting department representative adjusts the display, in the presence of a poker supervisor
    who is someone else (N.J.A.C. 13:69F-14.19(k)1). Raises DomainError naming the field."""
    if not adjusted_by.has_role(Role.ACCOUNTING):
        raise DomainError("A casino accounting department representative adjusts the display (14.19(k)).",
                          field="adjusted_by")
    if not supervisor_present.has_role(Role.POKER_SHIFT_SUPERVISOR) or supervisor_present.pk == adjusted_by.pk:
        raise DomainError("A poker supervisor must be present, other than the one adjusting (14.19(k)1).",
                          field="supervisor_present")


def _check_amount(*, jackpot: Jackpot, source: Jackpot, displayed_amount: Decimal, record: Decimal) -> Decimal:
    """The amount to display, Decimal dollars: accounting's record of the payout, `record` (N.J.A.C.
    13:69F-14.19(k)2), and lower than what is displayed only when the payout drawn from `source` was paid since the
    last adjustment (14.19(o)). Raises DomainError (field "displayed_amount")."""
    try:
        amount = money(displayed_amount)
    except Exception as exc:
        raise DomainError("Give the amount displayed, in dollars and cents.", field="displayed_amount") from exc
    if amount != record:
        raise DomainError(f"The display must show accounting's record, ${record:,.2f} (14.19(k)2).",
                          field="displayed_amount")
    if amount < jackpot.displayed_amount:
        last = last_display_adjustment(jackpot=jackpot)
        if not paid_since(jackpot=source, moment=last.created_at if last else None):
            raise DomainError(f"The display shows ${jackpot.displayed_amount:,.2f}; it may not go down unless the "
                              "payout was paid (14.19(o)).", field="displayed_amount")
    return amount
