"""Game forms (N.J.A.C. 13:69F-14.9 to 14.13A), their clause examples, stud betting order and the command line."""
import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from apps.hands import CardCountError, LowCategory, Pot, RuleSetError, award_pots, best_hands, parse_cards
from apps.hands.__main__ import run
from apps.hands.stud import first_to_act, forced_bet

P = parse_cards
D = Decimal


@pytest.mark.proves("14.9(k)1", "14.9(k)-same-five")
def test_14_9_k_1_the_same_five_as_a_straight_and_a_high_ranking_low():
    """Seven-card stud high-low, with the eight-or-better qualifier and without: 2-3-4-5-6 is the high hand's
    straight and the same five cards are the six-low, each half ranked by its own rules."""
    for game in ("stud_hilo8", "stud_hilo"):
        hand = best_hands(game, P("2c 3d 4h 5s 6c Kd Kh"))
        assert hand.high.category.label == "Straight" and hand.low.category is LowCategory.SIX_LOW, game
        assert {str(c) for c in hand.low.cards} == {str(c) for c in hand.high.cards} == {"2c", "3d", "4h", "5s", "6c"}


@pytest.mark.proves("14.9(k)2", "14.9(k)-same-five")
@pytest.mark.parametrize("game", ["stud_hilo8", "stud_hilo"])
def test_14_9_k_2_a_flush_of_eight_or_less_is_also_a_high_ranking_low(game):
    """14.9(k)2, with the eight-or-better qualifier and without: the same five are a flush and an eight-low."""
    hand = best_hands(game, P("2h 4h 5h 7h 8h Kd Kc"))
    assert hand.high.category.label == "Flush" and hand.low.category is LowCategory.EIGHT_LOW
    assert set(hand.high.cards) == set(hand.low.cards) == set(P("2h 4h 5h 7h 8h"))


def test_14_9_l_the_ace_both_ways():
    hand = best_hands("stud_hilo", P("Ac Ad 2h 3s 4c 5d Kh"))
    assert hand.high.category.label == "Straight" and hand.low.category is LowCategory.FIVE_LOW


@pytest.mark.proves("14.9(j)-high-takes-all")
def test_14_9_j_no_eight_or_better_low_gives_the_whole_pot_to_the_high():
    """N.J.A.C. 13:69F-14.9(j): with no eight-or-better low, the best high takes the whole pot; a low that qualifies
    would have taken half of it. A pot only one seat is eligible for (a side pot nobody else matched) is that seat's,
    whatever the others hold, without a showdown: its cards need not be shown."""
    result = award_pots("stud_hilo8", [Pot(D("100"), ("1", "2"))],
                        {"1": P("Kc Kd Kh 9s 9c 2d 3h"), "2": P("Ac 2c 3s 4d 9h Th Jh")})
    assert result.awards == {"1": D("100")} and result.pots[0].low_winners == ()
    # the best high is the second seat eligible; the side pot is the first seat's alone
    side = award_pots("stud_hilo8", [Pot(D("100"), ("1", "2")), Pot(D("30"), ("1",))],
                      {"1": P("Ac 2c 3s 4d 9h Th Jh"), "2": P("Kc Kd Kh 9s 9c 2d 3h")})
    assert side.awards == {"2": D("100"), "1": D("30")}
    assert side.pots[1].high_winners == ("1",) and side.pots[1].awards == {"1": D("30")}
    uncontested = award_pots("stud_hilo8", [Pot(D("30"), ("3",))], {})  # no cards: nobody to show them to
    assert uncontested.awards == {"3": D("30")}
    # the contrast: an eight-or-better low takes half the pot
    split = award_pots("stud_hilo8", [Pot(D("100"), ("1", "2"))],
                       {"1": P("Kc Kd Kh 9s 9c Qd Jh"), "2": P("Ac 2c 3s 4d 8h Th Jh")})
    assert split.awards == {"1": D("50"), "2": D("50")} and split.pots[0].low_winners == ("2",)


