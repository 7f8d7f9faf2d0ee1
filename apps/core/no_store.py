"""No cache keeps what a signed-in user was shown (issue 32): every answer to a request that carries credentials — a
session cookie, an `Authorization` header (an API token), or a user the API authenticated — is sent with
`Cache-Control: no-store` (Django's never-cache headers: `max-age=0, no-cache, no-store, must-revalidate, private`),
pages, API answers and exports (CSV, PDF) alike, so that neither a shared proxy nor the browser's disk keeps a
report, a player's name or a token.

An answer that sets its own Cache-Control keeps it: the public feed and page (`public, max-age=15`, apps.public), the
room's screens behind their signed display links (never cached already, apps.screens). Static files never reach this
middleware: WhiteNoise, before it in settings.MIDDLEWARE, answers them with their own long caching.
"""
from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import add_never_cache_headers
from django.utils.functional import SimpleLazyObject, empty


def carries_credentials(request: HttpRequest) -> bool:
    """Whether `request` comes from a signed-in client: a session cookie or an Authorization header, or a user already
    found signed in (by the API's authentication, which puts the user on Django's request). The session is not read
    for it: an anonymous answer (the public feed's) is not made to vary on the cookie."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES or "HTTP_AUTHORIZATION" in request.META:
        return True
    user = getattr(request, "user", None)
    if user is None or (isinstance(user, SimpleLazyObject) and user._wrapped is empty):
        return False
    return bool(user.is_authenticated)


class NoStoreMiddleware:
    """settings.MIDDLEWARE, after AuthenticationMiddleware: `Cache-Control: no-store` on each answer to a request that
    `carries_credentials`, unless the view set its own Cache-Control."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if not response.has_header("Cache-Control") and carries_credentials(request):
            add_never_cache_headers(response)
        return response
