"""Ranking hands under every rule set of the regulations. Greater HandValue = better hand, for every rule set.

High orders (N.J.A.C. 13:69F-14.3, 20.3, 27.3) share one core: a hand's shape (counts of equal ranks),
whether it is a flush and whether it is a straight (the ace may complete the lowest straight, A-2-3,
A-2-3-4 or A-2-3-4-5; no wrap-around) give the categories it satisfies; the rule set's order of categories
picks the best one; equal categories compare by the highest card not contained in the other hand (14.3(d)-kicker,
14.3(d)-tie). Low orders invert that (14.3(e)-ace-low, 14.3(e)-deuce-to-seven, 14.3(f)-inverse,
14.3(f)-straights-flushes): the ace is low, straights and flushes do not count, except in deuce-to-seven, where the ace
is high and they do. Badugi ranks by the number of cards of different suits and ranks, then lowest (14.12B(l)). """
from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from itertools import combinations

from .cards import Card, Rank
from .errors import CardCountError, RuleSetError


class RuleSet(StrEnum):
    """The ranking orders the regulations define."""

    FIVE_CARD_HIGH = "five_card_high"          # 14.3(a), (b), (d)
    THREE_CARD_HIGH = "three_card_high"        # 14.3(c) (mambo stud)
    THREE_CARD_POKER = "three_card_poker"      # 13:69F-20.3
    FOUR_CARD_POKER = "four_card_poker"        # 13:69F-27.3
    ACE_TO_FIVE_LOW = "ace_to_five_low"        # 14.3(e), (f)
    ACE_TO_FIVE_LOW_8 = "ace_to_five_low_8"    # 14.3(e), (f) with 14.9(j) eight or better
    THREE_CARD_LOW_6 = "three_card_low_6"      # 14.3(e), (f) with 14.13A(k) six or better
    DEUCE_TO_SEVEN_LOW = "deuce_to_seven_low"  # 14.3(e) proviso, 14.3(f), 14.12A
    BADUGI = "badugi"                          # 14.12B(l)


class _Category(Enum):
    """Categories carry (strength, label): strength is higher for a stronger hand within the rule set."""

    _value_: tuple[int, str]

    @property
    def strength(self) -> int:
        return self.value[0]

    @property
    def label(self) -> str:
        return self.value[1]


class FiveCardCategory(_Category):
    """Five-card high hands, their strengths in the order of N.J.A.C. 13:69F-14.3(b)-order, named as it names them."""

    HIGH_CARD = (1, "High card")
    ONE_PAIR = (2, "One pair")
    TWO_PAIR = (3, "Two pairs")
    THREE_OF_A_KIND = (4, "Three of a kind")
    STRAIGHT = (5, "Straight")
    FLUSH = (6, "Flush")
    FULL_HOUSE = (7, "Full house")
    FOUR_OF_A_KIND = (8, "Four of a kind")
    STRAIGHT_FLUSH = (9, "Straight flush")
    ROYAL_FLUSH = (10, "Royal flush")


class ThreeCardCategory(_Category):
    """Three-card high hands (mambo stud), their strengths in the order of N.J.A.C. 13:69F-14.3(c)-order, named as it
    names them."""

    HIGH_CARD = (1, "High card")
    ONE_PAIR = (2, "One pair")
    FLUSH = (3, "Flush")
    STRAIGHT = (4, "Straight")
    THREE_OF_A_KIND = (5, "Three of a kind")
    STRAIGHT_FLUSH = (6, "Straight flush")
    ROYAL_FLUSH = (7, "Royal flush")


class ThreeCardPokerCategory(_Category):
    """Three-card poker hands, their strengths in the order of N.J.A.C. 13:69F-20.3(b)-order, named as it names
    them."""

    HIGH_CARD = (1, "High card")
    PAIR = (2, "Pair")
    FLUSH = (3, "Flush")
    STRAIGHT = (4, "Straight")
    THREE_OF_A_KIND = (5, "Three of a kind")
    STRAIGHT_FLUSH = (6, "Straight flush")


