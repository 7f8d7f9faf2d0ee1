"""Celery beat: posted rule changes take effect at their time."""
from celery import shared_task

from apps.core.unavailable import RETRY_ON_DATABASE

from .services import apply_due_rule_changes


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def apply_rule_changes() -> int:
    """Put into effect the rule changes whose notice period has passed (14.19(q)-notice); idempotent. Each change is
    applied on its own: one that cannot take effect is marked failed with the reason and the others go on
    (`apply_due_rule_changes` raises nothing for a bad change). Returns how many took effect."""
    return apply_due_rule_changes()