@pytest.mark.proves("14.9(i)2")
def test_14_9_i_2_stud_low_the_best_low_takes_the_pot():
    result = award_pots("stud_low", [Pot(D("60"), ("1", "2"))],
                        {"1": P("Ac 2c 3s 4d 6h Th Jh"), "2": P("Ad 2d 3c 4s 7h Qh Kh")})
    assert result.awards == {"1": D("60")} and result.pots[0].low_winners == ("1",)
    # equal lows share it, the odd unit to the lowest low card by suit (the ace of clubs)
    tie = award_pots("stud_low", [Pot(D("61"), ("1", "2", "3"))], {"1": P("Ad 2c 3s 4d 6h Th Jh"),
                     "2": P("Ac 2d 3c 4s 6s Qh Kh"), "3": P("Ah 2h 3h 5d 7c 8s Qs")}, odd_chip=D("1"))
    assert tie.awards == {"1": D("30"), "2": D("31")} and tie.pots[0].low_winners == ("1", "2")
    cents = award_pots("stud_low", [Pot(D("60.05"), ("1", "2"))], {"1": P("Ad 2c 3s 4d 6h Th Jh"),
                       "2": P("Ac 2d 3c 4s 6s Qh Kh")})
    assert cents.awards == {"1": D("30.02"), "2": D("30.03")}
    # in $1 units, the cents below a unit go with the odd unit
    dollars = award_pots("stud_low", [Pot(D("61.50"), ("1", "2"))], {"1": P("Ad 2c 3s 4d 6h Th Jh"),
                         "2": P("Ac 2d 3c 4s 6s Qh Kh")}, odd_chip=D("1"))
    assert dollars.awards == {"1": D("30"), "2": D("31.50")}


@pytest.mark.proves("14.13A(l)1", "14.13A(l)-same-three")
def test_14_13a_l_1_two_three_four_is_a_straight_and_a_high_ranking_low():
    hand = best_hands("mambo_stud", P("2c 3d 4h"), P("Ks"))
    assert hand.high.category.label == "Straight" and hand.low.category is LowCategory.FOUR_LOW


@pytest.mark.proves("14.13A(l)2", "14.13A(l)-ace-both-ways")
def test_14_13a_l_2_suited_ace_four_five_is_a_flush_and_a_low():
    hand = best_hands("mambo_stud", P("Ah 4h 5h"), P("Kc"))
    assert hand.high.category.label == "Flush" and hand.low.category is LowCategory.FIVE_LOW


@pytest.mark.proves("14.13A(k)-six-or-better", "14.13A(k)-high-takes-all")
def test_14_13a_k_no_six_or_better_low_and_the_high_takes_all():
    assert best_hands("mambo_stud", P("7h 8h 9c"), P("Kc")).low is None
    result = award_pots("mambo_stud", [Pot(D("30"), ("1", "2"))], {"1": P("Kh Kd 9c"), "2": P("7d 8c Ts")}, P("2c"))
    assert result.awards == {"1": D("30")}
    # the best high the second seat eligible, a side pot the first seat's alone (no showdown: it need show nothing)
    side = award_pots("mambo_stud", [Pot(D("30"), ("1", "2")), Pot(D("10"), ("1",))],
                      {"1": P("7d 8c Ts"), "2": P("Kh Kd 9c")}, P("2c"))
    assert side.awards == {"2": D("30"), "1": D("10")} and side.pots[0].low_winners == ()
    assert award_pots("mambo_stud", [Pot(D("10"), ("3",))], {}, P("2c")).awards == {"3": D("10")}
    # the contrast: a six-or-better low takes half the pot
    split = award_pots("mambo_stud", [Pot(D("30"), ("1", "2"))], {"1": P("Kh Kd 9c"), "2": P("Ad 4c 6s")}, P("2c"))
    assert split.awards == {"1": D("15"), "2": D("15")} and split.pots[0].low_winners == ("2",)


