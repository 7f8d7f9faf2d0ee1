"""Celery tasks of the hand feed: thin, idempotent, enqueued on commit."""
from celery import shared_task

from apps.core.unavailable import RETRY_ON_DATABASE


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def run_import(*, job_id: int) -> None:
    """Run a queued PHH import job; running it again (a redelivered task, a retry after the database could not serve
    it, the sweeper's) stores nothing twice."""
    from .services import run_import_job  # services import this module

    run_import_job(job_id=job_id)


@shared_task(acks_late=True, **RETRY_ON_DATABASE)
def sweep_import_jobs() -> list[int]:
    """Beat: send again the import jobs never sent (the broker was down), lost, or left by a dead worker."""
    from .services import sweep_import_jobs as sweep

    return sweep()
