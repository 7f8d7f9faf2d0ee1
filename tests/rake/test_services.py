"""Percentage rake, N.J.A.C. 13:69F-14.14(b)1 and (d), at its edges."""
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.feed.services import PlayerIn, RoundIn, betting_round_totals, record_round_of_play
from apps.rake.models import RakeRecord, RakeStructure
from apps.rake.services import compute_percentage_rake, post_rake_structure
from tests.factories import PokerTableFactory, RakeStructureFactory

D = Decimal
pytestmark = pytest.mark.django_db


def rake(basis, percentage="10", maximum="5", minimum_pot="0", increment="1"):
    return compute_percentage_rake(basis=D(basis), percentage=D(percentage), maximum=D(maximum),
                                   minimum_pot=D(minimum_pot), increment=D(increment))[1]


class TestPercentageRake:
    @pytest.mark.proves("14.14(b)1-ten-percent")
    def test_14_14_b_1_i_never_more_than_ten_percent_rounded_down(self):
        assert rake("49.00") == D("4.00")  # 4.90 rounds down to the $1 chip: never above 10 %
        assert rake("49.00", increment="0.25") == D("4.75")
        assert rake("9.99") == D("0.00")

    @pytest.mark.proves("14.14(c)-as-posted")
    def test_14_14_c_posted_maximum_caps_the_rake(self):
        assert rake("50.00") == D("5.00")
        assert rake("59.99") == D("5.00")
        assert rake("1000.00") == D("5.00")

    def test_minimum_pot_edge(self):
        assert rake("19.99", minimum_pot="20") == D("0.00")
        assert rake("20.00", minimum_pot="20") == D("2.00")

    @pytest.mark.proves("14.14(b)1-ten-percent")
    @pytest.mark.parametrize(("basis", "increment", "expected"), [
        ("0.00", "0.01", "0.00"), ("0.50", "0.01", "0.05"), ("1.00", "0.01", "0.10"), ("1.00", "1", "0.00"),
        ("12.34", "0.01", "1.23"),
    ])
    def test_14_14_b_1_i_small_pots_to_the_cent(self, basis, increment, expected):
        """A pot of a dollar or less pays its 10 % where the increment is a cent; nothing from nothing."""
        assert rake(basis, increment=increment) == D(expected)

    @pytest.mark.proves("14.14(b)1-ten-percent")
    def test_14_14_b_1_i_structure_over_legal_maximum_is_refused(self):
        table = PokerTableFactory()
        with pytest.raises(DomainError) as exc:
            post_rake_structure(table=table, percentage=D("10.01"), maximum=D("5"))
        assert exc.value.field == "percentage"
        assert "10%" in exc.value.message
        post_rake_structure(table=table, percentage=D("10.00"), maximum=D("5"))


def record(table, players, board=""):
    return record_round_of_play(table=table, round_in=RoundIn(players=players, board=board, started_at=timezone.now()))


class TestRakeRound:
    @pytest.mark.proves("14.14(d)")
    def test_14_14_d_uncalled_final_bet_is_not_raked(self):
        """Seat 1 bets $30 more on the river and seat 2 folds: the $30 is returned, never raked."""
        table = RakeStructureFactory(maximum=D("100")).table
        round_of_play = record(table, [
            PlayerIn(seat=1, contributed=D("50.00"), hole_cards="As Ks"),
            PlayerIn(seat=2, contributed=D("20.00"), hole_cards="2c 7d", folded=True),
        ], board="Ah Kd 5c 9s 3h")
        record_ = RakeRecord.objects.get(round_of_play=round_of_play)
        assert round_of_play.uncalled_amount == D("30.00")
        assert record_.basis == D("40.00")
        assert record_.amount == D("4.00")

    def test_one_rake_record_per_round_also_without_a_structure(self):
        table = PokerTableFactory()
        round_of_play = record(table, [PlayerIn(seat=1, contributed=D("2.00")),
                                       PlayerIn(seat=2, contributed=D("1.00"), folded=True)])
        assert RakeRecord.objects.get(round_of_play=round_of_play).amount == D("0.00")


