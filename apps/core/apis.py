"""API tokens (django-rest-knox): sign in for a token that expires, sign out to revoke it. And the API's one style.

POST /api/token/ {"username", "password"} (JSON or form) -> 200 {"token", "expiry"}; send it as
`Authorization: Token <token>` until `expiry` (REST_KNOX["TOKEN_TTL"]). POST /api/token/logout/ revokes the token
sent, /api/token/logout-all/ every token of its user; signing out of the browser revokes them all too
(apps.core.signals). Failed sign-ins count toward the lockout of the sign-in page (django-axes), and the endpoint
has its own strict throttle (scope "api_token").

How every API view of the project is written (design.md: an API view does one operation), as TokenLoginApi is:

- One view per URL, one operation per HTTP method: GET reads, POST creates or acts, PUT and PATCH change. A URL that
  takes several operations (a collection's list and create, a record's read and change) is one view with a method
  for each, since Django routes a URL to one view; an action on a record is a URL and a view of its own. A view is
  named for what its URL serves: `TablesApi` the collection, `TableApi` one table, `ClaimVerifyApi` the action at
  `/api/claims/{id}/verify/`. No ViewSets, no routers, no view shared by several URLs, no view subclassing another.
- A view is an `APIView`, except a list: a GET that answers a list is a `generics.ListAPIView`, whose
  `pagination_class` (keyset pages of history, apps.core.pagination; limit/offset for short lists; None for a list
  that is not paged) and `filterset_class`/`filterset_fields` both run the list and describe it in the schema.
- The serializers are the view's: its body `Input` and its answer `Output`, nested in the view
  (`class RoundsApi: class Input(serializers.Serializer)`), named in the schema after it (`RoundsInput`,
  apps.core.schema). A representation several views answer with (a round, a jackpot, a claim) is a module-level
  `*Output` that each names as its `Output = RoundOutput`; the pieces a body or an answer nests (a player of a round)
  are module-level `*Input`/`*Output` too. No `*Serializer` names.
- The view is thin: fetch, check the permission (`required_perm`, `perms_by_method`, apps.core.permissions), validate
  `self.Input`, call one service or selector, answer `self.Output`; `@extend_schema(request=Input, responses=...)`.
"""
from django.contrib.auth import authenticate, user_logged_in
from django.utils.decorators import method_decorator
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import get_token_model
from knox.settings import knox_settings
from knox.views import LogoutAllView, LogoutView
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from .authentication import TokenAuthentication
from .lockout import lockout_ends_at, lockout_message, seconds_until
from .policy import public, signed_in


class SignInLocked(exceptions.Throttled):
    default_code = "locked_out"


@public("Signing in for a token: the user name and password are the authentication (throttled, locked out).")
@method_decorator(never_cache, name="dispatch")  # a token is a credential: no cache keeps the answer (RFC 6749 5.1)
class TokenLoginApi(APIView):
    """A new API token for the user whose user name and password are posted; answered `Cache-Control: no-store`."""

    class Input(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})

    class Output(serializers.Serializer):
        token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")
        expiry = serializers.DateTimeField(help_text="When the token stops working.")

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "api_token"

    @extend_schema(request=Input, responses={
        200: Output,
        400: OpenApiResponse(description="Wrong user name or password: {non_field_errors: [message]}."),
        429: OpenApiResponse(description="Locked out after repeated failures, or throttled: {detail: message}, "
                                         "with Retry-After."),
    })
    def post(self, request: Request) -> Response:
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        http_request = request._request  # django-axes watches Django's request (its middleware answers a lockout)
        user = authenticate(http_request, **data.validated_data)
        if getattr(http_request, "axes_locked_out", False):
            raise SignInLocked(wait=seconds_until(lockout_ends_at(http_request)), detail=lockout_message(http_request))
        if user is None:
            raise exceptions.ValidationError({"non_field_errors": [_("Unable to log in with provided credentials.")]})
        instance, token = get_token_model().objects.create(user=user, expiry=knox_settings.TOKEN_TTL)
        user_logged_in.send(sender=user.__class__, request=http_request, user=user)
        return Response(self.Output({"token": token, "expiry": instance.expiry}).data)


@signed_in("Any user revokes the token the request is authenticated with.")
class TokenLogoutApi(LogoutView):
    """Revoke the token this request is authenticated with."""

    authentication_classes = (TokenAuthentication,)

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, format: str | None = None) -> Response:
        response: Response = super().post(request, format)  # knox's view: untyped
        return response


@signed_in("Any user revokes every token of their own.")
class TokenLogoutAllApi(LogoutAllView):
    """Revoke every token of the user this request is authenticated as."""

    authentication_classes = (TokenAuthentication,)

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, format: str | None = None) -> Response:
        response: Response = super().post(request, format)  # knox's view: untyped
        return response

