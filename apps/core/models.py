"""Records of the project's plumbing: an administrator's unlock of a locked sign-in."""
import pgtrigger
from django.conf import settings
from django.db import models


class SignInUnlock(models.Model):
    """An administrator cleared the failed sign-ins that locked a user name and/or an address (django-axes keeps the
    attempts themselves: AccessAttempt, AccessFailureLog, AccessLog). Append-only: who unlocked whom, and when."""

    unlocked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    username = models.CharField(max_length=255, blank=True, help_text="The user name whose failures were cleared.")
    ip_address = models.GenericIPAddressField(null=True, blank=True,
                                              help_text="The address whose failures were cleared.")
    failures = models.PositiveIntegerField(help_text="Failed sign-ins cleared.")
    last_failure_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        who = " / ".join(filter(None, [self.username, self.ip_address]))
        return f"{who} unlocked by {self.unlocked_by} at {self.created_at:%Y-%m-%d %H:%M}"


class IdempotencyKey(models.Model):
    """A money POST's `Idempotency-Key` (as Stripe defines it), kept per user for IDEMPOTENCY_KEY_HOURS (24) hours:
    the first request's fingerprint (method, path and body) and, once it has finished, its response, which a
    retry with the same key and body is answered with (apps.core.idempotency). Rows change (claimed, then
    completed) and expire: not a money record."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=2048)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the method, the path and the body.")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_data = models.JSONField(null=True, blank=True)
    response_headers = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_per_user")]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}]"
