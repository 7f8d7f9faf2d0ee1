"""Game forms: which cards a player may use at the showdown, and which halves a pot has."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from .cards import Card, check_distinct
from .errors import CardCountError, RuleSetError
from .rankings import HandValue, evaluate_ace_to_five_low, evaluate_five_card_high


class Game(StrEnum):
    """Permissible games, N.J.A.C. 13:69F-14.8 plus 14.12A and 14.12B."""

    HOLDEM = "holdem"
    OMAHA = "omaha"
    OMAHA_HILO8 = "omaha_hilo8"
    STUD = "stud"
    STUD_LOW = "stud_low"
    STUD_HILO = "stud_hilo"
    STUD_HILO8 = "stud_hilo8"
    FIVE_CARD_STUD = "five_card_stud"
    DRAW_HIGH = "draw_high"
    DRAW_LOW = "draw_low"
    TRIPLE_DRAW_27 = "triple_draw_27"
    BADUGI = "badugi"
    MAMBO_STUD = "mambo_stud"


@dataclass(frozen=True, slots=True)
class ShowdownHand:
    """A player's best hands at the showdown; None where the game has no such half (or no qualifying low)."""

    high: HandValue | None
    low: HandValue | None = None


def best_holdem(hole: Sequence[Card], board: Sequence[Card]) -> ShowdownHand:
    """Best five-card high hand from two hole cards and five community cards, any combination (14.10(j)).

    Raises CardCountError unless there are 2 hole and 5 board cards, DuplicateCardError for a repeated card.
    """
    if len(hole) != 2:
        raise CardCountError(f"Hold 'em: expected 2 hole cards, got {len(hole)}.")
    if len(board) != 5:
        raise CardCountError(f"Hold 'em: expected 5 board cards at the showdown, got {len(board)}.")
    check_distinct(hole, board)
    return ShowdownHand(high=max(evaluate_five_card_high(five) for five in combinations((*hole, *board), 5)))


def _best_omaha(hole: Sequence[Card], board: Sequence[Card], *, low: bool) -> ShowdownHand:
    if len(hole) != 4:
        raise CardCountError(f"Omaha: expected 4 hole cards, got {len(hole)}.")
    if len(board) != 5:
        raise CardCountError(f"Omaha: expected 5 board cards at the showdown, got {len(board)}.")
    check_distinct(hole, board)
    fives = [(*two, *three) for two in combinations(hole, 2) for three in combinations(board, 3)]
    high = max(evaluate_five_card_high(five) for five in fives)
    if not low:
        return ShowdownHand(high=high)
    lows = [v for v in (evaluate_ace_to_five_low(five, qualifier=8) for five in fives) if v.qualifies]
    return ShowdownHand(high=high, low=max(lows) if lows else None)


def best_omaha(hole: Sequence[Card], board: Sequence[Card]) -> ShowdownHand:
    """Omaha high: exactly two of the four hole cards with exactly three of the five community cards
    (N.J.A.C. 13:69F-14.11(f)). Raises CardCountError, DuplicateCardError."""
    return _best_omaha(hole, board, low=False)


def best_omaha_hilo8(hole: Sequence[Card], board: Sequence[Card]) -> ShowdownHand:
    """Omaha high-low split eight or better: the best high and, separately, the best qualifying A-5 low, each
    of two hole and three board cards; the same five or different fives; the ace both ways
    (N.J.A.C. 13:69F-14.11(f)-(h), 14.9(j)). `low` is None when no eight-or-better low can be made."""
    return _best_omaha(hole, board, low=True)


_FORMS = {Game.HOLDEM: best_holdem, Game.OMAHA: best_omaha, Game.OMAHA_HILO8: best_omaha_hilo8}
#: Games whose pots are split between the best high and the best qualifying low.
SPLIT_GAMES = frozenset({Game.OMAHA_HILO8})


def best_hands(game: Game | str, hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """The best high (and, where the game has one, low) hand of a player at the showdown.

    Raises CardCountError for the wrong number of cards, RuleSetError for a game this engine cannot judge yet.
    """
    game = Game(game)
    form = _FORMS.get(game)
    if form is None:
        raise RuleSetError(f"The game {game.value!r} is not available in this engine yet.")
    return form(hole, board)
