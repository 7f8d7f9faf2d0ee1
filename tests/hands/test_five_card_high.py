"""Five-card high poker, N.J.A.C. 13:69F-14.3(a), (b), (d), and hold'em's best five of seven, 14.10(j)."""
from collections import Counter
from itertools import combinations, pairwise

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.hands import (
    DECK,
    FiveCardCategory,
    Rank,
    RuleSetError,
    best_hands,
    evaluate,
    evaluate_five_card_high,
    fast,
    parse_cards,
)
from tests.hands.combinatorics import five_card_category_counts

C = FiveCardCategory


def value(text):
    return evaluate("five_card_high", parse_cards(text))


@pytest.mark.parametrize(("text", "category"), [
    ("As Ks Qs Js Ts", C.ROYAL_FLUSH), ("9h Kh Qh Jh Th", C.STRAIGHT_FLUSH), ("Ad 2d 3d 4d 5d", C.STRAIGHT_FLUSH),
    ("7c 7d 7h 7s 2c", C.FOUR_OF_A_KIND), ("Ac Ad Ah Ks Kc", C.FULL_HOUSE), ("2h 7h 9h Jh Ah", C.FLUSH),
    ("Ac Kd Qh Js Tc", C.STRAIGHT), ("Ac 2d 3h 4s 5c", C.STRAIGHT), ("3c 3d 3h 9s 2c", C.THREE_OF_A_KIND),
    ("Ac Ad Kh Ks 2c", C.TWO_PAIR), ("2c 2d Kh Qs Jc", C.ONE_PAIR), ("Ac Kd Qh Js 9c", C.HIGH_CARD),
])
@pytest.mark.proves("14.3(a)-ace-low", "14.3(b)1", "14.3(b)2", "14.3(b)3", "14.3(b)4", "14.3(b)5",
                    "14.3(b)6-straight", "14.3(b)7", "14.3(b)8", "14.3(b)9")
def test_14_3_b_categories(text, category):
    """Each five-card high hand of 14.3(b)1-9, royal flush to one pair (and no pair), is named as the rule names it."""
    assert value(text).category is category


@pytest.mark.proves("14.3(b)-order")
def test_14_3_b_order_of_categories_from_royal_flush_down():
    hands = ["As Ks Qs Js Ts", "9h Kh Qh Jh Th", "7c 7d 7h 7s 2c", "Ac Ad Ah Ks Kc", "2h 7h 9h Jh Ah",
             "Ac Kd Qh Js Tc", "3c 3d 3h 9s 2c", "Ac Ad Kh Ks 2c", "2c 2d Kh Qs Jc", "Ac Kd Qh Js 9c"]
    values = [value(h) for h in hands]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)
    strengths = [x.category.strength for x in values]  # the order is of categories, whatever the cards: strict
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(strengths)
    assert [c.label for c in sorted(C, key=lambda c: c.strength, reverse=True)] == [  # named as the rule names them
        "Royal flush", "Straight flush", "Four of a kind", "Full house", "Flush", "Straight", "Three of a kind",
        "Two pairs", "One pair", "High card"]


@pytest.mark.proves("14.3(a)-ace-low", "14.3(b)2", "14.3(b)6-straight")
def test_14_3_b_2_and_6_wheel_is_the_lowest_straight_and_straight_flush():
    assert value("Ac 2d 3h 4s 5c") < value("2c 3d 4h 5s 6c")
    assert value("Ad 2d 3d 4d 5d") < value("2h 3h 4h 5h 6h")
    assert [int(c.rank) for c in value("Ac 2d 3h 4s 5c").cards] == [5, 4, 3, 2, 14]  # shown as 5 4 3 2 A
    # only the ace completes the wheel, and five distinct ranks make a straight, no fewer
    assert value("Kc 2d 3h 4s 5c").category is C.HIGH_CARD
    assert value("5c 6d 7h 9s 9c").category is C.ONE_PAIR
    assert value("Ac Ad 2h 3s 4c").category is C.ONE_PAIR
    # anywhere else the ace plays high: shown first in the broadway straight, ace high above any king high
    assert [int(c.rank) for c in value("Tc Jd Ah Qs Kc").cards] == [14, 13, 12, 11, 10]
    assert value("Ac 2d 3h 4s 6c") > value("Kc Qd Jh 9s 8c")


