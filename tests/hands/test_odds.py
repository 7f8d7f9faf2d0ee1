"""Bad beat odds by Monte Carlo (apps/hands/odds.py, N.J.A.C. 13:69F-14.19(b)3): the engine's count of
qualifying rounds against an independent count by eval7 on the same deals and on other deals, reproducibility,
the both-hole-cards requirement and Omaha's two-plus-three rule on hand-built deals, and bad input."""
import math
import random

import eval7
import numpy as np
import pytest

from apps.hands import FiveCardCategory as C
from apps.hands import HandNameError, OddsInputError, evaluate, fast, parse_cards
from apps.hands.odds import (
    MAX_DEALS,
    BadBeatSpec,
    bad_beat_odds,
    deal_cards,
    parse_losing_hand,
    qualifying_deals,
    wilson_interval,
)

NAMES = [f"{'23456789TJQKA'[i // 4]}{'cdhs'[i % 4]}" for i in range(52)]
E7 = [eval7.Card(name) for name in NAMES]
E7_TYPES = {"High Card": 1, "Pair": 2, "Two Pair": 3, "Trips": 4, "Straight": 5, "Flush": 6, "Full House": 7,
            "Quads": 8, "Straight Flush": 9}
LOOSE = BadBeatSpec("holdem", C.FULL_HOUSE)   # full house or better, beaten by any better hand


def ids(text):
    return fast.card_ids(parse_cards(text))


def e7_meets(value, category, minimum_rank):
    """eval7's own reading of a hand against a requirement: its hand type (a royal flush is an ace-high straight
    flush) and its principal rank (bits 16-19, deuce = 0)."""
    strength = E7_TYPES[eval7.handtype(value)]
    principal = (value >> 16 & 0xF) + 2
    if strength == 9 and principal == 14:
        strength = 10
    if strength != category.strength:
        return strength > category.strength
    return minimum_rank is None or principal >= minimum_rank


def e7_holdem_hit(spec, row, players):
    """A qualifying bad beat by eval7, judged from the module's definition, one deal at a time."""
    board = [E7[c] for c in row[2 * players:2 * players + 5]]
    holes = [[E7[c] for c in row[2 * p:2 * p + 2]] for p in range(players)]
    values = [eval7.evaluate(hole + board) for hole in holes]
    top = max(values)
    if spec.beaten_by_category is not None and not e7_meets(top, spec.beaten_by_category,
                                                             spec.beaten_by_minimum_rank):
        return False
    for hole, value in zip(holes, values, strict=True):
        if value < top and e7_meets(value, spec.losing_category, spec.losing_minimum_rank):
            if not spec.both_hole_cards:
                return True
            triples = [(a, b, c) for i, a in enumerate(board) for j, b in enumerate(board[i + 1:], i + 1)
                       for c in board[j + 1:]]
            if max(eval7.evaluate(hole + list(t)) for t in triples) == value:
                return True
    return False


def all_deals(game, players, deals, seed, chunk=100_000):
    return np.concatenate(list(deal_cards(game, players=players, deals=deals, seed=seed, chunk=chunk)))


# --- reproducibility ----------------------------------------------------------------------------------------------

def test_fixed_seed_reproduces_and_chunk_size_does_not_change_the_deals_or_the_count():
    deals = 70_000  # three seeded blocks, the last one short
    whole = all_deals("holdem", 9, deals, seed=11)
    assert whole.shape == (deals, 23)
    assert np.array_equal(whole, all_deals("holdem", 9, deals, seed=11, chunk=1_000))
    assert np.array_equal(whole, all_deals("holdem", 9, deals, seed=11, chunk=32_769))
    assert not np.array_equal(whole, all_deals("holdem", 9, deals, seed=12))
    assert all(len(set(row)) == 23 for row in whole[:2000].tolist())       # no card dealt twice
    odds = bad_beat_odds(LOOSE, players=9, deals=deals, seed=11)
    assert odds == bad_beat_odds(LOOSE, players=9, deals=deals, seed=11, chunk=999)
    assert odds == bad_beat_odds(LOOSE, players=9, deals=deals, seed=11, chunk=50_000)
    assert odds.hits == int(qualifying_deals(LOOSE, whole, players=9).sum()) > 0
    assert (odds.deals, odds.players, odds.seed, odds.probability) == (deals, 9, 11, odds.hits / deals)


