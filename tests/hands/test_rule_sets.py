"""Every rule set of the regulations: N.J.A.C. 13:69F-14.3(c), 20.3, 27.3, 14.3(e)-(f) with the qualifiers of
14.9(j) and 14.13A(k), deuce-to-seven (14.12A) and badugi (14.12B(l)); full enumerations with the expected
figures derived by combinatorics; differential checks against pokerkit (test-only)."""
import random
from collections import Counter
from itertools import combinations, permutations
from math import comb

import pytest
from pokerkit import BadugiHand, RegularLowHand, StandardHighHand, StandardLowHand
from treys import Card as TreysCard
from treys import Evaluator

from apps.hands import (
    DECK,
    BadugiCategory,
    CardCountError,
    DeuceToSevenCategory,
    FourCardCategory,
    LowCategory,
    RuleSetError,
    ThreeCardCategory,
    ThreeCardPokerCategory,
    evaluate,
    evaluate_badugi,
    evaluate_five_card_high,
    evaluate_four_card_poker,
    evaluate_three_card_high,
    evaluate_three_card_poker,
    format_cards,
    parse_cards,
)


def v(rule_set, text):
    return evaluate(rule_set, parse_cards(text))


# --- 14.3(c): three-card high (mambo stud) -------------------------------------------------------------------

@pytest.mark.proves("14.3(c)-order", "14.3(c)1", "14.3(c)2", "14.3(c)3", "14.3(c)4-straight", "14.3(c)5",
                    "14.3(c)6")
def test_14_3_c_order_from_royal_flush_down():
    """The three-card high hands of 14.3(c)1-6 in the rule's order: royal flush, straight flush, three of a kind,
    straight, flush, one pair."""
    order = ["As Ks Qs", "Ks Qs Js", "2c 2d 2h", "Ac Kd Qh", "2h 7h 9h", "Ac Ad 2c", "Ac Kd Jh"]
    values = [v("three_card_high", h) for h in order]
    assert [x.category for x in values] == [
        ThreeCardCategory.ROYAL_FLUSH, ThreeCardCategory.STRAIGHT_FLUSH, ThreeCardCategory.THREE_OF_A_KIND,
        ThreeCardCategory.STRAIGHT, ThreeCardCategory.FLUSH, ThreeCardCategory.ONE_PAIR, ThreeCardCategory.HIGH_CARD]
    assert values == sorted(values, reverse=True)
    # one pair, two aces highest down to two twos (14.3(c)6): the pair's rank decides before the odd card
    pairs = [v("three_card_high", f"{r}c {r}d {odd}h") for r, odd in zip("AKQJT98765432", "2AAAAAAAAAAAA", strict=True)]
    assert pairs == sorted(pairs, reverse=True) and len(set(pairs)) == 13
    strengths = [x.category.strength for x in values]  # the order is of categories, whatever the cards: strict
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(strengths)
    assert [x.category.label for x in values] == ["Royal flush", "Straight flush", "Three of a kind", "Straight",
                                                  "Flush", "One pair", "High card"]  # named as the rule names them


@pytest.mark.proves("14.3(a)-ace-low", "14.3(c)2", "14.3(c)4-straight", "14.3(c)4-no-wrap")
def test_14_3_c_a_2_3_lowest_straight_and_k_a_2_no_straight():
    assert v("three_card_high", "Ac 2d 3h") < v("three_card_high", "2c 3d 4h")
    assert v("three_card_high", "Ad 2d 3d").category is ThreeCardCategory.STRAIGHT_FLUSH
    assert v("three_card_high", "Kc Ad 2h").category is ThreeCardCategory.HIGH_CARD
    # K-A-2 does not wrap: it is an ace-king high hand, read from the top (above ace-queen high whatever its low card)
    assert v("three_card_high", "Kc Ad 2h") > v("three_card_high", "Qc Ad 3h")


@pytest.mark.proves("14.3(c)1", "14.3(c)2", "14.3(c)3", "14.3(c)4-straight", "14.3(c)4-no-wrap", "14.3(c)5",
                    "14.3(c)6", "20.3(b)1", "20.3(b)2", "20.3(b)3", "20.3(b)4", "20.3(b)5")
