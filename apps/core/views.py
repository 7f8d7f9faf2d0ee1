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
