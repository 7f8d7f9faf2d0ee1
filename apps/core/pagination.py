"""The API's pagination: at most `max_limit` rows a page, whatever `?limit=` asks for."""
from rest_framework.pagination import LimitOffsetPagination


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """`?limit=&offset=` pages of PAGE_SIZE (50) rows by default; a larger `limit` is cut to 200, so that no request
    can read a whole history at once."""

    max_limit = 200
