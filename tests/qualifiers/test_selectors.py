"""The room's history as the designer reads it (apps.qualifiers.selectors), checked on the demo room: its tables and
jackpot (seed_demo --no-rounds) and rounds dealt by the demo's simulator at its bad-beat tables on two gaming days, as
seed_demo deals them. Each expected figure is counted here from the round records themselves, not from the running
totals the selector reads."""
import io
from collections import Counter
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.core.management import call_command
from django.db.models import Count
from django.utils import timezone

from apps.badbeat.selectors import jackpot_of
from apps.casinos.models import Casino
from apps.casinos.selectors import current_gaming_day, gaming_day_bounds
from apps.feed.services import record_batch_of_rounds
from apps.feed.simulator import simulate_day
from apps.qualifiers.designer import Candidate, average_contribution, compare
from apps.qualifiers.selectors import room_history
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable

pytestmark = pytest.mark.django_db
D = Decimal


#: Noon in Atlantic City, hours from either end of the gaming day: "an hour of rounds today" is one whatever the time
#: the suite runs at (run at the gaming day's first minutes, today would hold none).
MIDDAY = datetime(2026, 11, 20, 17, 0, tzinfo=UTC)


@pytest.fixture
def demo_room(settings):
    """The demo room, with an hour of simulated rounds at tables 1-3 yesterday and at tables 1-3 and 9 today, at
    MIDDAY (the clock runs on from it through the test)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # the demo's logins, in a blink
    with time_machine.travel(MIDDAY, tick=True):
        yield _seeded_room()


def _seeded_room():
    call_command("seed_demo", "--no-rounds", stdout=io.StringIO())
    casino = Casino.objects.get(code="boardwalk")
    tables = {t.number: t for t in PokerTable.objects.filter(casino=casino)}
    today = current_gaming_day(casino=casino)
    _, yesterday_end = gaming_day_bounds(casino=casino, gaming_day=today - timedelta(days=1))
    now = timezone.now()
    for seed, (start, end), numbers in [(2027, (yesterday_end - timedelta(hours=1, minutes=5),
                                                yesterday_end - timedelta(minutes=5)), (1, 2, 3)),
                                        (2026, (max(yesterday_end, now - timedelta(hours=1)), now), (1, 2, 3, 9))]:
        rounds = [(PokerTable.objects.get(pk=table_id), round_in) for table_id, round_in in simulate_day(
            seed=seed, start=start, end=end, rounds_per_hour=25,
            tables=[(tables[n].pk, tables[n].small_blind, tables[n].big_blind) for n in numbers])]
        record_batch_of_rounds(rounds=rounds)
    return casino


def test_14_19_b_the_history_rates_match_the_demos_rounds(demo_room):
    """Rounds per gaming day and per table, and players dealt in per round (14.19(b)3's minimum), as the rows say."""
    casino = demo_room
    history = room_history(casino=casino, game="holdem")
    rounds = RoundOfPlay.objects.filter(table__casino=casino, game="holdem")
    assert rounds.count() > 50
    days = set(rounds.values_list("gaming_day", flat=True))
    table_days = set(rounds.values_list("gaming_day", "table_id"))
    assert history.rounds == rounds.count()
    assert history.days_played == len(days) == 2
    assert history.table_days == len(table_days) == 7
    assert history.rounds_per_day == pytest.approx(rounds.count() / 2)
    assert history.rounds_per_table_day == pytest.approx(rounds.count() / 7)
    dealt = Counter(rounds.annotate(n=Count("players")).values_list("n", flat=True))
    assert history.players_dealt == dict(dealt)
    assert history.all_rounds == RoundOfPlay.objects.filter(table__casino=casino).count()
    top = max(n for n in dealt if n >= 4)
    assert history.typical_players(4) == max((count, n) for n, count in dealt.items() if n >= 4)[1]
    assert history.share_dealt_at_least(4) == pytest.approx(
        sum(count for n, count in dealt.items() if n >= 4) / sum(dealt.values()))
    assert top >= 4


def test_14_19_c_the_average_contribution_applies_the_posted_rule_to_the_demos_pots(demo_room):
    """N.J.A.C. 13:69F-14.19(b)1-2, (c): the demo's posted rule ($1.00 from each pot of $20 or more, after the rake)
    on every round's pot after its rake, as the rows say; equal to what the feed recorded under the same rule."""
    casino = demo_room
    jackpot = jackpot_of(casino=casino)
    history = room_history(casino=casino, game="holdem")
    rows = RoundOfPlay.objects.filter(table__casino=casino).values_list("pot_total", "rake_record__amount")
    expected = sum((min(D("1.00"), pot - rake) if pot >= D("20") else D("0") for pot, rake in rows), D("0"))
    average = average_contribution(jackpot=jackpot, pots=history.pots)
    assert average == (expected / len(rows)).quantize(D("0.0001"))
    recorded = sum(jackpot.contributions.values_list("amount", flat=True))
    assert average == (recorded / len(rows)).quantize(D("0.0001"))


def test_14_19_p_the_comparison_reads_the_demos_history_and_jackpot(demo_room):
    """The figures of a comparison come from the demo's history and its jackpot (10 % reset, 14.19(p))."""
    casino = demo_room
    jackpot = jackpot_of(casino=casino)
    comparison = compare(casino=casino, jackpot=jackpot, deals=5_000, seed=3, candidates=[
        Candidate(game="holdem", losing="full house", minimum_players_dealt=4),
        Candidate(game="holdem", losing="three of a kind", minimum_players_dealt=2)])
    history = comparison.histories["holdem"]
    per_day = RoundOfPlay.objects.filter(table__casino=casino).count() / 2
    assert comparison.growth.contributions_per_day == (
        comparison.growth.contribution_per_round * D(repr(per_day))).quantize(D("0.0001"))
    assert comparison.growth.reset_percentage == D("10.00")
    loose, looser = comparison.results
    assert loose.players == history.typical_players(4) and loose.odds.deals == 5_000
    assert looser.probability > loose.probability > 0
    assert looser.days_between_hits < loose.days_between_hits
    assert loose.days_between_hits == pytest.approx(1 / loose.probability / history.rounds_per_day)
    assert loose.expected_at_next_hit > jackpot.balance


@pytest.mark.proves("14.19(c)-designated")
def test_14_19_c_the_history_reads_only_rounds_of_games_that_take_part(casino):
    """14.19(c): only pots at tables (games) designated for the bad beat payout contribute, so the designer's history
    counts only their rounds: hold 'em at a table that takes part and at a mixed-game table whose rotation's hold 'em
    takes part; not hold 'em at a table that does not, nor the rotation's stud, which does not take part."""
    from apps.feed.services import PlayerIn, RoundIn
    from apps.tables.models import BettingStructure, Game
    from apps.tables.services import create_table, open_table
    from tests.factories import JackpotFactory, PokerTableFactory

    JackpotFactory(casino=casino)
    inside = PokerTableFactory(casino=casino, game=Game.HOLDEM)
    outside = PokerTableFactory(casino=casino, game=Game.HOLDEM, bad_beat_participation=False)
    fixed = BettingStructure.FIXED_LIMIT
    mixed = open_table(table=create_table(casino=casino, number=70, seats=8, rotation_name="H.S.", rounds_per_game=8,
                                          rotation=[
        {"game": Game.HOLDEM, "betting_structure": fixed, "small_blind": "10", "big_blind": "20",
         "minimum_wager": "20", "maximum_wager": "40", "bad_beat_participation": True},
        {"game": Game.STUD, "betting_structure": fixed, "ante": "3", "bring_in": "5", "minimum_wager": "20",
         "maximum_wager": "40"}]))

    def dealt(game=None, holes=("As Ks", "2c 7d"), board="Ah Kd 5c 9s 3h") -> RoundIn:
        return RoundIn(started_at=timezone.now(), board=board, game=game, players=[
            PlayerIn(seat=i + 1, contributed=D("30"), hole_cards=h) for i, h in enumerate(holes)])

    record_batch_of_rounds(rounds=[
        (inside, dealt()), (inside, dealt()), (outside, dealt()), (mixed, dealt(Game.HOLDEM)),
        (mixed, dealt(Game.STUD, holes=("9c 9d Ah 9h Ks 2c 3d", "Qs Qd Jc Jd 4s 5h 6c"), board=""))])
    history = room_history(casino=casino, game="holdem")
    assert (history.rounds, history.table_days, history.all_rounds) == (3, 2, 3)
    assert RoundOfPlay.objects.filter(table__casino=casino).count() == 5
