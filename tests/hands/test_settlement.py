"""Pots, side pots (N.J.A.C. 13:69F-14.7(c)4), the uncalled bet (14.14(d)) and odd chips (14.9(i)2, 14.11(f)2)."""
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.hands import DECK, Pot, award_pots, build_pots, format_cards, parse_cards, settle

D = Decimal


@pytest.mark.proves("14.7(c)4-side-pots")
def test_14_7_c_4_side_pots_and_eligibility():
    build = build_pots({"1": D("50"), "2": D("200"), "3": D("200"), "4": D("20")}, folded={"4"})
    assert [(p.amount, p.eligible) for p in build.pots] == [(D("170"), ("1", "2", "3")), (D("300"), ("2", "3"))]
    assert build.uncalled == {}


@pytest.mark.proves("14.14(d)")
def test_14_14_d_the_uncalled_final_bet_is_returned():
    build = build_pots({"1": D("300"), "2": D("100")})
    assert build.uncalled == {"1": D("200")}
    assert sum(p.amount for p in build.pots) == D("200")


@pytest.mark.proves("14.3(d)-tie")
def test_14_9_i_2_ii_odd_chip_to_the_highest_card_by_suit():
    """Two tied straights split $10.01: the excess cent goes to the holder of the highest card by suit (spades)."""
    board = parse_cards("5c 6d 7h 8c 2d")
    result = award_pots("holdem", [Pot(D("10.01"), ("1", "2"))], {"1": parse_cards("9h 3c"), "2": parse_cards("9s 3d")},
                        board)
    assert result.awards == {"1": D("5.00"), "2": D("5.01")}


def test_a_pot_with_one_eligible_player_needs_no_cards():
    result = settle("holdem", {"1": D("2"), "2": D("1")}, hands={}, folded={"2"})
    assert result.awards == {"1": D("2")} and result.uncalled == {"1": D("1")}


#: game -> (cards of each player, community cards, most players the deck can serve)
GAMES = {"holdem": (2, 5, 9), "omaha_hilo8": (4, 5, 9), "stud_hilo8": (7, 0, 7), "badugi": (4, 0, 9),
         "mambo_stud": (3, 1, 9), "triple_draw_27": (5, 0, 9)}


@given(st.sampled_from(sorted(GAMES)), st.lists(st.integers(min_value=0, max_value=40_000), min_size=2, max_size=9),
       st.randoms(use_true_random=False), st.sampled_from([D("0.01"), D("1")]))
def test_settlement_conserves_every_chip_in_every_kind_of_pot(game, amounts, rng, odd_chip):
    """High, high-low split and low games: awards + uncalled bet == contributions, to the cent (14.7(c)4)."""
    hole_size, board_size, most = GAMES[game]
    seats = [str(i + 1) for i in range(min(len(amounts), most))]
    contributions = {s: D(a) / 100 for s, a in zip(seats, amounts, strict=False)}
    folded = {s for s in seats if rng.random() < 0.3}
    if len(folded) == len(seats):
        folded.discard(seats[0])
    deck = list(DECK)
    rng.shuffle(deck)
    board = [deck.pop() for _ in range(board_size)]
    hands = {s: parse_cards(format_cards([deck.pop() for _ in range(hole_size)])) for s in seats}
    result = settle(game, contributions, hands, board, folded, odd_chip=odd_chip)
    assert sum(result.awards.values()) + sum(result.uncalled.values()) == sum(contributions.values())
    assert all(result.awards[s] == 0 for s in set(result.awards) & folded)


@pytest.mark.proves("14.14(d)")
def test_14_14_d_a_feed_may_give_the_uncalled_bet_it_tracked():
    """The feed knows from the betting rounds what was given back; the pots are built from the rest."""
    build = build_pots({"1": D("300"), "2": D("100"), "3": D("40")}, folded={"3"}, uncalled={"1": D("200")})
    assert build.uncalled == {"1": D("200")}
    assert [(p.amount, p.eligible) for p in build.pots] == [(D("240"), ("1", "2"))]


def test_14_7_c_4_dead_antes_go_to_the_main_pot_unmatched():
    """A big-blind ante posted as dead money is not an uncalled bet: it stays in the main pot, which every live
    player may win, and only the unmatched part of the blind comes back."""
    contributions = {"1": D("40"), "2": D("290"), "3": D("170")}  # seat 2: ante 120 dead, then calls 170
    build = build_pots(contributions, folded={"1"}, dead={"2": D("120")})
    assert build.uncalled == {}
    assert [(p.amount, p.eligible) for p in build.pots] == [(D("500"), ("2", "3"))]
    folded_to_the_blind = build_pots({"1": D("40"), "2": D("200")}, folded={"1"}, dead={"2": D("120")},
                                     uncalled={"2": D("40")})
    assert [(p.amount, p.eligible) for p in folded_to_the_blind.pots] == [(D("200"), ("2",))]


