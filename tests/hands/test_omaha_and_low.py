"""A-5 low (N.J.A.C. 13:69F-14.3(e), (f), 14.9(j)) and Omaha high / high-low eight or better (14.11(f)-(h)),
with differential checks against pokerkit (a test-only reference)."""
import random
from decimal import Decimal

import pytest
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

from apps.hands import (
    DECK,
    CardCountError,
    LowCategory,
    Pot,
    award_pots,
    award_runs,
    best_hands,
    evaluate,
    format_cards,
    parse_cards,
)

D = Decimal


def low(text, rule="ace_to_five_low"):
    return evaluate(rule, parse_cards(text))


@pytest.mark.proves("14.3(e)-ace-low", "14.3(f)-inverse", "14.3(f)-straights-flushes")
def test_14_3_e_f_ace_is_low_and_straights_and_flushes_do_not_count():
    assert low("As 2s 3s 4s 5s").category is LowCategory.FIVE_LOW  # the wheel, suited: the best low
    assert low("As 2d 3h 4s 5c") > low("As 2d 3h 4s 6c") > low("2c 3d 4h 5s 7c")
    assert low("Kc Qd Jh Ts 8c") > low("2c 2d 3h 4s 5c")  # any unpaired hand beats a pair


@pytest.mark.proves("14.3(d)-kicker", "14.3(e)-suits")
def test_14_3_d_low_ties_compare_the_highest_card_first():
    assert low("8c 5d 4h 3s 2c") > low("8c 6d 3h 2s Ac")  # 8-5 beats 8-6
    assert low("7c 6d 4h 3s 2c") == low("7d 6h 4s 3c 2d")


@pytest.mark.proves("14.9(j)-qualifier")
def test_14_9_j_eight_or_better_qualifier():
    assert low("8c 7d 6h 5s 4c", "ace_to_five_low_8").qualifies
    assert not low("9c 4d 3h 2s Ac", "ace_to_five_low_8").qualifies
    assert not low("8c 8d 3h 2s Ac", "ace_to_five_low_8").qualifies


@pytest.mark.proves("14.9(j)-qualifier")
def test_14_9_j_seven_card_stud_high_low_takes_the_best_qualifying_low_of_any_five():
    """N.J.A.C. 13:69F-14.9(j): in seven-card stud high-low split eight or better a low may hold no pair and no card
    above the eight; the player's low is the best such five of the seven cards (a lower five that does not qualify
    is passed over), or none, and then the high hand takes the whole pot."""
    hand = best_hands("stud_hilo8", parse_cards("Ac 2d 3h 4s 5c 6d 7h"))
    assert format_cards(hand.low.cards) == "5c 4s 3h 2d Ac" and hand.low.qualifies  # the wheel, of seven
    eight = best_hands("stud_hilo8", parse_cards("Kd Kh 8c 4s 3h 2d Ac")).low
    assert eight is not None and {c.rank.symbol for c in eight.cards} == {"8", "4", "3", "2", "A"}
    assert best_hands("stud_hilo8", parse_cards("Ac 2d 3h 4s 9c Kd Kh")).low is None  # a nine is no eight
    assert best_hands("stud_hilo8", parse_cards("Ac Ad 2h 2s 3c 3d 9h")).low is None  # three ranks to eight, paired
    paired = best_hands("stud_hilo8", parse_cards("Ac Ad 2h 3s 4c 8d 9h")).low  # the second ace is left out
    assert paired is not None and len({c.rank for c in paired.cards}) == 5
    result = award_pots("stud_hilo8", [Pot(D("100"), ("1", "2"))],
                        {"1": parse_cards("Kc Kd Kh 9s 9c Qd Jh"), "2": parse_cards("Ac 2d 3h 4s 9d Th Js")})
    assert result.awards == {"1": D("100")}  # no qualifying low: the high takes all


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.proves("14.9(j)-qualifier")
def test_seven_card_stud_eight_or_better_lows_agree_with_pokerkit(seed):
    """Random seven-card stud hands: a qualifying low is made exactly when pokerkit's EightOrBetterLowHand can be
    formed from the seven cards, and the lows made order as pokerkit's do (a test-only reference)."""
    from pokerkit import EightOrBetterLowHand

    rng = random.Random(100 + seed)
    ours, theirs = [], []
    for _ in range(1500):
        cards = rng.sample(DECK, 7)
        ours.append(best_hands("stud_hilo8", cards).low)
        try:
            theirs.append(EightOrBetterLowHand.from_game(format_cards(cards).replace(" ", "")))
        except ValueError:
            theirs.append(None)
    assert [o is None for o in ours] == [t is None for t in theirs]
    made = [i for i, o in enumerate(ours) if o is not None]
    assert len(made) > 200  # about one seven-card hand in five makes an eight-or-better low
    order = sorted(made, key=lambda i: ours[i])
    for a, b in zip(order, order[1:], strict=False):
        assert _cmp(ours[a], ours[b]) == _cmp(theirs[a], theirs[b])


