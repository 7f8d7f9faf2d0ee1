"""Straddles, bomb pots, hands run two or three times and dead blinds along the money path (JSON): verified against
the game as posted, settled in the regulation's order, every pot hand-worked; pokerkit (a test-only reference)
replays the straddled pot and the bomb pot."""
import warnings
from decimal import Decimal

import pytest
from django.utils import timezone
from pokerkit import HandHistory

from apps.core.exceptions import DomainError
from apps.feed.services import PlayerIn, RoundIn, record_batch_of_rounds, record_round_of_play
from apps.rake.models import RakeRecord
from apps.rounds.models import Pot, PotAward, RoundOfPlay
from apps.tables.models import StraddleOption
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory

D = Decimal
pytestmark = pytest.mark.django_db


def round_in(players, board="", **kwargs):
    return RoundIn(players=players, board=board, started_at=timezone.now(), **kwargs)


def conserved(round_of_play: RoundOfPlay) -> None:
    """What the players put in = returned + awarded + rake + bad beat contribution, to the cent (14.7(c)4)."""
    put_in = sum(p.contributed for p in round_of_play.players.all())
    returned = sum(p.returned for p in round_of_play.players.all())
    awarded = sum(a.amount for a in PotAward.objects.filter(pot__round_of_play=round_of_play))
    rake = sum(r.amount for r in RakeRecord.objects.filter(round_of_play=round_of_play))
    contribution = sum(c.amount for c in round_of_play.bad_beat_contributions.all())
    assert put_in == returned + awarded + rake + contribution


def awarded(round_of_play: RoundOfPlay) -> dict[int, Decimal]:
    return {p.seat: p.awarded for p in round_of_play.players.all() if p.awarded}


