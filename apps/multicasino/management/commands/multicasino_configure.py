"""python manage.py multicasino_configure FILE.json — this deployment's part of a multi-casino system, as data.

{"system": {"code", "name", "host_name", "host_address", "rules": {...}, "two_claims_rule",
            "contributions_while_suspended", "funds_and_fees", "records_kept_by",
            "heartbeat_seconds", "silence_seconds", "casino": "<code of this deployment's casino>"},
 "sites": [{"code", "name", "address", "is_host", "is_self", "inbox_url", "outbound_secrets", "inbound_secrets",
            "role", "authority", "responsibilities"}]}

The agreement's terms (funds_and_fees, 14.20(c)2; records_kept_by, (c)3) and each casino's role, authority and
responsibilities ((c)) may be left out: what is recorded (e.g. on the system's admin page) is then kept.

`rules` holds every key of services.setup.RULE_KEYS; the terms of which pots qualify (straddled_pots_qualify,
bomb_pots_qualify, multiple_runs_qualify) may be left out for their defaults (true, true, false).
The system's payout here is the casino's primary bad beat payout. Run again to change it (idempotent).
"""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.badbeat.selectors import jackpot_of
from apps.casinos.models import Casino
from apps.core.exceptions import DomainError
from apps.multicasino.services.setup import add_site, set_up_system


class Command(BaseCommand):
    help = "Configure this deployment's multi-casino bad beat system from a JSON file (N.J.A.C. 13:69F-14.20)."

    def add_arguments(self, parser):
        parser.add_argument("path")

    @transaction.atomic
    def handle(self, *args, path, **options):
        try:
            config = json.loads(Path(path).read_text())
            spec = config["system"]
            casino = Casino.objects.get(code=spec["casino"])
        except (OSError, ValueError, KeyError, Casino.DoesNotExist) as exc:
            raise CommandError(f"Cannot read the configuration: {exc!r}") from exc
        try:
            system = set_up_system(code=spec["code"], name=spec["name"], host_name=spec["host_name"],
                                   host_address=spec["host_address"], rules=spec["rules"],
                                   two_claims_rule=spec.get("two_claims_rule", "first_received"),
                                   contributions_while_suspended=spec.get("contributions_while_suspended", False),
                                   jackpot=jackpot_of(casino=casino), funds_and_fees=spec.get("funds_and_fees"),
                                   records_kept_by=spec.get("records_kept_by"))
            for site in config.get("sites", []):
                add_site(system=system, **site)
        except DomainError as exc:
            raise CommandError(f"{exc.field}: {exc.message}" if exc.field else exc.message) from exc
        except TypeError as exc:  # a key no site has
            raise CommandError(f"Cannot read the configuration: {exc}") from exc
        system.heartbeat_seconds = spec.get("heartbeat_seconds", system.heartbeat_seconds)
        system.silence_seconds = spec.get("silence_seconds", system.silence_seconds)
        system.save(update_fields=["heartbeat_seconds", "silence_seconds"])
        self.stdout.write(f"{system.code}: {len(config.get('sites', []))} sites; rules hash {system.rules_hash[:12]}.")
