"""python manage.py import_phh PATH... — take PHH hand histories in as rounds of play."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from apps.casinos.models import Casino
from apps.core.exceptions import DomainError
from apps.rounds.services import import_phh
from apps.tables.models import Game, PokerTable


class Command(BaseCommand):
    help = ("Import PHH hand histories (.phh, .phhs; files or folders) as rounds of play at a table. "
            "Each source hand is stored once: importing again changes nothing.")

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="PHH files or folders holding them")
        parser.add_argument("--casino", help="casino code (default: the only casino)")
        parser.add_argument("--table", type=int, help="table number (default: the lowest hold'em table)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **options):
        table = self._table(options["casino"], options["table"])
        files = self._files(options["paths"])
        if not files:
            raise CommandError("No .phh or .phhs file found under the given paths.")
        imported = skipped = 0
        failures = []
        with tqdm(total=len(files), unit="file", disable=options["no_progress"] or None,
                  desc=f"Table {table.number}") as bar:
            for path in files:
                try:
                    result = import_phh(table=table, text=path.read_text(encoding="utf-8"), name=path.name)
                except (DomainError, UnicodeDecodeError) as exc:
                    failures.append(f"{path}: {getattr(exc, 'message', exc)}")
                else:
                    imported += result.imported
                    skipped += result.skipped
                bar.update(1)
                bar.set_postfix(imported=imported, skipped=skipped)
        self.stdout.write(f"Imported {imported} rounds of play at table {table.number}; "
                          f"{skipped} already stored; {len(failures)} file(s) refused.")
        if failures:
            raise CommandError("Refused (nothing stored from these files):\n" + "\n".join(failures))

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

    def _table(self, casino_code: str | None, number: int | None) -> PokerTable:
        casinos = Casino.objects.all()
        if casino_code:
            casinos = casinos.filter(code=casino_code)
        if casinos.count() != 1:
            raise CommandError("Name the casino with --casino CODE (none or several exist). "
                               "A fresh database is set up with `python manage.py seed_demo`.")
        tables = PokerTable.objects.filter(casino=casinos.get())
        tables = tables.filter(number=number) if number is not None else tables.filter(game=Game.HOLDEM)
        table = tables.order_by("number").first()
        if table is None:
            raise CommandError("No such table: create it first (or give --table NUMBER of a hold'em table).")
        return table
