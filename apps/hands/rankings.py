"""Ranking hands under a rule set. Greater HandValue = better hand, for every rule set.

Five-card high poker, N.J.A.C. 13:69F-14.3(a), (b) and (d): categories from royal flush down to high
card; A-2-3-4-5 is the lowest straight; no wrap-around (Q-K-A-2-3 is no straight); equal categories compare
by the highest card not contained in the other hand; identical ranks tie.
"""
from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum

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
    THREE_CARD_LOW_6 = "three_card_low_6"      # 14.13A(k) six or better
    DEUCE_TO_SEVEN_LOW = "deuce_to_seven_low"  # 14.3(e) proviso, 14.12A
    BADUGI = "badugi"                          # 14.12B(l)


class FiveCardCategory(Enum):
    """Five-card high hands of N.J.A.C. 13:69F-14.3(b), with `strength` (higher = stronger) and `label`."""

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

    @property
    def strength(self) -> int:
        return self.value[0]

    @property
    def label(self) -> str:
        return self.value[1]


class LowCategory(Enum):
    """A-5 low hands named by their highest card (N.J.A.C. 13:69F-14.3(e), (f)); `strength` higher = better."""

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

    @property
    def strength(self) -> int:
        return self.value[0]

    @property
    def label(self) -> str:
        return self.value[1]


_LOW_BY_TOP = {13: LowCategory.KING_LOW, 12: LowCategory.QUEEN_LOW, 11: LowCategory.JACK_LOW, 10: LowCategory.TEN_LOW,
               9: LowCategory.NINE_LOW, 8: LowCategory.EIGHT_LOW, 7: LowCategory.SEVEN_LOW, 6: LowCategory.SIX_LOW,
               5: LowCategory.FIVE_LOW}


@functools.total_ordering
@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """A ranked hand: comparable within one rule set (greater = better), with its category and cards.

    key: the comparable value; cards: the cards that make the hand, ordered for display; qualifies: False
    when the rule set's qualifier (e.g. eight or better) is not met, True where there is none.
    """

    rule_set: RuleSet
    category: FiveCardCategory | LowCategory
    key: tuple[int, ...]
    cards: tuple[Card, ...]
    qualifies: bool = True

    def _check(self, other: object) -> HandValue:
        if not isinstance(other, HandValue):
            return NotImplemented  # type: ignore[return-value]
        if other.rule_set is not self.rule_set:
            raise RuleSetError(f"Cannot compare a {self.rule_set} hand with a {other.rule_set} hand.")
        return other

    def __eq__(self, other: object) -> bool:
        other_value = self._check(other)
        return other_value is NotImplemented or self.key == other_value.key  # type: ignore[comparison-overlap]

    def __lt__(self, other: HandValue) -> bool:
        return self.key < self._check(other).key

    def __hash__(self) -> int:
        return hash((self.rule_set, self.key))

    def __str__(self) -> str:
        return f"{self.category.label} ({' '.join(map(str, self.cards))})"


def _straight_high(ranks: list[int]) -> int | None:
    """High card of a five-rank straight (5 for the wheel, 14.3(b)6), or None; no wrap-around."""
    if len(set(ranks)) != 5:
        return None
    top, bottom = max(ranks), min(ranks)
    if top - bottom == 4:
        return top
    if sorted(ranks) == [2, 3, 4, 5, 14]:
        return 5
    return None


def evaluate_five_card_high(cards: Sequence[Card]) -> HandValue:
    """Rank exactly five cards as a high hand, N.J.A.C. 13:69F-14.3(a), (b), (d).

    Returns a HandValue whose key is (category strength, tie-break ranks...). Raises CardCountError.
    """
    if len(cards) != 5:
        raise CardCountError(f"Expected 5 cards, got {len(cards)}.")
    ranks = [int(c.rank) for c in cards]
    counts = Counter(ranks)
    # ranks ordered by (count, rank): the tie-break order of 14.3(d) within each category
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    straight = _straight_high(ranks)
    if straight is not None:
        category = (FiveCardCategory.ROYAL_FLUSH if flush and straight == Rank.ACE
                    else FiveCardCategory.STRAIGHT_FLUSH if flush else FiveCardCategory.STRAIGHT)
        tiebreak: tuple[int, ...] = (straight,)
        low_ace = straight == 5
        shown = sorted(cards, key=lambda c: 1 if (low_ace and c.rank == Rank.ACE) else int(c.rank), reverse=True)
    else:
        category = {
            (4, 1): FiveCardCategory.FOUR_OF_A_KIND, (3, 2): FiveCardCategory.FULL_HOUSE,
            (3, 1, 1): FiveCardCategory.THREE_OF_A_KIND, (2, 2, 1): FiveCardCategory.TWO_PAIR,
            (2, 1, 1, 1): FiveCardCategory.ONE_PAIR,
        }.get(tuple(shape), FiveCardCategory.HIGH_CARD)
        if flush:
            category = FiveCardCategory.FLUSH
        tiebreak = tuple(order)
        shown = sorted(cards, key=lambda c: (counts[int(c.rank)], int(c.rank), c.suit.order), reverse=True)
    return HandValue(RuleSet.FIVE_CARD_HIGH, category, (category.strength, *tiebreak), tuple(shown))


def _ace_low(card: Card) -> int:
    return 1 if card.rank == Rank.ACE else int(card.rank)


def evaluate_ace_to_five_low(cards: Sequence[Card], *, qualifier: int | None = None) -> HandValue:
    """Rank exactly five cards as an A-5 low hand, N.J.A.C. 13:69F-14.3(e), (f).

    The ace is the lowest card; straights and flushes do not count; pairs make a hand worse (the inverse of
    14.3(b)); equal hands compare their highest card first, then the next (14.3(d) applied to low). With
    `qualifier` (8 for eight or better, 14.9(j)) the hand qualifies only with five unpaired cards none above
    it. The key grows as the hand gets better. Raises CardCountError.
    """
    if len(cards) != 5:
        raise CardCountError(f"Expected 5 cards, got {len(cards)}.")
    lows = [_ace_low(c) for c in cards]
    counts = Counter(lows)
    # the high-hand order of the ranks as pairs matter: (count, rank) descending, as in 14.3(d) inverted
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    pairing = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5}[tuple(shape)]
    key = (-pairing, *(-r for r in order))
    category = _LOW_BY_TOP[max(lows)] if pairing == 0 else LowCategory.PAIRED
    qualifies = qualifier is None or (pairing == 0 and max(lows) <= qualifier)
    rule_set = RuleSet.ACE_TO_FIVE_LOW_8 if qualifier == 8 else RuleSet.ACE_TO_FIVE_LOW
    shown = tuple(sorted(cards, key=lambda c: (counts[_ace_low(c)], _ace_low(c), c.suit.order), reverse=True))
    return HandValue(rule_set, category, key, shown, qualifies)


_EVALUATORS = {
    RuleSet.FIVE_CARD_HIGH: evaluate_five_card_high,
    RuleSet.ACE_TO_FIVE_LOW: evaluate_ace_to_five_low,
    RuleSet.ACE_TO_FIVE_LOW_8: functools.partial(evaluate_ace_to_five_low, qualifier=8),
}


def evaluate(rule_set: RuleSet | str, cards: Sequence[Card]) -> HandValue:
    """Rank `cards` under `rule_set`. Raises CardCountError, RuleSetError for a rule set not implemented."""
    rule_set = RuleSet(rule_set)
    evaluator = _EVALUATORS.get(rule_set)
    if evaluator is None:
        raise RuleSetError(f"The rule set {rule_set.value!r} is not available in this engine yet.")
    return evaluator(cards)
