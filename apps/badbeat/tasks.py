"""Celery beat: posted rule changes take effect at their time."""
from celery import shared_task

from .services import apply_due_rule_changes


@shared_task(acks_late=True)
def apply_rule_changes() -> int:
    """Put into effect the rule changes whose notice period has passed (14.19(q)); idempotent."""
    return apply_due_rule_changes()
