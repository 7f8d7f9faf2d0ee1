"""python manage.py compliance_matrix [--format text|csv|json] [--check] [--report PATH]"""
import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.compliance.exports import CSV_HEADER, as_json, csv_rows, summary_rows
from apps.compliance.matrix import CLAUSES_FILE, NO_CODE, matrix_for
from apps.compliance.selectors import source_root
from apps.core.spreadsheets import SafeWriter


class Command(BaseCommand):
    help = ("Print the compliance matrix of N.J.A.C. 13:69F: for each operative clause its requirements, the code "
            "that implements each and the tests that prove it (@pytest.mark.proves; with their results when --report "
            "names a pytest JSON report), and the headline: clauses and requirements proven, partly proven, not "
            "proven. Exits 1 when a proves marker names a requirement clauses.toml does not list; with --check, "
            "also when a requirement that needs code has no (passing) proving test and no written not-built "
            "reason, listing them.")
    requires_system_checks: list = []

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=["text", "csv", "json"], default="text")
        parser.add_argument("--check", action="store_true",
                            help="exit 1 when a requirement that needs code has no (passing) proving test and no "
                                 "written not-built reason")
        parser.add_argument("--report", type=Path, default=None, metavar="PATH",
                            help="a pytest-json-report file: only tests that passed in it count")
        parser.add_argument("--root", type=Path, default=None, help="the source tree to scan (default: this repo)")
        parser.add_argument("--clauses", type=Path, default=CLAUSES_FILE, help="the clauses file (default: ours)")

    def handle(self, *args, format, check, report, root, clauses, **options):
        if report is not None and not report.is_file():
            raise CommandError(f"--report: no file {report}.")
        try:
            matrix = matrix_for(root or source_root(), clauses_path=clauses, report_path=report)
        except (ValueError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        if format == "json":
            self.stdout.write(json.dumps(as_json(matrix), indent=2))
        elif format == "csv":
            writer = SafeWriter(self.stdout, lineterminator="\n")  # no cell read as a formula (OWASP)
            writer.writerow(CSV_HEADER)
            writer.writerows(csv_rows(matrix.rows))
            writer.writerows(summary_rows(matrix.summary()))
        else:
            self._text(matrix)
        if matrix.errors:
            sys.stderr.write("compliance_matrix: these proves markers name no requirement of clauses.toml:\n"
                             + "".join(f"  {e}\n" for e in matrix.errors))
            sys.exit(1)
        if check and (failures := matrix.failures()):
            sys.stderr.write(f"compliance_matrix: {len(failures)} requirements that need code have no "
                             f"{'passing ' if matrix.report else ''}proving test and no written reason:\n"
                             + "".join(f"  {line}\n" for line in failures))
            sys.exit(1)

    def _text(self, matrix):
        passed = " passed" if matrix.report else ""
        for row in matrix.rows:
            detail = row.reason if row.status == NO_CODE else row.note
            self.stdout.write(f"{row.id:<13} {row.status_label:<15} {detail}")
            for r in row.requirements if row.status != NO_CODE else []:
                tests = sum(1 for t in r.tests if not matrix.report or t.result == "passed")
                what = r.reason if r.reason else f"{len(r.code)} code refs, {tests}{passed} proving tests"
                self.stdout.write(f"  {r.id:<24} {r.status_label:<15} {what}" + (f" — {r.note}" if r.note else ""))
        s = matrix.summary()
        self.stdout.write(
            f"\n{s['clauses']} clauses: {s['proven']} proven, {s['partly_proven']} partly proven, "
            f"{s['not_proven']} not proven, {s['no_code']} need no code.\n"
            f"{s['requirements']} requirements: {s['requirements_proven']} proven by a "
            f"{'passing ' if matrix.report else ''}test that says so, "
            f"{s['requirements_not_proven']} not proven ({s['requirements_not_built']} not built, with the reason; "
            f"{s['gaps']} gaps), {s['requirements_no_code']} need no code.\n"
            "Mutation testing: not run yet.")
