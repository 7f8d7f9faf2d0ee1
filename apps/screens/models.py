"""The room's screens and the display links that open them (N.J.A.C. 13:69F-14.18, 14.19(b)-current-amount,
14.19(i)1).

A screen of the poker room (the bad beat jackpot display, the games-and-seats board, the waitlist kiosk at the desk)
runs unattended, with no staff session to expire or to be used by a patron: an administrator issues it a display
link, whose URL carries a token signed with the project's key (django.core.signing, salted) over the link's id and a
random secret kept on its row. Revoking the link is an update of its row: the next request of its URL, the screen's
next poll included, is refused at once. """
from __future__ import annotations

import pghistory
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from apps.casinos.models import Casino
from apps.core.validation import TextValidator


class ScreenKind(models.TextChoices):
    """What a display link's screen shows: the jackpot display (14.19(b)-current-amount, 14.19(i)1, 14.19(q)-notice),
    the games-and-seats board (14.18), or the waitlist kiosk, where a player puts their own name on a list
    (apps.screens.kiosk)."""

    JACKPOT = "jackpot", "Bad beat jackpot display"
    GAMES = "games", "Games and seats board"
    KIOSK = "kiosk", "Waitlist kiosk"


# The audit trail keeps the issue and the revocation of every link (who, when, from the HistoryMiddleware's context)
# and each change of its name or place; not its secret, nor the time the screen was last seen (every minute).
@pghistory.track(pghistory.InsertEvent(),
                 pghistory.UpdateEvent(condition=pghistory.AnyChange(exclude=["secret", "last_seen_at"])),
                 exclude=["secret", "last_seen_at"])
class DisplayLink(models.Model):
    """A signed link that opens one screen of the room with no staff session; valid until revoked."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="display_links")
    kind = models.CharField(max_length=10, choices=ScreenKind.choices)
    name = models.CharField(max_length=80, validators=[TextValidator()], help_text="The screen, e.g. 'Rail screen 2'.")
    location = models.CharField(max_length=120, blank=True, validators=[TextValidator()],
                                help_text="Where in the poker room it hangs.")
    secret = models.CharField(max_length=64, editable=False,
                              help_text="Random; signed into the link's token with the link's id.")
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    issued_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")
    last_seen_at = models.DateTimeField(null=True, blank=True,
                                        help_text="The screen's last request (kept to the minute).")

    class Meta:
        ordering = ["casino", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(revoked_at__isnull=True, revoked_by__isnull=True)
                                   | Q(revoked_at__isnull=False, revoked_by__isnull=False),
                                   name="display_link_revoked_by_whom"),
            models.CheckConstraint(condition=~Q(secret=""), name="display_link_has_secret"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display()}{', revoked' if self.revoked_at else ''})"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None
