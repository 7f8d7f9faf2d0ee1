"""Each user's home (/home/, where the sign-in lands: LOGIN_REDIRECT_URL): the first page their role may open."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from .navigation import home_url
from .policy import signed_in


@signed_in("Each user's home: a redirect to the first page their own role may open (apps.core.navigation), "
           "or a page saying there is none; it shows no record.")
@login_required
@require_safe
def home(request):
    """Redirect to the first page the user's role may open (apps.core.navigation.home_url); a user of no casino,
    of no role or of a role with no page gets a page saying so, with a way to log out."""
    if url := home_url(request.user):
        return redirect(url)
    return render(request, "home_none.html", {"no_casino": request.user.casino_id is None})
