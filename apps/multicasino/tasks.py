"""Celery: send on commit, the sweeper, heartbeats and the suspension check (idempotent, thin)."""
from celery import shared_task

from apps.core.unavailable import RETRY_ON_DATABASE

from .services import heartbeats, outbox, rules


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def send_message(message_pk: int) -> int:
    """Send the new message's link in sequence order (a no-op when another worker is sending on it)."""
    return outbox.send_from(message_pk=message_pk)


@shared_task(acks_late=True)
def sweep_outbox() -> int:
    """Send again whatever is unacknowledged and due (backoff is kept on each message)."""
    return outbox.sweep_outbox()


@shared_task(acks_late=True)
def heartbeat() -> int:
    """Rule changes due at the host, then heartbeats to every peer, then suspend or resume by what was heard."""
    rules.apply_due_system_rules()
    return heartbeats.send_heartbeats()