def test_deals_are_uniform_over_seats_and_board():
    cards = all_deals("omaha", 10, 40_000, seed=5)
    assert cards.shape == (40_000, 45)
    # each position sees every card about equally often: 40,000 / 52 = 769 expected, sd about 27
    for column in (0, 3, 20, 39, 44):
        counts = np.bincount(cards[:, column], minlength=52)
        assert counts.min() > 769 - 6 * 28 and counts.max() < 769 + 6 * 28


# --- an independent count -----------------------------------------------------------------------------------------

def test_14_19_b_3_hits_equal_an_eval7_count_on_the_same_deals():
    cards = all_deals("holdem", 9, 30_000, seed=2)
    ours = qualifying_deals(LOOSE, cards, players=9)
    theirs = np.array([e7_holdem_hit(LOOSE, row, 9) for row in cards.tolist()])
    assert ours.sum() > 1000
    assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("spec", [
    BadBeatSpec("holdem", C.FULL_HOUSE, 10, both_hole_cards=True),
    BadBeatSpec("holdem", C.FLUSH, 12, beaten_by_category=C.FULL_HOUSE, beaten_by_minimum_rank=9),
    BadBeatSpec("holdem", C.THREE_OF_A_KIND, 14, both_hole_cards=True, beaten_by_category=C.STRAIGHT),
], ids=["tens_full_both_hole_cards", "queen_high_flush_beaten_by_nines_full", "trip_aces_both_beaten_by_straight"])
def test_14_19_b_3_ranks_both_hole_cards_and_beaten_by_agree_with_eval7_on_the_same_deals(spec):
    cards = all_deals("holdem", 6, 8_000, seed=3)
    ours = qualifying_deals(spec, cards, players=6)
    theirs = np.array([e7_holdem_hit(spec, row, 6) for row in cards.tolist()])
    assert ours.sum() >= 10
    assert np.array_equal(ours, theirs)


def test_14_11_f_omaha_hits_equal_an_eval7_count_on_the_same_deals():
    """eval7 scores each of the 60 two-plus-three hands of each player; the losing hand then as in hold'em."""
    spec = BadBeatSpec("omaha", C.FULL_HOUSE, 8, beaten_by_category=C.FULL_HOUSE, beaten_by_minimum_rank=11)
    cards = all_deals("omaha", 6, 1_200, seed=4)
    ours = qualifying_deals(spec, cards, players=6)
    pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    theirs = []
    for row in cards.tolist():
        board = [E7[c] for c in row[24:]]
        triples = [[board[i], board[j], board[k]] for i in range(5) for j in range(i + 1, 5) for k in range(j + 1, 5)]
        values = [max(eval7.evaluate([E7[row[4 * p + a]], E7[row[4 * p + b]], *t]) for a, b in pairs for t in triples)
                  for p in range(6)]
        top = max(values)
        theirs.append(e7_meets(top, C.FULL_HOUSE, 11) and any(
            v < top and e7_meets(v, C.FULL_HOUSE, 8) for v in values))
    assert ours.sum() >= 10
    assert ours.tolist() == theirs


def test_14_19_b_3_wilson_interval_covers_an_independent_eval7_estimate():
    """Ours: 300,000 deals from seed 2026. eval7's: 300,000 other deals, shuffled by Python's random (seed 16),
    judged one by one. Seeds fixed beforehand, so the check is deterministic."""
    odds = bad_beat_odds(LOOSE, players=9, deals=300_000, seed=2026)
    rng = random.Random(16)
    deck = list(range(52))
    n = 300_000
    hits = sum(e7_holdem_hit(LOOSE, rng.sample(deck, 23), 9) for _ in range(n))
    low, high = odds.ci95
    assert low < hits / n < high
    assert 0.03 < odds.probability < 0.06 and high - low < 0.002