@pytest.mark.proves("14.13A(j)-split", "14.13A(j)1")
def test_14_13a_j_mambo_split_with_the_odd_unit_to_the_high():
    """14.13A(j)1: a pot that cannot be divided equally gives the excess unit (here $1, at most $1.00) to the best
    high hand."""
    result = award_pots("mambo_stud", [Pot(D("11"), ("1", "2"))], {"1": P("Kh Kd 9c"), "2": P("Ad 4c 6s")}, P("2c"),
                        odd_chip=D("1"))
    assert result.awards == {"1": D("6"), "2": D("5")}
    # in cents the odd cent goes to the high; in $1 units the cents below a unit go with the high half
    cents = award_pots("mambo_stud", [Pot(D("11.05"), ("1", "2"))], {"1": P("Kh Kd 9c"), "2": P("Ad 4c 6s")}, P("2c"))
    assert cents.awards == {"1": D("5.53"), "2": D("5.52")}
    dollars = award_pots("mambo_stud", [Pot(D("11.50"), ("1", "2"))], {"1": P("Kh Kd 9c"), "2": P("Ad 4c 6s")},
                         P("2c"), odd_chip=D("1"))
    assert dollars.awards == {"1": D("6.50"), "2": D("5")}
    # halves shared between tied hands: the (j)2 and (j)3 tests below, which also prove (j)-split


@pytest.mark.parametrize(("game", "hole", "board", "label"), [
    ("five_card_stud", "Ac Ad Kh Ks 2c", "", "Two pairs"),
    ("draw_high", "2c 3c 4c 5c 6c", "", "Straight flush"),
    ("draw_low", "Ac 2d 3h 4s 6c", "", "Six-low"),
    ("triple_draw_27", "7c 5d 4h 3s 2c", "", "Seven-low"),
    ("badugi", "Ac 2d 3h 4s", "", "Badugi"),
    ("stud", "2c 3d 9h 9s 9c Kd Kh", "", "Full house"),
])
def test_each_game_form(game, hole, board, label):
    hand = best_hands(game, P(hole), P(board))
    assert (hand.high or hand.low).category.label == label


def test_a_rule_set_that_does_not_fit_the_game_is_a_typed_error():
    with pytest.raises(CardCountError):
        best_hands("omaha", P("As Kd"), P("2c 3d 4h 5s 6c"))
    with pytest.raises(CardCountError):
        best_hands("badugi", P("As Kd 2c 3d 4h"))
    with pytest.raises(RuleSetError):
        best_hands("pai_gow", P("As Kd"))


# --- stud betting order --------------------------------------------------------------------------------------

@pytest.mark.proves("14.9(d)-suit-ties", "14.9(d)1", "14.9(d)2", "14.9(d)3", "14.9(d)4", "14.13(d)")
def test_14_9_d_forced_bet_by_up_card_and_suit():
    """Who makes the forced bet in each stud game: 14.9(d)1-4, and 14.13(d) in five-card stud."""
    up = [("1", P("5h")[0]), ("2", P("2d")[0]), ("3", P("2s")[0]), ("4", P("Ac")[0])]
    assert forced_bet("stud", up) == "2"          # 14.9(d)1: lowest, the deuce of diamonds below spades
    assert forced_bet("stud_low", up) == "1"      # 14.9(d)2: highest, the ace low
    assert forced_bet("stud_hilo", up) == "1"     # 14.9(d)3: highest, an ace below a two
    ace_and_deuce = [("1", P("Ah")[0]), ("2", P("2c")[0])]
    assert forced_bet("stud_low", ace_and_deuce) == forced_bet("stud_hilo", ace_and_deuce) == "2"  # the ace lowest
    assert forced_bet("stud_hilo8", up) == "2"    # 14.9(d)4: lowest, the ace highest
    assert forced_bet("five_card_stud", up) == "2"  # 14.13(d)
    with pytest.raises(RuleSetError):
        forced_bet("holdem", up)


@pytest.mark.proves("14.9(f)1", "14.9(f)2", "14.9(f)3")
def test_14_9_f_best_hand_showing_acts_first_and_ties_go_to_the_dealers_left():
    showing = [("1", P("Ks Qd")), ("2", P("9c 9d")), ("3", P("9h 9s"))]
    assert first_to_act("stud", showing) == "2"
    assert first_to_act("stud_low", [("1", P("Ks Qd")), ("2", P("5c 3d")), ("3", P("5h 2s"))]) == "3"


