"""The OpenAPI schema's error answers (apps.core.schema.ApiSchema)."""
import runpy
from pathlib import Path

from drf_spectacular.generators import SchemaGenerator

from apps.core.schema import URI_TOO_LONG


def test_every_operation_declares_the_servers_414_for_an_overlong_request_line():
    """gunicorn answers 414 (its own HTML page) to a request line past limit_request_line before Django sees it: a
    client told of every other answer is told of that one too, with no body shape promised."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = [operation for item in schema["paths"].values() for operation in item.values()]
    assert len(operations) > 30
    assert [o["operationId"] for o in operations if o["responses"].get("414") != URI_TOO_LONG] == []
    settings = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    assert f"{settings['limit_request_line']:,}" in URI_TOO_LONG["description"]
