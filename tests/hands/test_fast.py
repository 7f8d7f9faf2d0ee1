"""The fast evaluators agree with the readable core, and with treys and pokerkit on 100,000 random hands per
rule set (test-only references); the NumPy batch paths agree with the per-hand path. The references are pure Python
(pokerkit's Omaha about 1.5 ms a hand): the suite runs a bounded sample of REFERENCE_HANDS (25,000) hands per rule set
and OMAHA_REFERENCE_HANDS (8,000) Omaha hands; `make verify-engine` runs 100,000 of each."""
import os
import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import BadugiHand, OmahaEightOrBetterLowHand, OmahaHoldemHand, RegularLowHand, StandardLowHand
from treys import Card as TreysCard
from treys import Evaluator

from apps.hands import evaluate, evaluate_badugi, fast
from tests.hands.combinatorics import all_combinations, five_card_category_counts

NAMES = [f"{'23456789TJQKA'[i // 4]}{'cdhs'[i % 4]}" for i in range(52)]
N = int(os.environ.get("REFERENCE_HANDS", "25000"))
OMAHA_REFERENCE_HANDS = int(os.environ.get("OMAHA_REFERENCE_HANDS", "8000"))


def deals(seed, n, size):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :size]


def same_order(ours, theirs_key):
    """Sort by our scores; consecutive hands must compare the same way under the reference (transitivity then
    gives the whole order). theirs_key(i) returns a comparable reference object for hand i."""
    order = np.argsort(ours, kind="stable")
    disagreements = 0
    previous = theirs_key(order[0])
    for a, b in zip(order[:-1], order[1:], strict=True):
        current = theirs_key(b)
        ours_cmp = int(ours[b] > ours[a]) - int(ours[b] < ours[a])
        theirs_cmp = (current > previous) - (current < previous)
        disagreements += ours_cmp != theirs_cmp
        previous = current
    return disagreements


def text(row):
    return "".join(NAMES[c] for c in row)


# --- every table entry: the whole deck of five-card hands, every multiset of six and seven ranks -------------------