@pytest.mark.proves("14.13A(f)-highest-up-card", "14.13A(f)-suit-ties", "14.13A(h)1")
def test_14_13a_f_and_h_mambo_first_to_act():
    """14.13A(f) the highest up-card, ties by suit; 14.13A(h)1 the up-card that pairs the community card first."""
    showing = [("1", P("Kd")), ("2", P("Ks")), ("3", P("4c"))]
    assert first_to_act("mambo_stud", showing) == "2"                 # (f): highest up-card, ties by suit
    assert first_to_act("mambo_stud", showing, community=P("4d")[0]) == "3"  # (h)1: a pair with the community card
    # no pair: the highest up-card, an up-card below the community card's rank making no pair
    assert first_to_act("mambo_stud", [("1", P("3c")), ("2", P("Ks"))], community=P("4d")[0]) == "2"


# --- the command line ------------------------------------------------------------------------------------------

def test_cli_answers_each_line_and_reports_bad_lines():
    lines = [json.dumps({"rules": "five_card_high", "hands": ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c", "Ad Kd Qd Jd Td"]}),
             "not json",
             json.dumps({"rules": "ace_to_five_low_8", "hands": ["As 2d 3c 4h 5s", "9c 4d 3h 2s Ac"]}),
             json.dumps({"game": "holdem", "board": "5h Jd Kc 5s Ts", "players": ["4d 8s", "Kd 5c"]}),
             json.dumps({"game": "holdem", "board": "5h Jd Kc 5s Ts", "players": ["4d 8s", "5h 5c"]})]
    answers = [json.loads(a) for a in run(lines)]
    assert answers[0] == {"categories": ["Royal flush", "High card", "Royal flush"], "order": [[0, 2], [1]]}
    assert "error" in answers[1]
    assert answers[2]["qualifies"] == [True, False]
    assert answers[3]["high_winners"] == [1] and answers[3]["players"][1]["high"]["category"] == "Full house"
    assert "Duplicate card '5h'" in answers[4]["error"]


def test_cli_runs_as_a_module():
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "apps.hands"], cwd=root, capture_output=True, text=True, timeout=60,
                          input=json.dumps({"game": "badugi", "players": ["As 2d 3h 4c", "As 2s 3h 4d"]}) + "\n")
    assert done.returncode == 0
    assert "Duplicate card 'As'" in done.stdout
    helped = subprocess.run([sys.executable, "-m", "apps.hands", "--help"], cwd=root, capture_output=True, text=True)
    assert "deuce_to_seven_low" in helped.stdout and "mambo_stud" in helped.stdout


def test_14_12a_l_single_draw_deuce_to_seven_ranks_as_triple_draw():
    """2-7 single draw: five-card draw (14.12) ranked as 14.12A(l) ranks the deuce-to-seven hand: the ace is high,
    straights and flushes count against the hand."""
    assert best_hands("single_draw_27", P("7c 5d 4h 3s 2c")).low.category.label == "Seven-low"
    wheel = best_hands("single_draw_27", P("Ac 2d 3h 4s 5c")).low
    assert wheel.category.label == "Ace-high"
    assert wheel < best_hands("single_draw_27", P("Kc 2d 3h 4s 6c")).low  # the ace counts high
    result = award_pots("single_draw_27", [Pot(D("40"), ("1", "2"))],
                        {"1": P("8c 6d 4h 3s 2c"), "2": P("7h 6h 5h 3h 2h")})  # a flush is no low in 2-7
    assert result.awards == {"1": D("40")} and result.pots[0].low_winners == ("1",)


