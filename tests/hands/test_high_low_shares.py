"""Split pots and the hands a player may form for them, clause by clause: seven-card stud high-low (N.J.A.C.
13:69F-14.9(i)3, (k), (l)), Omaha high-low (14.11(f)2) and mambo stud (14.13A(j), (l)). Awards in whole dollars
(the odd unit $1, at most $1.00 as the clauses allow)."""
from decimal import Decimal

import pytest

from apps.hands import LowCategory, Pot, award_pots, best_hands, parse_cards

D = Decimal
P = parse_cards
STUD_HIGH = "Kc Kd Kh 9s 9c Qh Jd"      # kings full; no eight-or-better low
STUD_LOW = "Ac 2d 3h 4s 6c Td Jh"       # a six-low; ace high for the high
OMAHA_BOARD = "Kd Kh 4c 2h 3s"
OMAHA_TRIPS = "Ks Qs 9c 9h"             # three kings, queen: the best high; no low (no two cards up to eight)


@pytest.mark.proves("14.9(i)3-split", "14.9(i)3-odd-to-high")
def test_14_9_i_3_the_high_and_the_low_divide_the_pot_the_odd_unit_to_the_high():
    """14.9(i)3: the best high and the best low divide the pot equally; i: the excess unit of $11 goes to the high."""
    result = award_pots("stud_hilo8", [Pot(D("11"), ("1", "2"))], {"1": P(STUD_HIGH), "2": P(STUD_LOW)},
                        odd_chip=D("1"))
    assert result.pots[0].high_winners == ("1",) and result.pots[0].low_winners == ("2",)
    assert result.awards == {"1": D("6"), "2": D("5")}
    even = award_pots("stud_hilo8", [Pot(D("10"), ("1", "2"))], {"1": P(STUD_HIGH), "2": P(STUD_LOW)},
                      odd_chip=D("1"))
    assert even.awards == {"1": D("5"), "2": D("5")}
    # in cents the odd cent goes to the high; in $1 units the cents below a unit stay with the high half
    cents = award_pots("stud_hilo8", [Pot(D("10.05"), ("1", "2"))], {"1": P(STUD_HIGH), "2": P(STUD_LOW)})
    assert cents.awards == {"1": D("5.03"), "2": D("5.02")}
    dollars = award_pots("stud_hilo8", [Pot(D("11.50"), ("1", "2"))], {"1": P(STUD_HIGH), "2": P(STUD_LOW)},
                         odd_chip=D("1"))
    assert dollars.awards == {"1": D("6.50"), "2": D("5")}
    # a half held by two hands is theirs to share: $21.03, the high $10.52, the low $10.51 between two six-lows
    shared = award_pots("stud_hilo8", [Pot(D("21.03"), ("1", "2", "3"))],
                        {"1": P(STUD_HIGH), "2": P("Ad 2c 3s 4d 6h Tc Js"), "3": P(STUD_LOW)})
    assert shared.awards == {"1": D("10.52"), "2": D("5.25"), "3": D("5.26")}
    # and without a qualifier (seven-card stud high-low split), the best low of any five
    split = award_pots("stud_hilo", [Pot(D("11"), ("1", "2"))], {"1": P(STUD_HIGH), "2": P(STUD_LOW)},
                       odd_chip=D("1"))
    assert split.pots[0].high_winners == ("1",) and split.pots[0].low_winners == ("2",)
    assert split.awards == {"1": D("6"), "2": D("5")}


@pytest.mark.proves("14.9(i)3-tied-high")
def test_14_9_i_3_ii_tied_highs_share_the_high_half_the_excess_to_the_highest_card_by_suit():
    """14.9(i)3ii, iv: kings and queens with a jack tie for the high; they share the $11 high half of a $21 pot, the
    excess $1 to the king of spades (spades rank first); the six-low takes the $10 low half."""
    hands = {"1": P("Kh Kd Qh Qd 9c Js Tc"), "2": P("Ks Kc Qs Qc 9d Jh Th"), "3": P("Ac 2d 3h 4s 6c 8d 7h")}
    result = award_pots("stud_hilo8", [Pot(D("21"), ("1", "2", "3"))], hands, odd_chip=D("1"))
    assert result.pots[0].high_winners == ("1", "2") and result.pots[0].low_winners == ("3",)
    assert result.awards == {"1": D("5"), "2": D("6"), "3": D("10")}
    # in cents: the high half $10.53 (the odd cent to the high), shared, its odd cent to the king of spades
    cents = award_pots("stud_hilo8", [Pot(D("21.05"), ("1", "2", "3"))], hands)
    assert cents.awards == {"1": D("5.26"), "2": D("5.27"), "3": D("10.52")}
    # in $1 units: the high half $11.50 (the odd unit and the cents below a unit), $5 each and $1.50 to the spade
    dollars = award_pots("stud_hilo8", [Pot(D("21.50"), ("1", "2", "3"))], hands, odd_chip=D("1"))
    assert dollars.awards == {"1": D("5"), "2": D("6.50"), "3": D("10")}