def test_wilson_interval():
    z = 1.959963984540054
    assert wilson_interval(0, 1000) == (pytest.approx(0.0, abs=1e-15), pytest.approx(z * z / (1000 + z * z)))
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(1 - high) and high == pytest.approx(0.5 + z * math.sqrt(0.25 / 100 + z * z / 40_000)
                                                                    / (1 + z * z / 100))


# --- hand-built deals ---------------------------------------------------------------------------------------------

def deal(*hands, board):
    return np.array([[c for text in hands for c in ids(text)] + ids(board)], dtype=np.int8)


def test_14_19_b_3_both_hole_cards_must_play_in_holdem():
    board = "Kc Kd Kh 7s 2c"
    one_card = deal("7h 3d", "Ks 2d", board=board)    # kings full of sevens with one hole card, beaten by quads
    pocket = deal("7h 7d", "Ks 2d", board=board)      # kings full of sevens with both
    rule = BadBeatSpec("holdem", C.FULL_HOUSE)
    both = BadBeatSpec("holdem", C.FULL_HOUSE, both_hole_cards=True)
    assert qualifying_deals(rule, one_card, players=2).tolist() == [True]
    assert qualifying_deals(both, one_card, players=2).tolist() == [False]
    assert qualifying_deals(both, pocket, players=2).tolist() == [True]
    assert qualifying_deals(BadBeatSpec("holdem", C.FULL_HOUSE, 13, beaten_by_category=C.STRAIGHT_FLUSH),
                            pocket, players=2).tolist() == [False]    # quads do not meet "beaten by a straight flush"
    assert qualifying_deals(BadBeatSpec("holdem", C.FULL_HOUSE, 14), pocket, players=2).tolist() == [False]


def test_14_19_b_3_a_tie_for_the_best_hand_is_no_bad_beat():
    board = "Ac Ad Ah As Kc"   # both play quad aces with the king
    assert qualifying_deals(LOOSE, deal("2c 3d", "4h 5s", board=board), players=2).tolist() == [False]


@pytest.mark.proves("14.11(f)-two-and-three")
def test_14_11_f_omaha_uses_exactly_two_hole_cards_and_three_board_cards():
    board = "Ah Kh 7h 6h 6d"
    one_heart = deal("Qh 3c 8c 8d", "7s 7c 2s 3s", board=board)   # one heart: no flush in Omaha; sevens full wins
    two_hearts = deal("Qh Jh 8c 8d", "7s 7c 2s 3s", board=board)  # the ace-high flush loses to sevens full
    flush = BadBeatSpec("omaha", C.FLUSH)
    assert qualifying_deals(flush, one_heart, players=2).tolist() == [False]
    assert qualifying_deals(flush, two_hearts, players=2).tolist() == [True]
    as_holdem = deal("Qh 3c", "7s 7c", board=board)                   # the same first two cards in hold'em: a flush
    assert qualifying_deals(BadBeatSpec("holdem", C.FLUSH), as_holdem, players=2).tolist() == [True]
    scores = fast.omaha_high_scores(one_heart[:, :8].reshape(2, 4), np.repeat(one_heart[:, 8:], 2, axis=0))
    assert fast.category_of(int(scores[0])) is C.TWO_PAIR and fast.category_of(int(scores[1])) is C.FULL_HOUSE
    assert qualifying_deals(BadBeatSpec("omaha", C.FLUSH, both_hole_cards=True), two_hearts,
                            players=2).tolist() == [True]           # always two in Omaha: the flag changes nothing


def test_principal_rank_of_a_score_is_the_readable_cores():
    rng = random.Random(9)
    for _ in range(1500):
        cards = rng.sample(range(52), 5)
        value = evaluate("five_card_high", parse_cards("".join(NAMES[c] for c in cards)))
        score = fast.high_score(cards)
        for rank in range(2, 15):
            spec = BadBeatSpec("holdem", value.category, rank)
            assert spec.losing_meets(score) == (value.key[1] >= rank)
        assert BadBeatSpec("holdem", value.category).losing_meets(score)


