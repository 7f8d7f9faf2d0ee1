"""A hand run two or three times: the boards (one deck deals every run), each pot split into one share per run, each
share awarded on its run's board with its own odd chips (N.J.A.C. 13:69F-14.7(c)4, 14.9(i)3, 14.10(j), 14.11(f)2).
Every share below is worked by hand."""
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.hands import (
    DECK,
    Card,
    CardCountError,
    DuplicateCardError,
    Pot,
    RuleSetError,
    award_runs,
    build_pots,
    parse_cards,
    settle,
    split_runs,
    verify_run_boards,
)

D = Decimal
C = parse_cards


def test_14_9_i_2_a_pots_shares_per_run_give_the_odd_chip_to_the_first_run():
    """14.9(i)3, 14.11(f)2.i: the engine gives what does not divide evenly to the first in precedence (the high half
    of a split pot); a pot run more than once gives it to the first run."""
    assert split_runs(D("75.03"), 2) == (D("37.52"), D("37.51"))
    assert split_runs(D("100.00"), 3) == (D("33.34"), D("33.33"), D("33.33"))
    assert split_runs(D("100.01"), 3) == (D("33.35"), D("33.33"), D("33.33"))  # both odd cents to the first run
    assert split_runs(D("7"), 2, odd_chip=D("1")) == (D("4"), D("3"))


# seat 1 all in for $25.01 with aces; seats 2 and 3 put in $60.00 each; all in on the flop Tc Jd Qh, run twice
HOLE = {"1": C("As Ad"), "2": C("Kh Kc"), "3": C("Ks 9s")}
RUN_1 = C("Tc Jd Qh 2s 3d")  # seat 3's king-high straight wins both pots
RUN_2 = C("Tc Jd Qh 9c 8d")  # seats 2 and 3 tie with king-high straights; seat 1 plays the board's queen-high straight


def test_14_7_c_4_a_side_pot_run_twice_with_odd_chips_in_each_run():
    """14.7(c)4, 14.10(j), 14.9(i)3.iv. Main pot 3 x $25.01 = $75.03 (seats 1-3), side pot 2 x $34.99 = $69.98 (seats
    2, 3). Each is split per run: main $37.52 (run 1, the odd cent) and $37.51; side $34.99 and $34.99.
    Run 1: seat 3 takes $37.52 + $34.99. Run 2: seats 2 and 3 tie for both shares; each splits with its odd cent to
    seat 3, who holds the highest card by suit (the king of spades): main $18.76 / $18.75, side $17.50 / $17.49.
    Seat 2: $18.75 + $17.49 = $36.24; seat 3: $37.52 + $34.99 + $18.76 + $17.50 = $108.77; together $145.01."""
    build = build_pots({"1": D("25.01"), "2": D("60.00"), "3": D("60.00")})
    assert [(p.amount, p.eligible) for p in build.pots] == [(D("75.03"), ("1", "2", "3")), (D("69.98"), ("2", "3"))]
    result = award_runs("holdem", build.pots, HOLE, [RUN_1, RUN_2])
    run_1, run_2 = result.runs
    assert [p.pot.amount for p in run_1.pots] == [D("37.52"), D("34.99")]
    assert [p.pot.amount for p in run_2.pots] == [D("37.51"), D("34.99")]
    assert [p.awards for p in run_1.pots] == [{"3": D("37.52")}, {"3": D("34.99")}]
    assert [p.awards for p in run_2.pots] == [{"2": D("18.75"), "3": D("18.76")}, {"2": D("17.49"), "3": D("17.50")}]
    assert result.awards == {"3": D("108.77"), "2": D("36.24")}
    assert [p.awards for p in result.pots] == [{"3": D("56.28"), "2": D("18.75")}, {"3": D("52.49"), "2": D("17.49")}]
    assert result.pots[0].high_winners == ("3", "2")
    assert sum(result.awards.values()) == D("145.01")


