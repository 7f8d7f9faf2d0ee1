"""The kill and half-kill of Omaha high-low split eight or better, N.J.A.C. 13:69F-14.1 and 14.11(i)."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.rounds.models import KillMove, KillRecord
from apps.rounds.services import current_kill, kill_limits, move_kill_button
from apps.tables.models import BettingStructure, Game, KillOption, PokerTable
from tests.factories import PokerTableFactory

D = Decimal
BOARD = "3h 4h 8c Kc Jd"
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(casino):
    return PokerTableFactory(casino=casino, game=Game.OMAHA_HILO8, betting_structure=BettingStructure.FIXED_LIMIT,
                             minimum_wager=D("4.00"), maximum_wager=D("8.00"), kill_option=KillOption.KILL,
                             kill_pot_minimum=D("60.00"), seats=10)


def play(table, each, hands, minute):
    """Seats 1-3 each put in `each`; hands: seat -> four hole cards."""
    return record_round_of_play(table=table, round_in=RoundIn(
        started_at=timezone.now() - timedelta(minutes=60 - minute), board=BOARD,
        players=[PlayerIn(seat=s, contributed=D(each), hole_cards=h) for s, h in hands.items()]))


SCOOP = {1: "Ks Kd 2c As", 2: "Qs Qd Tc Th", 3: "Js 9h 9c 9d"}      # seat 1: trip kings and A-2 low: the whole pot
SPLIT = {1: "Ks Kd Qc Qh", 2: "As 2d 9c 9h", 3: "Js Ts Tc Td"}       # seat 1 high, seat 2 low
SCOOP_2 = {1: "Qs Qd Tc Th", 2: "Ks Kd 2c As", 3: "Js 9h 9c 9d"}


@pytest.mark.proves("14.11(i)-placed", "14.11(i)-limits", "14.11(i)-moves", "14.11(i)-collected",
                    "14.1-kill-limits")
def test_14_11_i_the_kill_follows_a_player_who_wins_an_entire_qualifying_pot(table):
    assert kill_limits(table=table)[:2] == (D("4.00"), D("8.00"))
    play(table, "20", SCOOP, 1)                                  # $60 pot qualifies, seat 1 scoops
    assert current_kill(table=table).seat == 1
    assert kill_limits(table=table)[:2] == (D("8.00"), D("16.00"))  # limits doubled for the next round
    assert kill_limits(table=PokerTable.objects.get(pk=table.pk))[:2] == (D("8.00"), D("16.00"))  # as stored
    play(table, "30", SCOOP_2, 2)                                # seat 2 scoops: the button moves
    assert current_kill(table=table).seat == 2
    play(table, "30", SCOOP_2, 3)                                # seat 2 scoops again: kept
    play(table, "30", SCOOP, 4)                                  # seat 1, to the holder's right: moved back
    assert current_kill(table=table).seat == 1
    play(table, "30", SPLIT, 5)                                  # split high/low: collected
    assert current_kill(table=table) is None
    assert [(r.move, r.seat, r.reason) for r in KillRecord.objects.order_by("round_of_play__started_at")] == [
        (KillMove.PLACED, 1, "Seat 1 won the entire $60.00 pot."),
        (KillMove.MOVED, 2, "Seat 2 won the entire $90.00 pot."),
        (KillMove.KEPT, 2, "Seat 2 won the entire $90.00 pot."),
        (KillMove.MOVED, 1, "Seat 1 won the entire $90.00 pot."),
        (KillMove.COLLECTED, None, "The pot was split.")]


@pytest.mark.proves("14.11(i)-collected")
def test_14_11_i_a_pot_that_does_not_qualify_collects_the_kill(table):
    play(table, "20", SCOOP, 1)
    play(table, "10", SCOOP, 2)                                  # $30 pot: below the $60 qualifying amount
    assert current_kill(table=table) is None
    assert "does not qualify" in KillRecord.objects.get(move=KillMove.COLLECTED).reason


@pytest.mark.proves("14.1-kill-limits", "14.11(i)-limits")
def test_14_1_half_kill_raises_limits_by_one_half(table):
    table.kill_option = KillOption.HALF_KILL
    table.save()
    play(table, "20", SCOOP, 1)
    assert kill_limits(table=table)[:2] == (D("6.00"), D("12.00"))
    assert kill_limits(table=PokerTable.objects.get(pk=table.pk))[:2] == (D("6.00"), D("12.00"))  # as stored


@pytest.mark.proves("14.11(i)-placed", "14.11(i)-collected")
def test_with_no_minimum_posted_every_pot_won_whole_places_the_kill(table):
    """A kill posted with no minimum pot: a 50-cent pot won whole places the kill; one split collects it."""
    table.kill_pot_minimum = None
    table.save()
    play(table, "0.25", {1: SCOOP[1], 2: SCOOP[2]}, 1)
    assert current_kill(table=table).seat == 1
    play(table, "0.25", {1: SPLIT[1], 2: SPLIT[2]}, 2)
    assert current_kill(table=table) is None
    nothing_in = play(table, "0", {1: SCOOP[1], 2: SCOOP[2]}, 3)  # no chips in the pot: nobody won it
    assert current_kill(table=table) is None and not KillRecord.objects.filter(round_of_play=nothing_in).exists()
    # a seat awarded nothing (the odd cent of a tie elsewhere) won nothing: the other won the entire pot
    move_kill_button(round_of_play=nothing_in, table=table, awards={"1": D("0.00"), "2": D("0.50")})
    assert current_kill(table=table).seat == 2


@pytest.mark.proves("14.11(i)-moves")
def test_14_11_i_the_kill_moves_only_to_a_player_who_wins_an_entire_qualifying_pot(table):
    """14.11(i): the kill moves to the next player who wins an entire pot of the qualifying amount ($60.00 here).
    Seat 2 winning a $59.97 pot whole does not take it from seat 1 (the short pot collects it); winning exactly $60.00
    whole does. With no minimum posted, a 50-cent pot won whole moves it; a seat awarded $0.00 beside the winner
    (the odd cent of a tie elsewhere) does not stop it; a round with nothing in the pot moves it to no one."""
    play(table, "20", SCOOP, 1)
    play(table, "19.99", SCOOP_2, 2)                             # seat 2 wins $59.97 whole: short of the amount
    assert current_kill(table=table) is None
    play(table, "20", SCOOP, 3)
    play(table, "20", SCOOP_2, 4)                                # seat 2 wins exactly $60.00 whole: it moves
    assert current_kill(table=table).seat == 2
    assert [(r.move, r.seat) for r in KillRecord.objects.order_by("pk")] == [
        (KillMove.PLACED, 1), (KillMove.COLLECTED, None), (KillMove.PLACED, 1), (KillMove.MOVED, 2)]
    table.kill_pot_minimum = None
    table.save()
    tiny = play(table, "0.25", {1: SCOOP[1], 2: SCOOP[2]}, 5)   # seat 1 wins a 50-cent pot whole
    assert current_kill(table=table).seat == 1
    assert KillRecord.objects.get(round_of_play=tiny).move == KillMove.MOVED
    play(table, "0", {1: SCOOP[1], 2: SCOOP[2]}, 6)             # nothing in the pot: nobody won it
    assert current_kill(table=table) is None or current_kill(table=table).seat == 1
    later = play(table, "0", {1: SCOOP[1], 2: SCOOP[2]}, 7)     # no kill out: nothing recorded for it
    play(table, "0.25", {1: SCOOP[1], 2: SCOOP[2]}, 6.5)        # seat 1 holds the kill again before it
    assert current_kill(table=table).seat == 1
    move_kill_button(round_of_play=later, table=table, awards={"1": D("0.00"), "2": D("0.50")})
    moved = current_kill(table=table)
    assert (moved.seat, moved.move) == (2, KillMove.MOVED)


def test_no_kill_offered_no_records(casino):
    table = PokerTableFactory(casino=casino, game=Game.OMAHA_HILO8, seats=10)
    play(table, "20", SCOOP, 1)
    assert not KillRecord.objects.exists() and current_kill(table=table) is None


def test_the_table_page_shows_the_next_rounds_limits(client, supervisor, table):
    play(table, "20", SCOOP, 1)
    client.force_login(supervisor)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "seat 1 holds the kill button: $8.00 / $16.00" in page


def test_the_round_shows_the_high_and_the_low_of_each_player(table, client, supervisor):
    round_of_play = play(table, "30", SPLIT, 1)
    players = {p.seat: p for p in round_of_play.players.all()}
    assert players[1].high_hand == "Three of a kind" and players[2].low_hand == "Eight-low"
    assert players[1].awarded == players[2].awarded == D("45.00")
    client.force_login(supervisor)
    assert "Low: Eight-low" in client.get(f"/rounds/{round_of_play.pk}/").content.decode()


@pytest.mark.proves("14.11(i)-placed")
def test_14_11_i_a_kill_is_posted_only_at_omaha_high_low_eight_or_better_with_a_qualifying_pot():
    """14.11(i): the kill or half-kill is a feature of Omaha high-low split eight or better, placed when a pot of a
    posted amount is won whole: a table of another game may not post one, and one posted needs that amount, above
    $0.00. A table without a kill posts no amount."""
    from apps.core.exceptions import DomainError
    from apps.tables.services import verify_kill

    for option in (KillOption.KILL, KillOption.HALF_KILL):
        verify_kill(game=Game.OMAHA_HILO8, kill_option=option, kill_pot_minimum=D("0.01"))
        for game in (Game.OMAHA, Game.HOLDEM, Game.STUD_HILO8):
            with pytest.raises(DomainError, match="only in Omaha high-low") as exc:
                verify_kill(game=game, kill_option=option, kill_pot_minimum=D("60.00"))
            assert exc.value.field == "kill_option"
        for minimum in (None, D("0"), D("-1.00")):
            with pytest.raises(DomainError, match="qualifies for the kill") as exc:
                verify_kill(game=Game.OMAHA_HILO8, kill_option=option, kill_pot_minimum=minimum)
            assert exc.value.field == "kill_pot_minimum"
    for game in (Game.OMAHA_HILO8, Game.HOLDEM):
        verify_kill(game=game, kill_option=KillOption.NONE, kill_pot_minimum=None)
    # as a form or the API sends them: plain text, not the choices' members
    verify_kill(game="omaha_hilo8", kill_option="kill", kill_pot_minimum=D("60.00"))
    verify_kill(game="holdem", kill_option="none", kill_pot_minimum=None)
    with pytest.raises(DomainError, match="only in Omaha high-low"):
        verify_kill(game="omaha", kill_option="half_kill", kill_pot_minimum=D("60.00"))


@pytest.mark.proves("14.11(i)-placed")
def test_14_11_i_the_kill_is_placed_by_a_pot_of_at_least_the_posted_amount_won_whole(table):
    """14.11(i): the kill button is placed in front of a player who wins an entire pot of at least the posted
    amount ($60.00 here): a $59.97 pot won whole places none (and, no kill being out, nothing is recorded); a $60.00
    one places it, the record saying why. Once out, a pot short of the amount collects it, the record saying it does
    not qualify in amount, and a split pot, saying it was split."""
    play(table, "19.99", SCOOP, 1)
    assert current_kill(table=table) is None and not KillRecord.objects.exists()
    play(table, "20", SCOOP, 2)
    placed = KillRecord.objects.get()
    assert (placed.move, placed.seat, placed.reason) == (KillMove.PLACED, 1, "Seat 1 won the entire $60.00 pot.")
    play(table, "19.99", SCOOP, 3)
    assert KillRecord.objects.latest("pk").reason == "The $59.97 pot does not qualify in amount."
    play(table, "20", SCOOP, 4)
    play(table, "30", SPLIT, 5)
    assert [(r.move, r.reason) for r in KillRecord.objects.order_by("pk")][-2:] == [
        (KillMove.PLACED, "Seat 1 won the entire $60.00 pot."), (KillMove.COLLECTED, "The pot was split.")]
