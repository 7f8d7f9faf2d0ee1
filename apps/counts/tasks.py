"""Celery beat: close each casino's gaming day at its own boundary."""
from celery import shared_task
from django.conf import settings

from apps.core.unavailable import RETRY_ON_DATABASE, statement_timeout

from .services import close_due_gaming_days


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def close_gaming_days() -> list[str]:
    """Close the gaming day that ended last at every casino of this deployment (idempotent; runs every five
    minutes, so each casino's day is closed within minutes of its gaming-day boundary). Its ledger check sums
    history: its statements may run up to settings.DATABASE_LONG_STATEMENT_TIMEOUT_MS."""
    with statement_timeout(settings.DATABASE_LONG_STATEMENT_TIMEOUT_MS):
        return [f"{c.casino.code} {c.gaming_day}" for c in close_due_gaming_days()]
