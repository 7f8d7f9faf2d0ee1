"""Import jobs: a large PHH import over the API runs in the background and reports its progress."""
from django.conf import settings
from django.db import models

from apps.casinos.models import Casino
from apps.tables.models import PokerTable


class ImportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed (nothing of the file stored)"


class ImportJob(models.Model):
    """A PHH text imported by a Celery task (more than the hands an API request takes at once). `processed` counts
    the hands done so far, of `hands`; `summary` is the import's summary (per variant: imported, already stored,
    refused with the reason) once done; `error` says why a malformed text was refused whole."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                              help_text="The table given with the import; empty: each hand to a table dealing its game.")
    name = models.CharField(max_length=200)
    text = models.TextField(help_text="The PHH text as received.")
    hands = models.PositiveIntegerField(help_text="Hands in the text.")
    processed = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=ImportStatus.choices, default=ImportStatus.QUEUED)
    summary = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Delivery (design.md, "Faults"): the job row is the work, written in the request's transaction; its task is sent
    # after the commit, and the beat sweeper (services.sweep_import_jobs) sends it again when it was never sent, its
    # message was lost, or its worker died.
    enqueued_at = models.DateTimeField(null=True, blank=True, help_text="When its task was last handed to the broker; "
                                       "empty: never (the broker was down).")
    attempts = models.PositiveIntegerField(default=0, help_text="How many times its task was handed to the broker.")
    heartbeat_at = models.DateTimeField(null=True, blank=True,
                                        help_text="A running job's last progress (each batch of hands).")

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "created_at"], name="feed_job_status_created",
                                condition=models.Q(status__in=["queued", "running"]))]

    def __str__(self) -> str:
        return f"Import {self.pk} ({self.name}): {self.status}"
