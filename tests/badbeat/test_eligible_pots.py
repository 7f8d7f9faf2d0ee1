"""Which pots can be a bad beat, as the posted rules say (N.J.A.C. 13:69F-14.19(b)3): straddled pots, bomb pots and
hands run more than once; each term decides a verdict either way with a check naming it, is shown on the rules page,
and changes only through a notice (14.19(q)), a harder one not before the payout is won."""
import html
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from apps import hands
from apps.badbeat.models import Claim, QualifyingHand, RuleChangeStatus
from apps.badbeat.qualifying import QualifyingRule, SeatCards, judge
from apps.badbeat.selectors import judge_round
from apps.badbeat.services import apply_due_rule_changes, propose_rule_change
from apps.core.exceptions import DomainError
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.tables.models import StraddleOption
from tests.factories import JackpotFactory, PokerTableFactory

D = Decimal
C = hands.parse_cards
pytestmark = pytest.mark.django_db

#: Seat 1's four nines lose to seat 2's straight flush (4-8 of spades); seats 3 and 4 fold.
BOARD = "9h 9d 6s 7s 8s"
HOLE = {1: "9s 9c", 2: "5s 4s", 3: "Ac Kd", 4: "2c 3d"}


def jackpot(casino, **terms):
    return JackpotFactory(casino=casino, minimum_players_dealt=4, minimum_pot=D("0"), **terms)


def straddled_round(casino):
    """Seat 4 straddles $4 from any seat and folds to seat 1's raise."""
    table = PokerTableFactory(casino=casino, straddles=StraddleOption.ANY_SEAT)
    players = [PlayerIn(seat=1, contributed=D("10.00"), hole_cards=HOLE[1]),
               PlayerIn(seat=2, contributed=D("10.00"), hole_cards=HOLE[2]),
               PlayerIn(seat=3, contributed=D("1.00"), hole_cards=HOLE[3], folded=True),
               PlayerIn(seat=4, contributed=D("4.00"), hole_cards=HOLE[4], folded=True, straddle=D("4.00"))]
    return record_round_of_play(table=table, round_in=RoundIn(players=players, board=BOARD, started_at=timezone.now()))


def bomb_pot(casino):
    """Every player antes $5; seats 1 and 2 bet $10 each on the flop, seats 3 and 4 fold."""
    table = PokerTableFactory(casino=casino, bomb_pot_ante=D("5.00"))
    players = [PlayerIn(seat=seat, contributed=D("15.00") if seat < 3 else D("5.00"), hole_cards=HOLE[seat],
                        folded=seat > 2, streets=(D("5.00"), D("10.00") if seat < 3 else D("0.00")))
               for seat in range(1, 5)]
    return record_round_of_play(table=table, round_in=RoundIn(players=players, board=BOARD, bomb_pot=True,
                                                              started_at=timezone.now()))


def run_twice(casino):
    """All in on the flop 9h 9d 6s for $10 each: run 1 (7d 2h) holds seat 1's nines; run 2 (7s 8s) makes seat 2's
    straight flush: the bad beat is on run 2."""
    table = PokerTableFactory(casino=casino)
    players = [PlayerIn(seat=1, contributed=D("10.00"), hole_cards=HOLE[1]),
               PlayerIn(seat=2, contributed=D("10.00"), hole_cards=HOLE[2]),
               PlayerIn(seat=3, contributed=D("1.00"), hole_cards=HOLE[3], folded=True),
               PlayerIn(seat=4, contributed=D("1.00"), hole_cards=HOLE[4], folded=True)]
    return record_round_of_play(table=table, round_in=RoundIn(players=players, boards=("9h 9d 6s 7d 2h", BOARD),
                                                              started_at=timezone.now()))


@pytest.mark.proves("14.19(b)3-applied")
@pytest.mark.parametrize(("play", "term", "label"), [
    (straddled_round, "straddled_pots_qualify", "Straddled pot"),
    (bomb_pot, "bomb_pots_qualify", "Bomb pot"),
    (run_twice, "multiple_runs_qualify", "Run 2 times"),
])
@pytest.mark.parametrize("qualifies", [True, False])
def test_14_19_b_3_the_posted_term_decides_whether_the_pot_can_be_a_bad_beat(casino, play, term, label, qualifies):
    """14.19(b)3: four nines beaten by a straight flush qualify in a straddled pot, a bomb pot, a hand run twice
    only where the posted rules say such pots qualify; the verdict's first check names the term that decided, and
    the money path opens a claim only then (14.19(i))."""
    offered = jackpot(casino, **{term: qualifies})
    round_of_play = play(casino)
    verdict = judge_round(jackpot=offered, round_of_play=round_of_play)
    first = verdict.checks[0]
    assert (first.label, first.passed, verdict.qualifies) == (label, qualifies, qualifies)
    assert ("do not qualify under the posted rules" in first.detail) is not qualifies
    assert Claim.objects.filter(round_of_play=round_of_play).exists() is qualifies
    if qualifies:
        assert verdict.losing_seats == [1] and verdict.winning_seats == [2]


