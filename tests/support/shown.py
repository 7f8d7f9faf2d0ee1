"""What a page shows a reader, without its random tokens.

A CSRF token (in forms and in htmx's headers) and a signed link are random letters and digits: a test that asserts a
short name is *not* on a page ("Bo", "Zed") fails now and then when a token happens to hold it. `shown` removes them
first, so the assertion is about what a person reads."""

import re

_CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")|("X-CSRFToken": ")[^"]*(")')


def shown(html: str, *links: str) -> str:
    """``html`` with every CSRF token, and each of ``links`` (signed paths), replaced by nothing."""
    html = _CSRF.sub(lambda m: "".join(g for g in m.groups() if g), html)
    for link in links:
        html = html.replace(link, "")
    return html