@pytest.mark.proves("14.9(i)-best-five", "14.10(j)-best-hand", "14.11(f)-two-and-three")
def test_the_fast_pick_of_the_best_five_is_the_engines_own_choice():
    """Hold 'em, Omaha and seven-card stud pick the five that play with the table-driven scores; the hand and the
    cards shown are exactly those of ranking every five (14.10(j), 14.11(f), 14.9(i))."""
    import random
    from itertools import combinations

    from apps.hands import DECK, evaluate_five_card_high

    rng = random.Random(12)
    for _ in range(1500):
        deck = list(DECK)
        rng.shuffle(deck)
        hole, board = deck[:4], deck[4:9]
        for game, cards, fives in (
                ("holdem", (hole[:2], board), combinations((*hole[:2], *board), 5)),
                ("omaha", (hole, board), [(*t, *b) for t in combinations(hole, 2) for b in combinations(board, 3)]),
                ("stud", (deck[9:16], ()), combinations(deck[9:16], 5))):
            slow = max(evaluate_five_card_high(f) for f in fives)
            fast = best_hands(game, *cards).high
            assert fast == slow and fast.cards == slow.cards, (game, cards)


@pytest.mark.proves("14.9(i)-best-five")
def test_14_9_i_the_best_five_of_a_short_hand_or_with_a_common_card_and_for_low():
    """N.J.A.C. 13:69F-14.9(i): the hand is the best five of the seven cards dealt: of five or six when the hand is
    short, with a common card dealt when the deck runs short counted as each player's; for low, the best five for
    low (not the high hand's five). Other counts are refused."""
    assert best_hands("stud", P("Kc Kd Kh 2s 2c")).high.category.label == "Full house"
    assert best_hands("stud", P("Kc Kd Kh 2s 2c 9h")).high.category.label == "Full house"
    common = best_hands("stud", P("Kc Kd Kh 2s 2c 9h"), P("Ks")).high
    assert common.category.label == "Four of a kind" and {str(c) for c in common.cards} == {"Kc", "Kd", "Kh", "Ks", "9h"}
    low = best_hands("stud_low", P("Ac 2d 3h 4s 6c Kd Kh")).low
    assert low.category is LowCategory.SIX_LOW and {str(c) for c in low.cards} == {"Ac", "2d", "3h", "4s", "6c"}
    for hole, board in ((P("Kc Kd Kh 2s"), ()), (P("Kc Kd Kh 2s 2c 9h 9d 3c"), ()), (P("Kc Kd Kh 2s 2c"), P("9h 9d"))):
        with pytest.raises(CardCountError):
            best_hands("stud", hole, board)


# --- clause by clause: stud betting order, mambo settlement, Omaha high-low, badugi ties -----------------------------

@pytest.mark.proves("14.13(f)-highest-showing", "14.13(f)-ties-left")
def test_14_13_f_five_card_stud_best_hand_showing_bets_first_ties_to_the_dealers_left():
    """Five-card stud, 14.13(f): after the first betting round the best high hand showing bets first (a pair of
    fours over ace-king); of equal hands showing, the player closest to the dealer's left (the first seat given)."""
    assert first_to_act("five_card_stud", [("1", P("Ks Qd")), ("2", P("4c 4d")), ("3", P("Ah Kc"))]) == "2"
    assert first_to_act("five_card_stud", [("5", P("Jh 9c")), ("6", P("Js 9d")), ("7", P("Tc 8c"))]) == "5"
    assert first_to_act("five_card_stud", [("6", P("Js 9d")), ("5", P("Jh 9c"))]) == "6"  # seat order, not suit
    # the hand's rank first: three of a kind over two pair, the higher pair whatever the kicker; then the highest
    # card, however the cards are listed
    assert first_to_act("five_card_stud", [("1", P("9c 9d 4h 4s")), ("2", P("3c 3d 3h 2s"))]) == "2"
    assert first_to_act("five_card_stud", [("1", P("Ac 3c 3d")), ("2", P("Kc 5c 5d"))]) == "2"
    assert first_to_act("five_card_stud", [("1", P("3c Ad")), ("2", P("Kc Qd"))]) == "1"


