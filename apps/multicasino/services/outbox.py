"""The outbox (N.J.A.C. 13:69F-14.20(e)2-complete): a message to a peer is written in the transaction of the change it
reports, under its link's row lock and with the link's next sequence number, sent once that transaction commits by
one sender per link in sequence order (consecutive messages in one signed request), and swept again with backoff
until the peer acknowledges it with the SHA-256 of what it received."""
from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from ..models import BadBeatSystem, Link, MessageKind, OutboxMessage, Site
from ..signing import body_hash, canonical, sign
from .common import own_site, the_host


def enqueue(*, link: Link, kind: str, body: dict) -> OutboxMessage:
    """Write a message to a peer in the current transaction, under the link's row lock (its sequence number is
    the next of the link), and send it once the transaction commits (14.20(e)2-complete)."""
    return enqueue_many(messages=[(link, kind, body)])[0]


def enqueue_many(*, messages: Sequence[tuple[Link, str, dict]]) -> list[OutboxMessage]:
    """Write several messages `(link, kind, body)` in the current transaction, as `enqueue` writes each, in the
    order given: every link is locked once (in primary-key order) and numbers its messages in that order, the
    messages are inserted together, and each link gets one sending task on commit, which sends all of them in
    sequence order (14.20(e)2-complete). Returns the messages, in the order given."""
    if not messages:
        return []
    links = {link.pk: link for link in Link.objects.select_for_update().filter(
        pk__in={link.pk for link, _, _ in messages}).order_by("pk")}
    now = timezone.now()
    rows = []
    for link, kind, body in messages:
        locked = links[link.pk]
        rows.append(OutboxMessage(link=locked, sequence=locked.next_out_sequence, kind=kind, body=body,
                                  message_id=f"msg_{uuid.uuid4().hex}", next_attempt_at=now))
        locked.next_out_sequence += 1
    rows = OutboxMessage.objects.bulk_create(rows)
    first: dict[int, OutboxMessage] = {}
    urgent: set[int] = set()
    for message in rows:
        first.setdefault(message.link_id, message)
        if message.kind in URGENT_KINDS:
            urgent.add(message.link_id)
    for link_pk, message in first.items():
        links[link_pk].save(update_fields=["next_out_sequence"])
        transaction.on_commit(partial(send_later, message.pk, urgent=link_pk in urgent))
    return rows


#: Messages a display or a player waits for: retried within seconds rather than by the sweeper's backoff.
URGENT_KINDS = frozenset({MessageKind.CLAIM, MessageKind.NOTICE, MessageKind.PAYOUT, MessageKind.RULES})


def send_later(message_pk: int, *, urgent: bool = False, countdown: float = 0) -> None:
    """Queue the sending task: claims, notices and payouts on the link queue (settings.MULTICASINO_LINK_QUEUE),
    which heartbeats share and a worker of its own serves, so they never wait behind a backlog of contributions.
    A broker that cannot take it is logged, not raised (apps.core.tasks.send_task): the message is in the outbox and
    the sweeper sends it (the transaction that wrote it has committed, and its request answers as it should)."""
    from apps.core.tasks import send_task

    from ..tasks import send_message

    options = {"queue": settings.MULTICASINO_LINK_QUEUE} if urgent else {}
    send_task(send_message, message_pk, options={"countdown": countdown or None, **options})


def _transport() -> Callable[[str, str, dict[str, str]], tuple[int, dict]]:
    """`(url, text, headers) -> (HTTP status, JSON answer)`: settings.MULTICASINO_TRANSPORT, HTTPS by default."""
    path = getattr(settings, "MULTICASINO_TRANSPORT", "apps.multicasino.transport.http_post")
    return import_string(path)  # hidden-arrow: a swappable transport; tests put a fake in its place


def post_signed(*, link: Link, me: Site, message_id: str, text: str, now: datetime) -> tuple[int, dict]:
    """Sign `text` with the link's outbound secrets (Standard Webhooks) and POST it to the peer's inbox;
    (HTTP status, JSON answer). Raises whatever the transport raises when the peer is unreachable."""
    headers = {**sign(message_id=message_id, text=text, secrets=link.outbound_secrets, at=now),
               "x-pokerroom-system": me.system.code, "x-pokerroom-site": me.code}
    return _transport()(link.peer.inbox_url, text, headers)


