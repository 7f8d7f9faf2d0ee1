"""Writes of the room's screens: issuing and revoking display links, noting when a screen was last seen
(N.J.A.C. 13:69F-14.18, 14.19(b)-current-amount, 14.19(i)1). Each recorded in the audit trail (pghistory,
DisplayLink's events)."""
from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.casinos.models import Casino, User
from apps.core.exceptions import DomainError

from .models import DisplayLink, ScreenKind

#: A screen's last_seen_at is written at most once a minute (its polls come every few seconds).
SEEN_EVERY = timedelta(minutes=1)


@transaction.atomic
def issue_display_link(*, casino: Casino, kind: str, name: str, location: str = "", issued_by: User) -> DisplayLink:
    """Issue a display link that opens one screen of `casino` with no sign-in: its jackpot display (the amounts and
    notices of its bad beat payouts) or its games-and-seats board, until revoked. Only
    an administrator of the casino issues one (`screens.add_displaylink`). The link's secret is random
    (secrets.token_urlsafe); its URL is `selectors.screen_path(link)`.

    Raises DomainError: `issued_by` may not issue links of the casino (field issued_by); an unknown screen kind, an
    empty or over-long name or place, a control character (field kind, name or location)."""
    link = DisplayLink(casino=casino, kind=kind, name=(name or "").strip(), location=(location or "").strip(),
                       secret=secrets.token_urlsafe(24), issued_by=issued_by, issued_at=timezone.now())
    if not issued_by.has_perm("screens.add_displaylink", link):
        raise DomainError("Only an administrator of the casino issues a display link.", field="issued_by")
    if kind not in ScreenKind.values:
        raise DomainError(f"A screen is one of: {', '.join(ScreenKind.values)}.", field="kind")
    try:
        link.full_clean(exclude=["casino", "issued_by", "revoked_by"])
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise DomainError(" ".join(messages), field=field) from exc
    link.save()
    return link


@transaction.atomic
def revoke_display_link(*, link: DisplayLink, revoked_by: User) -> DisplayLink:
    """Revoke a display link: from now on its URL opens nothing, and the screen showing it stops at its next poll
    with a notice that its link was revoked. Only an administrator of the link's casino revokes one
    (`screens.change_displaylink`); recorded on the row (revoked_at, revoked_by) and in its history.

    Raises DomainError: `revoked_by` may not (field revoked_by); the link is revoked already (field status)."""
    link = DisplayLink.objects.select_for_update().get(pk=link.pk)
    if not revoked_by.has_perm("screens.change_displaylink", link):
        raise DomainError("Only an administrator of the casino revokes a display link.", field="revoked_by")
    if link.revoked_at is not None:
        when = timezone.localtime(link.revoked_at, link.casino.zone)
        raise DomainError(f"“{link.name}” was revoked already, {when:%Y-%m-%d %H:%M}.", field="status")
    link.revoked_at, link.revoked_by = timezone.now(), revoked_by
    link.save(update_fields=["revoked_at", "revoked_by"])
    return link


def note_seen(*, link: DisplayLink, now: datetime | None = None) -> None:
    """Record that the link's screen asked for its page now, at most once every SEEN_EVERY (one UPDATE that
    usually matches no row; not in the audit trail), so the screens page tells a screen that went dark."""
    now = now or timezone.now()
    if link.last_seen_at is None or now - link.last_seen_at >= SEEN_EVERY:
        DisplayLink.objects.filter(pk=link.pk).filter(
            Q(last_seen_at__isnull=True) | Q(last_seen_at__lte=now - SEEN_EVERY)).update(last_seen_at=now)
