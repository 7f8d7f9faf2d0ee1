"""Game forms: which cards a player may use at the showdown, and which halves a pot has (N.J.A.C. 13:69F-14.9
to 14.13A)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from .cards import Card, check_distinct
from .errors import CardCountError, RuleSetError
from .rankings import (
    HandValue,
    evaluate_ace_to_five_low,
    evaluate_badugi,
    evaluate_deuce_to_seven_low,
    evaluate_five_card_high,
    evaluate_three_card_high,
    evaluate_three_card_low,
)


class Game(StrEnum):
    """Permissible games, N.J.A.C. 13:69F-14.8(a) plus 14.12A and 14.12B. Single draw deuce to seven is five-card
    draw (14.12) with the hand ranked as in triple draw deuce to seven (14.12A(l))."""

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
    SINGLE_DRAW_27 = "single_draw_27"
    BADUGI = "badugi"
    MAMBO_STUD = "mambo_stud"


@dataclass(frozen=True, slots=True)
class ShowdownHand:
    """A player's best hands at the showdown; None where the game has no such half (or no qualifying low)."""

    high: HandValue | None
    low: HandValue | None = None


def _best(evaluator: Callable[[Sequence[Card]], HandValue], groups: Iterable[tuple[Card, ...]]) -> HandValue:
    if evaluator is evaluate_five_card_high:
        return _best_high(list(groups))
    return max(evaluator(group) for group in groups)


def _best_high(fives: list[tuple[Card, ...]]) -> HandValue:
    """The best five-card high hand of the groups, as max(evaluate_five_card_high(g) for g in fives) gives it
    (the first of equal hands): the table-driven scores of `fast` pick the group, which alone is ranked in full."""
    from . import fast

    score = fast.high_score
    cards = list({c for five in fives for c in five})
    id_of = dict(zip(cards, fast.card_ids(cards), strict=True))  # each card converted once, not once a group
    best = max(range(len(fives)), key=lambda i: score([id_of[c] for c in fives[i]]))
    return evaluate_five_card_high(fives[best])


def _best_qualifying(evaluator: Callable[[Sequence[Card]], HandValue],
                     groups: Iterable[tuple[Card, ...]]) -> HandValue | None:
    made = [v for v in (evaluator(group) for group in groups) if v.qualifies]
    return max(made) if made else None


def _counts(game: str, hole: Sequence[Card], board: Sequence[Card], holes: tuple[int, ...], boards: tuple[int, ...]) -> None:
    if len(hole) not in holes:
        raise CardCountError(f"{game}: expected {' or '.join(map(str, holes))} of the player's cards, got {len(hole)}.")
    if len(board) not in boards:
        raise CardCountError(f"{game}: expected {' or '.join(map(str, boards))} community cards, got {len(board)}.")
    check_distinct(hole, board)


def best_holdem(hole: Sequence[Card], board: Sequence[Card]) -> ShowdownHand:
    """Best five-card high hand of two hole and five community cards in any combination (14.10(j)-best-hand,
    14.10(j)-board-plays); when the board is the best hand, every player plays it and they share the pot."""
    _counts("Hold 'em", hole, board, (2,), (5,))
    return ShowdownHand(high=_best(evaluate_five_card_high, combinations((*hole, *board), 5)))


def _omaha_fives(hole: Sequence[Card], board: Sequence[Card]) -> list[tuple[Card, ...]]:
    _counts("Omaha", hole, board, (4,), (5,))
    return [(*two, *three) for two in combinations(hole, 2) for three in combinations(board, 3)]


def best_omaha(hole: Sequence[Card], board: Sequence[Card]) -> ShowdownHand:
    """Omaha high: exactly two of the four hole cards and three of the five community cards (14.11(f))."""
    return ShowdownHand(high=_best(evaluate_five_card_high, _omaha_fives(hole, board)))


def best_omaha_hilo8(hole: Sequence[Card], board: Sequence[Card]) -> ShowdownHand:
    """Omaha high-low split eight or better: the best high and, separately, the best eight-or-better low, each
    of two hole and three board cards; the same five or different fives; the ace both ways (14.11(f),
    14.11(g)-qualifier, 14.11(h))."""
    fives = _omaha_fives(hole, board)
    return ShowdownHand(high=_best(evaluate_five_card_high, fives),
                        low=_best_qualifying(lambda c: evaluate_ace_to_five_low(c, qualifier=8), fives))


