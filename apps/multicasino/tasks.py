"""Celery: send on commit, the sweeper, heartbeats and the suspension check (idempotent, thin)."""
from celery import shared_task

from . import services


@shared_task(acks_late=True)
def send_message(message_pk: int) -> int:
    """Send the new message's link in sequence order (a no-op when another worker is sending on it)."""
    return services.send_from(message_pk=message_pk)


@shared_task(acks_late=True)
def sweep_outbox() -> int:
    """Send again whatever is unacknowledged and due (backoff is kept on each message)."""
    return services.sweep_outbox()


@shared_task(acks_late=True)
def heartbeat() -> int:
    """Rule changes due at the host, then heartbeats to every peer, then suspend or resume by what was heard."""
    services.apply_due_system_rules()
    return services.send_heartbeats()
