"""Issue a display link from a shell: a room screen (the jackpot display, the games-and-seats board) or the waitlist
kiosk at the desk, opened with no sign-in (N.J.A.C. 13:69F-14.18, 14.19(b)-current-amount); as an administrator does at /screens/.

    python manage.py issue_screen_link --kind {jackpot,games,kiosk} --casino CODE [--name NAME] [--location TEXT]
        [--issued-by USERNAME] [--base-url https://poker.example.com]

Prints the link on one line: the full URL with --base-url, else its path (/screens/<token>/), to put after the site's
address. A link is issued by an administrator of the casino (DisplayLink.issued_by, in its audit trail): --issued-by
names one; without it, the casino's first active administrator (the lowest id) issues it. Revoke it at /screens/ or
in the admin site."""
from __future__ import annotations

from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from apps.casinos.models import Casino, User
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.screens.models import ScreenKind
from apps.screens.selectors import screen_path
from apps.screens.services import issue_display_link


class Command(BaseCommand):
    help = ("Issue a display link (a room screen or the waitlist kiosk) and print it. Issued by --issued-by, or by "
            "the casino's first active administrator when not given.")

    def add_arguments(self, parser):
        parser.add_argument("--kind", required=True, choices=ScreenKind.values,
                            help="jackpot: the jackpot display; games: the games-and-seats board; kiosk: the "
                                 "waitlist kiosk at the desk.")
        parser.add_argument("--casino", required=True, metavar="CODE", help="The casino's code.")
        parser.add_argument("--name", default="", help="The screen or tablet, e.g. 'Desk tablet' (default: the "
                                                       "kind's name).")
        parser.add_argument("--location", default="", help="Where in the poker room it is.")
        parser.add_argument("--issued-by", default="", metavar="USERNAME",
                            help="An administrator of the casino who issues it (default: the casino's first active "
                                 "administrator, by lowest id).")
        parser.add_argument("--base-url", default="", metavar="URL",
                            help="The site's address, e.g. https://poker.example.com: the full link is printed "
                                 "(else its path).")

    def handle(self, *args, kind: str, casino: str, name: str, location: str, issued_by: str, base_url: str,
               **options):
        base = base_url.strip().rstrip("/")
        parts = urlsplit(base)
        if base and (parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment
                     or any(c.isspace() for c in base)):
            raise CommandError(f"--base-url: an http(s) address, e.g. https://poker.example.com ({base_url!r}).")
        room = Casino.objects.filter(code=casino).first()
        if room is None:
            raise CommandError(f"No casino has the code {casino!r}.")
        user = self._issuer(room, issued_by)
        try:
            link = issue_display_link(casino=room, kind=kind, name=name or ScreenKind(kind).label,
                                      location=location, issued_by=user)
        except DomainError as exc:
            raise CommandError(f"{exc.field}: {exc.message}" if exc.field else exc.message) from exc
        self.stderr.write(f"Issued “{link.name}” ({link.get_kind_display()}) of {room.code} by {user.username}; "
                          "revoke it at /screens/.")
        self.stdout.write(f"{base}{screen_path(link)}")

    def _issuer(self, room: Casino, username: str) -> User:
        if username:
            user = User.objects.filter(username=username).first()
            if user is None or not user.is_active:
                raise CommandError(f"No active user {username!r}.")
            return user
        user = (User.objects.filter(casino=room, is_active=True, groups__name=Role.ADMIN.value)
                .order_by("pk").first())
        if user is None:
            raise CommandError(f"{room.code} has no active administrator: name one with --issued-by.")
        return user
