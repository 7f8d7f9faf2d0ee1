"""Writes of the project's plumbing: unlocking a locked sign-in, expiring Idempotency-Keys."""
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from axes.models import AccessAttempt
from django.db import transaction
from django.db.models import Max, Q, Sum

from apps.core.exceptions import DomainError

from .models import SignInUnlock


@transaction.atomic
def unlock_sign_in(*, attempts: Iterable[AccessAttempt], unlocked_by: Any, reason: str = "") -> list[SignInUnlock]:
    """Clear the failed sign-ins behind each of `attempts` (django-axes' records of a user name, an address and a
    browser): every failure of its user name and every failure from its address, so that neither lockout holds.
    One SignInUnlock row per user name and address cleared records who unlocked, whom, and when.

    Raises DomainError unless `unlocked_by` is an administrator (core.unlock_sign_in)."""
    if not unlocked_by.has_perm("core.unlock_sign_in"):
        raise DomainError("Only an administrator may unlock a sign-in.")
    unlocks = []
    seen: set[tuple[str | None, str | None]] = set()
    for attempt in attempts:
        key = (attempt.username, attempt.ip_address)
        if key in seen:
            continue
        seen.add(key)
        cleared = AccessAttempt.objects.filter(Q(username=attempt.username) | Q(ip_address=attempt.ip_address))
        totals = cleared.aggregate(failures=Sum("failures_since_start", default=0), last=Max("attempt_time"))
        if not totals["failures"]:
            continue  # cleared already with an earlier row of the same user name or address
        cleared.delete()
        unlocks.append(SignInUnlock.objects.create(
            unlocked_by=unlocked_by, username=attempt.username or "", ip_address=attempt.ip_address,
            failures=totals["failures"], last_failure_at=totals["last"], reason=reason[:300]))
    return unlocks


def delete_expired_idempotency_keys(*, now: datetime | None = None) -> int:
    """Delete every Idempotency-Key past its IDEMPOTENCY_KEY_HOURS (24) hours (apps.core.idempotency); returns how many.
    A key still locked by a running request is past nothing: it was made less than a request's time ago."""
    from django.utils import timezone

    from .models import IdempotencyKey

    deleted, _ = IdempotencyKey.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted


def delete_expired_api_tokens(*, now: datetime | None = None) -> int:
    """Delete every API token (knox) past its expiry; returns how many. A request presenting an expired token is
    refused and deletes it itself (apps.core.authentication); this purges the ones nobody presents again."""
    from django.utils import timezone
    from knox.models import get_token_model

    deleted: int  # knox ships no types
    deleted, _ = get_token_model().objects.filter(expiry__lt=now or timezone.now()).delete()
    return deleted