@pytest.mark.proves("14.9(i)3-tied-low")
def test_14_9_i_3_iii_tied_lows_share_the_low_half_the_excess_to_the_lowest_low_card_by_suit():
    """14.9(i)3iii, iv: two six-lows tie; they share the $11 low half of a $23 pot, the excess $1 to the ace of clubs
    (clubs rank last); kings full take the $12 high half."""
    hands = {"1": P(STUD_HIGH), "2": P("Ad 2c 3s 4d 6h Tc Js"), "3": P(STUD_LOW)}
    result = award_pots("stud_hilo8", [Pot(D("23"), ("1", "2", "3"))], hands, odd_chip=D("1"))
    assert result.pots[0].high_winners == ("1",) and set(result.pots[0].low_winners) == {"2", "3"}
    assert result.awards == {"1": D("12"), "2": D("5"), "3": D("6")}
    # in cents: the low half $10.53, shared, its odd cent to the ace of clubs
    cents = award_pots("stud_hilo8", [Pot(D("21.07"), ("1", "2", "3"))], hands)
    assert cents.awards == {"1": D("10.54"), "2": D("5.26"), "3": D("5.27")}
    # in $1 units the cents below a unit stay with the high half: $12.50; the low half's $11, $5 and $6
    dollars = award_pots("stud_hilo8", [Pot(D("23.50"), ("1", "2", "3"))], hands, odd_chip=D("1"))
    assert dollars.awards == {"1": D("12.50"), "2": D("5"), "3": D("6")}
    # between the ace of hearts and the ace of diamonds, the diamond (below the heart) takes the excess
    # (and an eight-low, qualifying but beaten, takes no part)
    hands = {"1": P(STUD_HIGH), "2": P("Ah 2c 3s 4d 6h Tc Js"), "3": P("Ad 2d 3h 4s 6c Td Jh"),
             "4": P("As 3d 5c 7s 8d 9h Qs")}
    result = award_pots("stud_hilo8", [Pot(D("23"), ("1", "2", "3", "4"))], hands, odd_chip=D("1"))
    assert result.awards == {"1": D("12"), "2": D("5"), "3": D("6")} and result.pots[0].low_winners == ("2", "3")


@pytest.mark.proves("14.11(f)2-tied-high")
def test_14_11_f_2_ii_tied_highs_share_the_high_half_the_excess_to_the_highest_card_by_suit():
    """14.11(f)2ii, iv: three kings with a queen, each from two hole cards and three board cards, tie; they share the
    $11 high half of a $21 pot, the excess to the king of spades; the six-low takes the $10 low half."""
    hands = {"1": P("Kc Qc 9d 9s"), "2": P(OMAHA_TRIPS), "3": P("Ac 6d Jh Th")}
    result = award_pots("omaha_hilo8", [Pot(D("21"), ("1", "2", "3"))], hands, P(OMAHA_BOARD), odd_chip=D("1"))
    assert result.pots[0].high_winners == ("1", "2") and result.pots[0].low_winners == ("3",)
    assert result.awards == {"1": D("5"), "2": D("6"), "3": D("10")}
    cents = award_pots("omaha_hilo8", [Pot(D("21.05"), ("1", "2", "3"))], hands, P(OMAHA_BOARD))
    assert cents.awards == {"1": D("5.26"), "2": D("5.27"), "3": D("10.52")}  # the high half $10.53, shared
    dollars = award_pots("omaha_hilo8", [Pot(D("21.50"), ("1", "2", "3"))], hands, P(OMAHA_BOARD), odd_chip=D("1"))
    assert dollars.awards == {"1": D("5"), "2": D("6.50"), "3": D("10")}  # the high half $11.50, shared


@pytest.mark.proves("14.11(f)2-tied-low")
def test_14_11_f_2_iii_tied_lows_share_the_low_half_the_excess_to_the_lowest_low_card_by_suit():
    """14.11(f)2iii, iv: two six-lows tie; they share the $11 low half of a $23 pot, the excess to the ace of clubs;
    three kings take the $12 high half."""
    hands = {"1": P(OMAHA_TRIPS), "2": P("Ad 6c Js Ts"), "3": P("Ac 6d Jh Th")}
    result = award_pots("omaha_hilo8", [Pot(D("23"), ("1", "2", "3"))], hands, P(OMAHA_BOARD), odd_chip=D("1"))
    assert result.pots[0].high_winners == ("1",) and set(result.pots[0].low_winners) == {"2", "3"}
    assert result.awards == {"1": D("12"), "2": D("5"), "3": D("6")}
    # a qualifying low that is beaten (an eight-low) takes no part
    beaten = {**hands, "4": P("8c 7d Qs Qh")}
    result = award_pots("omaha_hilo8", [Pot(D("23"), ("1", "2", "3", "4"))], beaten, P(OMAHA_BOARD), odd_chip=D("1"))
    assert result.awards == {"1": D("12"), "2": D("5"), "3": D("6")} and set(result.pots[0].low_winners) == {"2", "3"}
    cents = award_pots("omaha_hilo8", [Pot(D("21.07"), ("1", "2", "3"))], hands, P(OMAHA_BOARD))
    assert cents.awards == {"1": D("10.54"), "2": D("5.26"), "3": D("5.27")}  # the low half $10.53, shared
    dollars = award_pots("omaha_hilo8", [Pot(D("23.50"), ("1", "2", "3"))], hands, P(OMAHA_BOARD), odd_chip=D("1"))
    assert dollars.awards == {"1": D("12.50"), "2": D("5"), "3": D("6")}  # the cents below a unit with the high