def test_14_7_c_4_a_hand_run_three_times_from_before_the_flop():
    """Heads up, all in before the flop for $50.00 each; run three times: $100.00 in shares of $33.34 (the odd cent to
    run 1), $33.33, $33.33. Aces win runs 1 and 3, kings (a set on run 2's king) run 2: $66.67 and $33.33."""
    boards = [C("2c 7d 9h 3s 4c"), C("Ks 8d 5h 6c Jd"), C("Qc Td 8s 2d 3h")]
    hole = {"1": C("As Ah"), "2": C("Kd Kc")}
    assert verify_run_boards(boards, *hole.values()) == 0
    result = settle("holdem", {"1": D("50.00"), "2": D("50.00")}, hole, boards=boards)
    assert [run.awards for run in result.runs] == [{"1": D("33.34")}, {"2": D("33.33")}, {"1": D("33.33")}]
    assert result.awards == {"1": D("66.67"), "2": D("33.33")}


@pytest.mark.proves("14.11(f)2-split", "14.11(f)2-odd-to-high")
def test_14_11_f_2_each_runs_share_splits_high_and_low_with_its_own_odd_chip():
    """Omaha high-low eight or better run twice, 14.11(f)2.i: each run's share is halved between high and low, the
    odd cent to the high. Pot $10.03: shares $5.02 and $5.01. Run 1: seat 1's flush takes the high half $2.51, seat 2's
    six-low the low half $2.51 (units 502: low 251, high the rest). Run 2: no low (two cards of eight or below on the
    board, 14.11(g)), seat 1's full house scoops $5.01. Seat 1 $7.52, seat 2 $2.51."""
    hole = {"1": C("Ah Kh Qc Jc"), "2": C("2d 3s 9c Tc")}
    boards = [C("4h 5h Kd 6c 8h"), C("4h 5h Kd Ks Qd")]
    assert verify_run_boards(boards, *hole.values()) == 3
    result = award_runs("omaha_hilo8", [Pot(D("10.03"), ("1", "2"))], hole, boards)
    run_1, run_2 = result.runs
    assert run_1.awards == {"1": D("2.51"), "2": D("2.51")}
    assert run_1.pots[0].high_winners == ("1",) and run_1.pots[0].low_winners == ("2",)
    assert run_2.awards == {"1": D("5.01")} and run_2.pots[0].low_winners == ()
    assert result.awards == {"1": D("7.52"), "2": D("2.51")}


@pytest.mark.proves("14.2(a)-one-deck")
@pytest.mark.parametrize(("boards", "error", "words"), [
    ([C("Tc Jd Qh 2s 3d")], CardCountError, "two or three"),
    ([C("Tc Jd Qh 2s"), C("Tc Jd Qh 9c 8d")], CardCountError, "5 cards"),
    ([C("Tc Jd 2h 2s 3d"), C("Tc Jd Qh 9c 8d")], RuleSetError, "share 2"),  # a flop is dealt whole
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 2s 3d")], RuleSetError, "share 5"),  # the runs differ after the all-in
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 3d 2s")], DuplicateCardError, "Duplicate"),  # the same cards, in another order
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh As 8d")], DuplicateCardError, "As"),  # a player's hole card
])
def test_14_2_a_one_deck_deals_every_run(boards, error, words):
    """14.2(a): one deck deals every run: the runs share the cards dealt before the all-in and no card appears twice
    across the hole cards, the shared cards and each run's own."""
    with pytest.raises(error, match=words):
        verify_run_boards(boards, *HOLE.values())


@pytest.mark.proves("14.2(a)-one-deck")
@pytest.mark.parametrize(("boards", "shared"), [
    ([C("2c 7d 9h 3s 4c"), C("Js 8d 5h 6c Jd")], 0),  # all in before the flop
    ([C("2c 7d 9h 3s 4c"), C("Js 8d 5h 6c Jd"), C("Qc Td 8s 2d 3h")], 0),
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 9c 8d")], 3),  # all in on the flop
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 9c 8d"), C("Tc Jd Qh 4c 5h")], 3),
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 2s 8d")], 4),  # all in on the turn
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 2s 8d"), C("Tc Jd Qh 2s 7h")], 4),
])
def test_14_2_a_runs_dealt_from_one_deck_are_accepted(boards, shared):
    """14.2(a): runs that share the cards dealt before the all-in, each dealing its own cards after them from the same
    deck as the hole cards, are accepted; the number of cards they share is the cards dealt before the all-in."""
    assert verify_run_boards(boards, *HOLE.values()) == shared