class TestPerBettingRound:
    @pytest.mark.proves("14.14(b)1-per-betting-round")
    def test_14_14_b_1_i_ten_percent_of_each_betting_round(self):
        """$15 bet in each of two betting rounds: $1 + $1 with $1 chips, not the $3 of the whole $30."""
        assert compute_percentage_rake(basis=D("30"), percentage=D("10"), maximum=D("5"), minimum_pot=D("0"),
                                       increment=D("1"), betting_rounds=[D("15"), D("15")]) == (D("2.00"), D("2.00"))

    @pytest.mark.proves("14.14(b)1-per-betting-round")
    @pytest.mark.parametrize(("betting_rounds", "increment", "expected"), [
        ((D("14.99"), D("14.99")), "0.01", ("2.98", "2.98")),  # $1.49 + $1.49, to the cent
        ((D("14.99"), D("14.99")), "0.25", ("2.50", "2.50")),  # $1.25 + $1.25
        ((D("14.99"), D("0"), D("14.99")), "0.25", ("2.50", "2.50")),  # nothing bet in the second round
        ((D("1.00"), D("0.50")), "0.01", ("0.15", "0.15")),  # rounds of a dollar and less are raked too
        ((D("25.00"), D("25.00"), D("25.00")), "1", ("6.00", "5.00")),  # $2 + $2 + $2, capped at $5
    ])
    def test_14_14_b_1_each_betting_round_rounded_down_on_its_own(self, betting_rounds, increment, expected):
        basis = sum(betting_rounds, D(0))
        assert compute_percentage_rake(basis=basis, percentage=D("10"), maximum=D("5"), minimum_pot=D("0"),
                                       increment=D(increment), betting_rounds=betting_rounds) == tuple(
            D(e) for e in expected)

    @pytest.mark.proves("14.14(b)1-per-betting-round", "14.14(d)")
    def test_betting_rounds_from_the_feed_and_the_uncalled_bet_out_of_the_last(self):
        table = RakeStructureFactory(maximum=D("100")).table
        round_of_play = record(table, [
            PlayerIn(seat=1, contributed=D("65.00"), hole_cards="As Ks", streets=(D("15"), D("20"), D("30"))),
            PlayerIn(seat=2, contributed=D("35.00"), hole_cards="2c 7d", folded=True, streets=(D("15"), D("20"))),
        ], board="Ah Kd 5c 9s 3h")
        assert round_of_play.betting_rounds == ["30.00", "40.00", "0.00"]
        assert RakeRecord.objects.get(round_of_play=round_of_play).amount == D("7.00")  # $3 + $4

    @pytest.mark.proves("14.14(b)1-per-betting-round")
    def test_14_14_b_1_a_player_who_put_nothing_in_needs_no_betting_rounds(self):
        """Seat 3 sat in and put nothing in: the round is still raked betting round by betting round, $2 + $2 from
        $29.98 twice (10 % of the whole $59.96 would be $5)."""
        table = RakeStructureFactory(maximum=D("100")).table
        round_of_play = record(table, [
            PlayerIn(seat=1, contributed=D("29.98"), hole_cards="As Ks", streets=(D("14.99"), D("14.99"))),
            PlayerIn(seat=2, contributed=D("29.98"), hole_cards="2c 7d", streets=(D("14.99"), D("14.99"))),
            PlayerIn(seat=3, contributed=D("0"), hole_cards="9c 9d", folded=True),
        ], board="Ah Kd 5c 9s 3h")
        assert round_of_play.betting_rounds == ["29.98", "29.98"]
        assert RakeRecord.objects.get(round_of_play=round_of_play).amount == D("4.00")

    @pytest.mark.proves("14.14(b)1-per-betting-round")
    @pytest.mark.parametrize(("players", "uncalled", "totals"), [
        ([PlayerIn(seat=1, contributed=D("0.50")), PlayerIn(seat=2, contributed=D("1"), streets=(D("1"),))], {}, []),
        ([PlayerIn(seat=1, contributed=D("1.00")), PlayerIn(seat=2, contributed=D("1"), streets=(D("1"),))], {}, []),
        ([], {}, []),
        ([PlayerIn(seat=1, contributed=D("40"), streets=(D("10"), D("10"), D("10"), D("10"))),
          PlayerIn(seat=2, contributed=D("10"), streets=(D("10"),), folded=True)], {"1": D("30")},
         [D("20.00"), D("0.00"), D("0.00"), D("0.00")]),
        ([PlayerIn(seat=1, contributed=D("40"), streets=(D("10"), D("10"), D("10"), D("10")), returned=D("0")),
          PlayerIn(seat=2, contributed=D("10"), streets=(D("10"),), folded=True)], {"1": D("30")},
         [D("20.00"), D("10.00"), D("10.00"), D("10.00")]),
        ([PlayerIn(seat=1, contributed=D("25"), streets=(D("5"), D("20"))),
          PlayerIn(seat=2, contributed=D("15"), streets=(D("5"), D("10")), folded=True)], {"1": D("10")},
         [D("10.00"), D("20.00")]),
    ])
    def test_14_14_b_1_the_sums_bet_in_each_betting_round(self, players, uncalled, totals):
        """Each betting round's sums, padded for a player who stopped betting early, the uncalled bet taken out of
        the last rounds it was bet in (unless the feed left it out already); none unless every player who put chips in
        gave betting rounds."""
        assert betting_round_totals(players, uncalled) == totals

    def test_betting_rounds_must_add_up(self):
        with pytest.raises(DomainError) as exc:
            record(PokerTableFactory(), [PlayerIn(seat=1, contributed=D("10"), streets=(D("5"), D("4"))),
                                         PlayerIn(seat=2, contributed=D("5"), folded=True, streets=(D("5"),))])
        assert exc.value.field == "players[0].streets"