@pytest.mark.proves("14.9(k)-two-hands")
@pytest.mark.parametrize("game", ["stud_hilo8", "stud_hilo"])
def test_14_9_k_two_different_fives_for_the_high_and_the_low(game):
    """14.9(k): from seven cards a player forms two different hands: a pair of kings for the high, 6-4-3-2-A for the
    low (with the eight-or-better qualifier and without)."""
    hand = best_hands(game, P("Kc Kd Ac 2d 3h 4s 6c"))
    assert hand.high.category.label == "One pair" and hand.low.category is LowCategory.SIX_LOW
    assert set(hand.high.cards) != set(hand.low.cards)
    assert {c.rank for c in hand.high.cards} >= {13} and 13 not in {c.rank for c in hand.low.cards}


@pytest.mark.proves("14.9(l)")
@pytest.mark.parametrize("game", ["stud_hilo8", "stud_hilo"])
def test_14_9_l_one_ace_high_in_the_high_hand_and_low_in_the_low_hand(game):
    """14.9(l): the ace of hearts makes an ace-high flush for the high and 5-4-3-2-A for the low at the same time
    (with the eight-or-better qualifier and without)."""
    hand = best_hands(game, P("Ah Kh 9h 5h 2h 3c 4d"))
    ace = P("Ah")[0]
    assert hand.high.category.label == "Flush" and max(c.rank for c in hand.high.cards) == 14
    assert hand.low.category is LowCategory.FIVE_LOW
    assert ace in hand.high.cards and ace in hand.low.cards


@pytest.mark.proves("14.13A(j)-three-cards")
def test_14_13a_j_the_hand_is_any_three_of_the_players_cards_and_the_community_card():
    """14.13A(j): the community king pairs the player's king: the high hand is a pair of kings, made with it."""
    hand = best_hands("mambo_stud", P("Kh 9c 4d"), P("Kd"))
    assert hand.high.category.label == "One pair" and P("Kd")[0] in hand.high.cards
    assert len(hand.high.cards) == 3


@pytest.mark.proves("14.13A(j)-three-cards")
def test_14_13a_j_the_hand_is_made_of_the_players_three_cards_and_the_community_card_no_more_no_fewer():
    """14.13A(j): the player's three cards and the one community card — four cards in all, the community card given
    as the board or among the player's (a feed may send it either way) — and the same hand either way; three cards
    without it, or a fifth card anywhere, are refused (CardCountError), naming what was wrong."""
    from apps.hands import CardCountError

    as_board, among_players = best_hands("mambo_stud", P("2c 3d 4h"), P("Ks")), best_hands("mambo_stud",
                                                                                            P("2c 3d 4h Ks"), [])
    assert as_board == among_players and as_board.high.category.label == "Straight"
    for hole, board, wrong in (("2c 3d 4h", "", "expected 4 cards with the community card, got 3"),
                               ("2c 3d 4h Ks", "9d", "expected 4 cards with the community card, got 5"),
                               ("2c 3d 4h Ks 9d", "", "expected 3 or 4 of the player's cards, got 5"),
                               ("2c 3d", "Ks", "expected 3 or 4 of the player's cards, got 2"),
                               ("2c 3d 4h", "Ks 9d", "expected 0 or 1 community cards, got 2")):
        with pytest.raises(CardCountError, match=wrong):
            best_hands("mambo_stud", P(hole), P(board) if board else [])


@pytest.mark.proves("14.13A(l)-two-hands")
def test_14_13a_l_two_different_three_card_hands_for_the_high_and_the_low():
    """14.13A(l): with the community five, a pair of fives for the high and 5-2-A for the low: two different hands."""
    hand = best_hands("mambo_stud", P("5h 2c Ad"), P("5s"))
    assert hand.high.category.label == "One pair" and hand.low.category is LowCategory.FIVE_LOW
    assert set(hand.high.cards) != set(hand.low.cards)