# --- names and bad input ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("four of a kind", (C.FOUR_OF_A_KIND, None)), ("Four of a Kind or better", (C.FOUR_OF_A_KIND, None)),
    ("four eights", (C.FOUR_OF_A_KIND, 8)), ("quad eights", (C.FOUR_OF_A_KIND, 8)), ("quad 8s", (C.FOUR_OF_A_KIND, 8)),
    ("aces full", (C.FULL_HOUSE, 14)), ("aces full of tens", (C.FULL_HOUSE, 14)), ("full house", (C.FULL_HOUSE, None)),
    ("kings full of deuces or better", (C.FULL_HOUSE, 13)), ("a straight flush", (C.STRAIGHT_FLUSH, None)),
    ("ten-high straight", (C.STRAIGHT, 10)), ("king high straight flush", (C.STRAIGHT_FLUSH, 13)),
    ("ace-high straight flush", (C.ROYAL_FLUSH, None)), ("royal flush", (C.ROYAL_FLUSH, None)),
    ("ace high flush", (C.FLUSH, 14)), ("trip kings", (C.THREE_OF_A_KIND, 13)), ("aces up", (C.TWO_PAIR, 14)),
    ("pair of jacks", (C.ONE_PAIR, 11)), ("FULL_HOUSE", (C.FULL_HOUSE, None)), ("sixes full", (C.FULL_HOUSE, 6)),
])
def test_14_19_b_3_hand_names(text, expected):
    assert parse_losing_hand(text) == expected


@pytest.mark.parametrize("text", ["five aces", "", "a big hand", "aces full of aces", "four-high straight",
                                  "deuces up", "quad elevens"])
def test_unknown_or_impossible_hand_names_raise_a_clear_error(text):
    with pytest.raises(HandNameError) as error:
        parse_losing_hand(text)
    assert error.value.field == "losing" and str(error.value)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"players": 1}, "players"), ({"players": 11}, "players"), ({"players": True}, "players"),
    ({"deals": 0}, "deals"), ({"deals": 10**9}, "deals"), ({"deals": MAX_DEALS + 1}, "deals"), ({"deals": 1.5}, "deals"),
    ({"seed": -1}, "seed"), ({"chunk": 0}, "chunk"),
], ids=["1_player", "11_players", "bool_players", "0_deals", "10e9_deals", "max_plus_one", "float_deals",
        "negative_seed", "0_chunk"])
def test_bad_input_raises_a_clear_error(kwargs, field):
    request = {"players": 9, "deals": 10, "seed": 1} | kwargs
    with pytest.raises(OddsInputError) as error:
        bad_beat_odds(LOOSE, **request)
    assert error.value.field == field and str(error.value)


@pytest.mark.parametrize(("spec", "field"), [
    (BadBeatSpec("stud", C.FULL_HOUSE), "game"), (BadBeatSpec("holdem", C.FULL_HOUSE, 15), "losing"),
    (BadBeatSpec("holdem", C.FULL_HOUSE, beaten_by_minimum_rank=9), "beaten_by"),
    (BadBeatSpec("omaha", C.FULL_HOUSE, beaten_by_category=C.FLUSH, beaten_by_minimum_rank=1), "beaten_by"),
], ids=["stud", "rank_15", "rank_without_hand", "rank_1"])
def test_bad_spec_raises_a_clear_error(spec, field):
    with pytest.raises(OddsInputError) as error:
        bad_beat_odds(spec, players=9, deals=10, seed=1)
    assert error.value.field == field


def test_deals_of_another_table_size_are_refused():
    with pytest.raises(OddsInputError) as error:
        qualifying_deals(LOOSE, all_deals("holdem", 6, 10, seed=1), players=9)
    assert error.value.field == "players"


def test_one_deal_and_the_most_players():
    assert bad_beat_odds(LOOSE, players=10, deals=1, seed=0).deals == 1
    assert all_deals("omaha", 10, 3, seed=0).shape == (3, 45)
