"""API token authentication (django-rest-knox) without a read of every token of the user on each request.

knox's TokenAuthentication reads all of the user's tokens on every request to delete the expired ones
(`_cleanup_token`): one more query, and one more model a token, on every API call of a dealer's tablet. Here a
request checks the token it presents: an expired one is deleted and refused (401), as knox does. The user's other
expired tokens are deleted by the hourly `apps.core.tasks.expire_api_tokens` instead.
"""
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.signals import token_expired


class TokenAuthentication(KnoxTokenAuthentication):
    """`Authorization: Token <token>` from POST /api/token/ (apps.core.apis); 401 for an unknown or expired token."""

    def _cleanup_token(self, auth_token) -> bool:
        """True (and the token deleted) when the presented token has expired; the user's other tokens are left to
        the hourly purge."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


class TokenScheme(KnoxTokenScheme):
    """drf-spectacular declares knox's token scheme for knox's class only: the same scheme for ours."""

    target_class = TokenAuthentication
    priority = 1
