"""Pages of a room screen that shows more than fits at once (the jackpot display, the games-and-seats board): each
poll of the screen carries a tick (`?tick=`); every `ticks_per_page` polls the screen turns to its next page, and after
the last page back to the first. Nothing is kept on the server: the screen's next poll asks for the tick it is given.
A poll answered with STOP_POLLING is the screen's last."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil
from typing import Any

from django.core.exceptions import BadRequest
from django.http import HttpRequest

#: A screen's poll answered with this status swaps the answer in and stops polling (htmx): a screen that must stop
#: (its display link revoked, its staff session ended) shows the notice it is answered and asks no more.
STOP_POLLING = 286
#: The largest tick a screen sends; a tick wraps round long before (see `rotate`).
MAX_TICK = 9999
TICK = re.compile(r"[0-9]{1,4}")


@dataclass(frozen=True)
class Rotation:
    """The page of items a screen shows at one poll: the items, which page (from 1) of how many, and the tick the
    screen's next poll sends."""

    items: Sequence[Any]
    page: int
    pages: int
    next_tick: int


def rotate(items: Sequence[Any], *, per_page: int, tick: int, ticks_per_page: int) -> Rotation:
    """The page of `items` shown at poll number `tick`: each page of `per_page` items stays `ticks_per_page` polls."""
    pages = max(1, ceil(len(items) / per_page))
    cycle = pages * ticks_per_page
    tick %= cycle
    page = tick // ticks_per_page
    return Rotation(items=items[page * per_page:(page + 1) * per_page], page=page + 1, pages=pages,
                    next_tick=(tick + 1) % cycle)


def tick_of(request: HttpRequest) -> int:
    """`?tick=` of a screen's poll (0 when absent). A tick that is not a whole number from 0 to MAX_TICK is a 400
    that names the parameter, as every page answers a parameter it cannot take."""
    text = request.GET.get("tick", "0")
    if not TICK.fullmatch(text):
        raise BadRequest(f"tick: a whole number from 0 to {MAX_TICK}.")
    return int(text)
