"""The fast evaluators agree with the readable core, and with treys and pokerkit on 100,000 random hands per
rule set (test-only references); the NumPy batch paths agree with the per-hand path. The references are pure Python
(pokerkit's Omaha about 1.5 ms a hand): the suite runs a bounded sample of REFERENCE_HANDS (25,000) hands per rule set
and OMAHA_REFERENCE_HANDS (8,000) Omaha hands; `make verify-engine` runs 100,000 of each."""
import os
import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import BadugiHand, OmahaEightOrBetterLowHand, OmahaHoldemHand, RegularLowHand, StandardLowHand
from treys import Card as TreysCard
from treys import Evaluator

from apps.hands import evaluate, evaluate_badugi, fast
from tests.hands.combinatorics import five_card_category_counts

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
    from itertools import combinations

    rows = np.array(list(combinations(range(52), 5)), dtype=np.int8)
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
@pytest.mark.proves("14.11(h)1", "14.11(h)2", "14.11(h)3")
def test_omaha_high_and_eight_or_better_low_agree_with_pokerkit():
    """OMAHA_REFERENCE_HANDS random Omaha hands (the module's docstring), high and eight-or-better low, by the batch
    path the room's odds and imports use, against pokerkit's: each side the best five of two hole cards and three of
    the board, chosen apart (14.11(h)1), the same cards free to serve both (14.11(h)2) and an ace low in the low while
    high in the high (14.11(h)3); a low made only when eight or better."""
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
