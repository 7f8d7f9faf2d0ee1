"""GET /api/public/<code>/: a room's official public feed (N.J.A.C. 13:69F-14.18), read-only and unauthenticated.

Games running with limits and rotation, tables open, vacant seats, waitlist lengths and the bad beat jackpots with
their status (feed.public_feed) — never a player's name, initials or phone. Answers with a strong ETag and
`Cache-Control: public, max-age=15` (feed.MAX_AGE); a request whose If-None-Match holds the current ETag is answered
304 with no body (Django's get_conditional_response, the semantics of ConditionalGetMiddleware). No authentication
is read (a stale session or CSRF cookie never matters); each client address may ask PUBLIC_FEED_SCOPE's rate
(REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["public_feed"], DJANGO_THROTTLE_PUBLIC_FEED) and is answered 429 with
Retry-After beyond it. Any origin may read it from a browser (Access-Control-Allow-Origin: *, this endpoint only).
A code no casino has, or a casino that turned its feed off (models.PublicFeed), is answered 404, alike."""
from django.utils.cache import get_conditional_response, patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.core.policy import public

from .feed import MAX_AGE, public_feed
from .selectors import published_casino
from .serializers import PublicFeedOutput

PUBLIC_FEED_SCOPE = "public_feed"
#: CORS (Fetch standard): any origin may read the feed, see its ETag and Retry-After, and send If-None-Match (a
#: preflight OPTIONS is answered with these too).
CORS_HEADERS = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag, Retry-After",
                "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS", "Access-Control-Allow-Headers": "If-None-Match",
                "Access-Control-Max-Age": "86400"}


class PublicFeedThrottle(ScopedRateThrottle):
    """ScopedRateThrottle keyed by the client's address (the feed reads no authentication, so every request is
    anonymous; NUM_PROXIES as the API's other throttles), its rate read from the settings at each request."""

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]


@public("The room's official public feed (14.18): games, limits, vacant seats, waitlist lengths and jackpots, what "
        "patrons may be told, never a player's name; read-only, rate limited per address; the room may turn it off.")
class PublicFeedApi(APIView):
    """A room's official public feed (see the module)."""

    Output = PublicFeedOutput  # the page /public/<code>/ shows it too: computed once for both (apps.public.feed)
    authentication_classes: list = []
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]
    throttle_classes = [PublicFeedThrottle]
    throttle_scope = PUBLIC_FEED_SCOPE

    @extend_schema(
        operation_id="public_feed",
        summary="A room's official public feed (N.J.A.C. 13:69F-14.18)",
        description="Games running (limits, rotation, tables, seats, vacant seats, waitlist length) and the bad beat "
                    "jackpots (displayed amount, status) of the casino `code`, for anyone: no authentication. Never "
                    "a player's name, initials or phone. Cache with the ETag (send it as If-None-Match: 304 while "
                    f"nothing changed); Cache-Control: public, max-age={MAX_AGE}. Rate limited per client address "
                    "(429 with Retry-After). Any origin may read it (Access-Control-Allow-Origin: *).",
        auth=[],
        parameters=[
            OpenApiParameter("code", OpenApiTypes.STR, OpenApiParameter.PATH, description="The casino's code."),
            OpenApiParameter("If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
                             description="The ETag of a copy held: 304 with no body while it is current."),
            OpenApiParameter("ETag", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[200, 304],
                             description="Strong validator of the representation."),
            OpenApiParameter("Cache-Control", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[200, 304],
                             description=f"public, max-age={MAX_AGE}"),
        ],
        responses={
            200: Output,
            304: OpenApiResponse(description="Not modified: the If-None-Match ETag is current; no body."),
            404: OpenApiResponse(description="No casino publishes a feed at this code (none has it, or its room "
                                             "turned the feed off): {detail: message}."),
        },
    )
    def get(self, request, code: str):
        casino = published_casino(code=code)
        if casino is None:
            raise NotFound()
        feed = public_feed(casino=casino)
        response = Response(feed.data)
        response["ETag"] = feed.etag
        patch_cache_control(response, public=True, max_age=MAX_AGE)
        return get_conditional_response(request, etag=feed.etag, response=response)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        for header, value in CORS_HEADERS.items():
            response[header] = value
        return response