@pytest.mark.proves("14.14(e)")
def test_14_14_e_nothing_is_raked_after_the_pot_is_pushed():
    """14.14(e): no rake is taken after the pot is pushed: a round has one rake record at most, its round unique in
    PostgreSQL, so a second rake of a recorded round is refused when written, and writes nothing."""
    from django.db import IntegrityError

    from apps.core.exceptions import unique_violation_on
    from apps.core.writer import Writer
    from apps.rake.services import take_rake

    table = RakeStructureFactory().table
    round_of_play = record(table, [PlayerIn(seat=1, contributed=D("50"), hole_cards="As Ks"),
                                   PlayerIn(seat=2, contributed=D("50"), hole_cards="2c 7d")], board="Ah Kd 5c 9s 3h")
    taken = take_rake(rounds=[round_of_play])
    assert taken.amounts == [D("5.00")]  # what the posted rake would take again
    writer = Writer()
    writer.add(taken.records)
    writer.add_totals(taken.hours)
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        writer.flush()
    assert unique_violation_on(refused.value, RakeRecord)
    assert RakeRecord.objects.filter(round_of_play=round_of_play).count() == 1


def percentage_round(table, streets_each, board="Ah Kd 5c 9s 3h"):
    """A heads-up round, called down, in which each player put in `streets_each` (dollars per betting round)."""
    streets = tuple(D(s) for s in streets_each)
    return RakeRecord.objects.get(round_of_play=record(table, [
        PlayerIn(seat=1, contributed=sum(streets, D(0)), hole_cards="As Ks", streets=streets),
        PlayerIn(seat=2, contributed=sum(streets, D(0)), hole_cards="2c 7d", streets=streets)], board=board))


