"""After-the-fact work on sign-in events."""
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver
from django.http import HttpRequest
from knox.models import get_token_model


@receiver(user_logged_out, dispatch_uid="core.revoke_api_tokens_on_logout")
def revoke_api_tokens_on_logout(sender, request, user, **kwargs) -> None:
    """Signing out of the browser (the site's or the admin's log-out) revokes every API token of the user as well.
    The API's own token log-out (knox, a DRF request) has already revoked what it was asked to."""
    if user is None or not isinstance(request, HttpRequest):
        return
    get_token_model().objects.filter(user=user).delete()
