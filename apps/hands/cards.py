"""Cards and their notation: rank then suit, e.g. 'As Kd Th' or, as PHH writes them, 'AsKdTh'."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import lru_cache

from .errors import CardCountError, DuplicateCardError, UnknownCardError


class Suit(StrEnum):
    """Suits; for odd chips and stud forced bets they rank spades > hearts > diamonds > clubs (14.9(d))."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def order(self) -> int:
        """0 for clubs up to 3 for spades (N.J.A.C. 13:69F-14.9(d), 14.9(i)3-tied-high, 14.9(i)3-tied-low)."""
        return "cdhs".index(self.value)


class Rank(IntEnum):
    """Ranks for high poker, ace high (N.J.A.C. 13:69F-14.3(a)-ranks)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return RANK_SYMBOLS[self.value - 2]


RANK_SYMBOLS = "23456789TJQKA"


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a standard 52-card deck."""

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return f"{self.rank.symbol}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card('{self}')"


_CARDS = {f"{r}{s}": Card(Rank(i + 2), Suit(s)) for i, r in enumerate(RANK_SYMBOLS) for s in "cdhs"}
DECK: tuple[Card, ...] = tuple(_CARDS.values())


def _card(token: str) -> Card:
    card = _CARDS.get(token[:1].upper() + token[1:].lower()) if len(token) == 2 else None
    if card is None:
        raise UnknownCardError(
            f"Unknown card {token!r}: rank must be one of {RANK_SYMBOLS} and suit one of cdhs.")
    return card


@lru_cache(maxsize=1 << 16)
def parse_cards(text: str, count: int | None = None) -> tuple[Card, ...]:
    """Parse 'As Kd Th', 'AsKdTh' or 'As,Kd' into cards; '10' may stand for 'T'.

    Returns a tuple of Card in the order written (the same texts are parsed once: the last 65,536 are kept).
    Raises UnknownCardError for a token that is not a card, DuplicateCardError for a card written twice,
    CardCountError when `count` is given and not met.
    """
    cards: list[Card] = []
    for token in text.replace(",", " ").replace("10", "T").split():
        if len(token) % 2:
            raise UnknownCardError(
                f"Unknown card {token!r}: rank must be one of {RANK_SYMBOLS} and suit one of cdhs.")
        cards.extend(_card(token[i:i + 2]) for i in range(0, len(token), 2))
    check_distinct(cards)
    if count is not None and len(cards) != count:
        raise CardCountError(f"Expected {count} cards, got {len(cards)}.")
    return tuple(cards)


def check_distinct(*groups: Iterable[Card]) -> None:
    """Raise DuplicateCardError naming the first card that appears twice across all groups: the cards of a round
    come from one deck (N.J.A.C. 13:69F-14.2(a)-one-deck)."""
    seen: set[Card] = set()
    for group in groups:
        for card in group:
            if card in seen:
                raise DuplicateCardError(f"Duplicate card '{card}'.")
            seen.add(card)


def format_cards(cards: Sequence[Card]) -> str:
    """'As Kd Th' for a sequence of cards ('' for none)."""
    return " ".join([_TEXT[card] for card in cards])


_TEXT = {card: text for text, card in _CARDS.items()}