@pytest.mark.proves("14.14(b)1-ten-percent", "14.14(b)1-per-betting-round")
class TestPercentageRakeRecorded:
    """What the rake record of each round says of a percentage rake: the sums raked in each betting round (one, when
    the feed gives no betting rounds), and the minimum or cap applied."""

    @pytest.fixture
    def table(self):
        table = PokerTableFactory(bad_beat_participation=False)
        post_rake_structure(table=table, percentage=D("10"), maximum=D("5"), minimum_pot=D("40"))
        return table

    @pytest.mark.parametrize(("streets", "amount", "explanation"), [
        (["19.99"], "0.00", "Pot $39.98 is below the $40.00 minimum: no rake."),
        (["20.00"], "4.00", "10.00% of $40.00, each rounded down to $1.00: $4.00."),
        (["24.99"], "4.00", "10.00% of $49.98, each rounded down to $1.00: $4.00."),
        (["25.00"], "5.00", "10.00% of $50.00, each rounded down to $1.00: $5.00."),
        (["30.00"], "5.00", "10.00% of $60.00 = $6.00, capped at the posted maximum $5.00."),
        (["30.00", "0", "0"], "5.00", "10.00% of $60.00 = $6.00, capped at the posted maximum $5.00."),
    ])
    def test_14_14_b_1_each_round_records_how_its_rake_was_taken(self, table, streets, amount, explanation):
        rake_record = percentage_round(table, streets)
        assert (rake_record.amount, rake_record.explanation) == (D(amount), explanation)
        assert (rake_record.percentage, rake_record.maximum) == (D("10.00"), D("5.00"))

    @pytest.mark.parametrize(("streets", "amount", "explanation"), [
        (["10.00", "10.00"], "4.00",
         "10.00% of $20.00 + $20.00 bet in the betting rounds, each rounded down to $1.00: $4.00."),
        (["14.99", "14.99"], "4.00",  # $2 + $2, where 10 % of the whole $59.96 would be $5
         "10.00% of $29.98 + $29.98 bet in the betting rounds, each rounded down to $1.00: $4.00."),
        (["14.99", "0", "14.99"], "4.00",
         "10.00% of $29.98 + $29.98 bet in the betting rounds, each rounded down to $1.00: $4.00."),
        (["20.00", "20.00"], "5.00",
         "10.00% of $40.00 + $40.00 bet in the betting rounds = $8.00, capped at the posted maximum $5.00."),
    ])
    def test_14_14_b_1_each_round_records_the_betting_rounds_raked(self, table, streets, amount, explanation):
        rake_record = percentage_round(table, streets)
        assert (rake_record.amount, rake_record.explanation) == (D(amount), explanation)

    @pytest.mark.parametrize(("pot_each", "amount", "explanation"), [
        ("20.00", "4.00", "10.00% of $40.00, each rounded down to $1.00: $4.00."),
        ("30.00", "5.00", "10.00% of $60.00 = $6.00, capped at the posted maximum $5.00."),
        ("19.50", "0.00", "Pot $39.00 is below the $40.00 minimum: no rake."),
    ])
    def test_14_14_b_1_a_round_the_feed_gives_no_betting_rounds_for_is_raked_whole(self, table, pot_each, amount,
                                                                                    explanation):
        rake_record = RakeRecord.objects.get(round_of_play=record(table, [
            PlayerIn(seat=1, contributed=D(pot_each), hole_cards="As Ks"),
            PlayerIn(seat=2, contributed=D(pot_each), hole_cards="2c 7d")], board="Ah Kd 5c 9s 3h"))
        assert rake_record.round_of_play.betting_rounds == []
        assert (rake_record.amount, rake_record.explanation) == (D(amount), explanation)

    def test_14_14_b_1_a_long_account_of_betting_rounds_is_cut_to_the_record(self, table):
        """Thirty betting rounds: the account is cut at the record's 300 characters, the amount still right."""
        rake_record = percentage_round(table, ["5.00"] * 30)
        assert rake_record.amount == D("5.00")
        assert len(rake_record.explanation) == 300
        assert rake_record.explanation.startswith("10.00% of $10.00 + $10.00 + ")


class TestPercentagePosted:
    @pytest.mark.proves("14.14(b)1-ten-percent")
    @pytest.mark.parametrize("percentage", [D("0"), D("0.01"), D("9.99"), D("10"), D("10.00")])
    def test_14_14_b_1_a_percentage_up_to_ten_is_posted(self, percentage):
        structure = post_rake_structure(table=PokerTableFactory(), percentage=percentage, maximum=D("5"))
        assert structure.percentage == percentage
        assert structure.levels == []

    @pytest.mark.proves("14.14(b)1-ten-percent")
    @pytest.mark.parametrize("percentage", [None, D("-0.01"), D("10.01"), D("100")])
    def test_14_14_b_1_no_percentage_a_negative_one_or_over_ten_is_refused(self, percentage):
        table = PokerTableFactory()
        with pytest.raises(DomainError) as refused:
            post_rake_structure(table=table, percentage=percentage, maximum=D("5"))
        assert (refused.value.field, refused.value.message) == (
            "percentage", "A percentage rake may not exceed 10% of the sums bet (N.J.A.C. 13:69F-14.14(b)1.i).")
        assert not RakeStructure.objects.filter(table=table).exists()

    @pytest.mark.proves("14.14(b)1-ten-percent", "14.14(b)1-per-betting-round")
    @pytest.mark.parametrize(("percentage", "betting_rounds"), [
        ("11", ()), ("10.01", ()), ("11", (D("50"), D("50"))), ("20", (D("100"), D("0"))),
    ])
    def test_14_14_b_1_the_rake_itself_never_takes_more_than_ten_percent(self, percentage, betting_rounds):
        """Defence in depth: a percentage above 10 % that reached the rake (a structure stored before the check) is
        refused there, whether raked whole or by betting round, not taken."""
        with pytest.raises(DomainError) as refused:
            compute_percentage_rake(basis=D("100"), percentage=D(percentage), maximum=D("50"), minimum_pot=D("0"),
                                    increment=D("0.01"), betting_rounds=betting_rounds)
        assert (refused.value.field, refused.value.message) == ("percentage", "The rake would exceed 10% of the sums bet.")
