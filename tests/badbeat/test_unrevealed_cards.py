"""A showdown whose cards another system's hand history does not reveal cannot be a bad beat (N.J.A.C. 13:69F-14.19(b)3,
(i)): the engine's own judgement (apps.badbeat.qualifying.judge) says so from the seats it is given, and judging a
recorded round reads nothing more for it."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps import hands
from apps.badbeat.qualifying import QualifyingRule, SeatCards, judge
from apps.badbeat.selectors import judge_round
from apps.feed.services import import_phh
from apps.rounds.models import RoundOfPlay
from tests.factories import JackpotFactory, RakeStructureFactory
from tests.feed.test_phh_other_systems import QUADS_BEATEN, QUADS_BEATEN_HEADS_UP, dated

D = Decimal
C = hands.parse_cards
RULE = QualifyingRule(category=hands.FiveCardCategory.FOUR_OF_A_KIND)
BOARD = C("9h 9s Ah Kh Qh")
#: Seat 1's four nines lose to seat 2's royal flush; seat 3 stood to the end without cards in the history.
SEATS = [SeatCards(seat=1, hole=C("9c 9d"), at_showdown=True), SeatCards(seat=2, hole=C("Jh Th"), at_showdown=True),
         SeatCards(seat=3, hole=(), at_showdown=False)]
HIDDEN = "Seat 3: the cards were not revealed: nothing to verify."


def test_14_19_i_a_history_that_does_not_reveal_a_standing_players_cards_cannot_qualify():
    """14.19(b)3, (i): from another system's history, a player who did not fold and whose cards are not recorded
    leaves the supervisor nothing to verify: the verdict fails, its first check naming the seat, before the posted
    terms of the pot."""
    verdict = judge(RULE, "holdem", BOARD, SEATS, from_another_system=True, straddled=True)
    assert not verdict.qualifies
    assert [(c.label, c.passed) for c in verdict.checks[:2]] == [("Cards revealed", False), ("Straddled pot", True)]
    assert verdict.checks[0].detail == HIDDEN
    # every other check is the showdown's own: the four nines lose to the royal flush, as they would qualify
    assert verdict.losing_seats == [1] and verdict.winning_seats == [2]


def test_14_19_i_each_hidden_seat_is_named_and_a_hand_run_twice_says_it_once():
    seats = [*SEATS, SeatCards(seat=5, hole=(), at_showdown=False)]
    verdict = judge(QualifyingRule(category=hands.FiveCardCategory.FOUR_OF_A_KIND, multiple_runs_qualify=True),
                    "holdem", (), seats, boards=(BOARD, BOARD), from_another_system=True)
    assert not verdict.qualifies
    assert verdict.checks[0].detail == "Seat 3, 5: the cards were not revealed: nothing to verify."
    assert [c.label for c in verdict.checks].count("Cards revealed") == 1


@pytest.mark.parametrize(("seats", "other_system"), [
    (SEATS, False),  # the room's own record: a player who mucked is out of the showdown, nothing hidden
    ([*SEATS[:2], SeatCards(seat=3, hole=(), at_showdown=False, folded=True)], True),  # folded: never at the showdown
], ids=["own record", "folded"])
def test_14_19_b_3_a_player_who_folded_or_a_rooms_own_record_does_not_stop_a_bad_beat(seats, other_system):
    verdict = judge(RULE, "holdem", BOARD, seats, from_another_system=other_system)
    assert verdict.qualifies and "Cards revealed" not in [c.label for c in verdict.checks]


@pytest.fixture
def table(casino):
    return RakeStructureFactory(table__casino=casino, table__small_blind=D("0.50"), table__big_blind=D("1.00"),
                                table__minimum_wager=D("1.00"), table__seats=9, percentage=D("10.00"),
                                maximum=D("3.00"), increment=D("0.10")).table


@pytest.mark.django_db
@pytest.mark.parametrize("text", [QUADS_BEATEN, QUADS_BEATEN_HEADS_UP], ids=["not revealed", "all revealed"])
def test_judging_a_recorded_round_reads_its_pot_and_players_only(table, text):
    """The check comes from the seats judge_round reads anyway: two queries (the main pot, the players) whether or
    not the round's source is another system's history and whatever the verdict."""
    jackpot = JackpotFactory(casino=table.casino, minimum_pot=D("0"))
    summary = import_phh(casino=table.casino, text=text + dated(timezone.now() - timedelta(minutes=30)),
                         name="quads.phh", table=table)
    assert summary.imported == 1, summary.as_json()
    round_of_play = RoundOfPlay.objects.get()
    with CaptureQueriesContext(connection) as queries:
        verdict = judge_round(jackpot=jackpot, round_of_play=round_of_play)
    assert len(queries) == 2, [q["sql"] for q in queries]
    assert verdict.qualifies is (text is QUADS_BEATEN_HEADS_UP)
    assert (HIDDEN in [c.detail for c in verdict.checks]) is (text is QUADS_BEATEN)