@pytest.mark.proves("14.3(b)6-no-wrap")
def test_14_3_b_6_no_wrap_around():
    """14.3(b)6: the ace is high (A-K-Q-J-10) or low (5-4-3-2-A) in a straight, never in the middle of one. Of the
    thirteen runs of five ranks around the ace, the ten from 5-high to ace-high are straights (straight flushes when
    suited) ranked by their top card, and the three that turn the corner (J-Q-K-A-2, Q-K-A-2-3, K-A-2-3-4) are none:
    high-card hands (flushes when suited). A rank twice is no straight either."""
    ranks = "23456789TJQKA"
    runs = [[ranks[(start + k) % 13] for k in range(5)] for start in range(13)]
    turning = [run for run in runs if "A" in run[1:4]]
    assert [" ".join(run) for run in turning] == ["J Q K A 2", "Q K A 2 3", "K A 2 3 4"]
    straights = sorted((run for run in runs if run not in turning), key=lambda run: run[-1] != "5")  # the wheel first
    for run in turning:
        assert value(" ".join(f"{r}{s}" for r, s in zip(run, "cdhsc", strict=True))).category is C.HIGH_CARD, run
        assert value(" ".join(f"{r}h" for r in run)).category is C.FLUSH, run
    mixed = [value(" ".join(f"{r}{s}" for r, s in zip(run, "cdhsc", strict=True))) for run in straights]
    suited = [value(" ".join(f"{r}s" for r in run)) for run in straights]
    assert [v.category for v in mixed] == [C.STRAIGHT] * 10
    assert [v.category for v in suited] == [C.STRAIGHT_FLUSH] * 9 + [C.ROYAL_FLUSH]
    assert all(a < b for a, b in pairwise(mixed)) and all(a < b for a, b in pairwise(suited))
    assert value("Qc Kd Ah 2s 3c").category is C.HIGH_CARD
    assert value("Jc Qd Kh As 2c").category is C.HIGH_CARD
    assert value("Jc Qd Kh Ks Tc").category is C.ONE_PAIR  # four ranks in a row and one twice: a pair


@pytest.mark.proves("14.3(b)3", "14.3(b)4", "14.3(b)8")
def test_14_3_b_3_to_9_ranks_within_a_category():
    assert value("As Ah Ad Ac 2s") > value("Ks Kh Kd Kc As")  # four aces highest, 14.3(b)3
    assert value("Ac Ad Ah Ks Kc") > value("Kc Kd Kh As Ac")  # aces full over kings full, 14.3(b)4
    assert value("Ac Ad Kh Ks 2c") > value("Ac Ad Qh Qs Kc")  # 14.3(b)8
    assert value("3c 3d 2h 2s Ac") < value("4c 4d 2h 2s 3c")


def _fast_score(text):
    return fast.high_score(fast.card_ids(parse_cards(text)))


def _fast_scores(text):
    return int(fast.high_scores(np.array([fast.card_ids(parse_cards(text))]))[0])


#: Every scorer of five-card high hands the engine uses: the full evaluation, and the table-driven scores that pick
#: the best five of a player's cards (games._best_high) and rank deals in bulk (odds, bad beats).
SCORERS = {"evaluate": value, "high_score": _fast_score, "high_scores": _fast_scores}

#: (better, worse) hands of the same rank, told apart by the highest card not in the other hand, in each category.
KICKER_PAIRS = [
    ("Ac Kd Qh Js 9c", "Ac Kd Qh Js 8c"),  # high card: the fifth card decides
    ("Ac Kd Qh 9s 8c", "Ad Kh Js Tc 9d"),  # high card: the third card decides
    ("2c 2d Kh Qs Jc", "2h 2s Kd Qc Tc"),  # one pair: the last kicker
    ("9c 9d Ah 3s 2c", "9h 9s Kd Qc Jc"),  # one pair: the first kicker
    ("Ac Ad 2h 2s 3c", "Kh Ks Qd Qc Jc"),  # two pair: the higher pair
    ("Kc Kd 5h 5s 3c", "Kh Ks 4d 4c Ac"),  # two pair: the lower pair
    ("Kc Kd 5h 5s 3c", "Kh Ks 5d 5c 2c"),  # two pair: the odd card
    ("4c 4d 4h As 2c", "4s 4d 4h Ks Qc"),  # three of a kind: the kicker
    ("5c 5d 5h 2s 3c", "4c 4d 4h As Kc"),  # three of a kind: the three's rank
    ("6c 7d 8h 9s Tc", "5c 6d 7h 8s 9c"),  # straight: the highest card
    ("2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c"),  # straight: six high beats the five-high wheel (the ace plays low)
    ("Ah 9h 7h 5h 3h", "Ad 9d 7d 5d 2d"),  # flush: the last card
    ("Ks Qs 3s 4s 2s", "Qd Jd 9d 8d 7d"),  # flush: the first card
    ("3c 3d 3h 2s 2c", "2h 2s 2d As Ac"),  # full house: the three's rank
    ("3c 3d 3h Ks Kc", "3s 3d 3h Qs Qc"),  # full house: the pair's rank
    ("7c 7d 7h 7s 3c", "7c 7d 7h 7s 2c"),  # four of a kind: the kicker
    ("8c 8d 8h 8s 2c", "7c 7d 7h 7s Ac"),  # four of a kind: the four's rank
    ("6h 7h 8h 9h Th", "5h 6h 7h 8h 9h"),  # straight flush: the highest card
    ("2s 3s 4s 5s 6s", "As 2s 3s 4s 5s"),  # straight flush: the steel wheel is the lowest
]