class FourCardCategory(_Category):
    """Four-card poker hands, their strengths in the order of N.J.A.C. 13:69F-27.3(b)-order (four of a kind outranks
    a straight flush), named as it names them."""

    HIGH_CARD = (1, "High card")
    PAIR = (2, "Pair")
    TWO_PAIR = (3, "Two pair")
    STRAIGHT = (4, "Straight")
    FLUSH = (5, "Flush")
    THREE_OF_A_KIND = (6, "Three of a kind")
    STRAIGHT_FLUSH = (7, "Straight flush")
    FOUR_OF_A_KIND = (8, "Four of a kind")


class LowCategory(_Category):
    """A-5 low hands named by their highest card (N.J.A.C. 13:69F-14.3(e)-ace-low, 14.3(f)-inverse,
    14.3(f)-straights-flushes); three-card lows too."""

    PAIRED = (0, "Paired low")
    KING_LOW = (1, "King-low")
    QUEEN_LOW = (2, "Queen-low")
    JACK_LOW = (3, "Jack-low")
    TEN_LOW = (4, "Ten-low")
    NINE_LOW = (5, "Nine-low")
    EIGHT_LOW = (6, "Eight-low")
    SEVEN_LOW = (7, "Seven-low")
    SIX_LOW = (8, "Six-low")
    FIVE_LOW = (9, "Five-low")
    FOUR_LOW = (10, "Four-low")
    THREE_LOW = (11, "Three-low")


class DeuceToSevenCategory(_Category):
    """Deuce-to-seven low hands (14.3(e)-deuce-to-seven, 14.12A): the inverse of the high order, the ace high."""

    STRAIGHT_FLUSH = (0, "Straight flush")
    FOUR_OF_A_KIND = (1, "Four of a kind")
    FULL_HOUSE = (2, "Full house")
    FLUSH = (3, "Flush")
    STRAIGHT = (4, "Straight")
    THREE_OF_A_KIND = (5, "Three of a kind")
    TWO_PAIR = (6, "Two pairs")
    ONE_PAIR = (7, "One pair")
    ACE_LOW = (8, "Ace-high")
    KING_LOW = (9, "King-low")
    QUEEN_LOW = (10, "Queen-low")
    JACK_LOW = (11, "Jack-low")
    TEN_LOW = (12, "Ten-low")
    NINE_LOW = (13, "Nine-low")
    EIGHT_LOW = (14, "Eight-low")
    SEVEN_LOW = (15, "Seven-low")


class BadugiCategory(_Category):
    """Badugi hands, N.J.A.C. 13:69F-14.12B(l): by the number of cards of different suits and ranks."""

    ONE_CARD = (1, "One-card hand")
    TWO_CARD = (2, "Two-card hand")
    THREE_CARD = (3, "Three-card hand")
    BADUGI = (4, "Badugi")


Category = (FiveCardCategory | ThreeCardCategory | ThreeCardPokerCategory | FourCardCategory | LowCategory
            | DeuceToSevenCategory | BadugiCategory)


@functools.total_ordering
@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """A ranked hand: comparable within one rule set (greater = better), with its category and cards.

    key: the comparable value; cards: the cards that make the hand, ordered for display; qualifies: False
    when the rule set's qualifier (eight or better, six or better) is not met, True where there is none.
    """

    rule_set: RuleSet
    category: Category
    key: tuple[int, ...]
    cards: tuple[Card, ...]
    qualifies: bool = True

    def _check(self, other: HandValue) -> HandValue:
        if other.rule_set is not self.rule_set:
            raise RuleSetError(f"Cannot compare a {self.rule_set} hand with a {other.rule_set} hand.")
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.key == self._check(other).key

    def __lt__(self, other: HandValue) -> bool:
        return self.key < self._check(other).key

    def __hash__(self) -> int:
        return hash((self.rule_set, self.key))

    def __str__(self) -> str:
        return f"{self.category.label} ({' '.join(map(str, self.cards))})"


