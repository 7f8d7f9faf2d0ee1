"""The OpenAPI schema's error answers (apps.core.schema.ApiSchema)."""
import runpy
from pathlib import Path

from drf_spectacular.generators import SchemaGenerator

from apps.core.schema import SERVER_ANSWERS


def test_every_operation_declares_the_servers_414_and_431_for_an_overlong_request_line_or_header():
    """gunicorn answers 414 to a request line past limit_request_line, and 431 to a header past
    limit_request_field_size or too many headers (its own HTML page), before Django sees them: a client told of every
    other answer is told of those too, with no body shape promised, and the limits told are the ones set."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = [operation for item in schema["paths"].values() for operation in item.values()]
    assert len(operations) > 30
    for code, answer in SERVER_ANSWERS.items():
        assert [o["operationId"] for o in operations if o["responses"].get(code) != answer] == []
    settings = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    assert f"{settings['limit_request_line']:,} bytes" in SERVER_ANSWERS["414"]["description"]
    assert f"{settings['limit_request_field_size']:,} bytes" in SERVER_ANSWERS["431"]["description"]
    assert f"more than {settings['limit_request_fields']} headers" in SERVER_ANSWERS["431"]["description"]