def test_three_card_enumerations_under_14_3_c_and_20_3():
    sequences = 12  # A-2-3 up to Q-K-A
    rank_sets = comb(13, 3)
    common = {
        "trips": 13 * comb(4, 3), "straight": sequences * (4**3 - 4), "flush": 4 * (rank_sets - sequences),
        "pair": 13 * comb(4, 2) * 12 * 4, "high": (rank_sets - sequences) * (4**3 - 4)}
    c, p = ThreeCardCategory, ThreeCardPokerCategory
    expected_14_3_c = {c.ROYAL_FLUSH: 4, c.STRAIGHT_FLUSH: sequences * 4 - 4, c.THREE_OF_A_KIND: common["trips"],
                       c.STRAIGHT: common["straight"], c.FLUSH: common["flush"], c.ONE_PAIR: common["pair"],
                       c.HIGH_CARD: common["high"]}
    expected_20_3 = {p.STRAIGHT_FLUSH: sequences * 4, p.THREE_OF_A_KIND: common["trips"], p.STRAIGHT: common["straight"],
                     p.FLUSH: common["flush"], p.PAIR: common["pair"], p.HIGH_CARD: common["high"]}
    assert sum(expected_14_3_c.values()) == sum(expected_20_3.values()) == comb(52, 3) == 22_100
    hands = list(combinations(DECK, 3))
    assert Counter(evaluate_three_card_high(h).category for h in hands) == expected_14_3_c
    assert Counter(evaluate_three_card_poker(h).category for h in hands) == expected_20_3


# --- 20.3: three-card poker ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("evaluator", "size"), [(evaluate_five_card_high, 5), (evaluate_three_card_high, 3),
                                                  (evaluate_three_card_poker, 3), (evaluate_four_card_poker, 4)])
@pytest.mark.proves("14.3(b)-order", "14.3(c)-order", "20.3(b)-order", "27.3(b)-order")
def test_14_3_b_c_20_3_b_27_3_b_each_ranking_takes_hands_of_its_size_only(evaluator, size):
    """14.3(b) ranks five-card hands, 14.3(c) and 20.3(b) three-card hands, 27.3(b) four-card hands: a hand one card
    short or one card over is refused (CardCountError), not ranked as if it were one."""
    cards = parse_cards("As Kd 9h 7c 4s 2d")
    assert evaluator(cards[:size]).category.label == "High card"  # ranked: ace high
    for count in (size - 1, size + 1):
        with pytest.raises(CardCountError):
            evaluator(cards[:count])


@pytest.mark.proves("20.3(b)1", "20.3(b)3")
def test_20_3_b_straight_above_flush_and_a_k_q_highest_straight_flush():
    """Three-card poker: a straight flush (A-K-Q the highest, 20.3(b)1), a straight above a flush (20.3(b)3, 4)."""
    assert v("three_card_poker", "As Ks Qs") > v("three_card_poker", "Ks Qs Js")
    assert v("three_card_poker", "As Ks Qs").category is ThreeCardPokerCategory.STRAIGHT_FLUSH
    assert v("three_card_poker", "4c 5d 6h") > v("three_card_poker", "Ah Kh 9h")
    assert v("three_card_poker", "Ac 2d 3h") < v("three_card_poker", "2c 3d 4h")


@pytest.mark.proves("20.3(c)-kicker", "20.3(c)-draw")
def test_20_3_c_highest_card_not_in_the_other_hand():
    """20.3(c): in every rank of 20.3(b), the hand holding the highest card not in the other wins (the three's or
    the pair's rank first, then the odd card); hands identical in rank are a draw."""
    better_worse = [
        ("Ac Kd 9h", "Ac Kd 8h"),  # high card: the third card decides
        ("Ac 4d 2h", "Kc Qd 9h"),  # high card: the ace decides
        ("9c 9d Ah", "9h 9s Kd"),  # pair: the odd card
        ("Tc Td 2h", "9c 9d Ah"),  # pair: the pair's rank
        ("Ah 9h 3h", "Ad 9d 2d"),  # flush: the last card
        ("Kh Qh 2h", "Kd Jd 9d"),  # flush: the second card
        ("4c 5d 6h", "3c 4d 5h"),  # straight: the highest card
        ("2c 3d 4h", "Ac 2d 3h"),  # straight: 2-3-4 above A-2-3, the ace low
        ("5c 5d 5h", "4c 4d 4h"),  # three of a kind: the rank
        ("5h 6h 7h", "4s 5s 6s"),  # straight flush: the highest card
    ]
    P = ThreeCardPokerCategory
    assert [v("three_card_poker", better).category for better, _ in better_worse] == [  # every rank, as commented
        P.HIGH_CARD, P.HIGH_CARD, P.PAIR, P.PAIR, P.FLUSH, P.FLUSH, P.STRAIGHT, P.STRAIGHT, P.THREE_OF_A_KIND,
        P.STRAIGHT_FLUSH]
    for better, worse in better_worse:
        assert v("three_card_poker", better).category == v("three_card_poker", worse).category, (better, worse)
        assert v("three_card_poker", better) > v("three_card_poker", worse), (better, worse)
    for one, other in [("Ac Jd 9h", "Ah Jc 9d"), ("9c 9d Ah", "9h 9s Ad"), ("Ah 9h 3h", "As 9s 3s"),
                       ("4c 5d 6h", "4d 5h 6c")]:
        assert v("three_card_poker", one) == v("three_card_poker", other), (one, other)