# --- the high core --------------------------------------------------------------------------------------------

_SHAPES = {  # counts of equal ranks -> shape name
    (1, 1, 1): "high", (2, 1): "pair", (3,): "trips",
    (1, 1, 1, 1): "high", (2, 1, 1): "pair", (2, 2): "two_pair", (3, 1): "trips", (4,): "quads",
    (1, 1, 1, 1, 1): "high", (2, 1, 1, 1): "pair", (2, 2, 1): "two_pair", (3, 1, 1): "trips", (3, 2): "full_house",
    (4, 1): "quads",
}


def _straight_high(ranks: Sequence[int], *, ace_low: bool = True) -> int | None:
    """High card of a straight of all the ranks (5 for A-2-3-4-5, 3 for A-2-3), or None; never wraps around.

    The straights of 14.3(b)6-straight and 14.3(c)4-straight, the ace low in them (14.3(a)-ace-low, 20.3(a)-ace-low,
    27.3(a)-ace-low) and in no other sequence (14.3(b)6-no-wrap, 14.3(c)4-no-wrap)."""
    distinct = sorted(set(ranks))
    if len(distinct) != len(ranks):
        return None
    if distinct[-1] - distinct[0] == len(ranks) - 1:
        return distinct[-1]
    if ace_low and distinct[-1] == Rank.ACE and distinct[:-1] == list(range(2, len(ranks) + 1)):
        return len(ranks)
    return None


@dataclass(frozen=True, slots=True)
class _Shape:
    name: str
    flush: bool
    straight: int | None
    order: tuple[int, ...]  # ranks by (count, rank) descending: the tie-break of 14.3(d)
    counts: Counter[int]


def _shape(cards: Sequence[Card], *, ace_low_straight: bool = True) -> _Shape:
    ranks = [int(c.rank) for c in cards]
    counts = Counter(ranks)
    order = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    return _Shape(name=_SHAPES[tuple(sorted(counts.values(), reverse=True))],
                  flush=len({c.suit for c in cards}) == 1,
                  straight=_straight_high(ranks, ace_low=ace_low_straight), order=order, counts=counts)


def _shown(cards: Sequence[Card], shape: _Shape) -> tuple[Card, ...]:
    """The cards as a dealer shows the hand: the larger groups of a rank first, each by rank; the ace last in a
    straight it completes low (5-4-3-2-A, 14.3(a)-ace-low), first everywhere else."""
    if shape.straight is not None and shape.straight < max(shape.order):  # a wheel: the ace plays low
        return tuple(sorted(cards, key=lambda c: 1 if c.rank == Rank.ACE else int(c.rank), reverse=True))
    return tuple(sorted(cards, key=lambda c: (shape.counts[int(c.rank)], int(c.rank), c.suit.order), reverse=True))


def _check_count(cards: Sequence[Card], n: int) -> None:
    """A hand of the rule set's size, else CardCountError: five cards (14.3(b)-order), three (14.3(c)-order,
    20.3(b)-order), four (27.3(b)-order)."""
    if len(cards) != n:
        raise CardCountError(f"Expected {n} cards, got {len(cards)}.")


def _high(rule_set: RuleSet, cards: Sequence[Card], n: int, category: Callable[[_Shape], Category]) -> HandValue:
    _check_count(cards, n)
    shape = _shape(cards)
    chosen = category(shape)
    tiebreak = (shape.straight,) if chosen.name.startswith(("STRAIGHT", "ROYAL")) else shape.order
    return HandValue(rule_set, chosen, (chosen.strength, *tiebreak), _shown(cards, shape))


def _five_category(s: _Shape) -> FiveCardCategory:
    """The category of a five-card high hand, N.J.A.C. 13:69F-14.3(b)."""
    c = FiveCardCategory
    if s.straight is not None and s.flush:
        return c.ROYAL_FLUSH if s.straight == Rank.ACE else c.STRAIGHT_FLUSH
    return {"quads": c.FOUR_OF_A_KIND, "full_house": c.FULL_HOUSE}.get(s.name) or (
        c.FLUSH if s.flush else c.STRAIGHT if s.straight is not None else
        {"trips": c.THREE_OF_A_KIND, "two_pair": c.TWO_PAIR, "pair": c.ONE_PAIR}.get(s.name, c.HIGH_CARD))


