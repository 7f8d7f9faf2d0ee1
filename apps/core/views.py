"""Page-view helpers: every page needs a login and a named permission."""
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied


class PermissionPageMixin(LoginRequiredMixin):
    """Anonymous users go to the login page; a logged-in user without `required_perm` gets a 403."""

    required_perm: str = ""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not request.user.has_perm(self.required_perm):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


def page_access(request, perm: str):
    """For function views: a redirect to the login page for an anonymous user (return it), PermissionDenied
    for a user without a casino or without `perm`; None when the page may be shown."""
    from django.contrib.auth.views import redirect_to_login

    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.user.casino_id is None or not request.user.has_perm(perm):
        raise PermissionDenied
    return None