@pytest.mark.proves("14.2(a)-one-deck")
def test_14_2_a_the_same_card_is_the_same_card_however_it_was_made():
    """Cards are compared by rank and suit, not as objects: a board whose cards were built apart from the parsed deck
    shares its flop with the other run, and repeats a card of it as a duplicate."""
    built = tuple(Card(card.rank, card.suit) for card in C("Tc Jd Qh 2s 3d"))
    assert built == C("Tc Jd Qh 2s 3d") and built[0] is not C("Tc")[0]
    assert verify_run_boards([built, C("Tc Jd Qh 9c 8d")], *HOLE.values()) == 3
    with pytest.raises(DuplicateCardError, match="'2s'"):
        verify_run_boards([built, C("Tc Jd Qh 9c 2s")], *HOLE.values())


@pytest.mark.proves("14.2(a)-one-deck")
@pytest.mark.parametrize(("boards", "words"), [
    ([C("Tc Jd Qh 2s 3d")] * 4, "not 4"),  # at most three runs
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 9c 8d"), C("Tc Jd Qh 4c")], "Run 3: a run's board has 5 cards, got 4"),
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 9c"), C("Tc Jd Qh 4c 5h")], "Run 2: a run's board has 5 cards, got 4"),
    ([C("Tc Jd Qh 2s 3d 4d"), C("Tc Jd Qh 9c 8d")], "Run 1: a run's board has 5 cards, got 6"),
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 9c 8d"), C("Tc Jd Qh 9c 5d")], "Duplicate card '9c'"),  # runs 2 and 3
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 9c 8d"), C("Tc Jd Qh 4c Kh")], "Duplicate card 'Kh'"),  # seat 2's hole card
    ([C("Tc Jd Qh 2s 3d"), C("Tc Jd Qh 9c 3d")], "Duplicate card '3d'"),  # each run's last card its own
    ([C("Tc Jd Qh 2s 3d"), C("9c Jd Qh 2s 3d")], "Duplicate card .Jd."),  # sharing nothing, the runs differ in all
])
def test_14_2_a_more_runs_short_boards_or_a_card_dealt_twice_are_refused(boards, words):
    with pytest.raises((CardCountError, RuleSetError, DuplicateCardError), match=words):
        verify_run_boards(boards, *HOLE.values())


@given(st.lists(st.integers(min_value=0, max_value=40_000), min_size=2, max_size=6), st.sampled_from([2, 3]),
       st.randoms(use_true_random=False))
def test_every_chip_of_every_pot_is_awarded_across_the_runs(amounts, runs, rng):
    """14.7(c)4: awards over the runs add up to the pots, to the cent; each run's shares to its pots' shares."""
    seats = [str(i + 1) for i in range(len(amounts))]
    deck = list(DECK)
    rng.shuffle(deck)
    hole = {s: (deck.pop(), deck.pop()) for s in seats}
    shared = rng.choice([0, 3, 4])
    common = [deck.pop() for _ in range(shared)]
    boards = [(*common, *(deck.pop() for _ in range(5 - shared))) for _ in range(runs)]
    build = build_pots({s: D(a) / 100 for s, a in zip(seats, amounts, strict=True)})
    if not build.pots:
        return
    result = award_runs("holdem", build.pots, hole, boards)
    assert sum(result.awards.values()) == sum(p.amount for p in build.pots)
    for index, pot in enumerate(build.pots):
        assert sum(run.pots[index].pot.amount for run in result.runs) == pot.amount
        assert sum(result.pots[index].awards.values()) == pot.amount