def _three_category(s: _Shape) -> ThreeCardCategory:
    """The category of a three-card high hand, N.J.A.C. 13:69F-14.3(c)."""
    c = ThreeCardCategory
    if s.straight is not None and s.flush:
        return c.ROYAL_FLUSH if s.straight == Rank.ACE else c.STRAIGHT_FLUSH
    if s.name == "trips":
        return c.THREE_OF_A_KIND
    return c.STRAIGHT if s.straight is not None else c.FLUSH if s.flush else (
        c.ONE_PAIR if s.name == "pair" else c.HIGH_CARD)


def _three_poker_category(s: _Shape) -> ThreeCardPokerCategory:
    """The category of a three card poker hand, N.J.A.C. 13:69F-20.3(b)."""
    c = ThreeCardPokerCategory
    if s.straight is not None and s.flush:
        return c.STRAIGHT_FLUSH
    if s.name == "trips":
        return c.THREE_OF_A_KIND
    return c.STRAIGHT if s.straight is not None else c.FLUSH if s.flush else (
        c.PAIR if s.name == "pair" else c.HIGH_CARD)


def _four_category(s: _Shape) -> FourCardCategory:
    """The category of a four card poker hand, N.J.A.C. 13:69F-27.3(b)."""
    c = FourCardCategory
    if s.name == "quads":
        return c.FOUR_OF_A_KIND
    if s.straight is not None and s.flush:
        return c.STRAIGHT_FLUSH
    if s.name == "trips":
        return c.THREE_OF_A_KIND
    return c.FLUSH if s.flush else c.STRAIGHT if s.straight is not None else (
        {"two_pair": c.TWO_PAIR, "pair": c.PAIR}.get(s.name, c.HIGH_CARD))


def evaluate_five_card_high(cards: Sequence[Card]) -> HandValue:
    """Five cards as a high hand, N.J.A.C. 13:69F-14.3(a)-ranks, 14.3(a)-suits, 14.3(a)-ace-low, 14.3(b),
    14.3(d)-kicker, 14.3(d)-tie: royal flush ... high card; the wheel A-2-3-4-5 is the lowest straight; no wrap-around.
    Raises CardCountError."""
    return _high(RuleSet.FIVE_CARD_HIGH, cards, 5, _five_category)


def evaluate_three_card_high(cards: Sequence[Card]) -> HandValue:
    """Three cards as a high hand, N.J.A.C. 13:69F-14.3(c): royal flush (A-K-Q suited) > straight flush >
    three of a kind > straight > flush > pair; A-2-3 the lowest straight; K-A-2 no straight."""
    return _high(RuleSet.THREE_CARD_HIGH, cards, 3, _three_category)


def evaluate_three_card_poker(cards: Sequence[Card]) -> HandValue:
    """Three-card poker, N.J.A.C. 13:69F-20.3: straight flush > three of a kind > straight > flush > pair;
    A-K-Q the highest and A-2-3 the lowest straight (flush); ties by 20.3(c)-kicker, 20.3(c)-draw."""
    return _high(RuleSet.THREE_CARD_POKER, cards, 3, _three_poker_category)


def evaluate_four_card_poker(cards: Sequence[Card]) -> HandValue:
    """Four-card poker, N.J.A.C. 13:69F-27.3: four of a kind > straight flush > three of a kind > flush >
    straight > two pair > pair; A-2-3-4 the lowest straight; ties by 27.3(c)-kicker, 27.3(c)-tie."""
    return _high(RuleSet.FOUR_CARD_POKER, cards, 4, _four_category)


# --- lows ----------------------------------------------------------------------------------------------------

def _ace_low(card: Card) -> int:
    return 1 if card.rank == Rank.ACE else int(card.rank)


