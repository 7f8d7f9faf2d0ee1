"""`Idempotency-Key` on the API's money POSTs, as Stripe defines it (design.md, "Shapes to keep").

A client sends `Idempotency-Key: <up to 255 printable characters>` with a POST (a dealer tablet retrying after a
timeout sends the same key again). Keys are kept per user for IDEMPOTENCY_KEY_HOURS (24) hours:

- the first request with a key is run, and its response (any status below 500) is stored with the key;
- the same key with the same method, path and body again: the stored response is replayed, with the header
  `Idempotent-Replayed: true`, and nothing is run a second time;
- the same key with another body (or another operation): 422, nothing run;
- the same key while the first request is still running: 409 with `Retry-After`, nothing run;
- a first request that ended in a server error (5xx) wrote nothing (its transaction rolled back): its key is
  released, and a retry runs again.

Exactly once: the key is claimed in the request's own transaction by one statement, which takes a
transaction-level advisory lock on the user's key (not waiting: taken already, the request answers 409) and inserts
the key's row (or renews one past its 24 hours). The operation runs in that transaction and its response is stored
in it, so the money records, the key and the stored response are committed together or not at all — a request that
fails with a server error or dies with its process leaves no key behind, and its retry runs. Of ten concurrent
identical requests one runs and the others answer 409 (or, once it has committed, its replay).

A view whose operation commits in several transactions of its own (the PHH import, batch by batch) sets
`idempotency_in_one_transaction = False`: its response is stored after it has run, and what makes a second run
harmless is the operation itself (every hand already stored is skipped).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from .models import IdempotencyKey

if TYPE_CHECKING:
    _APIViewBase = APIView  # IdempotentPostMixin is a mixin of an APIView: typed as one, a plain class at run time
else:
    _APIViewBase = object

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
IDEMPOTENCY_KEY_HOURS = 24
KEY_MAX_LENGTH = 255
KEPT_HEADERS = ("Location", "Retry-After")
ADVISORY_LOCK_SPACE = 0x1DE0  # pg_advisory_lock(space, key): the keys of operations that commit by themselves
CLAIM_LOCK_SPACE = 0x1DE1  # pg_try_advisory_xact_lock(space, hash): a key claimed in the request's transaction

#: For drf-spectacular: the header every idempotent operation declares (apps.core.schema).
PARAMETER = OpenApiParameter(
    HEADER, str, OpenApiParameter.HEADER, required=False,
    description="Up to 255 printable characters, new for each operation. A retry with the same key and body gets "
                "the first response again (header Idempotent-Replayed: true) and records nothing more; kept 24 "
                "hours per user.")
RESPONSES = {
    409: OpenApiResponse(description="A request with this Idempotency-Key is still running: retry after "
                                     "Retry-After seconds. Or a record that already exists: `existing_id`."),
    422: OpenApiResponse(description="This Idempotency-Key was used for another request (another body or "
                                     "operation)."),
}


class KeyReused(exceptions.APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = ("This Idempotency-Key was used for another request (another body or operation) in the last "
                      f"{IDEMPOTENCY_KEY_HOURS} hours: use a new key for a new request.")
    default_code = "idempotency_key_reused"


class KeyInUse(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "A request with this Idempotency-Key is still running: retry in a moment."
    default_code = "idempotency_key_in_use"
    wait = 1  # seconds: DRF's exception handler sends it as Retry-After


class _Undo(Exception):
    """Rolls the operation back to its savepoint and carries its (error) response out."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


def request_key(request: Request) -> str | None:
    """The request's Idempotency-Key, or None without one; raises ValidationError (400) for an empty, too long or
    non-printable key."""
    key: str | None = request.headers.get(HEADER)
    if key is None:
        return None
    if not key or len(key) > KEY_MAX_LENGTH or not all(" " <= c <= "~" for c in key):
        raise exceptions.ValidationError({HEADER: [f"Give 1 to {KEY_MAX_LENGTH} printable ASCII characters."]})
    return key


