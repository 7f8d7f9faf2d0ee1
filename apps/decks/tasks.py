"""Celery beat: the deck-rotation alerts, every minute."""
from celery import shared_task

from apps.casinos.models import Casino
from apps.core.unavailable import RETRY_ON_DATABASE

from .services import refresh_deck_alerts


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def refresh_all_deck_alerts() -> dict[str, tuple[int, int]]:
    """Raise and clear the rotation alerts of every casino of this deployment (idempotent)."""
    return {casino.code: refresh_deck_alerts(casino=casino) for casino in Casino.objects.all()}