# --- 27.3: four-card poker -----------------------------------------------------------------------------------

@pytest.mark.proves("27.3(b)-order", "27.3(b)1")
def test_27_3_b_four_of_a_kind_outranks_a_straight_flush_and_flush_outranks_straight():
    """The four-card poker hands of 27.3(b)1-7 in the rule's order: four of a kind, straight flush, three of a kind,
    flush, straight, two pair, pair."""
    order = ["2c 2d 2h 2s", "Js Qs Ks As", "9c 9d 9h 2s", "2h 7h 9h Jh", "8c 9d Th Js", "Ac Ad Kh Ks", "Ac Ad 2h 3s",
             "Ac Kd Qh 9s"]
    values = [v("four_card_poker", h) for h in order]
    assert values == sorted(values, reverse=True)
    assert values[0].category is FourCardCategory.FOUR_OF_A_KIND
    strengths = [x.category.strength for x in values]  # the order is of categories, whatever the cards: strict
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(strengths)
    assert [x.category.label for x in values] == ["Four of a kind", "Straight flush", "Three of a kind", "Flush",
                                                  "Straight", "Two pair", "Pair", "High card"]  # as the rule names them


@pytest.mark.proves("27.3(a)-ace-low", "27.3(b)5")
def test_27_3_b_a_2_3_4_lowest_straight():
    assert v("four_card_poker", "Ac 2d 3h 4s").category is FourCardCategory.STRAIGHT
    assert v("four_card_poker", "Ac 2d 3h 4s") < v("four_card_poker", "2c 3d 4h 5s")
    assert v("four_card_poker", "Kc Ad 2h 3s").category is FourCardCategory.HIGH_CARD


@pytest.mark.proves("27.3(b)1", "27.3(b)2", "27.3(b)3", "27.3(b)4", "27.3(b)5", "27.3(b)6", "27.3(b)7")
def test_four_card_enumeration_under_27_3():
    sequences = 11  # A-2-3-4 up to J-Q-K-A
    rank_sets = comb(13, 4)
    f = FourCardCategory
    expected = {f.FOUR_OF_A_KIND: 13, f.STRAIGHT_FLUSH: sequences * 4, f.THREE_OF_A_KIND: 13 * comb(4, 3) * 48,
                f.FLUSH: 4 * (rank_sets - sequences), f.STRAIGHT: sequences * (4**4 - 4),
                f.TWO_PAIR: comb(13, 2) * comb(4, 2) ** 2, f.PAIR: 13 * comb(4, 2) * comb(12, 2) * 4**2,
                f.HIGH_CARD: (rank_sets - sequences) * (4**4 - 4)}
    assert sum(expected.values()) == comb(52, 4) == 270_725
    assert Counter(evaluate_four_card_poker(h).category for h in combinations(DECK, 4)) == expected


# --- 14.3(e)(f): lows, with 14.9(j) and 14.13A(k) ---------------------------------------------------------------

@pytest.mark.proves("14.13A(k)-six-or-better")
def test_14_13a_k_six_or_better():
    assert v("three_card_low_6", "As 2d 6c").qualifies
    assert not v("three_card_low_6", "As 2d 7c").qualifies
    assert not v("three_card_low_6", "As Ad 2c").qualifies
    assert v("three_card_low_6", "Ac 2d 3h").category is LowCategory.THREE_LOW
    assert v("three_card_low_6", "Ac 2d 3h") > v("three_card_low_6", "Ac 2d 4h")
    # every unpaired three up to the six qualifies, the best low compared from its highest card, the ace lowest
    assert all(v("three_card_low_6", hand).qualifies for hand in ("Ac 2d 3h", "4c 5d 6h", "Ac 5d 6h", "2s 3s 4s"))
    assert v("three_card_low_6", "2c 3d 6h") > v("three_card_low_6", "Ac 5d 6h") > v("three_card_low_6", "Ac 2d 7h")
    assert v("three_card_low_6", "As 2d 6c").cards == tuple(parse_cards("6c 2d As"))  # shown highest first


