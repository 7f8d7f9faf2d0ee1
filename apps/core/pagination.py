"""Pages of history that cost the same on day 1 and in year 5: keyset (cursor) pagination, newest first, each order
backed by an index (tests/core/test_history_queries.py EXPLAINs them). DRF's CursorPagination does the work for the
API and, through `keyset_page`, for the pages; limit/offset stays only for the short lists that are not history."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import BadRequest
from django.db.models import QuerySet
from django.http import HttpRequest
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import Cursor, CursorPagination, LimitOffsetPagination
from rest_framework.request import Request


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """`?limit=&offset=` pages of PAGE_SIZE (50) rows by default; a larger `limit` is cut to 200, so that no request
    can read a whole list at once. For the short lists that are not history (tables)."""

    max_limit = 200


class NewestFirstPagination(CursorPagination):
    """Keyset pages of a history list, newest first: `?cursor=` (opaque, from the `next` and `previous` links) and
    `?limit=` (50 by default, at most 200). The position is the first ordering field's value, so a row recorded
    meanwhile never shifts a page. Subclasses (or `keyset_page`) name the order, which an index must back."""

    ordering: str | list[str] | tuple[str, ...] = ("-id",)
    page_size = 50
    page_size_query_param: str | None = "limit"
    max_page_size = 200
    invalid_cursor_message = "That cursor is not one of this list's: follow the next and previous links."

    def decode_cursor(self, request: Request) -> Cursor | None:
        """The position of `?cursor=`; a cursor that is not one of ours is a 400 naming the parameter (DRF: 404)."""
        try:
            return super().decode_cursor(request)
        except NotFound as exc:
            raise ValidationError({self.cursor_query_param: [self.invalid_cursor_message]}) from exc


class RoundsNewestFirst(NewestFirstPagination):
    """Rounds of play by the time they started, newest first (indexes round_newest_first, round_table_newest_first)."""

    ordering = ("-started_at", "-id")


@dataclass(frozen=True)
class KeysetPage:
    """One page of a history list for a page template: its rows and the links to the next (older) and previous
    (newer) pages, relative to the site (None at either end)."""

    rows: Sequence[Any]
    next_url: str | None
    previous_url: str | None

    @property
    def has_other_pages(self) -> bool:
        return bool(self.next_url or self.previous_url)


def _relative(url: str | None) -> str | None:
    if url is None:
        return None
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def keyset_page(request: HttpRequest, queryset: QuerySet[Any], *, ordering: Sequence[str], page_size: int = 50,
                cursor_param: str = "cursor") -> KeysetPage:
    """One keyset page of `queryset` in `ordering` (newest first; an index must back it) for a page view, from the
    request's `?cursor=`. Raises BadRequest (a 400 page) for a cursor that was not one of ours."""
    paginator = NewestFirstPagination()
    paginator.ordering, paginator.page_size, paginator.cursor_query_param = tuple(ordering), page_size, cursor_param
    paginator.page_size_query_param = None
    try:
        rows = paginator.paginate_queryset(queryset, Request(request)) or []  # None only without a page size
    except ValidationError as exc:
        raise BadRequest("That page link is not valid any more: start from the first page.") from exc
    return KeysetPage(rows=rows, next_url=_relative(paginator.get_next_link()),
                      previous_url=_relative(paginator.get_previous_link()))
