"""Each user's home (/home/, where the sign-in lands: LOGIN_REDIRECT_URL): the first page their role may open."""
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from .navigation import home_url
from .policy import signed_in


@signed_in("Each user's home: a redirect to the first page their own role may open (apps.core.navigation), "
           "or a page saying there is none; it shows no record.")
@login_required
@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Redirect to the first page the user's role may open (apps.core.navigation.home_url); a user of no casino,
    of no role or of a role with no page gets a page saying so, with a way to log out."""
    user: Any = request.user  # signed in (login_required): a casinos.User, a model apps.core does not import
    if url := home_url(user):
        return redirect(url)
    return render(request, "home_none.html", {"no_casino": user.casino_id is None})
