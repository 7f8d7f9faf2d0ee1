"""What a locked-out sign-in sees (django-axes calls `lockout_response`, settings.AXES_LOCKOUT_CALLABLE).

After AXES_FAILURE_LIMIT failed sign-ins for a user name, or from an address, within AXES_COOLOFF_TIME, every
further attempt (even with the right password) fails and restarts the wait; an administrator can unlock at once
(the admin's "Unlock" action on access attempts, which leaves a SignInUnlock row)."""
import math
from datetime import datetime, timedelta
from typing import Any

from axes.helpers import get_cool_off, get_failure_limit
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.utils import timezone

#: Set on the request when a signature on a form ran into a lockout (apps.core.signatures): the page stays the form,
#: which says beside the signature's field why it is refused.
SIGNATURE_LOCKED = "signature_locked_out"


def lockout_ends_at(request: HttpRequest) -> datetime:
    """When the lockout this request ran into ends, if nobody tries again before: the cool-off after this attempt
    (each failed attempt during a lockout restarts it)."""
    attempted = getattr(request, "axes_attempt_time", None) or timezone.now()
    return attempted + (get_cool_off(request) or timedelta(0))


def seconds_until(moment: datetime) -> int:
    return max(math.ceil((moment - timezone.now()).total_seconds()), 0)


def lockout_message(request: HttpRequest) -> str:
    ends = timezone.localtime(lockout_ends_at(request))
    return (f"Too many failed sign-ins: locked until {ends:%H:%M} ({ends:%Z}). Any attempt before then restarts "
            "the wait; an administrator can unlock it sooner.")


def lockout_response(request: HttpRequest, original_response: HttpResponseBase | None = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponseBase:
    """The API answers in its own error shape (apps.core.apis.TokenLoginApi has already raised it); a page gets
    the styled lockout page, 429, with when to retry; a page whose form's signature ran into the lockout stays as
    it is (apps.core.signatures)."""
    if getattr(request, SIGNATURE_LOCKED, False) and isinstance(original_response, HttpResponseBase):
        return original_response
    ends = lockout_ends_at(request)
    seconds = seconds_until(ends)
    if request.path.startswith("/api/"):
        if isinstance(original_response, HttpResponseBase) and original_response.status_code == 429:
            return original_response
        refused = JsonResponse({"detail": lockout_message(request)}, status=429)
        refused["Retry-After"] = str(seconds)
        return refused
    response: HttpResponse = render(request, "registration/locked_out.html", {
        "retry_at": ends, "minutes": -(-seconds // 60), "failure_limit": get_failure_limit(request, credentials),
    }, status=429)
    response["Retry-After"] = str(seconds)
    return response
