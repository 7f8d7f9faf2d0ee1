"""API token authentication (django-rest-knox) in one query a request.

knox's TokenAuthentication reads all of the user's tokens on every request to delete the expired ones
(`_cleanup_token`): one more query, and one more model a token, on every API call of a dealer's tablet. Here a
request checks the token it presents: an expired one is deleted and refused (401), as knox does. The user's other
expired tokens are deleted by the hourly `apps.core.tasks.expire_api_tokens` instead.

The user's roles (their groups' names) are read with the token, on PostgreSQL, and kept where django-rules looks for
them (`user._group_names_cache`): the role check of the request (apps.core.permissions) reads no more.
"""
from __future__ import annotations

from hmac import compare_digest

from django.contrib.auth.models import Group
from django.db import connection
from django.db.models import OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import get_token_model
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import exceptions

from .kept import KeptQuery


def _tokens_of_key(token_key: str):
    tokens = get_token_model().objects.filter(token_key=token_key).select_related("user")
    if connection.vendor == "postgresql":
        from django.contrib.postgres.expressions import ArraySubquery

        tokens = tokens.annotate(role_names=ArraySubquery(Group.objects.filter(user=OuterRef("user_id")).values("name")))
    return tokens


#: The tokens of a key, each with its user (and on PostgreSQL the user's role names): read on every API request, so
#: its SQL is kept (apps.core.kept).
_TOKENS = KeptQuery(_tokens_of_key)


class TokenAuthentication(KnoxTokenAuthentication):
    """`Authorization: Token <token>` from POST /api/token/ (apps.core.apis); 401 for an unknown or expired token."""

    def authenticate_credentials(self, token: bytes):
        """(user, AuthToken) for the presented token, as knox's: the tokens of its key, each expired one deleted, the
        one whose digest matches taken. On PostgreSQL the user's role names come in the same query. Raises
        AuthenticationFailed (401) for a token that is not UTF-8, no match or an inactive user."""
        try:
            token = token.decode("utf-8")
        except UnicodeDecodeError as exc:  # knox's own decode lets this out as a 500
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from exc
        for auth_token in _TOKENS(token[:CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(token)
            except (TypeError, ValueError) as exc:  # not hexadecimal (binascii.Error is a ValueError)
                raise exceptions.AuthenticationFailed(_("Invalid token.")) from exc
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                if hasattr(auth_token, "role_names"):  # what rules.is_group_member reads (rules.predicates)
                    auth_token.user._group_names_cache = set(auth_token.role_names)
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(_("Invalid token."))

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