def fingerprint(request: Request) -> str:
    """SHA-256 (hex) of the request's method, path, query and parsed body (an uploaded file by its content's SHA-256),
    so that a retry matches however its body was encoded (JSON key order, a multipart boundary)."""
    data = request.data
    if hasattr(data, "lists"):  # a form or multipart body (QueryDict)
        data = {name: values for name, values in data.lists()}
    files = {}
    for name, uploaded in getattr(request, "FILES", {}).items():
        digest = hashlib.sha256()
        for chunk in uploaded.chunks():
            digest.update(chunk)
        uploaded.seek(0)
        files[name] = digest.hexdigest()
    canonical = json.dumps([request.method, request.path, request.META.get("QUERY_STRING", ""), data, files],
                           cls=JSONEncoder, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def _key_owner(request: Request) -> Any:
    """The user whose key it is: the request's, signed in (the views that honour a key let no anonymous request
    through; DRF's permissions run first). Any: apps.core does not import the user model (casinos.User)."""
    return request.user


def _claim(request: Request, key: str) -> IdempotencyKey:
    """The user's row for `key`: created for this request, or the one a request with the key made before. A row past
    its 24 hours is dropped first. Raises KeyReused when it was made for another request."""
    user, now, print_ = _key_owner(request), timezone.now(), fingerprint(request)
    IdempotencyKey.objects.filter(user=user, key=key, expires_at__lte=now).delete()
    try:
        with transaction.atomic():
            record, _ = IdempotencyKey.objects.get_or_create(
                user=user, key=key, defaults={"method": str(request.method), "path": request.path[:2048],
                                              "fingerprint": print_,
                                              "expires_at": now + timedelta(hours=IDEMPOTENCY_KEY_HOURS)})
    except IntegrityError:  # made at this instant by a concurrent request with the key
        record = IdempotencyKey.objects.get(user=user, key=key)
    if record.fingerprint != print_:
        raise KeyReused()
    return record


def _replay(record: IdempotencyKey) -> Response:
    headers = {**record.response_headers, REPLAYED_HEADER: "true"}
    return Response(record.response_data, status=record.response_status, headers=headers)


def _complete(record: IdempotencyKey, response: Response) -> None:
    """Store the response with the key (one UPDATE)."""
    record.completed_at = timezone.now()
    record.response_status = response.status_code
    record.response_data = json.loads(json.dumps(response.data, cls=JSONEncoder))
    record.response_headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
    record.save(update_fields=["completed_at", "response_status", "response_data", "response_headers"])


def _release(record: IdempotencyKey) -> None:
    IdempotencyKey.objects.filter(pk=record.pk, completed_at__isnull=True).delete()


#: One statement: the advisory lock of the user's key, not waiting, and the key's row inserted, or renewed when past
#: its 24 hours. Answers (lock taken, id of the row this request now holds or NULL when a live row has the key).
_CLAIM_SQL = """
    WITH lock AS (SELECT pg_try_advisory_xact_lock(%(space)s, hashtext(%(lock_key)s)) AS taken),
    claimed AS (
        INSERT INTO core_idempotencykey (user_id, key, method, path, fingerprint, created_at, expires_at,
                                         response_headers)
        SELECT %(user)s, %(key)s, %(method)s, %(path)s, %(fingerprint)s, %(now)s, %(expires)s, '{}'::jsonb
        FROM lock WHERE lock.taken
        ON CONFLICT (user_id, key) DO UPDATE SET
            method = EXCLUDED.method, path = EXCLUDED.path, fingerprint = EXCLUDED.fingerprint,
            created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, completed_at = NULL,
            response_status = NULL, response_data = NULL, response_headers = '{}'::jsonb
        WHERE core_idempotencykey.expires_at <= EXCLUDED.created_at
        RETURNING id)
    SELECT (SELECT taken FROM lock), (SELECT id FROM claimed)"""


def _claim_in_transaction(request: Request, key: str, print_: str) -> IdempotencyKey | None:
    """Inside the request's transaction: this request's claim of `key` (a new row, with the request's
    fingerprint `print_`), or None when the user has a live row for the key, made by an earlier request. Raises
    KeyInUse while a concurrent request holds the key."""
    from django.db import connection

    now, user = timezone.now(), _key_owner(request)
    with connection.cursor() as cursor:
        cursor.execute(_CLAIM_SQL, {
            "space": CLAIM_LOCK_SPACE, "lock_key": f"{user.pk}:{key}", "user": user.pk, "key": key,
            "method": request.method, "path": request.path[:2048], "fingerprint": print_, "now": now,
            "expires": now + timedelta(hours=IDEMPOTENCY_KEY_HOURS)})
        taken, pk = cursor.fetchone()
    if not taken:
        raise KeyInUse()
    if pk is None:
        return None
    return IdempotencyKey(pk=pk, user=user, key=key, method=str(request.method), path=request.path[:2048],
                          fingerprint=print_)


def _run_and_store(record: IdempotencyKey, run: Callable[[], Response]) -> Response:
    """Inside the transaction that holds `record`: run the operation in a savepoint (an error response keeps nothing of
    it) and store its response with the key; a server error raises _Undo, for the caller to roll back."""
    try:
        with transaction.atomic():
            response = run()
            if response.status_code >= 400:
                raise _Undo(response)
    except _Undo as undo:
        response = undo.response
    if response.status_code >= 500:
        raise _Undo(response)
    _complete(record, response)
    return response


def _run_in_transaction(request: Request, key: str, run: Callable[[], Response]) -> Response:
    """Claim, run and store in the request's one transaction (the module's docstring)."""
    print_ = fingerprint(request)
    try:
        with transaction.atomic():
            record = _claim_in_transaction(request, key, print_)
            if record is None:  # a live row for the key, made by an earlier request
                record = IdempotencyKey.objects.get(user=_key_owner(request), key=key)
                if record.fingerprint != print_:
                    raise KeyReused()
                if record.completed_at is not None:
                    return _replay(record)
                # a claim the other kind of operation left uncompleted (it commits by itself): this request runs
            return _run_and_store(record, run)  # a server error rolls the key back with the rest
    except _Undo as undo:
        return undo.response


def run_idempotently(request: Request, key: str, run: Callable[[], Response], *,
                     in_one_transaction: bool = True) -> Response:
    """Run `run()` (the view's handler, its exceptions already turned into responses) at most once for the user's
    `key`, as the module's docstring says; returns its response or the stored one. Raises KeyReused (422) or KeyInUse
    (409)."""
    if in_one_transaction:
        return _run_in_transaction(request, key, run)
    record = _claim(request, key)
    if record.completed_at is not None:
        return _replay(record)
    try:
        return _run_then_store(record, run)
    except _Undo as undo:
        _release(record)
        return undo.response
    except KeyInUse:
        raise
    except BaseException:
        _release(record)
        raise


def _run_then_store(record: IdempotencyKey, run: Callable[[], Response]) -> Response:
    """The key held by a session-level advisory lock while the operation commits by itself; the response
    is stored after it. Raises KeyInUse while another request holds it."""
    from django.db import connection

    pk = record.pk
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [ADVISORY_LOCK_SPACE, pk % 2**31])
        if not cursor.fetchone()[0]:
            raise KeyInUse()
    try:
        current = IdempotencyKey.objects.filter(pk=pk).first()
        if current is None:
            raise KeyInUse()
        if current.completed_at is not None:
            return _replay(current)
        response = run()
        if response.status_code >= 500:
            raise _Undo(response)
        _complete(current, response)
        return response
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [ADVISORY_LOCK_SPACE, pk % 2**31])


class IdempotentPostMixin(_APIViewBase):
    """For an APIView (before APIView in its bases): its POST honours `Idempotency-Key` as the module's docstring says.
    After authentication, permissions and throttles (DRF's `initial`), a POST carrying a key has its handler run
    through `run_idempotently`: the view's `post` is wrapped for this request, and DRF's dispatch calls it as usual
    (its errors answered by the view's exception handler, inside the key's transaction)."""

    idempotency_in_one_transaction = True
    post: Callable[..., Response]  # the view's handler of a POST

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        key = request_key(request) if request.method == "POST" else None
        if key is None:
            return
        post = self.post

        def post_once(request: Request, *args: Any, **kwargs: Any) -> Response:
            return run_idempotently(request, key, lambda: self._handled(post, request, *args, **kwargs),
                                    in_one_transaction=self.idempotency_in_one_transaction)

        setattr(self, "post", post_once)  # noqa: B010 - this request's handler, which DRF's dispatch looks up

    def _handled(self, handler: Callable[..., Response], request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            return handler(request, *args, **kwargs)
        except Exception as exc:
            return self.handle_exception(exc)
