"""python manage.py close_gaming_day [--casino CODE] [--date YYYY-MM-DD] — what the scheduled job does."""
from datetime import date

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.casinos.models import Casino
from apps.core.exceptions import DomainError
from apps.core.unavailable import statement_timeout
from apps.counts.services import close_gaming_days


class Command(BaseCommand):
    help = ("Close every ended gaming day not closed yet (at one casino or all), oldest first, each with its own close "
            "record, as the scheduled job does; with --date, those through that day (N.J.A.C. 13:69F-14.19).")

    def add_arguments(self, parser):
        parser.add_argument("--casino", help="Casino code (default: every casino of this deployment).")
        parser.add_argument("--date", type=date.fromisoformat,
                            help="The last gaming day to close, YYYY-MM-DD (default: the one that ended last).")

    def handle(self, *args, casino=None, date=None, **options):
        casinos = Casino.objects.filter(code=casino) if casino else Casino.objects.order_by("pk")
        if casino and not casinos.exists():
            raise CommandError(f"No casino with code {casino!r}.")
        for c in casinos:
            try:
                with statement_timeout(settings.DATABASE_LONG_STATEMENT_TIMEOUT_MS):  # the ledger check sums history
                    closes = close_gaming_days(casino=c, through=date)
            except DomainError as exc:
                raise CommandError(f"{c.code}: {exc.message}") from exc
            if not closes:
                self.stdout.write(f"{c.code}: no ended gaming day left to close.")
            for close in closes:
                state = "in order" if close.summary.get("in_order") else "with findings"
                self.stdout.write(f"{c.code} {close.gaming_day}: closed {state}; {close.summary}")
