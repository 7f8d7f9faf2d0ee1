"""Celery beat: the project's plumbing."""
from celery import shared_task

from .services import delete_expired_api_tokens, delete_expired_idempotency_keys


@shared_task(acks_late=True)
def expire_idempotency_keys() -> int:
    """Delete the Idempotency-Keys past their 24 hours (idempotent; hourly). Returns how many."""
    return delete_expired_idempotency_keys()


@shared_task(acks_late=True)
def expire_api_tokens() -> int:
    """Delete the API tokens past their expiry (idempotent; hourly). Returns how many."""
    return delete_expired_api_tokens()
