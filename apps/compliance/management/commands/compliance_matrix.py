"""python manage.py compliance_matrix [--format text|csv|json] [--check] [--report PATH] [--fresh-mutants PATH]"""
import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.compliance.exports import CSV_HEADER, as_json, csv_rows, summary_rows
from apps.compliance.matrix import CLAUSES_FILE, NO_CODE, matrix_for
from apps.compliance.mutation import EQUIVALENT_FILE, MUTANTS_FILE, load_equivalents, load_results
from apps.compliance.selectors import source_root
from apps.core.spreadsheets import SafeWriter


class Command(BaseCommand):
    help = ("Print the compliance matrix of N.J.A.C. 13:69F: for each operative clause its requirements, the code "
            "that implements each and the tests that prove it (@pytest.mark.proves; with their results when --report "
            "names a pytest JSON report), and the headline: clauses and requirements proven, partly proven, not "
            "proven. Exits 1 when a proves marker names a requirement clauses.toml does not list; with --check, "
            "also when a requirement that needs code has no (passing) proving test and no written not-built "
            "reason, listing them; with --check --fresh-mutants, also when a requirement's mutation score in that "
            "fresh run (bench/compliance_mutants.py --output PATH) is lower than in the committed mutants.json.")
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
        parser.add_argument("--mutants", type=Path, default=None, metavar="PATH",
                            help="the mutation results (default: the root's apps/compliance/mutants.json)")
        parser.add_argument("--fresh-mutants", type=Path, default=None, metavar="PATH",
                            help="with --check: a fresh run's results; exit 1 when a requirement's score is lower "
                                 "than in --mutants")

    def handle(self, *args, format, check, report, root, clauses, mutants, fresh_mutants, **options):
        if report is not None and not report.is_file():
            raise CommandError(f"--report: no file {report}.")
        if fresh_mutants is not None and not fresh_mutants.is_file():
            raise CommandError(f"--fresh-mutants: no file {fresh_mutants}.")
        root = root or source_root()
        mutants = mutants or root / MUTANTS_FILE.relative_to(source_root())
        equivalents = root / EQUIVALENT_FILE.relative_to(source_root())
        try:
            matrix = matrix_for(root, clauses_path=clauses, report_path=report, mutants_path=mutants,
                                equivalents_path=equivalents)
            fresh = load_results(fresh_mutants, load_equivalents(equivalents))[0] if fresh_mutants else {}
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
            sys.stderr.write("compliance_matrix: these markers and docstrings name no requirement of clauses.toml, or a "
                             "clause whole whose requirements they must name:\n"
                             + "".join(f"  {e}\n" for e in matrix.errors))
            sys.exit(1)
        if check and (failures := matrix.failures()):
            sys.stderr.write(f"compliance_matrix: {len(failures)} requirements that need code have no "
                             f"{'passing ' if matrix.report else ''}proving test and no written reason:\n"
                             + "".join(f"  {line}\n" for line in failures))
            sys.exit(1)
        if check and (drops := matrix.mutation_failures(fresh)):
            sys.stderr.write(f"compliance_matrix: {len(drops)} requirements lost mutation score in the fresh run "
                             f"({fresh_mutants}) against {mutants}:\n" + "".join(f"  {line}\n" for line in drops))
            sys.exit(1)

    def _text(self, matrix):
        passed = " passed" if matrix.report else ""
        for row in matrix.rows:
            detail = row.reason if row.status == NO_CODE else row.note
            self.stdout.write(f"{row.id:<13} {row.status_label:<15} {detail}")
            for r in row.requirements if row.status != NO_CODE else []:
                tests = sum(1 for t in r.tests if not matrix.report or t.result == "passed")
                what = r.reason if r.reason else f"{len(r.code)} code refs, {tests}{passed} proving tests"
                what += f"; {r.mutation_summary}" if r.mutation_summary else ""
                self.stdout.write(f"  {r.id:<24} {r.status_label:<15} {what}" + (f" — {r.note}" if r.note else ""))
        s = matrix.summary()
        self.stdout.write(
            f"\n{s['clauses']} clauses: {s['proven']} proven, {s['partly_proven']} partly proven, "
            f"{s['not_proven']} not proven, {s['no_code']} need no code.\n"
            f"{s['requirements']} requirements: {s['requirements_proven']} proven by a "
            f"{'passing ' if matrix.report else ''}test that says so, "
            f"{s['requirements_not_proven']} not proven ({s['requirements_not_built']} not built, with the reason; "
            f"{s['gaps']} gaps), {s['requirements_no_code']} need no code.\n"
            + ("Mutation testing: not run yet." if s["mutants"] is None else
               f"Mutation testing (last runs): {s['mutants']} mutants, {s['killed']} killed, {s['survived']} "
               f"survived, {s['equivalent']} equivalent (explained); {s['requirements_mutation_tested']} of the "
               f"proven requirements mutation-tested, {s['requirements_partly_proven']} partly proven (proven by "
               "their tests, but a mutant of their code survived them)."))