def _stud_fives(hole: Sequence[Card], board: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every five of a seven-card stud hand at the showdown (14.9(i)-best-five): seven cards, five or six when the
    hand is reported short; a common card dealt when the deck runs short counts as each player's, so it may come
    as the board. Raises CardCountError."""
    _counts("Seven-card stud", hole, board, (5, 6, 7), (0, 1))
    return list(combinations((*hole, *board), 5))


def best_stud(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Seven-card stud high: the best five of the player's seven cards (14.9(i)-best-five, 14.9(i)1)."""
    return ShowdownHand(high=_best(evaluate_five_card_high, _stud_fives(hole, board)))


def best_stud_low(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Seven-card stud low: the best five-card A-5 low of the seven cards (14.9(i)2, 14.3(e)-ace-low, 14.3(f)-inverse,
    14.3(f)-straights-flushes)."""
    return ShowdownHand(high=None, low=_best(evaluate_ace_to_five_low, _stud_fives(hole, board)))


def best_stud_hilo(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Seven-card stud high-low split: a best high and a best low, each of five of the seven cards, the same
    five or not, the ace both ways (14.9(i)3-split, 14.9(k)-two-hands, 14.9(k)-same-five, 14.9(l)); any low plays (no
    qualifier)."""
    fives = _stud_fives(hole, board)
    return ShowdownHand(high=_best(evaluate_five_card_high, fives), low=_best(evaluate_ace_to_five_low, fives))


def best_stud_hilo8(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Seven-card stud high-low split eight or better: as high-low split, but a low must have no pair and no
    card above the eight (14.9(j)-qualifier); without one the high takes the whole pot."""
    fives = _stud_fives(hole, board)
    return ShowdownHand(high=_best(evaluate_five_card_high, fives),
                        low=_best_qualifying(lambda c: evaluate_ace_to_five_low(c, qualifier=8), fives))


def best_five_card_stud(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Five-card stud: the player's five cards as a high hand (14.13(h))."""
    _counts("Five-card stud", hole, board, (5,), (0,))
    return ShowdownHand(high=evaluate_five_card_high(hole))


def best_draw_high(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Five-card draw high: the five cards held after the draw as a high hand (14.12(h)1)."""
    _counts("Five-card draw", hole, board, (5,), (0,))
    return ShowdownHand(high=evaluate_five_card_high(hole))


def best_draw_low(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Five-card draw low: the five cards held as an A-5 low hand (14.12(h)2, 14.3(e)-ace-low, 14.3(f)-inverse,
    14.3(f)-straights-flushes)."""
    _counts("Five-card draw", hole, board, (5,), (0,))
    return ShowdownHand(high=None, low=evaluate_ace_to_five_low(hole))


def best_triple_draw_27(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Triple draw deuce to seven: the five cards held as a deuce-to-seven low hand (14.12A(l),
    14.3(e)-deuce-to-seven)."""
    _counts("Triple draw", hole, board, (5,), (0,))
    return ShowdownHand(high=None, low=evaluate_deuce_to_seven_low(hole))


def best_single_draw_27(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Single draw deuce to seven: five-card draw with one draw (five cards, 14.12(d); shown down, 14.12(h)), the
    five cards held ranked as the deuce-to-seven low hand of triple draw (14.3(e)-deuce-to-seven, 14.3(f)-inverse,
    14.3(f)-straights-flushes, 14.12A(l))."""
    _counts("Single draw", hole, board, (5,), (0,))
    return ShowdownHand(high=None, low=evaluate_deuce_to_seven_low(hole))


def best_badugi(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Badugi: the four cards held, ranked by 14.12B(l)."""
    _counts("Badugi", hole, board, (4,), (0,))
    return ShowdownHand(high=None, low=evaluate_badugi(hole))


def mambo_cards(hole: Sequence[Card], board: Sequence[Card] = ()) -> tuple[Card, ...]:
    """The four cards a mambo stud hand is made of: the player's three and the community card
    (14.13A(j)-three-cards), which may come as the board (three cards and one) or with the player's (four cards).
    Raises CardCountError for any other number of the player's or community cards, DuplicateCardError for a card
    seen twice."""
    _counts("Mambo stud", hole, board, (3, 4), (0, 1))
    cards = (*hole, *board)
    if len(cards) != 4:
        raise CardCountError(f"Mambo stud: expected 4 cards with the community card, got {len(cards)}.")
    return cards


def best_mambo_stud(hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """Mambo stud high-low split six or better: of the four cards (`mambo_cards`), the best three-card high
    (`evaluate_three_card_high`) and the best six-or-better low, the same three or not, the ace both ways
    (14.13A(k)-six-or-better and 14.13A(l)-two-hands, 14.13A(l)-ace-both-ways, 14.13A(l)-same-three). Raises as
    `mambo_cards` does."""
    threes = list(combinations(mambo_cards(hole, board), 3))
    return ShowdownHand(high=_best(evaluate_three_card_high, threes),
                        low=_best_qualifying(evaluate_three_card_low, threes))


FORMS: dict[Game, Callable[[Sequence[Card], Sequence[Card]], ShowdownHand]] = {
    Game.HOLDEM: best_holdem, Game.OMAHA: best_omaha, Game.OMAHA_HILO8: best_omaha_hilo8, Game.STUD: best_stud,
    Game.STUD_LOW: best_stud_low, Game.STUD_HILO: best_stud_hilo, Game.STUD_HILO8: best_stud_hilo8,
    Game.FIVE_CARD_STUD: best_five_card_stud, Game.DRAW_HIGH: best_draw_high, Game.DRAW_LOW: best_draw_low,
    Game.TRIPLE_DRAW_27: best_triple_draw_27, Game.SINGLE_DRAW_27: best_single_draw_27, Game.BADUGI: best_badugi, Game.MAMBO_STUD: best_mambo_stud,
}
#: Games whose pots are split between the best high and the best (qualifying) low.
SPLIT_GAMES = frozenset({Game.OMAHA_HILO8, Game.STUD_HILO, Game.STUD_HILO8, Game.MAMBO_STUD})
#: Games won by the best low hand alone.
LOW_GAMES = frozenset({Game.STUD_LOW, Game.DRAW_LOW, Game.TRIPLE_DRAW_27, Game.SINGLE_DRAW_27, Game.BADUGI})


def best_hands(game: Game | str, hole: Sequence[Card], board: Sequence[Card] = ()) -> ShowdownHand:
    """The best high and, where the game has one, low hand of a player at the showdown, found from the cards given
    and nothing else: no player's statement of a hand's value is taken (N.J.A.C. 13:69F-14.3(g)).

    Raises RuleSetError for an unknown game, CardCountError for the wrong number of cards for the game,
    DuplicateCardError for a card seen twice.
    """
    try:
        game = Game(game)
    except ValueError as exc:
        raise RuleSetError(f"Unknown game {game!r}; known: {', '.join(g.value for g in Game)}.") from exc
    return FORMS[game](hole, board)