def _record_failure(*, message: OutboxMessage, error: str, now: datetime, quiet: bool) -> None:
    """A send failed: the attempt and its error are kept on the message; unless the pump is about to try again
    at once (`quiet`), it backs off — 2 s doubling to 30 s, or for what a display waits for 0.5 s doubling to 4 s,
    retried by a task of its own."""
    attempts = message.attempts + 1
    if quiet:
        OutboxMessage.objects.filter(pk=message.pk).update(attempts=attempts, last_error=error)
        return
    urgent = message.kind in URGENT_KINDS
    delay = min(0.25 * 2 ** attempts, 4) if urgent else min(2 ** attempts, 30)
    OutboxMessage.objects.filter(pk=message.pk).update(attempts=attempts, last_error=error,
                                                       next_attempt_at=now + timedelta(seconds=delay))
    if urgent and not settings.CELERY_TASK_ALWAYS_EAGER:
        send_later(message.pk, urgent=True, countdown=delay)


def deliver(*, message_pk: int, now: datetime | None = None, quiet: bool = False) -> bool:
    """Send one outbox message if it is unacknowledged; True once it is acknowledged. A failure is recorded
    with its backoff (`_record_failure`). An answer asking to resend from an earlier number makes that message
    due at once (gap recovery)."""
    now = now or timezone.now()
    message = OutboxMessage.objects.select_related("link__peer__system").filter(pk=message_pk).first()
    if message is None or message.acked_at is not None:
        return message is not None
    link = message.link
    me = own_site(link.peer.system)
    text = canonical({"kind": message.kind, "sequence": message.sequence, "system": me.system.code,
                      "sender": me.code, "body": message.body})
    try:
        status, answer = post_signed(link=link, me=me, message_id=message.message_id, text=text, now=now)
        error = "" if status in (200, 202, 409) and answer.get("ack") == body_hash(text) else \
            f"HTTP {status}: {answer.get('error') or answer}"[:300]
    except Exception as exc:  # noqa: BLE001 - any transport failure is retried
        answer, error = {}, f"{type(exc).__name__}: {exc}"[:300]
    if error:
        _record_failure(message=message, error=error, now=now, quiet=quiet)
        return False
    OutboxMessage.objects.filter(pk=message.pk).update(acked_at=now, ack_body_hash=answer["ack"],
                                                       attempts=message.attempts + 1, last_error="")
    if answer.get("resend_from"):  # the receiver misses an earlier one: it is due now, and the pump goes on from it
        OutboxMessage.objects.filter(link=link, acked_at__isnull=True,
                                     sequence=int(answer["resend_from"])).update(next_attempt_at=now)
    return True


def pump(*, link_pk: int, now: datetime | None = None, budget_seconds: float = 20.0) -> int:
    """Send a link's unacknowledged messages in sequence order, one sender per link at a time (a lock in the
    cache, so that neither duplicates nor lock contention arise between workers): the lowest is sent if it is
    due, then each next one while the peer answers. A message that fails is tried again at once up to
    QUICK_TRIES times (a lost packet on a live link must not stall it); then it keeps its backoff and the pump
    stops. A message written while the lock was held is picked up before returning. Returns how many were
    acknowledged; 0 when another worker is sending on the link."""
    key = f"multicasino:pump:{link_pk}"
    acknowledged, started = 0, time.monotonic()
    while held := _take_send_lock(key, link_pk=link_pk, timeout=int(budget_seconds) + 30):
        try:
            progressed = _pump_locked(link_pk=link_pk, now=now, started=started, budget_seconds=budget_seconds)
            acknowledged += progressed
        finally:
            _release_send_lock(held, key, link_pk=link_pk)
        # a new message whose own task found the lock taken is sent now, not at the next sweep
        if not progressed or not OutboxMessage.objects.filter(link_id=link_pk, acked_at__isnull=True,
                                                              attempts=0).exists():
            break
    return acknowledged


#: pg_try_advisory_lock(space, link id): the link's send lock while the cache cannot hold it.
SEND_LOCK_SPACE = 0x5E4D


def _take_send_lock(key: str, *, link_pk: int, timeout: int) -> str | None:
    """The link's send lock: "cache" (added in the cache), "database" (the cache cannot say now — Redis down or hung,
    apps.core.cache — so a PostgreSQL session advisory lock instead), or None (another worker sends on the link). Two
    senders at once, one under each kind while Redis comes and goes, send duplicates the receiver refuses, no more."""
    from django.db import connection

    from apps.core.cache import try_add

    added = try_add(key, timeout=timeout)
    if added is not None:
        return "cache" if added else None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [SEND_LOCK_SPACE, link_pk % 2**31])
        return "database" if cursor.fetchone()[0] else None


def _release_send_lock(held: str, key: str, *, link_pk: int) -> None:
    from django.db import connection

    if held == "cache":
        cache.delete(key)
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [SEND_LOCK_SPACE, link_pk % 2**31])


#: Immediate retries of a message that failed on a link that otherwise works (a dropped packet).
QUICK_TRIES = 3


