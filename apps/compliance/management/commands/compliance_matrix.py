"""python manage.py compliance_matrix [--format text|csv|json] [--fail-under PCT] [--report PATH]"""
import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.compliance.exports import CSV_HEADER, as_json, csv_rows
from apps.compliance.matrix import CLAUSES_FILE, matrix_for
from apps.compliance.selectors import source_root
from apps.core.spreadsheets import SafeWriter


class Command(BaseCommand):
    help = ("Print the compliance matrix of N.J.A.C. 13:69F: for each operative clause the code that implements it "
            "and the tests that prove it (with their results when --report names a pytest JSON report). With "
            "--fail-under PCT, exit 1 when the share of clauses that need code and have a (passing) test is under "
            "PCT, listing those that lack one.")
    requires_system_checks: list = []

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=["text", "csv", "json"], default="text")
        parser.add_argument("--fail-under", type=float, default=None, metavar="PCT",
                            help="exit 1 when under PCT percent (0-100) of the clauses that need code have a test")
        parser.add_argument("--report", type=Path, default=None, metavar="PATH",
                            help="a pytest-json-report file: only tests that passed in it count")
        parser.add_argument("--root", type=Path, default=None, help="the source tree to scan (default: this repo)")
        parser.add_argument("--clauses", type=Path, default=CLAUSES_FILE, help="the clauses file (default: ours)")

    def handle(self, *args, format, fail_under, report, root, clauses, **options):
        if fail_under is not None and not 0 <= fail_under <= 100:
            raise CommandError("--fail-under: give a percentage from 0 to 100.")
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
        else:
            for row in matrix.rows:
                passed = sum(1 for t in row.tests if t.result == "passed")
                tests = f"{len(row.tests)} tests" + (f" ({passed} passed)" if matrix.report else "")
                detail = row.reason if row.status == "no_code" else f"{len(row.code)} code refs, {tests}"
                self.stdout.write(f"{row.id:<13} {row.status_label:<15} {detail}" + (f" — {row.note}" if row.note else ""))
            s = matrix.summary()
            self.stdout.write(f"\n{s['clauses']} clauses: {s['covered']} covered, {s['no_code']} need no code, "
                              f"{s['gaps']} gaps; {s['percent']:.2f} % of the {s['needs_code']} that need code have "
                              f"a {'passing ' if matrix.report else ''}test.")
        if fail_under is not None and matrix.ratio < fail_under:
            lacking = "\n".join(f"  {row.id}  {row.clause.title[:70]} — {row.note}" for row in matrix.gaps)
            sys.stderr.write(f"compliance_matrix: {matrix.ratio:.2f} % < {fail_under:g} %; these clauses need a "
                             f"{'passing ' if matrix.report else ''}test:\n{lacking}\n")
            sys.exit(1)
