"""Grant the app's database role its privileges, or check them (README, "Database roles").

`migrate` does it by itself when DATABASE_APP_ROLE is set; run this by hand after taking over an existing database
(as the owner: DATABASE_URL=$MIGRATION_DATABASE_URL python manage.py grant_app_role), or with --check from any
login to see what the role can do beyond its privileges."""
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS

from apps.core.database_roles import grant_app_role, privilege_problems


class Command(BaseCommand):
    help = "Grant the app's database role SELECT, INSERT on the append-only tables (and what else it needs)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--role", default=getattr(settings, "DATABASE_APP_ROLE", ""),
                            help="the role the app connects as (default: DATABASE_APP_ROLE)")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)
        parser.add_argument("--check", action="store_true", help="only report what the role can do wrongly")

    def handle(self, *args: Any, role: str, database: str, check: bool, **options: Any) -> None:
        if not role:
            raise CommandError("Name the app's role: --role or DATABASE_APP_ROLE.")
        try:
            if check:
                problems = privilege_problems(role=role, using=database)
            else:
                grant_app_role(role=role, using=database)
                problems = []
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from exc
        if problems:
            raise CommandError("\n".join(problems))
        self.stdout.write(self.style.SUCCESS(f"{role}: SELECT, INSERT on the append-only tables; nothing more."))