@pytest.mark.proves("14.3(e)-deuce-to-seven", "14.3(f)-inverse", "14.3(f)-straights-flushes")
def test_14_12a_deuce_to_seven_the_ace_is_high_and_straights_and_flushes_count():
    assert v("deuce_to_seven_low", "7c 5d 4h 3s 2c").category is DeuceToSevenCategory.SEVEN_LOW
    assert v("deuce_to_seven_low", "7c 5d 4h 3s 2c") > v("deuce_to_seven_low", "7c 6d 4h 3s 2c")
    assert v("deuce_to_seven_low", "As 2d 3h 4s 5c").category is DeuceToSevenCategory.ACE_LOW  # no wheel
    assert v("deuce_to_seven_low", "Kc Qd Jh 9s 8c") > v("deuce_to_seven_low", "2c 2d 3h 4s 5c")  # pairs lose
    assert v("deuce_to_seven_low", "8c 9d Th Js Qc").category is DeuceToSevenCategory.STRAIGHT
    assert v("deuce_to_seven_low", "2h 3h 4h 5h 7h").category is DeuceToSevenCategory.FLUSH


# --- 14.12B(l): badugi ---------------------------------------------------------------------------------------------

@pytest.mark.proves("14.12B(l)1", "14.12B(l)2", "14.12B(l)3", "14.12B(l)4")
def test_14_12b_l_1_to_4_badugi_order():
    best = v("badugi", "As 2d 3h 4c")
    assert best.category is BadugiCategory.BADUGI and best > v("badugi", "As 2d 3h 5c")
    assert v("badugi", "Ks Qd Jh Tc") > v("badugi", "As 2d 3h 3c")  # any four-card badugi beats a three-card hand
    assert v("badugi", "As 2s 3h 4c").category is BadugiCategory.THREE_CARD
    assert v("badugi", "As 2s 3s 4h").category is BadugiCategory.TWO_CARD
    assert v("badugi", "As 2s 3s 4s").category is BadugiCategory.ONE_CARD
    assert v("badugi", "Ac Ad Ah As").category is BadugiCategory.ONE_CARD
    assert v("badugi", "As 2d 3h 4c") == v("badugi", "Ac 2h 3s 4d")  # 14.12B(l)5: a tie splits the pot
    assert best.cards == tuple(parse_cards("4c 3h 2d As"))  # shown as compared: the highest card first, the ace low
    # two three-card hands in one holding: the lower plays (A-2-3, not A-2-5 or A-2-K), wherever its cards sit
    three = [v("badugi", hand) for hand in ("As 2d 3h 5h", "As 2d 5h 3h", "As 2d 3h Kh", "Kh As 3h 2d")]
    assert all(x.category is BadugiCategory.THREE_CARD for x in three) and len(set(three)) == 1
    assert all(set(x.cards) == set(parse_cards("As 2d 3h")) for x in three) and three[0] > v("badugi", "As 2d 4h 5h")
    # a player's badugi hand at the showdown: four cards and no board, named as the rule names them
    from apps.hands import best_hands

    assert [best_hands("badugi", parse_cards(h)).low.category.label for h in
            ("As 2d 3h 4c", "As 2s 3h 4c", "As 2s 3s 4h", "As 2s 3s 4s")] == [
        "Badugi", "Three-card hand", "Two-card hand", "One-card hand"]
    assert best_hands("badugi", parse_cards("As 2d 3h 4c")).low == best
    for hole, board in (("As 2d 3h", ""), ("As 2d 3h 4c 5s", ""), ("As 2d 3h 4c", "Ks")):
        with pytest.raises(CardCountError):
            best_hands("badugi", parse_cards(hole), parse_cards(board))


def _max_matching_size(cards):
    """Largest set of cards with pairwise different suits and ranks: a maximum matching, found by brute force
    over suit orders — an independent method, not the engine's."""
    best = 0
    for size in range(4, 0, -1):
        for group in combinations(cards, size):
            if len({c.suit for c in group}) == size and len({c.rank for c in group}) == size:
                return size
    return best


