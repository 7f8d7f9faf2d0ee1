"""The models and the migrations agree: a model changed without its migration (a field's length, its null, a
constraint) is caught here, not by the test database, which is built from the migrations. The compliance matrix's
mutation runs rely on it (apps/compliance/mutation.py: a model's field declarations are the migrations' schema)."""
from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_every_model_change_has_its_migration():
    out = StringIO()
    try:
        call_command("makemigrations", check=True, dry_run=True, stdout=out, stderr=out)
    except SystemExit as missing:
        pytest.fail(f"models changed without a migration (exit {missing.code}):\n{out.getvalue()}")
