"""Game forms: which cards a player may use at the showdown, and which halves a pot has."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from .cards import Card, check_distinct
from .errors import CardCountError, RuleSetError
from .rankings import HandValue, evaluate_five_card_high


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


_FORMS = {Game.HOLDEM: best_holdem}


def best_hands(game: Game | str, hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """The best high (and, where the game has one, low) hand of a player at the showdown.

    Raises CardCountError for the wrong number of cards, RuleSetError for a game this engine cannot judge yet.
    """
    game = Game(game)
    form = _FORMS.get(game)
    if form is None:
        raise RuleSetError(f"The game {game.value!r} is not available in this engine yet.")
    return form(hole, board)