@pytest.fixture(scope="module")
def every_five():
    """All 2,598,960 five-card hands (card ids, shape (n, 5)) and each hand's class under a rule that reads only
    ranks and whether the five share a suit: `ranks` (its sorted ranks as one int) and `flush`, found here by plain
    arithmetic, not by the module under test."""
    rows = all_combinations(52, 5)
    ranks = (np.sort(rows // 4, axis=1).astype(np.int64) * 13 ** np.arange(5)).sum(axis=1)
    flush = (rows % 4 == rows[:, :1] % 4).all(axis=1)
    return rows, ranks, flush


def _ordered_by_class(scores, classes, readable):
    """Every hand of a class scores the same as its first; the classes, each read once by `readable(row)`, are in
    the same order by score as by the readable value, ties included. Returns (the classes' first rows, the number of
    classes)."""
    _, first, inverse = np.unique(classes, return_index=True, return_inverse=True)
    class_scores = scores[first]
    assert np.array_equal(scores, class_scores[inverse.ravel()]), "hands of one class score differently"
    values = [readable(i) for i in first]
    assert same_order(class_scores, lambda i: values[i]) == 0
    return first, len(first)


def _cards(row):
    from apps.hands.cards import parse_cards

    return parse_cards(text(row))


@pytest.mark.proves("14.3(b)-order", "14.3(d)-kicker", "14.3(d)-tie")
def test_every_five_card_hand_scores_as_the_full_evaluation(every_five):
    """Each of the 2,598,960 five-card hands gets the score of its class (its ranks, and whether it is a flush: no
    suit counts for more, 14.3(a)), and the 7,462 classes are ordered by score exactly as `evaluate` orders them,
    ties included: the order of the categories (14.3(b)-order) and, within one, the highest card not in the other
    hand deciding (14.3(d)-kicker), identical hands tying (14.3(d)-tie). Every entry of the five-card rank table and
    of the flush table for five cards is read."""
    rows, ranks, flush = every_five
    scores = fast.high_scores(rows)
    first, classes = _ordered_by_class(scores, ranks * 2 + flush, lambda i: evaluate("five_card_high", _cards(rows[i])))
    assert classes == 7462
    assert [fast.high_score(r) for r in rows[first].tolist()] == scores[first].tolist()
    assert [fast.category_of(s).name for s in scores[first[::97]].tolist()] == [
        evaluate("five_card_high", _cards(rows[i])).category.name for i in first[::97]]


def _rank_multisets(size):
    """Every multiset of `size` ranks (0-12) with at most four of a rank, as sorted rows."""
    return np.array([m for m in combinations_with_replacement(range(13), size)
                     if max(Counter(m).values()) <= 4], dtype=np.int64)


def _six_and_seven_card_hands(size, seed):
    """Hands of `size` cards (6 or 7) that read every entry of the tables: one for every multiset of ranks, suited
    in turn so that no five share a suit (18,395 of six, 49,205 of seven); and one for every set of five or more
    ranks of one suit (the flush table's entries of 5 to `size` ranks), that suit turning with the set, the other
    cards at random from the other suits. Each row shuffled, so any card may be a hole card."""
    rng = np.random.default_rng(seed)
    multisets = _rank_multisets(size)
    plain = multisets * 4 + np.arange(size) % 4           # repeated ranks are adjacent: they take different suits
    suited = []
    for k in range(5, size + 1):
        for n, ranks in enumerate(combinations(range(13), k)):
            suit = n % 4
            others = rng.permutation([c for c in range(52) if c % 4 != suit])[:size - k]
            suited.append([r * 4 + suit for r in ranks] + others.tolist())
    rows = np.concatenate([plain, np.array(suited, dtype=np.int64)])
    assert len({tuple(sorted(r)) for r in rows.tolist()}) == len(rows) and (np.sort(rows, axis=1)[:, 1:] > np.sort(
        rows, axis=1)[:, :-1]).all()  # real hands: no card twice
    return rng.permuted(rows, axis=1), len(multisets)


@pytest.mark.proves("14.10(j)-best-hand", "14.3(b)-order", "14.3(d)-kicker", "14.3(d)-tie")
def test_six_and_seven_cards_score_their_best_five():
    """The score of six or seven cards is the best score of any five of them (14.10(j)-best-hand: hold 'em's two hole
    cards and five community cards in any combination), for every multiset of ranks and every flush of five to seven
    cards: the batch path, the per-hand path, the unrolled seven-card path and hold 'em's deal path alike. With the
    five-card scores proven on every hand above, each of these is the full evaluation's best five."""
    for size, expected in ((6, 18_395), (7, 49_205)):
        rows, multisets = _six_and_seven_card_hands(size, seed=size)
        assert multisets == expected
        scores = fast.high_scores(rows)
        assert scores.tolist() == _by_every_five(rows, list(combinations(range(size), 5))).tolist()
        assert [fast.high_score(r) for r in rows.tolist()] == scores.tolist()
        if size == 7:
            assert [fast.seven_card_high(*r) for r in rows.tolist()] == scores.tolist()
            assert fast.holdem_high_scores(rows[:, None, :2], rows[:, 2:])[:, 0].tolist() == scores.tolist()


@pytest.mark.proves("14.3(e)-suits", "14.3(e)-ace-low", "14.3(f)-inverse", "14.3(f)-straights-flushes",
                    "14.9(j)-qualifier")
def test_every_five_card_hand_has_the_full_evaluations_ace_to_five_low(every_five):
    """Each of the 2,598,960 five-card hands gets the A-5 low score of its ranks alone, whatever its suits
    (14.3(e)-suits; a flush or straight counts for nothing, 14.3(f)-straights-flushes), and the 6,175 multisets of
    ranks are ordered by score exactly as `evaluate("ace_to_five_low")` orders them (the ace lowest, 14.3(e)-ace-low;
    the inverse of the high ranking, 14.3(f)-inverse). With the eight-or-better qualifier a hand scores -1 exactly
    when the full evaluation says it does not qualify (a pair, or a card above an eight: 14.9(j)-qualifier) and its
    own score otherwise."""
    rows, ranks, _ = every_five
    scores = fast.ace_to_five_low_scores(rows)
    first, classes = _ordered_by_class(scores, ranks, lambda i: evaluate("ace_to_five_low", _cards(rows[i])))
    assert classes == 6175
    qualified = fast.ace_to_five_low_scores(rows, qualifier=8)
    assert np.array_equal(qualified[qualified >= 0], scores[qualified >= 0]) and set(
        qualified[qualified < 0].tolist()) <= {-1}
    _, inverse = np.unique(ranks, return_inverse=True)
    assert np.array_equal(qualified >= 0, (qualified[first] >= 0)[inverse.ravel()])
    assert (qualified[first] >= 0).tolist() == [evaluate("ace_to_five_low_8", _cards(rows[i])).qualifies
                                                for i in first]
    assert int((qualified[first] >= 0).sum()) == 56  # C(8, 5): five different ranks, ace to eight


@pytest.mark.proves("14.3(e)-suits", "14.3(e)-deuce-to-seven", "14.3(f)-straights-flushes")
def test_every_five_card_hand_has_the_full_evaluations_deuce_to_seven_low(every_five):
    """Each of the 2,598,960 five-card hands gets the deuce-to-seven score of its ranks and of whether it is a flush,
    no suit counting for more than another (14.3(e)-suits), and the 7,462 classes are ordered by score exactly as
    `evaluate("deuce_to_seven_low")` orders them: the ace high (14.3(e)-deuce-to-seven), straights and flushes
    counting against the hand (14.3(f)-straights-flushes)."""
    rows, ranks, flush = every_five
    scores = fast.deuce_to_seven_scores(rows)
    _, classes = _ordered_by_class(scores, ranks * 2 + flush,
                                   lambda i: evaluate("deuce_to_seven_low", _cards(rows[i])))
    assert classes == 7462


@pytest.mark.proves("14.3(b)-order", "14.3(d)-kicker", "14.3(d)-tie")
def test_fast_paths_equal_the_readable_core():
    """The table-driven scores (`high_score`, `high_scores`: the engine's best five of a player's cards, and deals
    ranked in bulk) order random hands of 5, 6 and 7 cards exactly as the full evaluation does, ties included: the
    order of the categories (14.3(b)-order) and the rule that the highest card not in the other hand decides
    (14.3(d)), proven on the evaluation by test_five_card_high, hold for them in every category, not only on the
    hands written out there."""
    from apps.hands.cards import parse_cards

    rng = random.Random(4)
    for size in (5, 6, 7):
        rows = np.array([rng.sample(range(52), size) for _ in range(3000)])
        batch = fast.high_scores(rows)
        per_hand = [fast.high_score(list(r)) for r in rows]
        assert batch.tolist() == per_hand
        values = [evaluate("five_card_high", parse_cards(text(r))) for r in rows[:1500]]
        order = sorted(range(1500), key=lambda i: per_hand[i])
        for a, b in zip(order, order[1:], strict=False):
            assert (per_hand[a] < per_hand[b]) == (values[a] < values[b])
    seven = rows.tolist()
    assert [fast.seven_card_high(*r) for r in seven] == per_hand


def test_batch_enumeration_of_all_five_card_hands():
    rows = all_combinations(52, 5)
    scores = fast.high_scores(rows)
    strengths = Counter((scores // 13**5).tolist())
    expected = {c.strength: five_card_category_counts()[c.name] for c in fast.C}
    assert dict(strengths) == expected


@pytest.mark.parametrize(("size", "seed"), [(5, 1), (7, 2)], ids=["five_card", "seven_card"])
def test_high_agrees_with_treys_on_reference_hands(size, seed):
    hands = deals(seed, N, size)
    ev = Evaluator()
    ours = fast.high_scores(hands)
    refs = [-ev.evaluate([TreysCard.new(NAMES[c]) for c in h[:2]], [TreysCard.new(NAMES[c]) for c in h[2:]])
            for h in hands.tolist()]
    assert same_order(ours, lambda i: refs[i]) == 0


@pytest.mark.parametrize(("scores", "reference"), [
    (lambda h: fast.ace_to_five_low_scores(h), RegularLowHand),
    (fast.deuce_to_seven_scores, StandardLowHand)], ids=["ace_to_five_low", "deuce_to_seven_low"])
@pytest.mark.proves("14.3(e)-suits")
def test_lows_agree_with_pokerkit_on_reference_hands(scores, reference):
    """The batch path's A-5 and deuce-to-seven lows order REFERENCE_HANDS random hands as pokerkit's do, ties
    included: pokerkit ranks no suit above another (14.3(e)), so neither does the order that agrees with it."""
    hands = deals(3, N, 5)
    refs = [reference(text(h)) for h in hands.tolist()]
    assert same_order(scores(hands), lambda i: refs[i]) == 0


@pytest.mark.parametrize(("rule_set", "reference"), [
    ("ace_to_five_low", RegularLowHand), ("deuce_to_seven_low", StandardLowHand)])
@pytest.mark.proves("14.3(e)-suits")
def test_the_readable_lows_agree_with_pokerkit(rule_set, reference):
    """The full evaluation of A-5 and deuce-to-seven lows (`evaluate`, what a showdown's hands are recorded with)
    orders 4,000 random hands as pokerkit's do, ties included: pokerkit ranks no suit above another (14.3(e)), so
    neither does the order that agrees with it."""
    from apps.hands.cards import parse_cards

    hands = deals(11, 4000, 5).tolist()
    values = [evaluate(rule_set, parse_cards(text(h))) for h in hands]
    rank = {key: i for i, key in enumerate(sorted({v.key for v in values}))}
    refs = [reference(text(h)) for h in hands]
    assert same_order(np.array([rank[v.key] for v in values]), lambda i: refs[i]) == 0


def test_eight_or_better_qualifier_in_the_batch_path():
    hands = deals(8, 20_000, 5)
    from apps.hands.cards import parse_cards

    scores = fast.ace_to_five_low_scores(hands, qualifier=8)
    assert [s >= 0 for s in scores.tolist()] == [
        evaluate("ace_to_five_low_8", parse_cards(text(h))).qualifies for h in hands.tolist()]


def test_badugi_agrees_with_pokerkit_on_reference_hands():
    from apps.hands.cards import parse_cards

    hands = deals(5, N, 4)
    values = [evaluate_badugi(parse_cards(text(h))) for h in hands.tolist()]
    keys = {v.key for v in values}
    rank = {k: i for i, k in enumerate(sorted(keys))}
    refs = [BadugiHand.from_game(text(h)) for h in hands.tolist()]
    assert same_order(np.array([rank[v.key] for v in values]), lambda i: refs[i]) == 0


@pytest.mark.long
@pytest.mark.proves("14.11(h)1", "14.11(h)2", "14.11(h)3", "14.11(g)-qualifier")
def test_omaha_high_and_eight_or_better_low_agree_with_pokerkit():
    """OMAHA_REFERENCE_HANDS random Omaha hands (the module's docstring), high and eight-or-better low, by the batch
    path the room's odds and imports use, against pokerkit's: each side the best five of two hole cards and three of
    the board, chosen apart (14.11(h)1), the same cards free to serve both (14.11(h)2) and an ace low in the low while
    high in the high (14.11(h)3); a low made only when eight or better (14.11(g)-qualifier)."""
    deal = deals(6, OMAHA_REFERENCE_HANDS, 9)
    hole, board = deal[:, :4], deal[:, 4:]
    highs = fast.omaha_high_scores(hole, board)
    lows = fast.omaha_low8_scores(hole, board)
    high_refs, low_refs = [], []
    for row in deal.tolist():
        h, b = text(row[:4]), text(row[4:])
        high_refs.append(OmahaHoldemHand.from_game(h, b))
        try:
            low_refs.append(OmahaEightOrBetterLowHand.from_game(h, b))
        except ValueError:
            low_refs.append(None)
    assert same_order(highs, lambda i: high_refs[i]) == 0
    assert [s >= 0 for s in lows.tolist()] == [r is not None for r in low_refs]
    made = np.flatnonzero(lows >= 0)
    assert same_order(lows[made], lambda i: low_refs[made[i]]) == 0


# --- the two-plus-three path (Omaha, both hole cards) and the hold'em batch: property tests ------------------------

def _by_every_five(cards, combos):
    """The reference: every listed five-card combination scored by the general batch path, best kept."""
    cards = np.asarray(cards, dtype=np.int64)
    return fast.high_scores(cards[:, np.array(combos)].reshape(-1, 5)).reshape(len(cards), len(combos)).max(axis=1)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.permutations(range(52)), min_size=1, max_size=40))
@pytest.mark.proves("14.11(f)-two-and-three")
def test_14_11_f_omaha_high_batch_equals_every_two_plus_three_combination(decks):
    deal = np.array([deck[:9] for deck in decks])
    assert fast.omaha_high_scores(deal[:, :4], deal[:, 4:]).tolist() == _by_every_five(deal, fast._OMAHA).tolist()
    small = deal.astype(np.int8)  # the odds module passes int8 cards
    assert fast.omaha_high_scores(small[:, :4], small[:, 4:]).tolist() == _by_every_five(deal, fast._OMAHA).tolist()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.permutations(range(52)), min_size=1, max_size=40), st.integers(2, 10))
