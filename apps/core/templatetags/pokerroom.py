import re
from datetime import timedelta
from decimal import Decimal, InvalidOperation

from django import template
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from apps.core.money import dollars

register = template.Library()


@register.filter
def hm(value: timedelta | None) -> str:
    """A duration as H:MM (negative durations as -H:MM)."""
    if value is None:
        return "—"
    seconds = int(value.total_seconds())
    sign = "-" if seconds < 0 else ""
    minutes = abs(seconds) // 60
    return f"{sign}{minutes // 60}:{minutes % 60:02d}"


@register.filter
def money(value: Decimal | int | str | None) -> str:
    """An amount of Decimal dollars as the room reads it: "$2,675.00", "\u2212$15.00" (apps.core.money.dollars);
    "—" for None or an empty string, and the value unchanged when it is not a number."""
    if value is None or value == "":
        return "—"
    try:
        return dollars(value)
    except (InvalidOperation, TypeError, ValueError):
        return str(value)


#: The CSS page sizes settings.PDF_PAGE_SIZE may name (CSS Paged Media, case-insensitive).
PAGE_SIZES = frozenset({"letter", "legal", "ledger", "a3", "a4", "a5", "b4", "b5", "jis-b4", "jis-b5"})


@register.simple_tag
def pdf_page_size(orientation: str = "") -> str:
    """The printable reports' CSS `@page { size: ... }` value: settings.PDF_PAGE_SIZE ("Letter" by default, US Letter
    612 x 792 pt), then `orientation` ("landscape" or "portrait", optional): "letter landscape". Raises
    ImproperlyConfigured for a size CSS does not know (the value goes into the style sheet)."""
    size = str(settings.PDF_PAGE_SIZE).strip().lower()
    if size not in PAGE_SIZES:
        raise ImproperlyConfigured(f"PDF_PAGE_SIZE {settings.PDF_PAGE_SIZE!r}: one of {', '.join(sorted(PAGE_SIZES))}.")
    if orientation not in ("", "landscape", "portrait"):
        raise ValueError(f"orientation {orientation!r}: landscape or portrait.")
    return f"{size} {orientation}".strip()


#: A card as the engine and the feed write it: rank (2-9, T or 10, J, Q, K, A) and suit (c, d, h, s).
CARD = re.compile(r"(10|[2-9TJQKA])([cdhs])")
#: A word made of cards only ("9h", "AhKh"): the filter leaves every other word as it is.
CARD_WORD = re.compile(r"(?<![A-Za-z0-9])(?:(?:10|[2-9TJQKA])[cdhs])+(?![A-Za-z0-9])")
SUITS = {"c": ("\u2663", "clubs"), "d": ("\u2666", "diamonds"), "h": ("\u2665", "hearts"), "s": ("\u2660", "spades")}
RANKS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


@register.filter
def cards(value: object) -> str:
    """Cards as the room reads them: "9h Td" -> 9♥ 10♦, each suit in its colour (hearts and diamonds red, clubs and
    spades black; the symbol is not colour alone), with the card's name for screen readers ("9 of hearts") and the
    symbols hidden from them. A list or tuple of cards is joined by spaces; text that is not a card ("??", "stood
    pat", "—") is kept as it is (escaped). Returns safe HTML."""
    text = " ".join(str(c) for c in value) if isinstance(value, list | tuple) else str(value if value is not None else "")
    out, last = [], 0
    for word in CARD_WORD.finditer(text):
        out.append(escape(text[last:word.start()]))
        for rank, suit in CARD.findall(word.group()):
            symbol, name = SUITS[suit]
            out.append(format_html('<span class="playing-card suit-{}"><span aria-hidden="true">{}{}</span>'
                                   '<span class="visually-hidden">{} of {}</span></span>',
                                   suit, "10" if rank == "T" else rank, symbol, RANKS.get(rank, rank), name))
        last = word.end()
    out.append(escape(text[last:]))
    return mark_safe("".join(str(part) for part in out))  # noqa: S308 - every part is escaped or format_html
