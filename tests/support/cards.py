"""Reading cards on a page as people see them: the `cards` filter writes each card as its rank and suit symbol (read
by the eye) beside its name (read by a screen reader, visually hidden)."""
import re
from html import unescape

HIDDEN = re.compile(r'<span class="visually-hidden">[^<]*</span>')
TAG = re.compile(r"<[^>]+>")


def seen(html: str) -> str:
    """The page's text as the eye reads it: the visually hidden names removed, tags dropped, entities decoded."""
    return unescape(TAG.sub("", HIDDEN.sub("", html)))


def heard(html: str) -> str:
    """The page's text as a screen reader reads it: what is hidden from it (aria-hidden) removed, tags dropped."""
    return unescape(TAG.sub("", re.sub(r'<span aria-hidden="true">[^<]*</span>', "", html)))
