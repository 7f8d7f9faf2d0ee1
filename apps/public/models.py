"""Whether a casino publishes its official public feed and page (N.J.A.C. 13:69F-14.18: the room may announce the
games it offers, their limits and the seats open).

One row per casino at most. A casino with no row publishes (the feed is on until the room turns it off); with
`published` False, GET /api/public/<code>/ and /public/<code>/ answer 404, exactly as for a code no casino has, so
that a room that turned them off is not told apart from one that does not exist. Every change is in the audit trail
(who and when, from the HistoryMiddleware's context)."""
from __future__ import annotations

import pghistory
from django.conf import settings
from django.db import models
from django.utils import timezone

from apps.casinos.models import Casino


@pghistory.track()
class PublicFeed(models.Model):
    """A casino's choice to publish its public feed and page, or not."""

    casino = models.OneToOneField(Casino, on_delete=models.PROTECT, related_name="public_feed")
    published = models.BooleanField(
        default=True, help_text="The room's games, seats, waitlist lengths and jackpots are published at "
                                "/api/public/<code>/ and /public/<code>/. Off: both answer 404 (not found).")
    changed_at = models.DateTimeField(default=timezone.now)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")

    class Meta:
        verbose_name = "public feed"

    def __str__(self) -> str:
        return f"{self.casino}: public feed {'published' if self.published else 'turned off'}"
