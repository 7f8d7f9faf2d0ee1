"""The row locks of bad beat payouts (N.J.A.C. 13:69F-14.19): every write that moves a jackpot's balance, rules or
status takes them first, always in primary-key order, so that two writers never deadlock on the same jackpots."""
from __future__ import annotations

from ..models import Jackpot


def lock_jackpots_by_id(*jackpot_ids: int) -> dict[int, Jackpot]:
    """Row-lock jackpots in primary-key order (no deadlock between two writers) and return them by id. Call inside
    a transaction; an id given twice is locked once."""
    locked = Jackpot.objects.select_for_update().filter(pk__in=jackpot_ids).order_by("pk")
    return {j.pk: j for j in locked}


def lock_casino_jackpots(*, casino_id: int) -> list[Jackpot]:
    """Row-lock every jackpot of a casino, in primary-key order. Counts take this lock so that no contribution
    commits while they read the contributions of a box (every contribution is written under it)."""
    return list(Jackpot.objects.select_for_update().filter(casino_id=casino_id).order_by("pk"))


def drawn_from(jackpot: Jackpot) -> int:
    """The primary key of the jackpot whose balance pays `jackpot`'s payout: its primary's when it is a secondary
    funded from a portion of the primary (14.19(m)2-deducted), its own otherwise. `create_secondary_jackpot` always
    names the primary of a payout funded from it."""
    if not jackpot.funded_from_primary:
        return jackpot.pk
    assert jackpot.primary_id is not None, f"Jackpot {jackpot.pk} is funded from a primary it does not name."
    return jackpot.primary_id
