"""After-the-fact work on sign-in events."""
from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.db.models.signals import pre_migrate
from django.dispatch import receiver
from django.http import HttpRequest
from knox.models import get_token_model


@receiver(user_logged_out, dispatch_uid="core.revoke_api_tokens_on_logout")
def revoke_api_tokens_on_logout(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """Signing out of the browser (the site's or the admin's log-out) revokes every API token of the user as well.
    The API's own token log-out (knox, a DRF request) has already revoked what it was asked to."""
    if user is None or not isinstance(request, HttpRequest):
        return
    get_token_model().objects.filter(user=user).delete()


@receiver(pre_migrate, dispatch_uid="core.no_statement_timeout_for_migrate")
def no_statement_timeout_for_migrate(sender: Any, using: str, **kwargs: Any) -> None:
    """`migrate` runs with no statement timeout (an index built over millions of rows is legitimate), its lock timeout
    kept: a migration that cannot lock a table busy with requests stops, and is run again, rather than queue every
    request behind it (settings.DATABASE_LOCK_TIMEOUT_MS; apps.core.unavailable)."""
    from django.db import connections

    with connections[using].cursor() as cursor:
        cursor.execute("SELECT set_config('statement_timeout', '0', false)")


@receiver(connection_created, dispatch_uid="core.no_timeouts_for_maintenance_connections")
def no_timeouts_for_maintenance_connections(sender: Any, connection: BaseDatabaseWrapper,
                                            **kwargs: Any) -> None:
    """Django's connection to the maintenance database (NO_DB_ALIAS: CREATE and DROP DATABASE, by the test runner and
    `migrate`'s checks) waits as long as PostgreSQL takes: copying a template database on a busy machine may take
    more than a request's statement timeout (settings.DATABASES OPTIONS)."""
    from django.db.backends.base.base import NO_DB_ALIAS

    if connection.alias == NO_DB_ALIAS:
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('statement_timeout', '0', false), set_config('lock_timeout', '0', false)")