@pytest.mark.proves("14.12B(l)1", "14.12B(l)2", "14.12B(l)3", "14.12B(l)4")
def test_badugi_enumeration_of_all_270725_four_card_hands():
    counts = Counter(evaluate_badugi(h).category.strength for h in combinations(DECK, 4))
    assert counts[4] == comb(13, 4) * 24  # four ranks, the four suits in any order
    assert counts[1] == 4 * comb(13, 4) + 13  # one suit, or four of a kind
    independent = Counter(_max_matching_size(h) for h in combinations(DECK, 4))
    assert counts == independent
    assert sum(counts.values()) == 270_725


# --- errors --------------------------------------------------------------------------------------------------------

def test_unknown_rule_set_and_too_few_cards_are_typed_errors():
    with pytest.raises(RuleSetError, match="Unknown rule set"):
        evaluate("seven_card_razz", parse_cards("As 2d 3h 4s 5c"))
    with pytest.raises(CardCountError):
        evaluate("four_card_poker", parse_cards("As 2d 3h"))


def test_more_cards_than_a_hand_holds_give_the_best_combination():
    assert v("five_card_high", "As Ks Qs Js Ts 2c 3d").category.label == "Royal flush"
    assert v("ace_to_five_low_8", "As 2d 3h 4s 9c Kd Kh").category is LowCategory.NINE_LOW


# --- differential checks against pokerkit and treys (test-only references) ---------------------------------------

def _cmp(a, b):
    return (a > b) - (a < b)


def _deals(seed, n, size):
    rng = random.Random(seed)
    for _ in range(n):
        yield rng.sample(DECK, size), rng.sample(DECK, size)


@pytest.mark.parametrize(("rule_set", "reference"), [
    ("five_card_high", StandardHighHand), ("ace_to_five_low", RegularLowHand),
    ("deuce_to_seven_low", StandardLowHand)])
def test_five_card_orders_agree_with_pokerkit(rule_set, reference):
    for a, b in _deals(5, 20_000, 5):
        ours = _cmp(evaluate(rule_set, a), evaluate(rule_set, b))
        theirs = _cmp(reference(format_cards(a).replace(" ", "")), reference(format_cards(b).replace(" ", "")))
        assert ours == theirs, (rule_set, format_cards(a), format_cards(b))


def test_badugi_agrees_with_pokerkit():
    for a, b in _deals(7, 20_000, 4):
        ours = _cmp(evaluate("badugi", a), evaluate("badugi", b))
        theirs = _cmp(BadugiHand.from_game(format_cards(a).replace(" ", "")),  # ace low, as 14.12B(l)
                      BadugiHand.from_game(format_cards(b).replace(" ", "")))
        assert ours == theirs, (format_cards(a), format_cards(b))


def test_seven_card_high_agrees_with_treys():
    evaluator = Evaluator()
    for a, b in _deals(11, 5_000, 7):
        ours = _cmp(evaluate("five_card_high", a), evaluate("five_card_high", b))
        ta = evaluator.evaluate([TreysCard.new(str(c)) for c in a[:2]], [TreysCard.new(str(c)) for c in a[2:]])
        tb = evaluator.evaluate([TreysCard.new(str(c)) for c in b[:2]], [TreysCard.new(str(c)) for c in b[2:]])
        assert ours == _cmp(tb, ta)  # treys: lower is better


@pytest.mark.parametrize("rule_set", ["three_card_high", "three_card_poker", "four_card_poker", "badugi",
                                      "deuce_to_seven_low", "ace_to_five_low"])
@pytest.mark.proves("14.3(e)-suits", "20.3(a)-suits", "27.3(a)-suits")
def test_orders_are_invariant_under_relabelling_suits(rule_set):
    size = {"three_card_high": 3, "three_card_poker": 3, "four_card_poker": 4, "badugi": 4}.get(rule_set, 5)
    relabels = list(permutations("cdhs"))
    rng = random.Random(3)
    for a, b in _deals(13, 2_000, size):
        mapping = dict(zip("cdhs", rng.choice(relabels), strict=True))
        ra, rb = ([parse_cards(f"{c.rank.symbol}{mapping[c.suit.value]}")[0] for c in x] for x in (a, b))
        assert _cmp(evaluate(rule_set, a), evaluate(rule_set, b)) == _cmp(evaluate(rule_set, ra), evaluate(rule_set, rb))