def pokerkit_stacks(**raw) -> list[Decimal]:
    """pokerkit's final stacks of a hand (its replay of the PHH fields)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = None
        for state in HandHistory(**raw):  # noqa: B007 - the last state
            pass
    return [D(str(stack)) for stack in state.stacks]


def our_stacks(round_of_play: RoundOfPlay, start: Decimal) -> list[Decimal]:
    return [start - p.contributed + p.returned + p.awarded for p in round_of_play.players.order_by("seat")]


# --- straddles -------------------------------------------------------------------------------------------------

def straddle_table(**posted):
    return PokerTableFactory(straddles=posted.pop("straddles", StraddleOption.UNDER_THE_GUN),
                             maximum_straddles=posted.pop("maximum_straddles", 2), **posted)


#: Five players, blinds $1/$2, the button at seat 5: seat 3 is under the gun and straddles $4. Seat 4 calls, seats 5
#: and 1 fold, the big blind calls $2 more; flop 2c 7d 9h: seat 3 bets $10, seat 4 calls, the big blind folds; turn 3s:
#: seat 3 bets $20, seat 4 calls; river 4c: both check; seat 3's aces beat seat 4's kings.
STRADDLED = [PlayerIn(seat=1, contributed=D("1.00"), folded=True, streets=(D("1.00"),)),
             PlayerIn(seat=2, contributed=D("4.00"), folded=True, streets=(D("4.00"), D("0.00"))),
             PlayerIn(seat=3, contributed=D("34.00"), hole_cards="As Ah", straddle=D("4.00"),
                      streets=(D("4.00"), D("10.00"), D("20.00"), D("0.00"))),
             PlayerIn(seat=4, contributed=D("34.00"), hole_cards="Kd Kc",
                      streets=(D("4.00"), D("10.00"), D("20.00"), D("0.00"))),
             PlayerIn(seat=5, contributed=D("0.00"), folded=True)]
STRADDLED_PHH = dict(variant="NT", ante_trimming_status=True, antes=[0] * 5, blinds_or_straddles=[1, 2, 4, 0, 0],
                     min_bet=2, starting_stacks=[200] * 5, actions=[
                         "d dh p1 7c2d", "d dh p2 8s3h", "d dh p3 AsAh", "d dh p4 KdKc", "d dh p5 Qs4s",
                         "p4 cc", "p5 f", "p1 f", "p2 cc", "p3 cc", "d db 2c7d9h", "p2 cc", "p3 cbr 10", "p4 cc",
                         "p2 f", "d db 3s", "p3 cbr 20", "p4 cc", "d db 4c", "p3 cc", "p4 cc", "p3 sm AsAh",
                         "p4 sm KdKc"])


def test_14_17_a_straddle_is_a_live_blind_and_the_pot_is_as_pokerkit_plays_it():
    """14.17 (the straddles the game posts), 14.7(c)4: a straddle is a live bet. The pot: $1 + $4 + $34 + $34 = $73.00,
    seats 3 and 4 eligible, all to seat 3; no uncalled bet. pokerkit plays the same hand with blinds_or_straddles
    [1, 2, 4] and leaves every stack where we do. The round records its straddle."""
    table = straddle_table()
    round_of_play = record_round_of_play(table=table, round_in=round_in(STRADDLED, board="2c 7d 9h 3s 4c", button=5))
    (pot,) = Pot.objects.filter(round_of_play=round_of_play)
    assert (pot.gross, pot.eligible_seats) == (D("73.00"), [3, 4])
    assert round_of_play.uncalled_amount == D("0.00")
    assert awarded(round_of_play) == {3: D("73.00")}
    assert our_stacks(round_of_play, D("200")) == pokerkit_stacks(**STRADDLED_PHH) == [
        D("199"), D("196"), D("239"), D("166"), D("200")]
    assert round_of_play.straddles == 1 and round_of_play.button == 5
    assert round_of_play.players.get(seat=3).straddle == D("4.00")
    assert round_of_play.betting_rounds == ["13.00", "20.00", "40.00", "0.00"]


def test_14_14_d_a_straddle_nobody_calls_is_matched_by_the_big_blind_and_the_rest_returned():
    """14.14(d): everyone folds to the $4 straddle: the big blind's $2 matched it, the other $2 is the uncalled bet
    given back; seat 3 wins the $5 pot (pokerkit: the straddler ends $3 up)."""
    table = straddle_table()
    players = [PlayerIn(seat=1, contributed=D("1.00"), folded=True), PlayerIn(seat=2, contributed=D("2.00"), folded=True),
               PlayerIn(seat=3, contributed=D("4.00"), straddle=D("4.00")),
               PlayerIn(seat=4, contributed=D("0.00"), folded=True), PlayerIn(seat=5, contributed=D("0.00"), folded=True)]
    round_of_play = record_round_of_play(table=table, round_in=round_in(players, button=5))
    assert round_of_play.uncalled_amount == D("2.00") and awarded(round_of_play) == {3: D("5.00")}
    fold = STRADDLED_PHH | {"actions": STRADDLED_PHH["actions"][:5] + ["p4 f", "p5 f", "p1 f", "p2 f"]}
    assert our_stacks(round_of_play, D("200")) == pokerkit_stacks(**fold)


@pytest.mark.parametrize(("posted", "players", "button", "field", "words"), [
    # no straddle posted: refused
    ({"straddles": StraddleOption.NONE}, {2: D("4.00")}, 5, "players[2].straddle", "allows no straddle"),
    # under the gun: seat 4 may re-straddle only after seat 3
    ({}, {3: D("4.00")}, 5, "players[3].straddle", "under the gun (seat 3)"),
    # under the gun, one straddle at most: seat 4's re-straddle is one too many
    ({"maximum_straddles": 1}, {2: D("4.00"), 3: D("8.00")}, 5, "players[3].straddle", "At most 1 straddle"),
    # a blind does not straddle on the button: the button at seat 1 is no blind with five players, seat 2 is
    ({"straddles": StraddleOption.BUTTON, "maximum_straddles": 1}, {1: D("4.00")}, 1, "players[1].straddle",
     "on the button (seat 1)"),
    # under the gun needs the button to place it
    ({}, {2: D("4.00")}, None, "button", "seat of the button"),
    # a straddle is at least twice the big blind
    ({}, {2: D("3.00")}, 5, "players[2].straddle", "at least twice"),
    # from any seat, but not from the blinds
    ({"straddles": StraddleOption.ANY_SEAT}, {0: D("4.00")}, 5, "players[0].straddle", "any seat but the blinds"),
])
def test_14_17_a_straddle_the_game_does_not_post_is_refused(posted, players, button, field, words):
    """14.17: a round's straddles must be those the game posts (where, how many); refused naming the player's
    straddle, and nothing is written."""
    table = straddle_table(**posted)
    seats = [PlayerIn(seat=seat, contributed=D("8.00") + players.get(seat - 1, D("0.00")),
                      straddle=players.get(seat - 1, D("0.00")), hole_cards=cards)
             for seat, cards in zip(range(1, 6), ["7c 2d", "8s 3h", "As Ah", "Kd Kc", "Qs 4s"], strict=True)]
    with pytest.raises(DomainError) as refused:
        record_round_of_play(table=table, round_in=round_in(seats, board="2c 7d 9h 3s 4c", button=button))
    assert refused.value.field == field and words in refused.value.message
    assert not RoundOfPlay.objects.exists()


def test_14_17_a_straddle_from_any_seat_and_a_re_straddle_under_the_gun_are_taken():
    """14.17: under the gun with two straddles posted, seat 3 straddles $4 and seat 4 re-straddles $8; from any seat,
    without the button, a $4 straddle of seat 5 is taken."""
    players = [PlayerIn(seat=seat, contributed=D("8.00"), hole_cards=cards, straddle=straddle)
               for seat, cards, straddle in [(1, "7c 2d", D("0")), (2, "8s 3h", D("0")), (3, "As Ah", D("4.00")),
                                             (4, "Kd Kc", D("8.00")), (5, "Qs 4s", D("0"))]]
    first = record_round_of_play(table=straddle_table(), round_in=round_in(players, board="2c 7d 9h 3s 4c", button=5))
    assert first.straddles == 2
    anywhere = [PlayerIn(seat=p.seat, contributed=p.contributed, hole_cards=p.hole_cards,
                         straddle=D("4.00") if p.seat == 5 else D("0")) for p in players]
    second = record_round_of_play(table=straddle_table(straddles=StraddleOption.ANY_SEAT),
                                  round_in=round_in(anywhere, board="2c 7d 9h 3s 4c"))
    assert second.straddles == 1 and second.button is None


# --- bomb pots -------------------------------------------------------------------------------------------------

ANTES = (D("5.00"),) * 4


def bomb_players(first_streets=ANTES):
    """Four players ante $5 each, no betting before the flop 2c 7d 9h; seat 1 bets $10, seat 2 calls, seats 3 and 4
    fold; turn and river checked; seat 1's aces beat seat 2's kings."""
    cards = ["As Ah", "Kd Kc", "7c 2d", "8s 3h"]
    more = [(D("10.00"), D("0.00"), D("0.00")), (D("10.00"), D("0.00"), D("0.00")), (D("0.00"),), (D("0.00"),)]
    return [PlayerIn(seat=seat, contributed=first + sum(rest, D("0")), hole_cards=cards[seat - 1],
                     folded=seat > 2, streets=(first, *rest))
            for seat, first, rest in zip(range(1, 5), first_streets, more, strict=True)]


BOMB_PHH = dict(variant="NT", ante_trimming_status=False, antes=[5] * 4, blinds_or_straddles=[0] * 4, min_bet=2,
                starting_stacks=[200] * 4, actions=[
                    "d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 7c2d", "d dh p4 8s3h", "p1 cc", "p2 cc", "p3 cc", "p4 cc",
                    "d db 2c7d9h", "p1 cbr 10", "p2 cc", "p3 f", "p4 f", "d db 3s", "p1 cc", "p2 cc", "d db 4c",
                    "p1 cc", "p2 cc", "p1 sm AsAh", "p2 sm KdKc"])


def test_14_17_a_bomb_pot_is_settled_as_pokerkit_plays_antes_without_blinds():
    """14.17 (the posted bomb-pot ante), 14.7(c)4, 14.14: every player antes $5, no betting before the flop. The pot:
    4 x $5 + 2 x $10 = $40.00, to seat 1; the rake is taken per the posted structure from the sums bet in each betting
    round ($20 of antes, $20 on the flop: 10 % capped at $5). pokerkit plays it as $5 antes and no blinds."""
    table = RakeStructureFactory(table__bomb_pot_ante=D("5.00")).table
    round_of_play = record_round_of_play(table=table, round_in=round_in(bomb_players(), board="2c 7d 9h 3s 4c",
                                                                        bomb_pot=True))
    assert round_of_play.bomb_pot and round_of_play.pot_total == D("40.00")
    assert round_of_play.betting_rounds == ["20.00", "20.00", "0.00", "0.00"]
    rake = RakeRecord.objects.get(round_of_play=round_of_play).amount
    assert rake == D("4.00")  # 10 % of $40.00, under the $5.00 cap
    assert awarded(round_of_play) == {1: D("40.00") - rake}
    pokerkit = pokerkit_stacks(**BOMB_PHH)
    assert pokerkit == [D("225"), D("185"), D("195"), D("195")]
    assert [s + (rake if seat == 0 else 0) for seat, s in enumerate(our_stacks(round_of_play, D("200")))] == pokerkit
    conserved(round_of_play)


@pytest.mark.parametrize(("posted_ante", "streets", "bomb_kwargs", "field", "words"), [
    # a player puts in less than the ante
    (D("5.00"), (D("5.00"), D("3.00"), D("5.00"), D("5.00")), {}, "players[1].streets", "puts in the $5.00 ante"),
    # more than the ante before the flop: no betting then
    (D("5.00"), (D("5.00"), D("5.00"), D("7.00"), D("5.00")), {}, "players[2].streets", "nothing more"),
    # no bomb pot posted
    (D("0.00"), (D("5.00"),) * 4, {}, "bomb_pot", "offers no bomb pot"),
    # the flop is dealt before any betting
    (D("5.00"), (D("5.00"),) * 4, {"board": ""}, "board", "give the board"),
])
def test_14_17_a_bomb_pot_off_the_posted_ante_is_refused(posted_ante, streets, bomb_kwargs, field, words):
    """14.17: in a bomb pot every player dealt in puts in exactly the posted ante, nothing more before the flop, and
    the flop is dealt; refused naming the field, nothing written."""
    table = PokerTableFactory(bomb_pot_ante=posted_ante)
    kwargs = {"board": "2c 7d 9h 3s 4c"} | bomb_kwargs
    with pytest.raises(DomainError) as refused:
        record_round_of_play(table=table, round_in=round_in(bomb_players(streets), bomb_pot=True, **kwargs))
    assert refused.value.field == field and words in refused.value.message
    assert not RoundOfPlay.objects.exists()


# --- run it twice, three times ----------------------------------------------------------------------------------

#: Seat 1 all in for $25.01 with aces, seats 2 and 3 $60.00 each; all in on the flop Tc Jd Qh, run twice: run 1
#: 2s 3d (seat 3's king-high straight wins), run 2 9c 8d (seats 2 and 3 tie with king-high straights).
RUN_TWICE = [PlayerIn(seat=1, contributed=D("25.01"), hole_cards="As Ad"),
             PlayerIn(seat=2, contributed=D("60.00"), hole_cards="Kh Kc"),
             PlayerIn(seat=3, contributed=D("60.00"), hole_cards="Ks 9s")]
BOARDS = ("Tc Jd Qh 2s 3d", "Tc Jd Qh 9c 8d")


def test_14_14_the_rake_and_the_contribution_are_taken_once_before_the_pot_is_split_per_run():
    """14.14, 14.19(c): a pot run twice pays its rake once (10 % of $145.01, capped at $5.00) and its bad beat
    contribution once ($1.00), from the main pot ($75.03 less $6.00 = $69.03), before the split (14.7(c)4):
    main $34.52 (run 1, the odd cent) / $34.51, side pot ($69.98) $34.99 / $34.99. Run 1: seat 3 takes $34.52 and
    $34.99. Run 2: seats 2 and 3 tie; the odd cent of each share to seat 3's king of spades (14.9(i)3.iv): main
    $17.26 / $17.25, side $17.50 / $17.49. Seat 3: $104.27, seat 2: $34.74 (together $139.01 = $145.01 - $6.00)."""
    table = RakeStructureFactory().table
    JackpotFactory(casino=table.casino)
    round_of_play = record_round_of_play(table=table, round_in=round_in(RUN_TWICE, boards=BOARDS))
    assert RakeRecord.objects.filter(round_of_play=round_of_play).get().amount == D("5.00")
    assert [c.amount for c in round_of_play.bad_beat_contributions.all()] == [D("1.00")]
    main, side = Pot.objects.filter(round_of_play=round_of_play).order_by("index")
    assert (main.gross, main.deducted, main.amount) == (D("75.03"), D("6.00"), D("69.03"))
    assert (side.gross, side.deducted, side.amount) == (D("69.98"), D("0.00"), D("69.98"))
    assert main.runs == [
        {"run": 1, "amount": "34.52", "awards": [{"seat": 3, "amount": "34.52"}]},
        {"run": 2, "amount": "34.51", "awards": [{"seat": 2, "amount": "17.25"}, {"seat": 3, "amount": "17.26"}]}]
    assert side.runs == [
        {"run": 1, "amount": "34.99", "awards": [{"seat": 3, "amount": "34.99"}]},
        {"run": 2, "amount": "34.99", "awards": [{"seat": 2, "amount": "17.49"}, {"seat": 3, "amount": "17.50"}]}]
    assert awarded(round_of_play) == {2: D("34.74"), 3: D("104.27")}
    assert {a.seat: a.amount for a in main.awards.all()} == {2: D("17.25"), 3: D("51.78")}
    assert round_of_play.run_boards == list(BOARDS) and round_of_play.board == BOARDS[0]
    conserved(round_of_play)


def test_14_7_c_4_a_hand_run_three_times_is_recorded_with_its_three_boards():
    """14.7(c)4: heads up all in before the flop for $50.00 each, run three times: $33.34 (run 1, the odd cent),
    $33.33, $33.33; aces win runs 1 and 3 ($66.67), kings run 2 ($33.33)."""
    boards = ("2c 7d 9h 3s 4c", "Ks 8d 5h 6c Jd", "Qc Td 8s 2d 3h")
    round_of_play = record_round_of_play(table=PokerTableFactory(), round_in=round_in(
        [PlayerIn(seat=1, contributed=D("50.00"), hole_cards="As Ah"),
         PlayerIn(seat=2, contributed=D("50.00"), hole_cards="Kd Kc")], boards=boards))
    assert round_of_play.runs == 3 and round_of_play.run_boards == list(boards)
    assert [run["amount"] for run in Pot.objects.get(round_of_play=round_of_play).runs] == ["33.34", "33.33", "33.33"]
    assert awarded(round_of_play) == {1: D("66.67"), 2: D("33.33")}


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"boards": ("Tc Jd Qh 2s 3d", "Tc Jd Qh 3d 8d")}, "boards", "Duplicate card '3d'"),
    ({"boards": ("Tc Jd Qh 2s 3d", "Tc Jd Qh 9c As")}, "boards", "Duplicate card 'As'"),  # seat 1 holds it
    ({"boards": ("Tc Jd Qh 2s 3d", "Tc Jd 5h 9c 8d")}, "boards", "share 2"),
    ({"boards": ("Tc Jd Qh 2s 3d", "Tc Jd Qh 9c")}, "boards", "5 cards"),
    ({"boards": ("Tc Jd Qh 2s 3d", "Tc Jd Qh 9c 8x")}, "boards[1]", "Unknown card"),
    ({"boards": BOARDS, "board": "Tc Jd Qh 9c 8d"}, "board", "first run's"),
    ({"boards": BOARDS, "game": "stud"}, "game", ""),  # the table deals hold 'em only
])
def test_14_2_a_run_boards_that_one_deck_cannot_deal_are_refused(changes, field, words):
    """14.2(a): one deck deals every run: the runs share the cards dealt before the all-in, differ after it, and no
    card appears twice across them and the hole cards; refused naming the field, nothing written."""
    with pytest.raises(DomainError) as refused:
        record_round_of_play(table=PokerTableFactory(), round_in=round_in(RUN_TWICE, **changes))
    assert refused.value.field == field and words in refused.value.message
    assert not RoundOfPlay.objects.exists()


def test_a_hand_is_run_more_than_once_only_at_a_showdown_with_no_betting_after_the_all_in():
    """A hand is run more than once when the players are all in: nobody contests a pot everyone else folded, and
    nobody bets after the betting round of the all-in (the runs share the flop: all in on the flop)."""
    folded = [PlayerIn(seat=1, contributed=D("2.00"), folded=True), PlayerIn(seat=2, contributed=D("4.00"))]
    with pytest.raises(DomainError) as refused:
        record_round_of_play(table=PokerTableFactory(), round_in=round_in(folded, boards=BOARDS))
    assert refused.value.field == "boards"
    bet_on_the_turn = [PlayerIn(seat=1, contributed=D("30.00"), hole_cards="As Ad", streets=(D("10"), D("10"), D("10"))),
                       PlayerIn(seat=2, contributed=D("30.00"), hole_cards="Kh Kc", streets=(D("10"), D("10"), D("10")))]
    with pytest.raises(DomainError) as refused:
        record_round_of_play(table=PokerTableFactory(), round_in=round_in(bet_on_the_turn, boards=BOARDS))
    assert refused.value.field == "players[0].streets" and "all in on the flop" in refused.value.message
    assert not RoundOfPlay.objects.exists()


# --- dead blinds -----------------------------------------------------------------------------------------------

def test_14_7_c_4_a_dead_blind_goes_to_the_main_pot_unmatched():
    """14.7(c)4, 14.14(d): seat 4 returns and posts the missed small blind dead ($1.00) and the big blind live ($2.00);
    seat 3 raises to $6, seat 4 calls $4 more, the blinds fold; on the flop seat 3 bets $10 and seat 4 calls. The pot:
    $1 + $2 + $16 + $16 live + $1 dead = $36.00, one pot for seats 3 and 4; nothing of seat 4's is uncalled (its dead
    $1 is no bet to match; counted as one, $1 would go back). Seat 4's kings win it."""
    players = [PlayerIn(seat=1, contributed=D("1.00"), folded=True), PlayerIn(seat=2, contributed=D("2.00"), folded=True),
               PlayerIn(seat=3, contributed=D("16.00"), hole_cards="Qs Qh"),
               PlayerIn(seat=4, contributed=D("17.00"), dead=D("1.00"), hole_cards="Kd Kc")]
    round_of_play = record_round_of_play(table=PokerTableFactory(), round_in=round_in(players, board="2c 7d 9h 3s 4c"))
    (pot,) = Pot.objects.filter(round_of_play=round_of_play)
    assert (pot.gross, pot.eligible_seats) == (D("36.00"), [3, 4])
    assert round_of_play.uncalled_amount == D("0.00") and awarded(round_of_play) == {4: D("36.00")}
    assert round_of_play.players.get(seat=4).dead_money == D("1.00")


