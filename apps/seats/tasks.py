"""Celery beat: the seats' and waitlists' posted rules applied on time (settings.CELERY_BEAT_SCHEDULE). Each task is
thin and idempotent: it calls one service, and a second run at the same moment changes nothing."""
from celery import shared_task

from apps.core.unavailable import RETRY_ON_DATABASE

from .services import apply_away_limit, expire_remote_sign_ups, purge_player_data


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def expire_sign_ups() -> int:
    """Phone sign-ups not checked in within the posted time leave their lists (services.expire_remote_sign_ups)."""
    return expire_remote_sign_ups()


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def enforce_away_limit() -> int:
    """Seats of players away past the posted limit are vacated (services.apply_away_limit)."""
    return apply_away_limit()


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def purge_players() -> int:
    """Names and phone numbers past the posted retention period are removed (services.purge_player_data)."""
    return purge_player_data()
