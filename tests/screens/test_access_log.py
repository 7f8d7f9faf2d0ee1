"""A display link's token is its only credential: gunicorn's access log (gunicorn.conf.py's logger_class) writes
`/screens/[display link]/` in its place, in the request line, the path and the referer."""
import importlib.util
import logging
from datetime import timedelta
from pathlib import Path

from gunicorn.config import Config

from apps.screens.access_log import REDACTED, AccessLogger, redact

TOKEN = "12.s3cr3t-Abc_def:1vXyZ_signature-Part"


def test_redact_replaces_only_a_display_link_s_token():
    assert redact(f"GET /screens/{TOKEN}/?tick=3 HTTP/1.1") == f"GET /screens/{REDACTED}/?tick=3 HTTP/1.1"
    assert redact(f"https://room.example/screens/{TOKEN}/") == f"https://room.example/screens/{REDACTED}/"
    assert redact("GET /screens/ HTTP/1.1") == "GET /screens/ HTTP/1.1"  # the links page itself
    assert redact("POST /screens/12/revoke/ HTTP/1.1") == "POST /screens/12/revoke/ HTTP/1.1"
    assert redact("GET /api/rounds/ HTTP/1.1") == "GET /api/rounds/ HTTP/1.1"


def test_gunicorn_conf_installs_the_logger_and_its_access_line_has_no_token(caplog):
    spec = importlib.util.spec_from_file_location("gunicorn_conf", Path(__file__).parents[2] / "gunicorn.conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    assert conf.logger_class is AccessLogger
    config = Config()
    config.set("logger_class", conf.logger_class)
    config.set("accesslog", "-")
    assert config.logger_class is AccessLogger
    logger = config.logger_class(config)
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": f"/screens/{TOKEN}/?tick=1", "PATH_INFO": f"/screens/{TOKEN}/",
               "QUERY_STRING": "tick=1", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "10.0.0.9",
               "HTTP_REFERER": f"https://room.example/screens/{TOKEN}/", "HTTP_USER_AGENT": "display"}

    class Response:
        status, sent, headers = "200 OK", 512, []

    class Request:
        headers = [("REFERER", f"https://room.example/screens/{TOKEN}/")]

    logger.access_log.propagate = True
    with caplog.at_level(logging.INFO, logger="gunicorn.access"):
        logger.access(Response(), Request(), environ, timedelta(milliseconds=3))
    lines = [r.getMessage() for r in caplog.records if r.name == "gunicorn.access"]
    assert lines and all(TOKEN not in line and "s3cr3t" not in line for line in lines)
    assert f"GET /screens/{REDACTED}/?tick=1 HTTP/1.1" in lines[0]


def test_django_s_log_lines_pass_the_filter():
    """settings.LOGGING's console handler (where a 500's "Internal Server Error: <path>" goes) has RedactFilter."""
    from django.conf import settings

    from apps.screens.access_log import RedactFilter

    assert "no_display_links" in settings.LOGGING["handlers"]["console"]["filters"]
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s",
                               (f"/screens/{TOKEN}/",), None)
    assert RedactFilter().filter(record) and record.getMessage() == f"Internal Server Error: /screens/{REDACTED}/"


def test_gunicorn_s_error_line_has_no_token(caplog):
    config = Config()
    config.set("logger_class", AccessLogger)
    logger = config.logger_class(config)
    logger.error_log.propagate = True
    with caplog.at_level(logging.ERROR, logger="gunicorn.error"):
        logger.error("Error handling request %s", f"/screens/{TOKEN}/?tick=2")
    lines = {r.getMessage() for r in caplog.records if r.name == "gunicorn.error"}
    assert lines == {f"Error handling request /screens/{REDACTED}/?tick=2"}