def test_14_19_b_3_a_hand_run_twice_is_judged_on_the_run_that_qualifies(casino):
    """14.19(b)3, the posted rule for hands run more than once: each run's board is judged as a hand of its own and
    the hand qualifies when any run's showdown does: here run 2 (run 1's nines won). The checks keep both runs."""
    offered = jackpot(casino, multiple_runs_qualify=True)
    round_of_play = run_twice(casino)
    verdict = judge_round(jackpot=offered, round_of_play=round_of_play)
    assert verdict.qualifies and verdict.losing_hand.category == hands.FiveCardCategory.FOUR_OF_A_KIND
    labels = {c.label: c for c in verdict.checks}
    assert not labels["Run 1: Losing hand"].passed and labels["Run 2: Losing hand"].passed
    assert labels["Runs"].detail == "Run 2 of 2 qualifies (9h 9d 6s 7s 8s)."
    claim = Claim.objects.get(round_of_play=round_of_play)
    assert (claim.seat, claim.losing_hand, claim.winning_hand) == (1, "Four of a kind", "Straight flush")


def test_14_19_b_3_of_two_qualifying_runs_the_higher_losing_hand_decides():
    """14.19(b)3: all in on the flop 6s 7s 9h, run twice; both runs are bad beats at a full house or better: run 1
    (3s 6d) nines full of sixes lose to a seven-high straight flush, run 2 (9d 8s) four nines to an eight-high one.
    The run with the higher losing hand, run 2, decides (its losing hand, the payout's)."""
    rule = QualifyingRule(category=hands.FiveCardCategory.FULL_HOUSE, multiple_runs_qualify=True)
    seats = [SeatCards(seat=1, hole=C("9s 9c"), at_showdown=True), SeatCards(seat=2, hole=C("5s 4s"), at_showdown=True)]
    boards = [C("6s 7s 9h 3s 6d"), C("6s 7s 9h 9d 8s")]
    verdict = judge(rule, "holdem", (), seats, boards=boards)
    assert verdict.qualifies and verdict.checks[0].label == "Run 2 times" and verdict.checks[0].passed
    assert verdict.losing_hand.category == hands.FiveCardCategory.FOUR_OF_A_KIND
    assert verdict.checks[-1].detail == "Run 2 of 2 qualifies (6s 7s 9h 9d 8s)."
    first = judge(rule, "holdem", (), seats, boards=boards[:1] + boards[:1])  # the same board twice: run 1 decides
    assert first.checks[-1].detail.startswith("Run 1 of 2")
    assert not judge(QualifyingRule(category=hands.FiveCardCategory.FULL_HOUSE), "holdem", (), seats,
                     boards=boards).qualifies  # hands run more than once do not qualify by default


@pytest.mark.proves("14.19(q)-harder-after-won")
def test_14_19_q_a_term_made_harder_waits_for_the_payout_to_be_won_and_an_easier_one_takes_effect(casino,
                                                                                                      supervisor):
    """14.19(q): once the payout has taken contributions under its rules, no longer qualifying straddled pots (or bomb
    pots, or hands run more than once) is refused until the payout is won; qualifying hands run more than once is
    easier, noticed first and put into effect at its time."""
    offered = jackpot(casino, multiple_runs_qualify=False)
    straddled_round(casino)  # a contribution under the current rules
    assert offered.contributions.exists()
    later = timezone.now() + timedelta(days=1)
    for term in ("straddled_pots_qualify", "bomb_pots_qualify"):
        with pytest.raises(DomainError, match="until this payout has been won") as refused:
            propose_rule_change(jackpot=offered, changes={term: False}, effective_at=later, proposed_by=supervisor)
        assert refused.value.field == term
    change = propose_rule_change(jackpot=offered, changes={"multiple_runs_qualify": True}, effective_at=later,
                                 proposed_by=supervisor)
    assert not change.makes_qualifying_harder and "hands run more than once qualify" in change.summary
    with time_machine.travel(later + timedelta(minutes=1)):
        assert apply_due_rule_changes() == 1
    offered.refresh_from_db()
    change.refresh_from_db()
    assert offered.multiple_runs_qualify and change.status == RuleChangeStatus.APPLIED
    assert offered.rules_effective_at >= later


@pytest.mark.proves("14.19(b)3-posted")
def test_14_19_b_the_rules_page_and_the_api_post_the_terms(client, api, supervisor, casino):
    """14.19(b): the posted rules show which pots qualify; the API reads them; a rule change by page takes the term
    as any other rule."""
    offered = jackpot(casino, bomb_pots_qualify=False, multiple_runs_qualify=True,
                      qualifying_hand=QualifyingHand.FOUR_OF_A_KIND)
    client.force_login(supervisor)
    page = html.unescape(client.get("/jackpot/rules/").content.decode())
    assert ("Straddled pots qualify; bomb pots do not qualify; a hand run more than once qualifies when any run's "
            "showdown does.") in page
    api.force_authenticate(supervisor)
    body = api.get("/api/jackpot/").json()
    assert (body["straddled_pots_qualify"], body["bomb_pots_qualify"], body["multiple_runs_qualify"]) == (
        True, False, True)
    response = client.post("/jackpot/rules/", {"jackpot": offered.pk, "field": "bomb_pots_qualify", "value": "yes",
                                               "effective_at": (timezone.localtime() + timedelta(days=1)).strftime(
                                                   "%Y-%m-%dT%H:%M")})
    assert response.status_code == 302
    assert offered.rule_changes.get().changes == {"bomb_pots_qualify": True}
    bad = api.post(f"/api/jackpots/{offered.pk}/rule-changes/",
                   {"changes": {"straddled_pots_qualify": "maybe"},
                    "effective_at": (timezone.now() + timedelta(days=2)).isoformat()}, format="json")
    assert bad.status_code == 400 and "straddled_pots_qualify" in bad.json()