@pytest.mark.proves("14.9(f)1", "14.9(f)2", "14.9(f)3")
def test_14_9_f_1_to_3_stud_first_to_act_high_low_and_ties():
    """Seven-card stud, 14.9(f)1: the best high hand showing bets or checks first (trips over two pair over a pair;
    four suited cards showing are no flush); 14.9(f)2: in seven-card stud low, the best low showing; 14.9(f)3: equal
    hands showing go to the player closest to the dealer's left."""
    assert first_to_act("stud", [("1", P("9c 9d 4h 4s")), ("2", P("3c 3d 3h 2s")), ("3", P("Ah Kh Qh Jh"))]) == "2"
    assert first_to_act("stud", [("1", P("Ah Kh Qh Jh")), ("2", P("2c 2d 5h 7s"))]) == "2"
    assert first_to_act("stud_low", [("1", P("Kc 2d")), ("2", P("6c 5d")), ("3", P("4h 4s"))]) == "2"
    assert first_to_act("stud_low", [("1", P("7c 3d")), ("2", P("7h 3s"))]) == "1"
    assert first_to_act("stud_low", [("1", P("2c 3d")), ("2", P("Ah 3s"))]) == "2"  # the ace lowest, below the deuce
    # unpaired beats paired however high, one pair beats two pair however high
    assert first_to_act("stud_low", [("1", P("9c 8d 7h 6s")), ("2", P("2c 2d 3h 4s"))]) == "1"
    assert first_to_act("stud_low", [("1", P("3c 3d 2h 2s")), ("2", P("Kc Kd Qh Js"))]) == "2"
    assert first_to_act("stud", [("4", P("Qs Jd")), ("2", P("Qc Jh"))]) == "4"
    assert first_to_act("stud", [("1", P("Ac Ad Kh Ks")), ("2", P("2c 2d 2h 3s"))]) == "2"  # three deuces: the count
    assert first_to_act("stud", [("1", P("3c 8d")), ("2", P("2c 9d"))]) == "2"  # nine high, however the cards are listed


@pytest.mark.proves("14.13A(d)-lowest-up-card", "14.13A(d)-suit-ties")
def test_14_13a_d_mambo_forced_bet_on_the_lowest_up_card_ties_by_suit():
    """Mambo stud, 14.13A(d): the lowest up-card (the ace high, 14.3(a)) makes the forced bet; of equal up-cards, the
    lowest suit (spades, hearts, diamonds, clubs from highest)."""
    up = [("1", P("5h")[0]), ("2", P("2d")[0]), ("3", P("2s")[0]), ("4", P("Ac")[0])]
    assert forced_bet("mambo_stud", up) == "2"
    assert forced_bet("mambo_stud", [("1", P("2h")[0]), ("2", P("2c")[0]), ("3", P("3c")[0])]) == "2"
    assert forced_bet("mambo_stud", [("1", P("Ac")[0]), ("2", P("Kd")[0])]) == "2"


@pytest.mark.proves("14.13A(h)1", "14.13A(h)2", "14.13A(f)-suit-ties")
def test_14_13a_h_2_final_round_ties_go_to_the_dealers_left():
    """Mambo stud, final round: 14.13A(h)1, the highest pair of an up-card with the community card (a pair of nines
    over a lone ace), else the highest up-card; 14.13A(h)2, equal pairs or up-cards go to the player closest to the
    dealer's left (not to the higher suit, as in the round before, 14.13A(f))."""
    nine = P("9h")[0]
    assert first_to_act("mambo_stud", [("1", P("As")), ("2", P("9d")), ("3", P("9c"))], community=nine) == "2"
    assert first_to_act("mambo_stud", [("1", P("As")), ("3", P("9c")), ("2", P("9d"))], community=nine) == "3"
    assert first_to_act("mambo_stud", [("1", P("Kd")), ("2", P("Ks")), ("3", P("4c"))], community=nine) == "1"
    assert first_to_act("mambo_stud", [("1", P("Kd")), ("2", P("Ks")), ("3", P("4c"))]) == "2"  # (f): by suit