def test_holdem_batch_and_both_hole_cards_equal_the_general_path(decks, players):
    deal = np.array([deck[:2 * players + 5] for deck in decks])
    hole, board = deal[:, :2 * players].reshape(len(deal), players, 2), deal[:, 2 * players:]
    seven = np.concatenate([hole, np.repeat(board[:, None, :], players, axis=1)], axis=2).reshape(-1, 7)
    assert fast.holdem_high_scores(hole, board).ravel().tolist() == fast.high_scores(seven).tolist()
    both = [(0, 1, *three) for three in combinations(range(2, 7), 3)]
    assert fast.two_plus_three_scores(hole[:, 0], board).tolist() == _by_every_five(seven[::players], both).tolist()


def test_omaha_high_batch_on_flush_heavy_deals():
    """Random deals rarely hold flushes; here every deal has three or more board cards of one suit and two or
    more hole cards of it, so the flush path is exercised thousands of times."""
    rng = np.random.default_rng(21)
    hearts, others = np.arange(2, 52, 4), np.setdiff1d(np.arange(52), np.arange(2, 52, 4))
    rows = []
    for _ in range(4000):
        k_hole, k_board = rng.integers(2, 5), rng.integers(3, 6)
        suited = rng.permutation(hearts)[:k_hole + k_board]
        rest = rng.permutation(others)[:9 - k_hole - k_board]
        hole = np.concatenate([suited[:k_hole], rest[:4 - k_hole]])
        board = np.concatenate([suited[k_hole:], rest[4 - k_hole:]])
        rows.append(np.concatenate([rng.permutation(hole), rng.permutation(board)]))
    deal = np.array(rows)
    ours = fast.omaha_high_scores(deal[:, :4], deal[:, 4:])
    assert ours.tolist() == _by_every_five(deal, fast._OMAHA).tolist()
    assert (ours // 13**5 >= fast.C.FLUSH.strength).mean() > 0.5

