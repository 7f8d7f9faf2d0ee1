"""Reads of the room's screens: a display link from its token, the links of a casino, and the games-and-seats board
(N.J.A.C. 13:69F-14.18: the games being offered, their minimum/maximum wagers, the vacant seats at the tables; and
how many wait for each game, with initials only)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from django.core import signing
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.crypto import constant_time_compare

from apps.casinos.models import Casino
from apps.seats.selectors import GameLine, room_board

from .models import DisplayLink

#: Salt of the display links' signatures: a signature made for anything else of the project never opens a screen.
TOKEN_SALT = "apps.screens.display-link"


def token_for(link: DisplayLink) -> str:
    """The token of a link's URL: its id and secret, signed with the project's key (django.core.signing, salted).
    The same for the link's whole life; revoking the link, not the token, ends it."""
    return signing.Signer(salt=TOKEN_SALT).sign(f"{link.pk}.{link.secret}")


def screen_path(link: DisplayLink) -> str:
    """The path that opens the link's screen, /screens/<token>/."""
    return reverse("screens:screen", kwargs={"token": token_for(link)})


class TokenProblem(StrEnum):
    INVALID = "invalid"  # not signed by us, or no such link, or not its secret
    REVOKED = "revoked"


@dataclass(frozen=True)
class TokenCheck:
    """A token read: the link it opens (None when invalid) and what is wrong with it (None when it opens a screen)."""

    link: DisplayLink | None
    problem: TokenProblem | None


def link_from_token(token: str) -> TokenCheck:
    """The display link a token opens. INVALID: the signature is not ours (tampered, another salt, another key), or
    no link has that id, or the secret is not the link's (compared in constant time). REVOKED: the link's row says
    it was revoked — checked on every request, so a revocation takes effect at the screen's next poll."""
    try:
        value = signing.Signer(salt=TOKEN_SALT).unsign(token)
    except signing.BadSignature:
        return TokenCheck(None, TokenProblem.INVALID)
    pk, _, secret = value.partition(".")
    if not pk.isascii() or not pk.isdigit() or len(pk) > 18:
        return TokenCheck(None, TokenProblem.INVALID)
    link = DisplayLink.objects.select_related("casino").filter(pk=int(pk)).first()
    if link is None or not constant_time_compare(secret, link.secret):
        return TokenCheck(None, TokenProblem.INVALID)
    return TokenCheck(link, TokenProblem.REVOKED if link.revoked_at else None)


def links_of(*, casino: Casino) -> QuerySet[DisplayLink]:
    """The casino's display links, newest first (keyset pages on the id), with who issued and revoked them."""
    return DisplayLink.objects.filter(casino=casino).select_related("issued_by", "revoked_by").order_by("-id")


# --- the games-and-seats board (14.18) --------------------------------------------------------------------------------

def games_board(*, casino: Casino, now: datetime) -> list[GameLine]:
    """The games-and-seats board of the room's screens (14.18): apps.seats.selectors.room_board's game lines — each
    game and limits (or rotation) the room runs or keeps a list for, its open tables, seats, vacant seats (the floor's
    seats reconciled with the feed's rounds of play) and its list's length with initials only — the same lines the
    public feed and page publish (apps.public), so that the screens and the public page show the same games and
    seats. `now`: aware. A fixed number of queries whatever the room's size."""
    return room_board(casino=casino, now=now)
