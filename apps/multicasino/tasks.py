"""Celery: send on commit, the sweeper, heartbeats and the suspension check (idempotent, thin)."""
from celery import shared_task

from . import services


@shared_task(acks_late=True)
def send_message(message_pk: int) -> bool:
    """Send one outbox message (no-op once acknowledged)."""
    return services.deliver(message_pk=message_pk)


@shared_task(acks_late=True)
def sweep_outbox() -> int:
    """Send again whatever is unacknowledged and due (backoff is kept on each message)."""
    return services.sweep_outbox()


@shared_task(acks_late=True)
def heartbeat() -> int:
    """Heartbeats to every peer, then suspend or resume by what was heard."""
    return services.send_heartbeats()