def test_dead_money_is_its_own_pot_when_a_live_player_put_in_nothing_more():
    """A player all in on the ante alone contests the antes only (the dead money's pot), not the bets above."""
    build = build_pots({"1": D("10"), "2": D("60"), "3": D("60")}, dead={"1": D("10"), "2": D("10"), "3": D("10")})
    assert [(p.amount, p.eligible) for p in build.pots] == [(D("30"), ("1", "2", "3")), (D("100"), ("2", "3"))]


@pytest.mark.proves("14.10(j)-winner")
def test_14_10_j_the_best_high_hand_wins_each_pot_it_contests():
    """Hold 'em, seat 1 all in: the main pot to the best hand of its three players (seat 1's aces full), the side pot
    to the better of the two left (seat 2's kings); a pot only one seat may win goes to it without cards. A player who
    holds the best hand in every pot takes them all, added up."""
    board = parse_cards("Ah Kc 5s 9d Ac")
    hands = {"1": parse_cards("As Kd"), "2": parse_cards("Ks Kh"), "3": parse_cards("7c 2d")}
    pots = [Pot(D("30.00"), ("1", "2", "3")), Pot(D("40.00"), ("2", "3")), Pot(D("5.00"), ("4",))]  # seat 4: no cards
    result = award_pots("holdem", pots, hands, board)
    assert result.awards == {"1": D("30.00"), "2": D("40.00"), "4": D("5.00")}
    assert [(p.high_winners, p.low_winners) for p in result.pots] == [(("1",), ()), (("2",), ()), (("4",), ())]
    assert [p.awards for p in result.pots] == [{"1": D("30.00")}, {"2": D("40.00")}, {"4": D("5.00")}]
    hands["2"] = parse_cards("Ad Ks")  # seat 2 now holds aces full of kings
    hands["1"] = parse_cards("7h 2c")  # and seat 1 nothing but the board's aces
    swept = award_pots("holdem", pots[:2], hands, board)
    assert swept.awards == {"2": D("70.00")}
    assert [p.high_winners for p in swept.pots] == [("2",), ("2",)]


@pytest.mark.proves("14.10(j)-winner")
def test_14_10_j_equally_best_high_hands_share_the_pot_in_whole_units():
    """The board plays a royal flush for three players: each takes a third of $10.01 in cents, the two cents over to
    the first of them by the odd-chip order (the highest card); with $1 chips, $10.51 between two of them is $5 each
    and the $0.51 that makes no chip goes with the odd chip. A high-low game's best high hand wins its high half when
    a low qualifies; a high game's (Omaha's) best high the whole pot, though a player holds a qualifying low."""
    board = parse_cards("As Ks Qs Js Ts")
    hands = {"1": parse_cards("2c 3d"), "2": parse_cards("4c 5d"), "3": parse_cards("6c 7d")}
    three = award_pots("holdem", [Pot(D("10.01"), ("1", "2", "3"))], hands, board)
    assert three.awards == {"1": D("3.33"), "2": D("3.33"), "3": D("3.35")}  # seat 3 holds the highest card, the 7
    assert three.pots[0].high_winners == ("1", "2", "3")
    two = award_pots("holdem", [Pot(D("10.51"), ("1", "2"))], hands, board, odd_chip=D("1"))
    assert two.awards == {"1": D("5"), "2": D("5.51")}
    omaha_board = parse_cards("2s 3h 8c Kd Qh")
    omaha = {"1": parse_cards("Kh Kc 9s 9d"), "2": parse_cards("Ac 4d Jc Jh")}  # kings; jacks and an A-2-3-4-8 low
    high_only = award_pots("omaha", [Pot(D("20.00"), ("1", "2"))], omaha, omaha_board)
    split = award_pots("omaha_hilo8", [Pot(D("20.00"), ("1", "2"))], omaha, omaha_board)
    assert high_only.awards == {"1": D("20.00")} and high_only.pots[0].low_winners == ()
    assert split.awards == {"1": D("10.00"), "2": D("10.00")}
    assert split.pots[0].high_winners == ("1",) and split.pots[0].low_winners == ("2",)
