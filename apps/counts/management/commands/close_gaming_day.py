"""python manage.py close_gaming_day [--casino CODE] [--date YYYY-MM-DD] — what the scheduled job does."""
from datetime import date, timedelta

from django.core.management.base import BaseCommand, CommandError

from apps.casinos.models import Casino
from apps.casinos.selectors import current_gaming_day
from apps.core.exceptions import DomainError
from apps.counts.services import close_gaming_day


class Command(BaseCommand):
    help = "Close a gaming day (default: the one that ended last) at one casino or all (N.J.A.C. 13:69F-14.19)."

    def add_arguments(self, parser):
        parser.add_argument("--casino", help="Casino code (default: every casino of this deployment).")
        parser.add_argument("--date", type=date.fromisoformat, help="The gaming day, YYYY-MM-DD.")

    def handle(self, *args, casino=None, date=None, **options):
        casinos = Casino.objects.filter(code=casino) if casino else Casino.objects.all()
        if casino and not casinos.exists():
            raise CommandError(f"No casino with code {casino!r}.")
        for c in casinos:
            day = date or current_gaming_day(casino=c) - timedelta(days=1)
            try:
                close = close_gaming_day(casino=c, gaming_day=day)
            except DomainError as exc:
                raise CommandError(f"{c.code} {day}: {exc.message}") from exc
            state = "in order" if close.summary.get("in_order") else "with findings"
            self.stdout.write(f"{c.code} {day}: closed {state}; {close.summary}")
