"""Celery beat: the project's plumbing; `send_task`, how work is handed to the broker."""
import logging
from typing import Any

from celery import Task, shared_task

from .services import delete_expired_api_tokens, delete_expired_idempotency_keys
from .unavailable import RETRY_ON_DATABASE

logger = logging.getLogger(__name__)


def send_task(task: "Task[Any, Any]", *args: Any, **kwargs: Any) -> bool:
    """`task.apply_async(args, kwargs)` that never raises: True once the broker took the message; False (logged) when
    it could not — down, hung, refusing — within settings.CELERY_BROKER_TIMEOUT_S or so. For work recorded in the
    database first (an import job, an outbox message), which a beat sweeper sends again; called after the commit, so
    that a request that recorded money answers its 2xx whatever the broker does (design.md, "Faults"). Options of
    apply_async go in `options={...}`."""
    options = kwargs.pop("options", {})
    try:
        task.apply_async(args, kwargs, **options)
    except Exception:  # noqa: BLE001 - kombu's OperationalError, a socket's, a Redis error: all mean "not sent"
        if task.app.conf.task_always_eager:  # run in this process (the demo, the suite): the task itself failed
            logger.exception("Task %s failed (run eagerly); the sweeper will run it again", task.name)
        else:
            logger.warning("Task %s not sent (the broker did not take it); the sweeper will send it again",
                           task.name, exc_info=True)
        return False
    return True


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def expire_idempotency_keys() -> int:
    """Delete the Idempotency-Keys past their 24 hours (idempotent; hourly). Returns how many."""
    return delete_expired_idempotency_keys()


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def expire_api_tokens() -> int:
    """Delete the API tokens past their expiry (idempotent; hourly). Returns how many."""
    return delete_expired_api_tokens()