_LOW_BY_TOP = {13: LowCategory.KING_LOW, 12: LowCategory.QUEEN_LOW, 11: LowCategory.JACK_LOW, 10: LowCategory.TEN_LOW,
               9: LowCategory.NINE_LOW, 8: LowCategory.EIGHT_LOW, 7: LowCategory.SEVEN_LOW, 6: LowCategory.SIX_LOW,
               5: LowCategory.FIVE_LOW, 4: LowCategory.FOUR_LOW, 3: LowCategory.THREE_LOW}


def _pairing(counts: Counter[int]) -> int:
    """How a low hand's groups of equal ranks rank it: fewer and smaller groups are better, the inverse of the high
    order (14.3(f)-inverse); minus the sum of the groups' squared sizes (5 unpaired cards -5, one pair -7, two pair
    -9, three of a kind -11, ...)."""
    return -sum(k * k for k in counts.values())


def _ace_to_five(rule_set: RuleSet, cards: Sequence[Card], n: int, qualifier: int | None) -> HandValue:
    _check_count(cards, n)
    lows = [_ace_low(c) for c in cards]
    counts = Counter(lows)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    key = (_pairing(counts), *(-r for r in order))
    unpaired = len(counts) == n
    category = _LOW_BY_TOP[max(lows)] if unpaired else LowCategory.PAIRED
    qualifies = qualifier is None or (unpaired and max(lows) <= qualifier)
    shown = tuple(sorted(cards, key=lambda c: (counts[_ace_low(c)], _ace_low(c), c.suit.order), reverse=True))
    return HandValue(rule_set, category, key, shown, qualifies)


def evaluate_ace_to_five_low(cards: Sequence[Card], *, qualifier: int | None = None) -> HandValue:
    """Five cards as an A-5 low hand, N.J.A.C. 13:69F-14.3(e)-ace-low, 14.3(e)-suits, 14.3(f)-inverse,
    14.3(f)-straights-flushes: the ace low, straights and flushes do not count, pairs make a hand worse, equal hands
    compare their highest card first. With `qualifier` 8 (eight or better, 14.9(j)-qualifier) the hand qualifies only
    with five unpaired cards none above the eight."""
    rule_set = RuleSet.ACE_TO_FIVE_LOW_8 if qualifier == 8 else RuleSet.ACE_TO_FIVE_LOW
    return _ace_to_five(rule_set, cards, 5, qualifier)


def evaluate_three_card_low(cards: Sequence[Card], *, qualifier: int | None = 6) -> HandValue:
    """Three cards as a low hand with the "six or better" qualifier of mambo stud, N.J.A.C.
    13:69F-14.13A(k)-six-or-better: no cards of equal rank and none above the six; ace low; straights and flushes
    ignored (14.3(f)-inverse, 14.3(f)-straights-flushes)."""
    return _ace_to_five(RuleSet.THREE_CARD_LOW_6, cards, 3, qualifier)


def evaluate_deuce_to_seven_low(cards: Sequence[Card]) -> HandValue:
    """Five cards as a deuce-to-seven low hand (N.J.A.C. 13:69F-14.3(e)-deuce-to-seven, 14.3(e)-suits, 14.3(f)-inverse,
    14.3(f)-straights-flushes, 14.12A): the ace is the highest card only (A-2-3-4-5 is no straight), straights and
    flushes count, and the lowest high hand wins: 7-5-4-3-2 of mixed suits is the best hand."""
    _check_count(cards, 5)
    shape = _shape(cards, ace_low_straight=False)
    high = _five_category(shape)
    d = DeuceToSevenCategory
    if high is FiveCardCategory.HIGH_CARD:
        top = max(shape.order)
        category = {14: d.ACE_LOW, 13: d.KING_LOW, 12: d.QUEEN_LOW, 11: d.JACK_LOW, 10: d.TEN_LOW, 9: d.NINE_LOW,
                    8: d.EIGHT_LOW, 7: d.SEVEN_LOW}[top]
    else:
        category = d[high.name if high is not FiveCardCategory.ROYAL_FLUSH else "STRAIGHT_FLUSH"]
    tiebreak = (shape.straight,) if shape.straight is not None else shape.order
    high_strength = high.strength if high is not FiveCardCategory.ROYAL_FLUSH else FiveCardCategory.STRAIGHT_FLUSH.strength
    key = (-high_strength, *(-r for r in tiebreak))
    return HandValue(RuleSet.DEUCE_TO_SEVEN_LOW, category, key, _shown(cards, shape))