@pytest.mark.proves("14.11(f)-two-and-three")
def test_14_11_f_exactly_two_hole_and_three_board_cards():
    # four spades in the hand and a spade-free board: no flush, because only two hole cards play
    hand = best_hands("omaha", parse_cards("As Ks Qs Js"), parse_cards("2s 7d 8h 9c 3d"))
    assert hand.high.category.label == "High card"
    # board four-flush: only one spade in the hand makes no flush
    assert best_hands("omaha", parse_cards("As Kd Qc Jh"), parse_cards("2s 7s 8s 9s 3d")).high.category.label != "Flush"
    with pytest.raises(CardCountError):
        best_hands("omaha", parse_cards("As Kd Qc"), parse_cards("2s 7s 8s 9s 3d"))


@pytest.mark.proves("14.11(h)2")
def test_14_11_h_the_ace_both_ways_and_the_same_five_for_high_and_low():
    """14.11(h)2: the same five cards (a wheel) make both the high hand (a straight) and the low hand; a grouping is
    a low only when eight or better."""
    hand = best_hands("omaha_hilo8", parse_cards("As 2s Kd Kc"), parse_cards("3h 4h 5c Qd Jc"))
    assert hand.high.category.label == "Straight" and hand.low.category is LowCategory.FIVE_LOW
    assert set(hand.high.cards) == set(hand.low.cards)
    # a grouping serves as the low only when it is eight or better: A-2-3-4-8 is a low, A-2-3-4-9 none
    assert best_hands("omaha_hilo8", parse_cards("As 2s Kd Kc"), parse_cards("3h 4h 8c Qd Jc")).low.category is (
        LowCategory.EIGHT_LOW)
    assert best_hands("omaha_hilo8", parse_cards("As 2s Kd Kc"), parse_cards("3h 4h 9c Qd Jc")).low is None


@pytest.mark.proves("14.11(h)3")
def test_14_11_h_3_the_ace_high_in_the_high_hand_and_low_in_the_low_hand_at_once():
    """14.11(h)3: one ace counts as a high card for the high hand (an ace-high flush with A-K of spades) and as a low
    card for the low hand (8-4-3-2-A with A-2) at the same time."""
    hand = best_hands("omaha_hilo8", parse_cards("As 2d Ks Qh"), parse_cards("3s 4h 8s 9s Jc"))
    assert hand.high.category.label == "Flush" and max(c.rank for c in hand.high.cards) == 14
    assert hand.low.category is LowCategory.EIGHT_LOW
    ace = parse_cards("As")[0]
    assert ace in hand.high.cards and ace in hand.low.cards
    # with a nine where the eight was, the ace still makes the high hand but no low: 9-4-3-2-A is no eight or better
    nine = best_hands("omaha_hilo8", parse_cards("As 2d Ks Qh"), parse_cards("3s 4h 9d 9s Jc"))
    assert nine.low is None and ace in nine.high.cards


