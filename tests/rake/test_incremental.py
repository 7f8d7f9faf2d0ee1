"""Incremental rake, N.J.A.C. 13:69F-14.14(b)2: predetermined amounts taken as the pot reaches predetermined levels."""
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.rake.models import RakeMethod, RakeRecord, RakeStructure
from apps.rake.services import compute_incremental_rake, post_rake_structure
from tests.factories import PokerTableFactory

D = Decimal
pytestmark = pytest.mark.django_db

LEVELS = [{"pot": "20.00", "take": "1.00"}, {"pot": "60.00", "take": "2.00"}, {"pot": "100.00", "take": "1.00"}]


def post(levels, maximum="5.00", table=None):
    return post_rake_structure(table=table or PokerTableFactory(), method=RakeMethod.INCREMENTAL, maximum=D(maximum),
                               levels=levels)


@pytest.mark.proves("14.14(b)2-levels")
def test_14_14_b_2_levels_are_posted_in_dollars_and_cents():
    """Levels given as strings, integers or Decimals are posted as dollars and cents, in the order given."""
    structure = post([{"pot": 20, "take": "1"}, {"pot": "60.5", "take": D("2")}, {"pot": D("100"), "take": 1}])
    assert structure.method == RakeMethod.INCREMENTAL
    assert structure.percentage is None
    assert RakeStructure.objects.get(pk=structure.pk).levels == [
        {"pot": "20.00", "take": "1.00"}, {"pot": "60.50", "take": "2.00"}, {"pot": "100.00", "take": "1.00"}]


@pytest.mark.proves("14.14(b)2-levels")
@pytest.mark.parametrize("levels", [
    [{"pot": "3.00", "take": "3.00"}],  # everything in the pot at its one level, not more
    [{"pot": "5.00", "take": "2.00"}, {"pot": "6.00", "take": "4.00"}],  # $6.00 taken in all from a $6.00 pot
    [{"pot": "0.01", "take": "0.01"}],  # the smallest level
])
def test_14_14_b_2_levels_may_take_up_to_the_whole_pot_of_the_level(levels):
    assert post(levels).levels == levels


@pytest.mark.proves("14.14(b)2-levels")
@pytest.mark.parametrize(("levels", "message"), [
    ([], "An incremental rake needs at least one pot level (14.14(b)2)."),
    (None, "An incremental rake needs at least one pot level (14.14(b)2)."),
    ([{"pot": "20", "take": "1"}, {"pot": "20", "take": "1"}], "Level 2: pot levels rise and each takes a positive "
                                                               "amount."),
    ([{"pot": "20", "take": "1"}, {"pot": "60", "take": "1"}, {"pot": "40", "take": "1"}],
     "Level 3: pot levels rise and each takes a positive amount."),
    ([{"pot": "20", "take": "1"}, {"pot": "60", "take": "0"}], "Level 2: pot levels rise and each takes a positive "
                                                              "amount."),
    ([{"pot": "20", "take": "-1"}], "Level 1: pot levels rise and each takes a positive amount."),
    ([{"pot": "0", "take": "1"}], "Level 1: pot levels rise and each takes a positive amount."),
    ([{"pot": "-5", "take": "1"}], "Level 1: pot levels rise and each takes a positive amount."),
    ([{"pot": "2", "take": "3"}], "Level 1: $3.00 would be taken from a $2.00 pot."),
    ([{"pot": "5", "take": "3"}, {"pot": "6", "take": "4"}], "Level 2: $7.00 would be taken from a $6.00 pot."),
    ([{"pot": "5", "take": "2"}, {"pot": "6", "take": "4.01"}], "Level 2: $6.01 would be taken from a $6.00 pot."),
    ([{"pot": "twenty", "take": "1"}], "Level 1: give a pot level and an amount."),
    ([{"pot": "20", "take": "1"}, {"pot": "60"}], "Level 2: give a pot level and an amount."),
    ([{"take": "1"}], "Level 1: give a pot level and an amount."),
    ([{"pot": None, "take": "1"}], "Level 1: give a pot level and an amount."),
    (["20"], "Level 1: give a pot level and an amount."),
    ([{"pot": "Infinity", "take": "1"}], "Level 1: give a pot level and an amount."),
])
def test_14_14_b_2_levels_that_do_not_rise_or_take_nothing_or_more_than_the_pot_are_refused(levels, message):
    """Each refusal names the level, on the `levels` field, and posts nothing."""
    table = PokerTableFactory()
    with pytest.raises(DomainError) as refused:
        post(levels, table=table)
    assert (refused.value.field, refused.value.message) == ("levels", message)
    assert not RakeStructure.objects.filter(table=table).exists()


@pytest.mark.proves("14.14(b)2-levels")
@pytest.mark.parametrize(("basis", "maximum", "expected"), [
    ("0.00", "5.00", ("0.00", "0.00")),
    ("19.99", "5.00", ("0.00", "0.00")),
    ("20.00", "5.00", ("1.00", "1.00")),  # a level is reached at its pot exactly
    ("59.99", "5.00", ("1.00", "1.00")),
    ("60.00", "5.00", ("3.00", "3.00")),
    ("100.00", "5.00", ("4.00", "4.00")),
    ("5000.00", "5.00", ("4.00", "4.00")),
    ("100.00", "4.00", ("4.00", "4.00")),  # at the maximum exactly
    ("100.00", "2.50", ("4.00", "2.50")),  # capped at the posted maximum
    ("60.00", "0.00", ("3.00", "0.00")),
])
def test_14_14_b_2_the_amounts_of_the_levels_reached_at_most_the_maximum(basis, maximum, expected):
    """(computed, amount taken): the sum of the amounts of every level the pot reaches, capped at the maximum."""
    assert compute_incremental_rake(basis=D(basis), levels=LEVELS, maximum=D(maximum)) == tuple(D(e) for e in expected)


def rake_of(table, pot_each):
    """The RakeRecord of a heads-up round in which each of two players put in `pot_each` dollars, called down."""
    round_of_play = record_round_of_play(table=table, round_in=RoundIn(players=[
        PlayerIn(seat=1, contributed=D(pot_each), hole_cards="As Ks"),
        PlayerIn(seat=2, contributed=D(pot_each), hole_cards="2c 7d")], board="Ah Kd 5c 9s 3h",
        started_at=timezone.now()))
    return RakeRecord.objects.get(round_of_play=round_of_play)


@pytest.mark.proves("14.14(b)2-levels")
@pytest.mark.parametrize(("pot_each", "maximum", "amount", "explanation"), [
    ("5.00", "5.00", "0.00", "Pot $10.00 reached 0 of 3 levels: $0.00."),
    ("10.00", "5.00", "1.00", "Pot $20.00 reached 1 of 3 levels: $1.00."),
    ("30.00", "5.00", "3.00", "Pot $60.00 reached 2 of 3 levels: $3.00."),
    ("50.00", "4.00", "4.00", "Pot $100.00 reached 3 of 3 levels: $4.00."),
    ("600.00", "3.00", "3.00", "Pot $1,200.00 reached 3 of 3 levels: $4.00, capped at the posted maximum $3.00."),
])
def test_14_14_b_2_each_round_records_the_levels_it_reached(pot_each, maximum, amount, explanation):
    """The rake record of a round says which levels its pot reached, what they take and the cap when it applied."""
    table = PokerTableFactory(bad_beat_participation=False)
    post(LEVELS, maximum=maximum, table=table)
    record = rake_of(table, pot_each)
    assert (record.basis, record.amount, record.explanation) == (D(pot_each) * 2, D(amount), explanation)
    assert record.percentage is None
    assert record.maximum == D(maximum)
