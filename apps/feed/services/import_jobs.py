"""PHH import jobs: an API import of more than ASYNC_IMPORT_HANDS hands, kept as a job row and run by Celery."""
from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.casinos.models import Casino
from apps.core.exceptions import DomainError
from apps.tables.models import PokerTable

from ..models import ImportJob, ImportStatus
from ..phh import PhhError, sections
from .phh_imports import ImportSummary, import_phh

logger = logging.getLogger(__name__)


#: An API import of more hands than this runs as a Celery task and answers 202 with a job to poll
#: (settings.PHH_ASYNC_IMPORT_HANDS; the fault harness lowers it).
ASYNC_IMPORT_HANDS = getattr(settings, "PHH_ASYNC_IMPORT_HANDS", 1000)


def count_hands(*, text: str, name: str) -> int:
    """How many hands a PHH text holds (its TOML read, nothing accounted). Raises DomainError (field "phh")."""
    try:
        return len(sections(text, name=name))
    except PhhError as exc:
        raise DomainError(str(exc), field="phh") from exc


@transaction.atomic
def queue_import(*, casino: Casino, text: str, name: str, hands_count: int, requested_by,
                 table: PokerTable | None = None) -> ImportJob:
    """Keep a PHH text as an import job and start it once committed (apps.feed.tasks.run_import). The job row is the
    work: when the broker cannot take the task, the job stays queued, the request still answers, and the sweeper
    (`sweep_import_jobs`) sends it once the broker is back."""
    job = ImportJob.objects.create(casino=casino, text=text, name=name[:200], hands=hands_count, table=table,
                                   requested_by=requested_by)
    transaction.on_commit(lambda: send_import_job(job_id=job.pk))
    return job


def send_import_job(*, job_id: int, now=None) -> bool:
    """Hand an import job's task to the broker (after the commit that recorded it) and note it on the job; False
    (logged) when the broker did not take it, or the note could not be written: the sweeper sends it again."""
    from django.db import DatabaseError, models

    from apps.core.tasks import send_task

    from ..tasks import run_import

    if not send_task(run_import, job_id=job_id):
        return False
    try:
        ImportJob.objects.filter(pk=job_id).update(enqueued_at=now or timezone.now(),
                                                   attempts=models.F("attempts") + 1)
    except DatabaseError:
        logger.warning("Import job %s sent, but its sending not noted", job_id, exc_info=True)
        return False
    return True


#: The sweeper (settings.CELERY_BEAT_SCHEDULE, every IMPORT_JOB_SWEEP_SECONDS) sends again a job queued and never
#: sent after IMPORT_JOB_SEND_GRACE_S (the broker was down at the commit); sent and still queued after
#: IMPORT_JOB_RESEND_AFTER_S, doubling with each sending up to an hour (its message was lost: a Redis restarted
#: without its data); running with no progress for IMPORT_JOB_STALE_AFTER_S (its worker died mid-batch). Each may
#: be set in settings.
IMPORT_JOB_SEND_GRACE_S = 5.0
IMPORT_JOB_RESEND_AFTER_S = 300.0
IMPORT_JOB_STALE_AFTER_S = 300.0


def sweep_import_jobs(*, now=None) -> list[int]:
    """Send again the import jobs that were never sent, whose message was lost, or whose worker died (the thresholds
    above); the ids sent. Idempotent: a job sent twice runs once at a time (its advisory lock, `run_import_job`) and
    stores no hand twice."""
    from django.db.models import Q

    now = now or timezone.now()
    grace = getattr(settings, "IMPORT_JOB_SEND_GRACE_S", IMPORT_JOB_SEND_GRACE_S)
    resend = getattr(settings, "IMPORT_JOB_RESEND_AFTER_S", IMPORT_JOB_RESEND_AFTER_S)
    stale = getattr(settings, "IMPORT_JOB_STALE_AFTER_S", IMPORT_JOB_STALE_AFTER_S)
    candidates = ImportJob.objects.filter(
        Q(status=ImportStatus.QUEUED, enqueued_at__isnull=True, created_at__lte=now - timedelta(seconds=grace))
        | Q(status=ImportStatus.QUEUED, enqueued_at__lte=now - timedelta(seconds=resend))
        | Q(status=ImportStatus.RUNNING, heartbeat_at__lte=now - timedelta(seconds=stale))
        | Q(status=ImportStatus.RUNNING, heartbeat_at__isnull=True, started_at__lte=now - timedelta(seconds=stale))
    ).order_by("pk").values_list("pk", "status", "enqueued_at", "attempts")
    sent = []
    for pk, status, enqueued_at, attempts in candidates:
        backoff = min(resend * 2 ** max(attempts - 1, 0), 3600.0)
        if status == ImportStatus.QUEUED and enqueued_at is not None and enqueued_at > now - timedelta(seconds=backoff):
            continue
        if send_import_job(job_id=pk, now=now):
            sent.append(pk)
        else:
            break  # the broker is not taking messages: the next sweep tries again
    if sent:
        logger.warning("Import jobs sent again by the sweeper: %s", sent)
    return sent


#: pg_try_advisory_lock(space, job id): the session running an import job (one at a time per job).
IMPORT_JOB_LOCK_SPACE = 0x1F0B


def run_import_job(*, job_id: int) -> ImportJob:
    """Run an import job: `import_phh` with its progress kept on the job (each batch of hands, visible at once to
    whoever polls it) and its summary at the end; a malformed text fails the job with the reason. Idempotent: a job
    done or failed is left as it is, a job run again stores no hand twice, and a job another worker is running (its
    session's advisory lock) is left to it."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [IMPORT_JOB_LOCK_SPACE, job_id % 2**31])
        if not cursor.fetchone()[0]:
            return ImportJob.objects.get(pk=job_id)
    try:
        return _run_import_job(job_id=job_id)
    finally:
        if connection.connection is not None and not connection.needs_rollback:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [IMPORT_JOB_LOCK_SPACE, job_id % 2**31])
            except Exception:  # noqa: BLE001 - a broken connection: its session, and the lock, are gone with it
                logger.warning("Import job %s: advisory lock not released (connection lost)", job_id)


def _run_import_job(*, job_id: int) -> ImportJob:
    with transaction.atomic():
        job = (ImportJob.objects.select_for_update(of=("self",)).select_related("casino", "table", "requested_by")
               .get(pk=job_id))
        if job.status in (ImportStatus.DONE, ImportStatus.FAILED):
            return job
        job.status, job.started_at, job.processed = ImportStatus.RUNNING, timezone.now(), 0
        job.heartbeat_at = job.started_at
        job.save(update_fields=["status", "started_at", "processed", "heartbeat_at"])
    summary = ImportSummary()
    done = 0

    def progress(count: int) -> None:
        nonlocal done
        done += count
        ImportJob.objects.filter(pk=job.pk).update(processed=min(done, job.hands), heartbeat_at=timezone.now())

    try:
        import_phh(casino=job.casino, text=job.text, name=job.name, table=job.table, recorded_by=job.requested_by,
                   summary=summary, progress=progress)
    except DomainError as exc:
        ImportJob.objects.filter(pk=job.pk).update(status=ImportStatus.FAILED, error=exc.message,
                                                   summary=summary.as_json(), finished_at=timezone.now())
    else:
        ImportJob.objects.filter(pk=job.pk).update(status=ImportStatus.DONE, processed=job.hands,
                                                   summary=summary.as_json(), finished_at=timezone.now())
    job.refresh_from_db()
    return job