@pytest.mark.proves("14.11(g)-high-takes-all")
def test_14_11_g_no_qualifying_low_gives_the_whole_pot_to_the_high():
    result = award_pots("omaha_hilo8", [Pot(D("90"), ("1", "2"))],
                        {"1": parse_cards("As Ks Qd Qc"), "2": parse_cards("Jd Jh 2c 3c")}, parse_cards("Ts 9s 9d Kh Qh"))
    assert result.awards == {"1": D("90")} and result.pots[0].low_winners == ()
    # the best high the second seat eligible, a side pot the first seat's alone (no showdown: it need show nothing)
    side = award_pots("omaha_hilo8", [Pot(D("90"), ("1", "2")), Pot(D("20"), ("1",))],
                      {"1": parse_cards("Jd Jh 2c 3c"), "2": parse_cards("As Ks Qd Qc")}, parse_cards("Ts 9s 9d Kh Qh"))
    assert side.awards == {"2": D("90"), "1": D("20")}
    assert award_pots("omaha_hilo8", [Pot(D("20"), ("3",))], {}, parse_cards("Ts 9s 9d Kh Qh")).awards == {"3": D("20")}
    # the contrast: an eight-or-better low takes half the pot
    split = award_pots("omaha_hilo8", [Pot(D("90"), ("1", "2"))],
                       {"1": parse_cards("Ks Qs 9c 9h"), "2": parse_cards("Ac 6d Jh Th")}, parse_cards("Kd Kh 4c 2h 3s"))
    assert split.awards == {"1": D("45"), "2": D("45")} and split.pots[0].low_winners == ("2",)
    # run twice: no low on run 1's board (two low cards), so its share goes whole to the high; run 2's is halved. The
    # settlement names each pot's high and low winners over both runs (the money path's test: tests/feed)
    hole = {"1": parse_cards("As 2s 9c 9d"), "2": parse_cards("Kd Kc Qs Js"), "3": parse_cards("Jh Jd 6c 6d")}
    runs = award_runs("omaha_hilo8", [Pot(D("54.03"), ("1", "2", "3")), Pot(D("59.98"), ("2", "3"))], hole,
                      [parse_cards("Kh 7s 3d Qc Jc"), parse_cards("Kh 7s 3d 5h Td")])
    assert [run.awards for run in runs.runs] == [{"2": D("57.01")}, {"1": D("13.50"), "2": D("43.50")}]
    assert [(r.high_winners, r.low_winners) for r in runs.runs[0].pots] == [(("2",), ()), (("2",), ())]
    assert [(r.high_winners, r.low_winners) for r in runs.pots] == [(("2",), ("1",)), (("2",), ())]
    assert runs.awards == {"1": D("13.50"), "2": D("100.51")}
    assert runs.hands == runs.runs[0].hands != runs.runs[1].hands  # the hands shown: the first run's
    # three runs (the third with no low: its share whole to the high); one board is not a hand run more than once
    thrice = award_runs("omaha_hilo8", [Pot(D("90"), ("1", "2"))], {"1": hole["1"], "2": hole["2"]},
                        [parse_cards("Kh 7s 3d Qc Jc"), parse_cards("Kh 7s 3d 5h Td"), parse_cards("Kh 7s 3d Ac Tc")])
    assert [run.awards for run in thrice.runs] == [{"2": D("30")}, {"1": D("15"), "2": D("15")}, {"2": D("30")}]
    with pytest.raises(CardCountError):
        award_runs("omaha_hilo8", [Pot(D("90"), ("1", "2"))], hole, [parse_cards("Kh 7s 3d Qc Jc")])