def test_a_dead_blind_is_part_of_what_the_player_put_in():
    """The dead blind is part of `contributed`: more is refused naming the player's dead_blind."""
    players = [PlayerIn(seat=1, contributed=D("1.00"), dead=D("2.00")), PlayerIn(seat=2, contributed=D("2.00"))]
    with pytest.raises(DomainError) as refused:
        record_round_of_play(table=PokerTableFactory(), round_in=round_in(players))
    assert refused.value.field == "players[0].dead_blind"


# --- the JSON API ----------------------------------------------------------------------------------------------

@pytest.fixture
def table(casino):
    return RakeStructureFactory(table__casino=casino, table__straddles=StraddleOption.UNDER_THE_GUN,
                                table__bomb_pot_ante=D("5.00")).table


def json_players(players):
    return [{"seat": p.seat, "contributed": str(p.contributed), "hole_cards": p.hole_cards, "folded": p.folded,
             "streets": [str(s) for s in p.streets], "straddle": str(p.straddle), "dead_blind": str(p.dead)}
            for p in players]


def test_the_api_records_and_shows_run_boards_straddles_and_dead_blinds(api, supervisor, table):
    """POST /api/rounds/ takes `boards`, a player's `straddle` and `dead_blind`; the round shows them (run boards, each
    pot's shares per run, the straddle, the dead money)."""
    api.force_authenticate(supervisor)
    response = api.post("/api/rounds/", {"table": table.pk, "boards": list(BOARDS),
                                         "players": json_players(RUN_TWICE)}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["run_boards"] == list(BOARDS) and body["board"] == BOARDS[0]
    # no bad beat payout here: the main pot less the $5.00 rake, $70.03, in shares of $35.02 and $35.01
    assert [run["amount"] for run in body["pots"][0]["runs"]] == ["35.02", "35.01"]
    assert api.get(f"/api/rounds/{body['id']}/").json()["pots"][1]["runs"][1]["awards"] == [
        {"seat": 2, "amount": "17.49"}, {"seat": 3, "amount": "17.50"}]
    straddled = api.post("/api/rounds/", {"table": table.pk, "board": "2c 7d 9h 3s 4c", "button": 5,
                                          "players": json_players(STRADDLED)}, format="json")
    assert straddled.status_code == 201, straddled.content
    assert straddled.json()["straddles"] == 1 and straddled.json()["players"][2]["straddle"] == "4.00"
    dead = [PlayerIn(seat=1, contributed=D("2.00"), folded=True),
            PlayerIn(seat=2, contributed=D("5.00"), dead=D("1.00"), hole_cards="As Ad")]
    response = api.post("/api/rounds/", {"table": table.pk, "players": json_players(dead)}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["players"][1]["dead_money"] == "1.00"


@pytest.mark.parametrize(("changes", "field"), [
    ({"players": json_players(STRADDLED)}, "button"),
    ({"button": 5, "players": json_players([p if p.seat != 4 else PlayerIn(  # a re-straddle: one straddle is posted
        seat=4, contributed=D("38.00"), hole_cards="Kd Kc", straddle=D("8.00"),
        streets=(D("8.00"), D("10.00"), D("20.00"), D("0.00"))) for p in STRADDLED])}, "players[3].straddle"),
    ({"bomb_pot": True, "players": json_players(bomb_players((D("5.00"), D("4.00"), D("5.00"), D("5.00"))))},
     "players[1].streets"),
    ({"boards": ["Tc Jd Qh 2s 3d", "Tc Jd Qh 3d 8d"], "board": "", "players": json_players(RUN_TWICE)}, "boards"),
    ({"boards": ["Tc Jd Qh 2s 3d"] * 4, "board": "", "players": json_players(RUN_TWICE)}, "boards"),
    ({"players": json_players([PlayerIn(seat=1, contributed=D("1.00"), dead=D("2.00")),
                               PlayerIn(seat=2, contributed=D("2.00"))])}, "players[0].dead_blind"),
])
def test_the_api_answers_400_naming_the_field(api, supervisor, table, changes, field):
    """Bad straddles, bomb pots, run boards and dead blinds are a 400 naming the field; nothing is written."""
    api.force_authenticate(supervisor)
    response = api.post("/api/rounds/", {"table": table.pk, "board": "2c 7d 9h 3s 4c"} | changes, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json(), response.json()
    assert not RoundOfPlay.objects.exists()


def test_the_batch_names_the_round_and_the_straddle_at_fault(api, supervisor, table):
    """POST /api/rounds/batch/: a straddle the table does not allow refuses the whole batch, naming the round."""
    table.straddles = StraddleOption.NONE
    table.save()
    api.force_authenticate(supervisor)
    good = {"table": table.pk, "boards": list(BOARDS), "players": json_players(RUN_TWICE)}
    bad = {"table": table.pk, "board": "2c 7d 9h 3s 4c", "button": 5, "players": json_players(STRADDLED)}
    response = api.post("/api/rounds/batch/", {"rounds": [good, bad]}, format="json")
    assert response.status_code == 400
    assert "rounds[1].players[2].straddle" in response.json()
    assert not RoundOfPlay.objects.exists()
    response = api.post("/api/rounds/batch/", {"rounds": [good]}, format="json")
    assert response.status_code == 201 and response.json()["results"][0]["run_boards"] == list(BOARDS)


def test_rounds_of_a_batch_with_runs_keep_the_running_totals():
    """The day's running totals of the table (TableGamingDay) take a batch of rounds run twice and straddled as any
    rounds: the sums bet, once each."""
    table = straddle_table()
    rounds = record_batch_of_rounds(rounds=[(table, round_in(RUN_TWICE, boards=BOARDS)),
                                            (table, round_in(STRADDLED, board="2c 7d 9h 3s 4c", button=5))])
    day = table.day_rounds.get()
    assert (day.rounds, day.pot_total) == (2, D("145.01") + D("73.00"))
    assert [r.pot_total for r in rounds] == [D("145.01"), D("73.00")]


def test_the_round_page_shows_each_runs_board_and_share(client, supervisor, casino):
    """The round's page shows a hand run twice with each run's board and each pot's share per run, a straddle and a
    dead blind beside what the player put in."""
    table = straddle_table(casino=casino)
    twice = record_round_of_play(table=table, round_in=round_in(RUN_TWICE, boards=BOARDS))
    client.force_login(supervisor)
    page = client.get(f"/rounds/{twice.pk}/").content.decode()
    assert page.count('data-testid="run-board"') == 2 and "Boards — run 2 times" in page
    assert page.count('data-testid="run-share"') == 4 and "$17.50" in page
    straddled = record_round_of_play(table=table, round_in=round_in(STRADDLED, board="2c 7d 9h 3s 4c", button=5))
    page = client.get(f"/rounds/{straddled.pk}/").content.decode()
    assert "Straddled: 1 straddle." in page and "straddle $4.00" in page


@pytest.mark.proves("14.11(g)-high-takes-all", "14.11(g)-qualifier")
def test_14_11_g_along_the_money_path_no_qualifying_low_gives_each_pot_run_to_the_high():
    """Omaha high-low, 14.11(g): where no hand qualifies for low, the best high hand takes the whole pot — here along
    the money path, for each pot and each run of a hand run twice, after the rake and the contribution come out of
    the main pot (14.14, 14.19(c)). Seat 1 ($20.01 all in, A-2 and nines), seats 2 (kings) and 3 (jacks) $50.00 each;
    all in on the flop Kh 7s 3d, run twice: run 1 Qc Jc (two low cards on the board: no low), run 2 5h Td (7-5-3-2-A
    for seat 1). Seat 2's three kings are the best high of both runs. The main pot, $60.03 less the deduction, is
    shared $27.02 (run 1, the odd cent) / $27.01 (when $6.00 comes out); run 1 all to seat 2; run 2 halved, the odd
    cent to the high ($13.51 seat 2, $13.50 seat 1). The side pot, $59.98 (seats 2 and 3, no low possible for either),
    $29.99 a run, all to seat 2 both times."""
    table = RakeStructureFactory(table=PokerTableFactory(game="omaha_hilo8", betting_structure="pot_limit")).table
    JackpotFactory(casino=table.casino)
    players = [PlayerIn(seat=1, contributed=D("20.01"), hole_cards="As 2s 9c 9d"),
               PlayerIn(seat=2, contributed=D("50.00"), hole_cards="Kd Kc Qs Js"),
               PlayerIn(seat=3, contributed=D("50.00"), hole_cards="Jh Jd 6c 6d")]
    round_of_play = record_round_of_play(table=table, round_in=round_in(
        players, boards=("Kh 7s 3d Qc Jc", "Kh 7s 3d 5h Td")))
    rake = RakeRecord.objects.filter(round_of_play=round_of_play).get().amount
    contribution = sum(c.amount for c in round_of_play.bad_beat_contributions.all())
    assert (rake, contribution) == (D("5.00"), D("1.00"))  # 10 % capped at $5.00; the room's $1.00 contribution
    main, side = Pot.objects.filter(round_of_play=round_of_play).order_by("index")
    assert (main.gross, main.deducted, main.amount) == (D("60.03"), D("6.00"), D("54.03"))
    assert (side.gross, side.deducted, side.amount) == (D("59.98"), D("0.00"), D("59.98"))
    assert main.runs == [
        {"run": 1, "amount": "27.02", "awards": [{"seat": 2, "amount": "27.02"}]},
        {"run": 2, "amount": "27.01", "awards": [{"seat": 1, "amount": "13.50"}, {"seat": 2, "amount": "13.51"}]}]
    assert side.runs == [
        {"run": 1, "amount": "29.99", "awards": [{"seat": 2, "amount": "29.99"}]},
        {"run": 2, "amount": "29.99", "awards": [{"seat": 2, "amount": "29.99"}]}]
    assert awarded(round_of_play) == {1: D("13.50"), 2: D("100.51")}
    conserved(round_of_play)
    # run once on run 1's board: no low, both pots whole to the high
    once = record_round_of_play(table=table, round_in=round_in(players, board="Kh 7s 3d Qc Jc"))
    assert [p.amount for p in Pot.objects.filter(round_of_play=once).order_by("index")] == [D("54.03"), D("59.98")]
    assert awarded(once) == {2: D("114.01")}
    conserved(once)
