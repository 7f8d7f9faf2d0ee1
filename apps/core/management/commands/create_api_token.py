"""An API token for a user, printed once (only its hash is stored): for a feed or a script that cannot sign in.

    python manage.py create_api_token USERNAME [--hours N]

Prints "Generated token <token> for user <username>, expires <ISO time>". The token expires like any other
(REST_KNOX["TOKEN_TTL"], or --hours) and is revoked when the user signs out."""
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from knox.models import get_token_model
from knox.settings import knox_settings


class Command(BaseCommand):
    help = "Create an API token (django-rest-knox) for a user and print it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--hours", type=float, default=None,
                            help="Lifetime in hours (default: the configured token lifetime).")

    def handle(self, *args: Any, username: str, hours: float | None, **options: Any) -> None:
        try:
            user = get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist as exc:
            raise CommandError(f"No user {username!r}.") from exc
        ttl = timedelta(hours=hours) if hours is not None else knox_settings.TOKEN_TTL
        instance, token = get_token_model().objects.create(user=user, expiry=ttl)
        expires = instance.expiry.isoformat() if instance.expiry else "never"
        self.stdout.write(f"Generated token {token} for user {username}, expires {expires}")