def evaluate_badugi(cards: Sequence[Card]) -> HandValue:
    """Four cards as a badugi hand, N.J.A.C. 13:69F-14.12B(l): the largest group of cards each of a different
    suit and rank plays; a four-card badugi beats any three-card hand, and so on down; within a size the lowest
    hand wins, comparing the highest card first, the ace low (14.3(e)-ace-low); A-2-3-4 of four suits is the best."""
    _check_count(cards, 4)
    best: tuple[int, ...] | None = None
    best_cards: tuple[Card, ...] = ()
    for size in (4, 3, 2, 1):
        for group in combinations(cards, size):
            if len({c.suit for c in group}) == size and len({c.rank for c in group}) == size:
                key = (size, *sorted(-_ace_low(c) for c in group))
                if best is None or key > best:
                    best, best_cards = key, group
        if best is not None:
            break
    assert best is not None
    category = {4: BadugiCategory.BADUGI, 3: BadugiCategory.THREE_CARD, 2: BadugiCategory.TWO_CARD,
                1: BadugiCategory.ONE_CARD}[best[0]]
    shown = tuple(sorted(best_cards, key=lambda c: (_ace_low(c), c.suit.order), reverse=True))
    return HandValue(RuleSet.BADUGI, category, best, shown)


#: Each rule set: (cards in a hand, evaluator).
RULE_SETS: dict[RuleSet, tuple[int, Callable[[Sequence[Card]], HandValue]]] = {
    RuleSet.FIVE_CARD_HIGH: (5, evaluate_five_card_high),
    RuleSet.THREE_CARD_HIGH: (3, evaluate_three_card_high),
    RuleSet.THREE_CARD_POKER: (3, evaluate_three_card_poker),
    RuleSet.FOUR_CARD_POKER: (4, evaluate_four_card_poker),
    RuleSet.ACE_TO_FIVE_LOW: (5, evaluate_ace_to_five_low),
    RuleSet.ACE_TO_FIVE_LOW_8: (5, functools.partial(evaluate_ace_to_five_low, qualifier=8)),
    RuleSet.THREE_CARD_LOW_6: (3, evaluate_three_card_low),
    RuleSet.DEUCE_TO_SEVEN_LOW: (5, evaluate_deuce_to_seven_low),
    RuleSet.BADUGI: (4, evaluate_badugi),
}
#: Rule sets with a qualifier: a hand that does not qualify cannot win the low half.
QUALIFIED = frozenset({RuleSet.ACE_TO_FIVE_LOW_8, RuleSet.THREE_CARD_LOW_6})


def evaluate(rule_set: RuleSet | str, cards: Sequence[Card]) -> HandValue:
    """Rank `cards` under `rule_set`. With more cards than a hand holds, the best hand of any combination.

    Raises RuleSetError for an unknown rule set, CardCountError for too few cards.
    """
    try:
        rule_set = RuleSet(rule_set)
    except ValueError as exc:
        raise RuleSetError(f"Unknown rule set {rule_set!r}; known: {', '.join(r.value for r in RuleSet)}.") from exc
    size, evaluator = RULE_SETS[rule_set]
    if len(cards) < size:
        raise CardCountError(f"{rule_set.value}: expected {size} cards, got {len(cards)}.")
    if len(cards) == size:
        return evaluator(cards)
    values = [evaluator(group) for group in combinations(cards, size)]
    qualifying = [v for v in values if v.qualifies]
    return max(qualifying or values)