# --- 20.3(a), (b)2, (b)5 and 27.3(a), (c): ranks, suits and ties of three- and four-card poker --------------------

RANKS_HIGH_TO_LOW = "AKQJT98765432"


@pytest.mark.proves("20.3(a)-ranks", "20.3(a)-suits", "20.3(a)-ace-low", "20.3(b)1")
def test_20_3_a_ranks_ace_to_two_suits_equal_and_the_ace_completes_a_2_3():
    """20.3(a): cards rank ace down to two (an ace-high hand beats a king-high one, and so on down the ranks), all
    suits are equal, and an ace completes a straight or a straight flush with a two and a three."""
    values = [v("three_card_poker", f"{top}c 4d 2h") for top in "AKQJT98765"]  # no pair, straight or flush
    assert all(x.category is ThreeCardPokerCategory.HIGH_CARD for x in values)
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert v("three_card_poker", "Ac Jd 9h") == v("three_card_poker", "As Jh 9d")  # suits equal
    # the top card decides first: each high card hand above the best one of the rank below it, whose suits (spades,
    # hearts) lift it over nothing; and a pair of aces above a pair of kings, down to a pair of twos
    for high, below in [("Ac 4d 2h", "Ks Qh Ts"), ("Kc 4d 2h", "Qs Jh 9s"), ("Qc 4d 2h", "Js Th 8s"),
                        ("Jc 4d 2h", "Ts 9h 7s"), ("Tc 4d 2h", "9s 8h 6s"), ("9c 4d 2h", "8s 7h 5s"),
                        ("8c 4d 2h", "7s 6h 4s"), ("7c 4d 2h", "6s 5h 3s")]:
        assert v("three_card_poker", high) > v("three_card_poker", below), (high, below)
    pairs = [v("three_card_poker", f"{r}c {r}d {'2' if r != '2' else '3'}h") for r in RANKS_HIGH_TO_LOW]
    assert all(p.category is ThreeCardPokerCategory.PAIR for p in pairs) and pairs == sorted(pairs, reverse=True)
    assert v("three_card_poker", "Ac 2d 3h").category is ThreeCardPokerCategory.STRAIGHT
    assert v("three_card_poker", "Ah 2h 3h").category is ThreeCardPokerCategory.STRAIGHT_FLUSH
    # the ace completes A-2-3, the lowest straight (its high card the three), and Q-K-A, the highest; with nothing
    # else (K-A-2, A-2-4 no straights), and every other run of three ranks is a straight by its top card
    runs = [v("three_card_poker", hand) for hand in
            ["Qc Kd Ah", "Jc Qd Kh", "Tc Jd Qh", "9c Td Jh", "8c 9d Th", "7c 8d 9h", "6c 7d 8h", "5c 6d 7h", "4c 5d 6h",
             "3c 4d 5h", "2c 3d 4h", "Ac 2d 3h"]]
    assert all(r.category is ThreeCardPokerCategory.STRAIGHT for r in runs) and runs == sorted(runs, reverse=True)
    assert len(set(runs)) == len(runs) and v("three_card_poker", "Ac 2d 3h") == v("three_card_poker", "3s 2h Ad")
    assert v("three_card_poker", "As 2s 3s") < v("three_card_poker", "2d 3d 4d")
    for hand in ["Kc Ad 2h", "Ac 2d 4h", "Ac 3d 4h", "2c 3d 5h", "Qc Kd 2h", "Jc Qd Ah"]:
        assert v("three_card_poker", hand).category is ThreeCardPokerCategory.HIGH_CARD, hand


@pytest.mark.proves("20.3(b)2", "20.3(b)5")
def test_20_3_b_2_and_5_three_of_a_kind_and_pair_aces_highest_twos_lowest():
    """20.3(b)2: three of a kind, three aces highest and three twos lowest; 20.3(b)5: a pair, two aces highest and
    two twos lowest, whatever the suits."""
    trips = [v("three_card_poker", f"{r}c {r}d {r}h") for r in RANKS_HIGH_TO_LOW]
    assert all(t.category is ThreeCardPokerCategory.THREE_OF_A_KIND for t in trips)
    assert trips == sorted(trips, reverse=True) and len(set(trips)) == 13
    pairs = [v("three_card_poker", f"{r}c {r}d {'3' if r == '2' else '2'}h") for r in RANKS_HIGH_TO_LOW]
    assert all(p.category is ThreeCardPokerCategory.PAIR for p in pairs)
    assert pairs == sorted(pairs, reverse=True) and len(set(pairs)) == 13
    assert v("three_card_poker", "Ac Ad 2h") == v("three_card_poker", "Ah As 2d")
    assert v("three_card_poker", "2c 2d 3h") > v("three_card_poker", "Ac Kd Jh")  # the lowest pair beats no pair


