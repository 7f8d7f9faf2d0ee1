"""Gunicorn's access log without the secret of a display link.

A display link (apps.screens.selectors.link_token) is opened with no session: its token in the URL is the only
credential, so a line of the access log that held it would open the screen to whoever reads the log. Gunicorn's
logger here writes `/screens/[display link]/` in its place, in every field of the line (the request line, the
path, the referer the display's own polls send, any request header logged) and in its error log ("Error handling
request ..."). Loaded by gunicorn.conf.py (`logger_class`); it imports no Django. Django's own log lines (a 500's
"Internal Server Error: /screens/..."), written by the console handler of settings.LOGGING, pass `RedactFilter`.
"""
from __future__ import annotations

import logging
import re

from gunicorn.glogging import Logger

REDACTED = "[display link]"
#: A display link's path segment: /screens/<token>/ (the pages /screens/ and /screens/<id>/revoke/, and a segment
#: already redacted, are left).
_LINK = re.compile(rf"(/screens/)(?!\d+/revoke/|{re.escape(REDACTED)})([^/?#\s\"]+)")


def redact(text: str) -> str:
    """`text` with each display link's token replaced by REDACTED."""
    return _LINK.sub(rf"\g<1>{REDACTED}", text) if "/screens/" in text else text


class AccessLogger(Logger):
    """Gunicorn's Logger whose access log lines carry no display link's token."""

    def atoms(self, resp, req, environ, request_time) -> dict:
        return {name: redact(value) if isinstance(value, str) else value
                for name, value in super().atoms(resp, req, environ, request_time).items()}

    def error(self, msg, *args, **kwargs) -> None:
        super().error(redact(str(msg)), *_redacted(args), **kwargs)

    def exception(self, msg, *args, **kwargs) -> None:
        super().exception(redact(str(msg)), *_redacted(args), **kwargs)


def _redacted(args: tuple) -> tuple:
    return tuple(redact(a) if isinstance(a, str) else a for a in args)


class RedactFilter(logging.Filter):
    """A logging filter (settings.LOGGING's console handler): the record's message without a display link's token."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/screens/" in message:
            record.msg, record.args = redact(message), ()
        return True
