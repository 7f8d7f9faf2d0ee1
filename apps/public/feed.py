"""The official public feed of a room, computed once a request and shared by the API (apis.PublicFeedApi) and the
page (views.public_page): its representation (serializers.PublicFeedOutput of selectors.public_room), when that
content last changed (`updated_at`) and a strong ETag over it.

`updated_at` is the moment the content (everything but `updated_at`) was first served as it is now: each casino keeps
in the cache the digest of its last content and since when (CONTENT_KEPT); the same content keeps its time, so the
same content is the same bytes and the ETag is a strong one (RFC 9110 8.8.3). Should the cache forget it, the time
becomes the next request's and the ETag changes with it: a client downloads the feed once more, nothing worse."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from apps.casinos.models import Casino

from .selectors import public_room
from .serializers import PublicFeedOutput

#: Seconds the digest of a casino's last content and its time are kept in the cache.
CONTENT_KEPT = 24 * 60 * 60
#: Cache-Control max-age of the feed and the page: a player's phone or a proxy may reuse an answer this long.
MAX_AGE = 15


@dataclass(frozen=True)
class Feed:
    """The feed's representation (`data`, JSON-ready), its strong ETag (quoted) and `updated_at` (aware)."""

    data: dict
    etag: str
    updated_at: datetime


def _digest(value: dict) -> str:
    text = json.dumps(value, cls=DjangoJSONEncoder, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _content_since(casino: Casino, digest: str, now: datetime) -> datetime:
    key = f"public-feed:{casino.pk}:content"
    kept = cache.get(key)
    if kept is not None and kept[0] == digest:
        return kept[1]
    cache.set(key, (digest, now), CONTENT_KEPT)
    return now


def public_feed(*, casino: Casino, now: datetime | None = None) -> Feed:
    """The public feed of `casino` (a published one: selectors.published_casino) at `now` (aware; default: now). Its
    times are in the casino's time zone. The queries of selectors.public_room and two cache reads/writes."""
    now = now or timezone.now()
    with timezone.override(casino.zone):
        content = dict(PublicFeedOutput(public_room(casino=casino, now=now)).data)
        content.pop("updated_at", None)
        since = _content_since(casino, _digest(content), now)
        updated_at = PublicFeedOutput().fields["updated_at"].to_representation(since)
    data = {"casino": content.pop("casino"), "updated_at": updated_at, **content}
    return Feed(data=data, etag=f'"{_digest(data)[:40]}"', updated_at=since)