@pytest.mark.proves("14.13A(j)-split", "14.13A(j)2", "14.13A(j)4")
def test_14_13a_j_2_and_4_tied_highs_share_the_high_half_the_excess_to_the_highest_card_by_suit():
    """Mambo stud, 14.13A(j)2: tied high hands share the high half; the excess unit goes to the highest high card by
    suit, spades first (14.13A(j)4). A $21 pot, $1 units: $10 low half to the six-or-better low, $11 high half
    split $5 and $6, the $1 excess to the king of spades."""
    hands = {"1": P("Kh Kd 9c"), "2": P("Ks Kc 9d"), "3": P("Ad 4h 6c")}
    result = award_pots("mambo_stud", [Pot(D("21"), ("1", "2", "3"))], hands, P("2c"), odd_chip=D("1"))
    assert result.pots[0].high_winners == ("1", "2") and result.pots[0].low_winners == ("3",)
    assert result.awards == {"1": D("5"), "2": D("6"), "3": D("10")}
    # in cents: the $10.53 high half shared, its odd cent to the king of spades; in $1 units with cents, $11.50
    assert award_pots("mambo_stud", [Pot(D("21.05"), ("1", "2", "3"))], hands, P("2c")).awards == {
        "1": D("5.26"), "2": D("5.27"), "3": D("10.52")}
    assert award_pots("mambo_stud", [Pot(D("21.50"), ("1", "2", "3"))], hands, P("2c"), odd_chip=D("1")).awards == {
        "1": D("5"), "2": D("6.50"), "3": D("10")}


@pytest.mark.proves("14.13A(j)-split", "14.13A(j)3", "14.13A(j)4")
def test_14_13a_j_3_and_4_tied_lows_share_the_low_half_the_excess_to_the_lowest_low_card_by_suit():
    """Mambo stud, 14.13A(j)3: tied lows share the low half; the excess unit goes to the lowest low card by suit,
    clubs lowest (14.13A(j)4). A $23 pot: $12 high half; the $11 low half split $6 to the ace of clubs, $5."""
    hands = {"1": P("Kh Kd 9c"), "2": P("Ad 4h 9s"), "3": P("Ac 4s Ts")}
    result = award_pots("mambo_stud", [Pot(D("23"), ("1", "2", "3"))], hands, P("2c"), odd_chip=D("1"))
    assert result.pots[0].high_winners == ("1",) and set(result.pots[0].low_winners) == {"2", "3"}
    assert result.awards == {"1": D("12"), "2": D("5"), "3": D("6")}
    # in cents: the $10.53 low half shared, its odd cent to the ace of clubs; in $1 units the cents go with the high
    assert award_pots("mambo_stud", [Pot(D("21.07"), ("1", "2", "3"))], hands, P("2c")).awards == {
        "1": D("10.54"), "2": D("5.26"), "3": D("5.27")}
    assert award_pots("mambo_stud", [Pot(D("23.50"), ("1", "2", "3"))], hands, P("2c"), odd_chip=D("1")).awards == {
        "1": D("12.50"), "2": D("5"), "3": D("6")}


@pytest.mark.proves("14.11(h)1", "14.11(f)-two-and-three")
def test_14_11_h_1_two_different_fives_each_with_two_hole_and_three_board_cards():
    """Omaha high-low, 14.11(h)1: a player may form two different hands for the high and the low, each of exactly two
    hole cards and three board cards (14.11(f)): three kings with K-K, and an 8-7-3-2-A low with A-2; the player
    takes both halves of the pot."""
    hole, board = P("As 2d Kh Kc"), P("Ks 3c 7h 8d Qd")
    hand = best_hands("omaha_hilo8", hole, board)
    assert hand.high.category.label == "Three of a kind" and hand.low.category is LowCategory.EIGHT_LOW
    assert set(hand.high.cards) != set(hand.low.cards)
    for five in (hand.high.cards, hand.low.cards):
        assert len(set(five) & set(hole)) == 2 and len(set(five) & set(board)) == 3
    result = award_pots("omaha_hilo8", [Pot(D("40"), ("1", "2"))], {"1": hole, "2": P("Qh Qc 9s 9h")}, board)
    assert result.pots[0].high_winners == result.pots[0].low_winners == ("1",)
    assert result.awards == {"1": D("40")}
    # the same hole cards with a nine among the board's lowest three: 9-7-3-2-A is no eight-or-better low
    assert best_hands("omaha_hilo8", hole, P("Ks 3c 7h 9d Qd")).low is None