#: Hands identical in rank, in different suits: a tie.
TIE_PAIRS = [("Ac Kd Qh Js 9c", "Ad Kh Qs Jc 9d"), ("2c 2d Kh Qs Jc", "2h 2s Kd Qc Jd"),
             ("Ah 9h 7h 5h 3h", "As 9s 7s 5s 3s"), ("Ac 2d 3h 4s 5c", "Ad 2h 3s 4c 5d")]


@pytest.mark.proves("14.3(d)-kicker", "14.3(d)-tie")
@pytest.mark.parametrize("scorer", SCORERS)
def test_14_3_d_highest_card_not_in_the_other_hand_decides_and_identical_ranks_tie(scorer):
    """In every category, by every scorer the engine uses: the hand holding the highest card not in the other
    wins; hands identical in rank tie."""
    score = SCORERS[scorer]
    for better, worse in KICKER_PAIRS:
        assert value(better).category == value(worse).category, (better, worse)  # the same rank of hand
        assert score(better) > score(worse), (scorer, better, worse)
    for one, other in TIE_PAIRS:
        assert score(one) == score(other), (scorer, one, other)


@pytest.mark.proves("14.3(a)-suits")
def test_14_3_a_suits_are_equal_in_rank():
    """14.3(a): no suit ranks above another. Which suits a hand holds never matters, only whether its five cards are
    of one suit (a flush): the same ranks in any one suit make the same flush, and in any mix of two to four suits the
    same hand; a hand of higher ranks in lower suits beats one of lower ranks in spades."""
    assert value("2h 7h 9h Jh Ah") == value("2s 7s 9s Js As")
    for ranks in ("A 9 5 4 3", "K Q J 9 7", "8 6 5 3 2"):
        suited = {value(" ".join(f"{r}{suit}" for r in ranks.split())) for suit in "cdhs"}
        assert len(suited) == 1 and next(iter(suited)).category is C.FLUSH, ranks
        patterns = ["cdhsc", "ssssh", "cchhd", "dhshd", "csdhs"]  # four, two, three, three and four suits
        mixed = {value(" ".join(f"{r}{suit}" for r, suit in zip(ranks.split(), pattern, strict=True)))
                 for pattern in patterns}
        assert len(mixed) == 1 and next(iter(mixed)).category is C.HIGH_CARD, ranks
    assert value("Ac 9d 5h 4c 3d") > value("Ks Qs Jh Ts 8s") > value("Kc Qd Jh Tc 7d")


@pytest.mark.long
@pytest.mark.proves("14.3(b)1", "14.3(b)2", "14.3(b)3", "14.3(b)4", "14.3(b)5", "14.3(b)6-straight",
                    "14.3(b)6-no-wrap", "14.3(b)7", "14.3(b)8", "14.3(b)9")
def test_full_enumeration_of_the_2598960_five_card_hands():
    """Category counts derived by combinatorics, not by the code under test (the ten straights of each kind: no
    straight turns the corner at the ace, 14.3(b)6)."""
    counts = Counter(evaluate_five_card_high(hand).category.name for hand in combinations(DECK, 5))
    assert dict(counts) == five_card_category_counts()


@pytest.mark.proves("14.10(j)-best-hand")
def test_14_10_j_best_five_of_seven_and_the_board_plays():
    board = parse_cards("As Ks Qs Js Ts")
    assert best_hands("holdem", parse_cards("2c 3d"), board).high == best_hands("holdem", parse_cards("4c 5d"), board).high
    hand = best_hands("holdem", parse_cards("9s 9c"), parse_cards("9h 9d 6s 7s 8s")).high
    assert hand.category is C.FOUR_OF_A_KIND and len(hand.cards) == 5


def test_comparing_different_rule_sets_is_an_error():
    from dataclasses import replace

    other = replace(value("As Ks Qs Js Ts"), rule_set="ace_to_five_low")
    with pytest.raises(RuleSetError):
        _ = value("As Ks Qs Js Ts") < other


