"""API token authentication (django-rest-knox) in one query a request.

knox's TokenAuthentication reads all of the user's tokens on every request to delete the expired ones
(`_cleanup_token`): one more query, and one more model a token, on every API call of a dealer's tablet. Here a
request checks the token it presents: an expired one is deleted and refused (401), as knox does. The user's other
expired tokens are deleted by the hourly `apps.core.tasks.expire_api_tokens` instead.

The user's roles (their groups' names) are read with the token and given to the user (`User.role_set`, which the
role predicates read, apps.core.roles.holds_role): the role check of the request (apps.core.permissions) reads no
more.
"""
from __future__ import annotations

from hmac import compare_digest
from typing import Any

from django.contrib.auth.models import Group
from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import OuterRef, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import get_token_model
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import exceptions

from .writer import KeptRead


def _tokens_of_key(token_key: str) -> QuerySet[Any]:
    """The tokens of a key, each with its user and the user's role names (`role_names`): one query."""
    tokens: QuerySet[Any] = (get_token_model().objects.filter(token_key=token_key).select_related("user")
            .annotate(role_names=ArraySubquery(Group.objects.filter(user=OuterRef("user_id")).values("name"))))
    return tokens


#: Read on every API request: its SQL kept (apps.core.writer).
_TOKENS: KeptRead[Any] = KeptRead(_tokens_of_key, related=("user",))


class TokenAuthentication(KnoxTokenAuthentication):
    """`Authorization: Token <token>` from POST /api/token/ (apps.core.apis); 401 for an unknown or expired token."""

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        """(user, AuthToken) for the presented token, as knox's: the tokens of its key, each expired one deleted, the
        one whose digest matches taken. On PostgreSQL the user's role names come in the same query. Raises
        AuthenticationFailed (401) for a token that is not UTF-8, no match or an inactive user."""
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError as exc:  # knox's own decode lets this out as a 500
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from exc
        for auth_token in _TOKENS(text[:CONSTANTS.TOKEN_KEY_LENGTH]):
            if self.delete_if_expired(auth_token):
                continue
            try:
                digest = hash_token(text)
            except (TypeError, ValueError) as exc:  # not hexadecimal (binascii.Error is a ValueError)
                raise exceptions.AuthenticationFailed(_("Invalid token.")) from exc
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                auth_token.user.role_set = frozenset(auth_token.role_names)  # what the role predicates read
                user_and_token: tuple[Any, Any] = self.validate_user(auth_token)
                return user_and_token
        raise exceptions.AuthenticationFailed(_("Invalid token."))

    def delete_if_expired(self, auth_token: Any) -> bool:
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

    target_class = "apps.core.authentication.TokenAuthentication"
    priority = 1