@pytest.mark.proves("14.11(g)-qualifier")
def test_14_11_g_a_nine_low_does_not_qualify_and_the_high_takes_the_pot():
    """14.11(g): a low hand qualifies only when eight or better. Seat 1's A-2 with the board's 3-4-9 is 9-4-3-2-A, no
    low: seat 2's kings, the best high, take the whole pot (seat 2 is the second seat eligible); with an eight where
    the nine was, 8-4-3-2-A qualifies and the pot is halved. A pot seat 3 alone is eligible for goes to it without a
    showdown, its cards unknown."""
    hands = {"1": parse_cards("As 2d Th Td"), "2": parse_cards("Ks Kd Qh Qs")}
    pots = [Pot(D("90"), ("1", "2")), Pot(D("20"), ("3",))]
    nine = award_pots("omaha_hilo8", pots, hands, parse_cards("3s 4h 9d Kc Jc"))
    assert nine.awards == {"2": D("90"), "3": D("20")}
    assert [(p.high_winners, p.low_winners) for p in nine.pots] == [(("2",), ()), (("3",), ())]
    assert nine.hands["1"].low is None and set(nine.hands) == {"1", "2"}
    eight = award_pots("omaha_hilo8", pots, hands, parse_cards("3s 4h 8d Kc Jc"))
    assert eight.awards == {"1": D("45"), "2": D("45"), "3": D("20")}
    assert [(p.high_winners, p.low_winners) for p in eight.pots] == [(("2",), ("1",)), (("3",), ())]


@pytest.mark.proves("14.11(f)2-split", "14.11(f)2-odd-to-high")
def test_14_11_f_2_i_odd_unit_to_the_high_half():
    result = award_pots("omaha_hilo8", [Pot(D("10.01"), ("1", "2"))],
                        {"1": parse_cards("Ks Kd Qc Qh"), "2": parse_cards("As 2d 9c 9h")}, parse_cards("3h 4h 8c Kc Jd"),
                        odd_chip=D("0.01"))
    assert result.pots[0].high_winners == ("1",) and result.pots[0].low_winners == ("2",)
    assert result.awards == {"1": D("5.01"), "2": D("5.00")}
    # in $1 units the odd unit and the cents below a unit go with the high half: $11.50 is $6.50 and $5
    dollars = award_pots("omaha_hilo8", [Pot(D("11.50"), ("1", "2"))],
                         {"1": parse_cards("Ks Kd Qc Qh"), "2": parse_cards("As 2d 9c 9h")},
                         parse_cards("3h 4h 8c Kc Jd"), odd_chip=D("1"))
    assert dollars.awards == {"1": D("6.50"), "2": D("5")}


def _cmp(a, b):
    return (a > b) - (a < b)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.proves("14.11(g)-qualifier")
def test_omaha_high_and_low_agree_with_pokerkit(seed):
    """Random deals: the order of the players' best Omaha high and eight-or-better low hands equals pokerkit's."""
    rng = random.Random(seed)
    for _ in range(300):
        deck = list(DECK)
        rng.shuffle(deck)
        board = [deck.pop() for _ in range(5)]
        holes = [[deck.pop() for _ in range(4)] for _ in range(3)]
        ours = [best_hands("omaha_hilo8", h, board) for h in holes]
        b, hs = format_cards(board).replace(" ", ""), [format_cards(h).replace(" ", "") for h in holes]
        theirs_high = [OmahaHoldemHand.from_game(h, b) for h in hs]
        for i in range(3):
            for j in range(3):
                assert _cmp(ours[i].high, ours[j].high) == _cmp(theirs_high[i], theirs_high[j])
        theirs_low = []
        for h in hs:
            try:
                theirs_low.append(OmahaEightOrBetterLowHand.from_game(h, b))
            except ValueError:
                theirs_low.append(None)
        assert [o.low is None for o in ours] == [t is None for t in theirs_low]
        made = [i for i in range(3) if ours[i].low is not None]
        for i in made:
            for j in made:
                # pokerkit's low hands order the other way: the better low is the "greater" hand there too
                assert _cmp(ours[i].low, ours[j].low) == _cmp(theirs_low[i], theirs_low[j])