cards5 = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@given(cards5, cards5, cards5)
def test_the_order_is_total_and_transitive(a, b, c):
    x, y, z = (evaluate_five_card_high(h) for h in (a, b, c))
    assert (x < y) + (x == y) + (x > y) == 1
    if x <= y <= z:
        assert x <= z


@given(cards5, st.permutations("cdhs"))
@pytest.mark.proves("14.3(a)-suits")
def test_invariant_under_relabelling_suits(hand, suits):
    relabel = dict(zip("cdhs", suits, strict=True))
    renamed = parse_cards(" ".join(f"{c.rank.symbol}{relabel[c.suit.value]}" for c in hand))
    assert evaluate_five_card_high(hand) == evaluate_five_card_high(renamed)


@pytest.mark.proves("14.3(g)")
def test_14_3_g_a_hand_ranks_by_the_cards_it_holds():
    """14.3(g): a hand is ranked by the cards actually in it, not by what the player says it is. The engine takes
    cards and nothing else, and finds the best hand they make even when it is easy to misread: seven-deuce with a
    3-4-5-6 board is a straight; four spades in an Omaha hand with one spade on the board are no flush."""
    import inspect

    assert list(inspect.signature(best_hands).parameters) == ["game", "hole", "board"]
    assert best_hands("holdem", parse_cards("7d 2c"), parse_cards("3h 4s 5d 6c Kh")).high.category is C.STRAIGHT
    omaha = best_hands("omaha", parse_cards("As Ks Qs Js"), parse_cards("2s 7d 8h 9c 3d")).high
    assert omaha.category is C.HIGH_CARD
    assert value("9c 9d 9h 9s 2c") == value("9s 9h 9d 9c 2c")  # the same cards, however they are given
    with pytest.raises(RuleSetError):  # nor is a game guessed: one the engine does not know is refused
        best_hands("guts", parse_cards("7d 2c"), parse_cards("3h 4s 5d 6c Kh"))


RANKS = "AKQJT98765432"


@pytest.mark.proves("14.3(a)-ranks")
def test_14_3_a_cards_rank_ace_down_to_two():
    """14.3(a): the ranks, ace highest down to two: high-card hands led by an ace, a king, ... a seven (the same four
    cards under them, no straight, no flush) rank in that order; so do the pairs, aces down to twos."""
    leaders = [value(f"{top}c 6d 4h 3s 2c") for top in "AKQJT987"]
    assert all(v.category is C.HIGH_CARD for v in leaders)
    assert leaders == sorted(leaders, reverse=True) and len(set(leaders)) == len(leaders)
    pairs = [value(f"{r}c {r}d " + " ".join(f"{k}{s}" for k, s in zip([k for k in RANKS if k != r][:3], "hsh",
                                                                      strict=True)))
             for r in RANKS]
    assert pairs == sorted(pairs, reverse=True) and len(set(pairs)) == 13
    # the same ranks in a flush: the ace-high flush above the king-high, a two-suited hand no flush at all
    flushes = [value("Ah 9h 7h 5h 3h"), value("Kd Qd Jd 9d 7d"), value("Ac 9c 7d 5d 3c")]
    assert [v.category for v in flushes] == [C.FLUSH, C.FLUSH, C.HIGH_CARD] and flushes[0] > flushes[1]
    # each rank, ace down to two, written as a hand history and the pages write it (the ten as "T")
    assert [r.symbol for r in sorted(Rank, reverse=True)] == list("AKQJT98765432")
    assert [str(c) for c in parse_cards("Ah Kh Qh Jh Th 9h 2h")] == ["Ah", "Kh", "Qh", "Jh", "Th", "9h", "2h"]



@pytest.mark.proves("14.3(b)3", "14.3(b)7", "14.3(b)9")
def test_14_3_b_3_7_9_aces_highest_twos_lowest():
    """14.3(b)3, 7, 9: four of a kind, three of a kind and one pair each rank from aces (highest) down to twos
    (lowest), whatever the other cards."""
    for size, category in ((4, C.FOUR_OF_A_KIND), (3, C.THREE_OF_A_KIND), (2, C.ONE_PAIR)):
        hands = []
        for r in RANKS:
            others = [k for k in RANKS if k != r][:5 - size]
            hands.append(value(" ".join([f"{r}{s}" for s in "cdhs"[:size]] + [f"{k}s" for k in others[:1]]
                                        + [f"{k}h" for k in others[1:]])))
        assert all(h.category is category for h in hands), size
        assert hands == sorted(hands, reverse=True) and len(set(hands)) == 13, size