def _pump_locked(*, link_pk: int, now: datetime | None, started: float, budget_seconds: float) -> int:
    acknowledged = 0
    while time.monotonic() - started < budget_seconds:
        message = (OutboxMessage.objects.filter(link_id=link_pk, acked_at__isnull=True).order_by("sequence")
                   .only("pk", "next_attempt_at").first())
        if message is None:
            break
        if acknowledged == 0 and message.next_attempt_at and message.next_attempt_at > (now or timezone.now()):
            break  # backing off
        sent = 0
        for try_ in range(QUICK_TRIES):
            sent = deliver_batch(link_pk=link_pk, now=now, quiet=try_ < QUICK_TRIES - 1)
            if sent:
                break
        if not sent:
            break
        acknowledged += sent
    return acknowledged


#: How many consecutive messages travel in one signed request.
BATCH_SIZE = 100


def item_text(*, message_id: str, sequence: int, kind: str, body: dict) -> str:
    """One message of a batch as text: what the sender signs within the batch and the receiver acknowledges with
    its SHA-256 (14.20(e)2-complete) — one function on both sides, so the two hashes are of the same text."""
    return canonical({"id": message_id, "sequence": sequence, "kind": kind, "body": body})


def deliver_batch(*, link_pk: int, now: datetime | None = None, quiet: bool = False) -> int:
    """Send the link's lowest unacknowledged messages (up to BATCH_SIZE, consecutive) in one signed request
    (14.20(e)2-complete): each keeps its own id and sequence number and is acknowledged one by one, with the SHA-256 of
    its own text as the receiver stored it. Returns how many were acknowledged; a failure is recorded
    on the lowest message (`_record_failure`)."""
    now = now or timezone.now()
    messages = list(OutboxMessage.objects.filter(link_id=link_pk, acked_at__isnull=True).order_by("sequence")
                    [:BATCH_SIZE])
    if len(messages) <= 1:
        return int(bool(messages) and deliver(message_pk=messages[0].pk, now=now, quiet=quiet))
    link = Link.objects.select_related("peer__system").get(pk=link_pk)
    me = own_site(link.peer.system)
    items = [item_text(message_id=m.message_id, sequence=m.sequence, kind=m.kind, body=m.body) for m in messages]
    text = canonical({"kind": MessageKind.BATCH, "sequence": None, "system": me.system.code, "sender": me.code,
                      "body": {"messages": [json.loads(item) for item in items]}})
    try:
        status, answer = post_signed(link=link, me=me, message_id=f"batch_{uuid.uuid4().hex}", text=text, now=now)
        ok = status in (200, 202) and answer.get("ack") == body_hash(text)
    except Exception as exc:  # noqa: BLE001 - any transport failure is retried
        status, answer, ok = 0, {"error": f"{type(exc).__name__}: {exc}"}, False
    acks = answer.get("acks", {}) if ok else {}
    done = [(m, acks[m.message_id]) for m, item in zip(messages, items, strict=True)
            if acks.get(m.message_id) == body_hash(item)]
    for message, ack in done:
        OutboxMessage.objects.filter(pk=message.pk).update(acked_at=now, ack_body_hash=ack,
                                                           attempts=message.attempts + 1, last_error="")
    if not done:
        _record_failure(message=messages[0], error=f"HTTP {status}: {answer.get('error') or answer}"[:300],
                        now=now, quiet=quiet)
    return len(done)


def send_from(*, message_pk: int) -> int:
    """The task behind each new message: pump its link (a no-op when another worker already is)."""
    link_pk = OutboxMessage.objects.filter(pk=message_pk).values_list("link_id", flat=True).first()
    return pump(link_pk=link_pk) if link_pk else 0


def sweep_outbox(*, now: datetime | None = None) -> int:
    """The beat sweeper: pump every link whose lowest unacknowledged message is due. Returns how many messages
    were acknowledged."""
    links = (OutboxMessage.objects.filter(acked_at__isnull=True).values_list("link_id", flat=True)
             .distinct().order_by())
    return sum(pump(link_pk=link_pk, now=now) for link_pk in links)


def tell_host(*, system: BadBeatSystem, me: Site, kind: str, body: dict, now: datetime,
              apply_at_host: Callable[..., object]) -> None:
    """Report to the host in the current transaction: an outbox message, or at the host's own casino (the host
    also runs a site) the same change applied at once, by `apply_at_host(site=, body=, now=)` — what the host's
    inbox does with a message of that kind."""
    if me.is_host:
        apply_at_host(site=me, body=body, now=now)
    else:
        enqueue(link=the_host(system).link, kind=kind, body=body)
