"""Writes of the public feed: turning a casino's public feed and page on or off (N.J.A.C. 13:69F-14.18)."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from apps.casinos.models import Casino, User
from apps.core.exceptions import DomainError

from .models import PublicFeed


@transaction.atomic
def set_published(*, casino: Casino, published: bool, changed_by: User) -> PublicFeed:
    """Publish the casino's public feed and page (`published` True) or turn both off (False): from the next request,
    GET /api/public/<code>/ and /public/<code>/ answer 404 when off. Recorded on the casino's one PublicFeed row
    (created on the first change, under a row lock otherwise) with who and when, and in its history.

    Raises DomainError (field changed_by): `changed_by` is not an administrator of the casino
    (`public.change_publicfeed`)."""
    if not changed_by.has_perm("public.change_publicfeed", PublicFeed(casino=casino)):
        raise DomainError("Only an administrator of the casino turns its public feed on or off.", field="changed_by")
    values = {"published": bool(published), "changed_at": timezone.now(), "changed_by": changed_by}
    feed, created = PublicFeed.objects.select_for_update().get_or_create(casino=casino, defaults=values)
    if not created:
        for name, value in values.items():
            setattr(feed, name, value)
        feed.save(update_fields=list(values))
    return feed
