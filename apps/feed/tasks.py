"""Celery tasks of the hand feed: thin, idempotent, enqueued on commit."""
from celery import shared_task


@shared_task(acks_late=True)
def run_import(*, job_id: int) -> None:
    """Run a queued PHH import job; running it again (a redelivered task) stores nothing twice."""
    from .services import run_import_job  # services import this module

    run_import_job(job_id=job_id)
