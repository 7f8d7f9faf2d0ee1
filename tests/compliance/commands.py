"""`manage.py compliance_matrix` run in the test's process, as the compliance tests call it."""
import io

from django.core.management import call_command


def run(*args) -> tuple[int, str, str]:
    """compliance_matrix with `args`: (exit code, what it printed, what it wrote to stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        call_command("compliance_matrix", *args, stdout=out, stderr=err)
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()
