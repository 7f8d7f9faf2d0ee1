"""Celery beat: close each casino's gaming day at its own boundary."""
from celery import shared_task

from .services import close_due_gaming_days


@shared_task(acks_late=True)
def close_gaming_days() -> list[str]:
    """Close the gaming day that ended last at every casino of this deployment (idempotent; runs every five
    minutes, so each casino's day is closed within minutes of its gaming-day boundary)."""
    return [f"{c.casino.code} {c.gaming_day}" for c in close_due_gaming_days()]