@pytest.mark.proves("27.3(a)-ranks", "27.3(a)-suits", "27.3(a)-ace-low", "27.3(b)2")
def test_27_3_a_ranks_ace_to_two_suits_equal_and_the_ace_completes_a_2_3_4():
    """27.3(a): cards rank ace down to two, all suits are equal, and an ace completes a straight or straight flush
    with a two, three and four (and with nothing else: K-A-2-3 is no straight); the straights are the runs of four
    ranks."""
    values = [v("four_card_poker", f"{top}c 9d 7h 2s") for top in "AKQJT"]
    assert all(x.category is FourCardCategory.HIGH_CARD for x in values)
    assert values == sorted(values, reverse=True) and len(set(values)) == 5
    assert v("four_card_poker", "Ac Kd Qh 9s") == v("four_card_poker", "As Kh Qd 9c")  # suits equal
    # the top card decides first: each high card hand above the best one of the rank below it, whose suits (spades,
    # hearts) lift it over nothing; and a pair of aces above a pair of kings, down to a pair of twos
    for high, below in [("Ac 5d 3h 2s", "Ks Qh Js 9h"), ("Kc 5d 3h 2s", "Qs Jh Ts 8h"), ("Qc 5d 3h 2s", "Js Th 9s 7h"),
                        ("Jc 5d 3h 2s", "Ts 9h 8s 6h"), ("Tc 5d 3h 2s", "9s 8h 7s 5h"), ("9c 5d 3h 2s", "8s 7h 6s 4h"),
                        ("8c 5d 3h 2s", "7s 6h 5s 3h"), ("7c 5d 3h 2s", "6s 5h 4s 2h")]:
        assert v("four_card_poker", high) > v("four_card_poker", below), (high, below)
    pairs = [v("four_card_poker", f"{r}c {r}d {'K' if r != 'K' else 'Q'}h {'3' if r != '3' else '4'}s")
             for r in RANKS_HIGH_TO_LOW]
    assert all(p.category is FourCardCategory.PAIR for p in pairs) and pairs == sorted(pairs, reverse=True)
    assert v("four_card_poker", "Ac 2d 3h 4s").category is FourCardCategory.STRAIGHT
    assert v("four_card_poker", "Ad 2d 3d 4d").category is FourCardCategory.STRAIGHT_FLUSH
    # the ace completes A-2-3-4, the lowest straight (its high card the four), and J-Q-K-A, the highest; every other
    # run of four ranks is a straight by its top card, and nothing else is: not K-A-2-3 or Q-K-A-2 (no wrap), not
    # A-2-3-5 or 2-3-4-K (the ace, and only the ace, is low with 2-3-4), not a pair over four ranks (2-3-3-5)
    runs = [v("four_card_poker", hand) for hand in
            ["Jc Qd Kh As", "Tc Jd Qh Ks", "9c Td Jh Qs", "8c 9d Th Js", "7c 8d 9h Ts", "6c 7d 8h 9s", "5c 6d 7h 8s",
             "4c 5d 6h 7s", "3c 4d 5h 6s", "2c 3d 4h 5s", "Ac 2d 3h 4s"]]
    assert all(r.category is FourCardCategory.STRAIGHT for r in runs) and runs == sorted(runs, reverse=True)
    assert len(set(runs)) == len(runs) and v("four_card_poker", "Ac 2d 3h 4s") == v("four_card_poker", "4c 3s 2h Ad")
    for hand in ["Kc Ad 2h 3s", "Qc Kd Ah 2s", "Ac 2d 3h 5s", "Ac 3d 4h 5s", "2c 3d 4h Ks", "2c 3d 4h Qs"]:
        assert v("four_card_poker", hand).category is FourCardCategory.HIGH_CARD, hand
    assert v("four_card_poker", "2c 3d 3h 5s").category is FourCardCategory.PAIR