@pytest.mark.proves("14.12(h)2", "14.12A(l)")
@pytest.mark.parametrize(("game", "low", "tied", "beaten"), [
    ("draw_low", "Ac 2d 3h 4s 6c", "Ad 2c 3s 4d 6h", "Ah 2h 3c 5d 7s"),
    ("triple_draw_27", "7c 5d 4h 3s 2c", "7d 5c 4s 3h 2d", "8c 6d 4c 3d 2h"),
    ("single_draw_27", "7c 5d 4h 3s 2c", "7d 5c 4s 3h 2d", "8c 6d 4c 3d 2h"),
])
def test_14_12_h_2_and_14_12a_l_the_best_low_takes_the_pot_equal_lows_share_it(game, low, tied, beaten):
    """14.12(h)2 (draw low) and 14.12A(l) (deuce-to-seven): the player with the best five-card low takes the pot;
    players holding equal lows share it, the odd cent (or, in $1 units, the odd unit and the cents below it) to the
    lowest card by suit, clubs lowest; a beaten low takes nothing."""
    hands = {"1": P(low), "2": P(tied), "3": P(beaten)}
    assert award_pots(game, [Pot(D("60"), ("1", "3"))], hands).awards == {"1": D("60")}
    result = award_pots(game, [Pot(D("60.05"), ("1", "2", "3"))], hands)
    assert result.pots[0].low_winners == ("1", "2") and result.awards == {"1": D("30.03"), "2": D("30.02")}
    dollars = award_pots(game, [Pot(D("61.50"), ("1", "2", "3"))], hands, odd_chip=D("1"))
    assert dollars.awards == {"1": D("31.50"), "2": D("30")}


@pytest.mark.proves("14.12B(l)5")
def test_14_12b_l_5_a_badugi_tie_splits_the_pot_evenly():
    """Badugi, 14.12B(l)5: players tied at the end of the round of play split the pot evenly (odd cents by the
    engine's odd-chip rule)."""
    result = award_pots("badugi", [Pot(D("40"), ("1", "2", "3"))],
                        {"1": P("As 2d 3h 4c"), "2": P("Ac 2h 3s 4d"), "3": P("Kd 5s 6h 7c")})
    assert result.pots[0].low_winners == ("1", "2") and result.pots[0].high_winners == ()
    assert result.awards == {"1": D("20"), "2": D("20")}
    odd = award_pots("badugi", [Pot(D("40.01"), ("1", "2", "3"))],
                     {"1": P("As 2d 3h 4c"), "2": P("Ac 2h 3s 4d"), "3": P("Kd 5s 6h 7c")})
    assert odd.awards == {"1": D("20.00"), "2": D("20.01")}  # the odd cent to the ace of clubs, the lowest low card
    three = award_pots("badugi", [Pot(D("10.00"), ("1", "2", "3"))],
                       {"1": P("As 2d 3h 4c"), "2": P("Ac 2h 3s 4d"), "3": P("Ad 2s 3c 4h")})
    assert three.awards == {"1": D("3.33"), "2": D("3.34"), "3": D("3.33")} and sum(three.awards.values()) == D("10")
    # in $1 chips (the table's smallest), the cents below a chip go with the odd chip, to the lowest low card
    chips = award_pots("badugi", [Pot(D("41.50"), ("1", "2"))], {"1": P("As 2d 3h 4c"), "2": P("Ac 2h 3s 4d")},
                       odd_chip=D("1"))
    assert chips.awards == {"1": D("20"), "2": D("21.50")}


@pytest.mark.parametrize("game", ["draw_high", "draw_low", "single_draw_27", "triple_draw_27"])
@pytest.mark.proves("14.12(d)-five-cards")
def test_14_12_d_a_draw_hand_is_five_cards(game):
    """14.12(d): each player of five-card draw (and of the draw games dealt like it) is dealt five cards, and holds
    five after drawing: a hand of four or six cards is refused with a typed error, five are ranked."""
    assert best_hands(game, P("Ac 2d 3h 4s 6c")) is not None
    for cards in ("Ac 2d 3h 4s", "Ac 2d 3h 4s 6c 8d"):
        with pytest.raises(CardCountError):
            best_hands(game, P(cards))
