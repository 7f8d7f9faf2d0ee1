"""python manage.py import_phh PATH... [--backfill] — take PHH hand histories in as rounds of play."""
import getpass
import re
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from apps.casinos.models import Casino, User
from apps.casinos.services import start_backfill
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.counts.services import close_backfilled_days
from apps.feed.services import ImportSummary, import_phh_files
from apps.tables.models import PokerTable

_HEADER = re.compile(r"\s*\[[^\]]+\]\s*$")


class Command(BaseCommand):
    help = ("Import PHH hand histories (.phh, .phhs; files or folders) as rounds of play. Each hand goes to a table "
            "of the casino that deals its game (or to --table). Each source hand is stored once: importing again "
            "changes nothing. A file that is not PHH at all (TOML that cannot be read, no hand) is refused whole; a "
            "hand that cannot be taken in (malformed, impossible actions, cards that do not fit the game, no table to "
            "take it) is refused with its reason and the file's other hands go in. "
            "Hands dated in a gaming day that is not open (today's, and yesterday's until it is closed) are refused, "
            "unless --backfill: an administrator's backfill records them into past gaming days that hold no records "
            "yet and closes each day it filled at the end.")
    # A data command: the project's system checks (URL configuration, admin, templates) say nothing about the hands
    # it takes, and loading every view for them costs a run a second (bench/README.md, "Issue 35"); `manage.py
    # check --deploy`, migrate and the servers run them.
    requires_system_checks: list = []

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="PHH files or folders holding them")
        parser.add_argument("--casino", help="casino code (default: the only casino)")
        parser.add_argument("--table", type=int, help="record every hand at this table number (hands of a game it "
                                                      "does not deal are refused)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        parser.add_argument("--jobs", type=int, metavar="N", default=1,
                            help="files imported at once by N worker processes (default 1: one after the other). "
                                 "Each file is imported whole by one worker.")
        parser.add_argument("--backfill", action="store_true",
                            help="an administrator's backfill of historic hands: into past gaming days that hold no "
                                 "records yet, each closed when the import ends; audited with who ran it")
        parser.add_argument("--by", metavar="USERNAME",
                            help="with --backfill: the administrator running it (default: the casino's only active "
                                 "administrator)")

    def handle(self, *args, **options):
        if options["jobs"] < 1:
            raise CommandError("--jobs is a number of worker processes, at least 1.")
        casino = self._casino(options["casino"])
        table = None
        if options["table"] is not None:
            table = PokerTable.objects.filter(casino=casino, number=options["table"]).first()
            if table is None:
                raise CommandError(f"No table {options['table']} at {casino.code}.")
        files = self._files(options["paths"])
        if not files:
            raise CommandError("No .phh or .phhs file found under the given paths.")
        backfill = None
        if options["backfill"]:
            source = f"import_phh {' '.join(options['paths'])} --backfill (system user {getpass.getuser()})"
            try:
                backfill = start_backfill(casino=casino, run_by=self._administrator(casino, options["by"]),
                                          source=source)
            except DomainError as exc:
                raise CommandError(exc.message) from exc
        elif options["by"]:
            raise CommandError("--by names who runs a --backfill.")
        summary = ImportSummary()
        tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked
        with tqdm(total=0, unit="hand", disable=options["no_progress"] or None,
                  desc="Importing", dynamic_ncols=True) as bar:
            counts = {path: 1 if bar.disable else _hands_in(path) for path in files}
            bar.total = sum(counts.values())
            before = 0
            for path, done in import_phh_files(casino=casino, paths=files, table=table, backfill=backfill,
                                               recorded_by=backfill.run_by if backfill else None, jobs=options["jobs"],
                                               progress=bar.update):
                summary.add(done)
                before += counts[path]
                bar.update(max(0, before - bar.n))
                bar.set_postfix(imported=summary.imported, stored=summary.already_stored, refused=summary.refused)
        self._report(summary)
        if backfill is not None:
            closes = close_backfilled_days(backfill=backfill)
            self.stdout.write(f"Backfill {backfill.pk} by {backfill.run_by.username}: closed "
                              f"{len(closes)} gaming day(s) it filled"
                              + (f", {closes[0].gaming_day} to {closes[-1].gaming_day}." if closes else "."))
        if summary.files_refused or (summary.refused and not (summary.imported or summary.already_stored)):
            reasons = [f"{name}: {reason}" for name, reason in summary.files_refused] + [
                f"{label}: {reason}" for t in summary.variants.values() for label, reason in t.refused]
            raise CommandError(f"{len(summary.files_refused)} file(s) refused (nothing stored from them), "
                               f"{summary.refused} hand(s) refused:\n" + "\n".join(reasons))

    def _report(self, summary: ImportSummary) -> None:
        tables = ", ".join(f"table {n}: {c}" for n, c in sorted(summary.tables.items())) or "none"
        self.stdout.write(f"Imported {summary.imported} rounds of play ({tables}); {summary.already_stored} already "
                          f"stored; {summary.refused} hand(s) refused; {len(summary.files_refused)} file(s) refused.")
        for code, tally in sorted(summary.variants.items()):
            self.stdout.write(f"  {code:<6} imported {tally.imported:>6}, already stored {tally.already_stored:>6}, "
                              f"refused {len(tally.refused):>4}")
        refused = [(label, reason) for t in summary.variants.values() for label, reason in t.refused]
        if refused:
            self.stdout.write("Hands refused:")
            for label, reason in refused:
                self.stdout.write(f"  {label}: {reason}")
        if summary.files_refused:
            self.stdout.write("Files refused (nothing stored from these files):")
            for name, reason in summary.files_refused:
                self.stdout.write(f"  {name}: {reason}")

    def _files(self, paths: list[str]) -> list[Path]:
        files: list[Path] = []
        for raw in paths:
            path = Path(raw)
            if path.is_dir():
                files += sorted(p for p in path.rglob("*") if p.suffix in {".phh", ".phhs"})
            elif path.is_file():
                files.append(path)
            else:
                raise CommandError(f"{raw}: no such file or folder.")
        return files

    def _administrator(self, casino: Casino, username: str | None) -> User:
        admins = User.objects.filter(casino=casino, is_active=True, groups__name=Role.ADMIN.value)
        if username:
            admins = admins.filter(username=username)
            if not admins.exists():
                raise CommandError(f"{username!r} is not an active administrator of {casino.code}.")
        elif admins.count() != 1:
            raise CommandError(f"{casino.code} has {admins.count()} active administrators: name the one running the "
                               "backfill with --by USERNAME.")
        return admins.get()

    def _casino(self, code: str | None) -> Casino:
        casinos = Casino.objects.all()
        if code:
            casinos = casinos.filter(code=code)
        if casinos.count() != 1:
            raise CommandError("Name the casino with --casino CODE (none or several exist). "
                               "A fresh database is set up with `python manage.py seed_demo`.")
        return casinos.get()


def _hands_in(path: Path) -> int:
    """The hands a file seems to hold, for the progress bar: its header lines (at least 1), read line by line."""
    try:
        with open(path, encoding="utf-8", errors="replace") as lines:
            return max(1, sum(1 for line in lines if line.lstrip().startswith("[") and _HEADER.match(line)))
    except OSError:
        return 1