@pytest.mark.proves("27.3(c)-kicker", "27.3(c)-tie")
def test_27_3_c_highest_card_not_in_the_other_hand_then_a_tie():
    """27.3(c): between hands of the same rank (or of none of 27.3(b)), the hand with the highest card not in the
    other is higher; hands of equal ranks throughout tie."""
    better_worse = [
        ("Ac Kd Qh 9s", "Ad Kh Qs 8c"),  # high card: the fourth card decides
        ("Ac 9d 7h 3s", "Kc Qd Jh 9s"),  # high card: the ace decides
        ("Ac Ad Kh 9s", "Ah As Qd Jc"),  # pair: the same pair, the king decides
        ("9c 9d Ah 3s", "9h 9s Ad 2c"),  # pair: the last card
        ("Tc Td 2h 3s", "9c 9d Ah Ks"),  # pair: the pair's rank
        ("Tc Td 4h 4s", "Th Ts 3d 3c"),  # two pair: the lower pair
        ("Ac Ad 2h 2s", "Kh Ks Qd Qc"),  # two pair: the higher pair
        ("Ah 9h 7h 3h", "Ad 9d 7d 2d"),  # flush: the last card
        ("5c 6d 7h 8s", "4c 5d 6h 7s"),  # straight: the highest card
        ("2c 3d 4h 5s", "Ac 2d 3h 4s"),  # straight: 2-3-4-5 above A-2-3-4, the ace low
        ("4c 4d 4h As", "4s 4d 4h Ks"),  # three of a kind: the fourth card
        ("5c 5d 5h 2s", "4c 4d 4h As"),  # three of a kind: the rank
        ("6h 7h 8h 9h", "5h 6h 7h 8h"),  # straight flush: the highest card
        ("8c 8d 8h 8s", "7c 7d 7h 7s"),  # four of a kind: the rank
    ]
    F = FourCardCategory
    assert [v("four_card_poker", better).category for better, _ in better_worse] == [  # every rank, as commented
        F.HIGH_CARD, F.HIGH_CARD, F.PAIR, F.PAIR, F.PAIR, F.TWO_PAIR, F.TWO_PAIR, F.FLUSH, F.STRAIGHT, F.STRAIGHT,
        F.THREE_OF_A_KIND, F.THREE_OF_A_KIND, F.STRAIGHT_FLUSH, F.FOUR_OF_A_KIND]
    for better, worse in better_worse:
        assert v("four_card_poker", better).category == v("four_card_poker", worse).category, (better, worse)
        assert v("four_card_poker", better) > v("four_card_poker", worse), (better, worse)
    for one, other in [("Ac Kd Qh 9s", "As Kh Qd 9c"), ("2h 7h 9h Jh", "2s 7s 9s Js"), ("Kc Kd 5h 5s", "Kh Ks 5d 5c"),
                       ("5c 6d 7h 8s", "5d 6h 7s 8c"), ("9c 9d Ah 3s", "9h 9s Ad 3c")]:
        assert v("four_card_poker", one) == v("four_card_poker", other), (one, other)


@pytest.mark.proves("27.3(b)6")
def test_27_3_b_6_two_pair_is_two_pairs_above_any_pair():
    """27.3(b)6: two pairs are a hand of their own: the lowest two pair (threes and twos) is named so and beats the
    best pair (aces with king-queen), and two pairs compare by the higher pair first."""
    lowest = v("four_card_poker", "2c 2d 3h 3s")
    assert lowest.category is FourCardCategory.TWO_PAIR
    assert lowest > v("four_card_poker", "Ac Ad Kh Qs")
    assert v("four_card_poker", "Ac Ad 2h 2s") > v("four_card_poker", "Kc Kd Qh Qs")


@pytest.mark.proves("20.3(b)-order")
def test_20_3_b_order_straight_flush_down_to_pair():
    """20.3(b): the hands of three-card poker in the rule's order: straight flush, three of a kind, straight, flush,
    pair, and below them no hand."""
    order = ["Qs Js Ts", "2c 2d 2h", "Ac Kd Qh", "Ah Kh 9h", "2c 2d 3h", "Ac Kd Jh"]
    p = ThreeCardPokerCategory
    values = [v("three_card_poker", h) for h in order]
    assert [x.category for x in values] == [p.STRAIGHT_FLUSH, p.THREE_OF_A_KIND, p.STRAIGHT, p.FLUSH, p.PAIR,
                                            p.HIGH_CARD]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    strengths = [x.category.strength for x in values]  # the order is of categories, whatever the cards: strict
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(strengths)
    assert [x.category.label for x in values] == ["Straight flush", "Three of a kind", "Straight", "Flush", "Pair",
                                                  "High card"]  # named as the rule names them
