"""Bad-beat contributions and claims, N.J.A.C. 13:69F-14.19."""
import threading
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from apps.badbeat.models import Claim, ClaimStatus, Contribution, Jackpot, JackpotStatus
from apps.badbeat.selectors import contributions_total
from apps.badbeat.services import compute_contribution
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.rake.models import RakeRecord
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory

D = Decimal
pytestmark = pytest.mark.django_db


def heads_up(table, *, pot_each: str, a="As Ks", b="2c 7d", board="Ah Kd 5c 9s 3h"):
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=[
        PlayerIn(seat=1, contributed=D(pot_each), hole_cards=a), PlayerIn(seat=2, contributed=D(pot_each), hole_cards=b)]))


def quads_beaten_three_way(table, third: PlayerIn, *, straight_flush_in="100.00"):
    """Four nines (seat 1, $100.00 in) lose to a straight flush (seat 2) beside a third player."""
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
        PlayerIn(seat=1, contributed=D("100.00"), hole_cards="9s 9c"),
        PlayerIn(seat=2, contributed=D(straight_flush_in), hole_cards="5s 4s"), third]))


class TestContribution:
    @pytest.mark.proves("14.19(c)-after-rake", "14.19(c)-per-pot")
    def test_14_19_c_taken_after_the_rake(self):
        """Pot $100, rake 10 % capped at $5, then 1 % of the $95 left: $0.95."""
        table = RakeStructureFactory().table
        JackpotFactory(casino=table.casino, contribution_amount=None, contribution_percentage=D("1.00"),
                       maximum_contribution=D("2.00"))
        round_of_play = heads_up(table, pot_each="50.00")
        assert RakeRecord.objects.get(round_of_play=round_of_play).amount == D("5.00")
        contribution = Contribution.objects.get(round_of_play=round_of_play)
        assert contribution.basis == D("95.00")
        assert contribution.amount == D("0.95")
        assert sum(p.amount for p in round_of_play.pots.all()) == D("94.05")

    @pytest.mark.proves("14.19(c)-per-pot", "14.19(c)-after-rake")
    def test_14_19_c_each_pot_contributes_to_the_primary_first_then_the_secondary_from_what_is_left(self):
        """14.19(c): each pot, after the rake, contributes to every payout of the casino that collects, as its rules
        say: the primary first, then a secondary funded by its own contribution from what the primary left. The
        secondary here is older than the primary (its first primary discontinued into it, a new primary posted).
        A pot below the primary's minimum contributes to the secondary alone: no record of nothing is kept."""
        from apps.badbeat.models import Funding, QualifyingHand
        from apps.badbeat.services import create_secondary_jackpot, post_jackpot_rules

        table = RakeStructureFactory().table  # 10 % rake, capped at $5
        first = JackpotFactory(casino=table.casino)
        secondary = create_secondary_jackpot(
            primary=first, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE, funding=Funding.CONTRIBUTIONS,
            contribution_amount=None, contribution_percentage=D("5"), maximum_contribution=D("10.00"),
            minimum_pot=D("0"))
        Jackpot.objects.filter(pk=first.pk).update(status=JackpotStatus.DISCONTINUED, is_collecting=False)
        primary = post_jackpot_rules(casino=table.casino, minimum_pot=D("20.00"), maximum_contribution=D("10.00"),
                                     qualifying_hand=QualifyingHand.FOUR_OF_A_KIND, contribution_percentage=D("10"))
        assert secondary.pk < primary.pk

        big = heads_up(table, pot_each="50.00")  # $100 pot, $5 rake: $95 left
        assert [(c.jackpot_id, c.basis, c.amount) for c in Contribution.objects.filter(
            round_of_play=big).order_by("pk")] == [
            (primary.pk, D("95.00"), D("9.50")),  # 10 % of $95
            (secondary.pk, D("85.50"), D("4.27"))]  # 5 % of the $85.50 the primary left, rounded down
        assert sum(p.amount for p in big.pots.all()) == D("81.23")  # $95 less $13.77 set aside

        small = heads_up(table, pot_each="7.50")  # $15 pot, below the primary's $20 minimum
        assert RakeRecord.objects.get(round_of_play=small).amount == D("1.00")  # the rake as posted: whole dollars
        assert [(c.jackpot_id, c.basis, c.amount) for c in Contribution.objects.filter(round_of_play=small)] == [
            (secondary.pk, D("14.00"), D("0.70"))]
        assert not Contribution.objects.filter(jackpot=first).exists()

    @pytest.mark.proves("14.19(c)-per-pot", "14.19(c)-designated")
    def test_14_19_c_in_one_batch_each_participating_pot_contributes_once(self):
        """14.19(c): a batch of rounds from a table whose game does not take part in the bad beat payout and from one
        whose game does, the non-participating first: each pot of the participating table contributes, once; the
        other's none."""
        from apps.feed.services import record_batch_of_rounds

        inside = PokerTableFactory()
        outside = PokerTableFactory(casino=inside.casino, bad_beat_participation=False)
        jackpot = JackpotFactory(casino=inside.casino)

        def a_pot(each: str) -> RoundIn:
            return RoundIn(started_at=timezone.now(), board="Ah Kd 5c 9s 3h", players=[
                PlayerIn(seat=1, contributed=D(each), hole_cards="As Ks"),
                PlayerIn(seat=2, contributed=D(each), hole_cards="2c 7d")])

        recorded = record_batch_of_rounds(rounds=[(outside, a_pot("50")), (inside, a_pot("50")),
                                                  (outside, a_pot("40")), (inside, a_pot("15"))])
        assert [(c.round_of_play_id, c.amount) for c in Contribution.objects.order_by("pk")] == [
            (recorded[1].pk, D("1.00")), (recorded[3].pk, D("1.00"))]
        jackpot.refresh_from_db()
        assert jackpot.balance == D("2.00") == jackpot.contributions_total

    @pytest.mark.proves("14.19(p)-reset", "14.19(k)-official-record")
    def test_14_19_p_k_a_batch_keeps_the_reset_parts_and_the_daily_records_equal_to_the_contributions(self):
        """14.19(p): over a gaming day the reset parts add up to the posted percentage of the day's contributions,
        rounded down to the cent, each contribution's part following those before it in the same batch or in the
        day's earlier transactions; the balance takes the rest. 14.19(k): the record of each day's contributions (by jackpot, and by table) equals
        the contributions themselves: amounts, reset parts and how many — re-derived here from the records."""
        from datetime import timedelta

        from django.db.models import Count, Sum

        from apps.badbeat.models import GamingDayContributions, TableDayContributions
        from apps.feed.services import record_batch_of_rounds

        first = PokerTableFactory()
        second = PokerTableFactory(casino=first.casino)
        jackpot = JackpotFactory(casino=first.casino, contribution_amount=D("0.35"), maximum_contribution=D("0.35"),
                                 reset_percentage=D("15"))
        today, yesterday = timezone.now(), timezone.now() - timedelta(days=1)

        def a_pot(when) -> RoundIn:
            return RoundIn(started_at=when, board="Ah Kd 5c 9s 3h", players=[
                PlayerIn(seat=1, contributed=D("20"), hole_cards="As Ks"),
                PlayerIn(seat=2, contributed=D("20"), hole_cards="2c 7d")])

        record_batch_of_rounds(rounds=[(first, a_pot(today)), (first, a_pot(today)), (second, a_pot(today)),
                                       (first, a_pot(yesterday)), (second, a_pot(today)), (first, a_pot(today))])
        for _ in range(3):  # yesterday's day goes on in transactions of their own: each reads the day's total so far
            record_round_of_play(table=first, round_in=a_pot(yesterday))
        # today: five contributions of $0.35 = $1.75; 15 % of it is $0.2625, so $0.26 set aside in parts of
        # 0.05, 0.05, 0.05, 0.06, 0.05 (15 % of $0.35, $0.70, $1.05, $1.40, $1.75, each rounded down, less the one before);
        # yesterday: four, $1.40, $0.21 set aside (0.05, 0.05, 0.05, 0.06)
        by_day = {d.gaming_day: d for d in GamingDayContributions.objects.all()}
        assert sorted((d.contributions, d.to_reset, d.count) for d in by_day.values()) == [
            (D("1.40"), D("0.21"), 4), (D("1.75"), D("0.26"), 5)]
        today_parts = Contribution.objects.filter(gaming_day=max(by_day)).order_by("pk").values_list("to_reset", flat=True)
        assert list(today_parts) == [D("0.05"), D("0.05"), D("0.05"), D("0.06"), D("0.05")]
        derived_days = {(r["gaming_day"]): (r["total"], r["reset"], r["n"]) for r in Contribution.objects.values(
            "gaming_day").annotate(total=Sum("amount"), reset=Sum("to_reset"), n=Count("pk")).order_by()}
        assert {day: (d.contributions, d.to_reset, d.count) for day, d in by_day.items()} == derived_days
        by_table = {(t.table_id, t.gaming_day): (t.amount, t.count) for t in TableDayContributions.objects.all()}
        assert by_table == {(r["table_id"], r["gaming_day"]): (r["total"], r["n"]) for r in Contribution.objects.values(
            "table_id", "gaming_day").annotate(total=Sum("amount"), n=Count("pk")).order_by()}
        assert sorted(by_table.values()) == [(D("0.70"), 2), (D("1.05"), 3), (D("1.40"), 4)]
        jackpot.refresh_from_db()
        assert (jackpot.contributions_total, jackpot.reset_reserve, jackpot.balance) == (
            D("3.15"), D("0.47"), D("2.68"))

    @pytest.mark.proves("14.19(b)2-applied")
    def test_14_19_b_2_minimum_pot_edge(self):
        jackpot = JackpotFactory(minimum_pot=D("20.00"))
        assert compute_contribution(jackpot=jackpot, pot_total=D("19.99"), after_rake=D("19.99"))[0] == D("0")
        assert compute_contribution(jackpot=jackpot, pot_total=D("20.00"), after_rake=D("18.00"))[0] == D("1.00")

    @pytest.mark.proves("14.19(b)1-applied")
    def test_14_19_b_1_maximum_contribution_caps_a_percentage(self):
        jackpot = JackpotFactory(contribution_amount=None, contribution_percentage=D("5"), maximum_contribution=D("3"))
        amount, how = compute_contribution(jackpot=jackpot, pot_total=D("200"), after_rake=D("195"))
        assert amount == D("3")
        assert "capped" in how

    @pytest.mark.proves("14.19(b)1-applied", "14.19(b)2-applied")
    def test_14_19_b_1_and_2_the_contribution_of_a_pot_as_posted(self):
        """A pot below the posted minimum contributes nothing, one of the minimum or more contributes (14.19(b)2);
        the posted percentage of the pot after the rake, rounded down to the cent, or the posted fixed amount, never
        more than the posted maximum nor than what is left (14.19(b)1)."""
        percent = JackpotFactory(minimum_pot=D("20.00"), contribution_amount=None, contribution_percentage=D("5"),
                                 maximum_contribution=D("3.00"))
        percent.refresh_from_db()  # as stored: the percentage with its two places
        assert compute_contribution(jackpot=percent, pot_total=D("19.99"), after_rake=D("19.99"))[0] == D("0")
        assert compute_contribution(jackpot=percent, pot_total=D("20.00"), after_rake=D("20.00")) == (
            D("1.00"), "5.00% of $20.00 after rake = $1.00.")
        assert compute_contribution(jackpot=percent, pot_total=D("60.00"), after_rake=D("55.55")) == (
            D("2.77"), "5.00% of $55.55 after rake = $2.77.")  # $2.7775, rounded down
        assert compute_contribution(jackpot=percent, pot_total=D("99.00"), after_rake=D("95.00")) == (
            D("3.00"), "5.00% of $95.00 after rake = $4.75, capped at $3.00.")
        fixed = JackpotFactory(minimum_pot=D("20.00"), contribution_amount=D("1.50"), maximum_contribution=D("1.50"))
        assert compute_contribution(jackpot=fixed, pot_total=D("20.00"), after_rake=D("18.00")) == (
            D("1.50"), "$1.50 per pot.")
        assert compute_contribution(jackpot=fixed, pot_total=D("20.00"), after_rake=D("1.20")) == (
            D("1.20"), "$1.50 per pot, capped at $1.20.")

    def test_never_more_than_what_is_left_in_the_pot(self):
        jackpot = JackpotFactory(minimum_pot=D("0"), contribution_amount=D("1.00"))
        assert compute_contribution(jackpot=jackpot, pot_total=D("0.60"), after_rake=D("0.50"))[0] == D("0.50")

    def test_table_not_participating_contributes_nothing(self):
        table = PokerTableFactory(bad_beat_participation=False)
        JackpotFactory(casino=table.casino)
        heads_up(table, pot_each="50.00")
        assert not Contribution.objects.exists()

    def test_jackpot_balance_equals_sum_of_contribution_records(self):
        table = PokerTableFactory()
        jackpot = JackpotFactory(casino=table.casino)
        for _ in range(7):
            heads_up(table, pot_each="15.00")
        heads_up(table, pot_each="5.00")  # below the minimum pot
        jackpot.refresh_from_db()
        assert jackpot.balance == D("7.00") == contributions_total(jackpot=jackpot)


class TestBadBeatClaim:
    @pytest.mark.proves("14.19(a)-losing-hand")
    def test_14_19_a_losing_four_of_a_kind_opens_a_pending_claim(self):
        """Four nines lose to a straight flush: the engine finds the bad beat, a supervisor must verify (14.19(i))."""
        table = PokerTableFactory()
        JackpotFactory(casino=table.casino)
        round_of_play = heads_up(table, pot_each="100.00", a="9s 9c", b="5s 4s", board="9h 9d 6s 7s 8s")
        claim = Claim.objects.get(round_of_play=round_of_play)
        assert claim.seat == 1
        assert claim.status == ClaimStatus.PENDING
        assert claim.losing_hand.lower().startswith("four")
        assert "straight flush" in claim.winning_hand.lower()

    @pytest.mark.proves("14.19(a)-losing-hand", "14.19(b)3-applied")
    def test_14_19_b_3_a_lesser_losing_hand_does_not_qualify(self):
        table = PokerTableFactory()
        JackpotFactory(casino=table.casino)
        heads_up(table, pot_each="100.00", a="9s 6c", b="5s 4s", board="9h 9d 6s 7s 8s")  # full house loses
        assert not Claim.objects.exists()

    @pytest.mark.proves("14.19(a)-losing-hand")
    def test_14_19_a_a_live_payout_takes_a_claim_with_its_payout_pending_and_a_discontinued_one_none(self):
        """14.19(a): a bad beat is claimed from every payout still offered — one whose last payout is pending too (the
        claim waits for the supervisor, 14.19(i)) — and from none discontinued."""
        table = PokerTableFactory()
        jackpot = JackpotFactory(casino=table.casino)
        Jackpot.objects.filter(pk=jackpot.pk).update(status=JackpotStatus.PAYOUT_PENDING)
        pending = heads_up(table, pot_each="100.00", a="9s 9c", b="5s 4s", board="9h 9d 6s 7s 8s")
        assert [(c.jackpot_id, c.seat, c.status) for c in Claim.objects.filter(round_of_play=pending)] == [
            (jackpot.pk, 1, ClaimStatus.PENDING)]
        Jackpot.objects.filter(pk=jackpot.pk).update(status=JackpotStatus.DISCONTINUED)
        discontinued = heads_up(table, pot_each="100.00", a="9s 9c", b="5s 4s", board="9h 9d 6s 7s 8s")
        assert not Claim.objects.filter(round_of_play=discontinued).exists()

    @pytest.mark.proves("14.19(a)-losing-hand")
    def test_14_19_a_the_losing_hand_of_the_main_pot_is_claimed_though_it_won_a_side_pot(self):
        """14.19(a): the losing hand is the main pot's. Four nines all in for $100 lose the main pot to a straight
        flush all in for $50 and win the $100 side pot from a pair of kings: the four nines are a bad beat."""
        table = PokerTableFactory()
        JackpotFactory(casino=table.casino)
        round_of_play = quads_beaten_three_way(table, PlayerIn(seat=3, contributed=D("100.00"), hole_cards="Kc Kd"),
                                               straight_flush_in="50.00")
        [claim] = Claim.objects.filter(round_of_play=round_of_play)
        assert claim.seat == 1 and claim.losing_hand.lower().startswith("four")

    @pytest.mark.proves("14.19(a)-losing-hand")
    def test_14_19_a_a_loser_who_mucks_at_the_showdown_leaves_the_shown_bad_beat_claimed(self):
        """14.19(a): a third player reaches the showdown and concedes without showing; the four nines shown lose to the
        straight flush and are claimed, the mucked hand is not judged."""
        table = PokerTableFactory()
        JackpotFactory(casino=table.casino)
        round_of_play = quads_beaten_three_way(table, PlayerIn(seat=3, contributed=D("100.00"), hole_cards="",
                                                               mucked=True))
        assert [c.seat for c in Claim.objects.filter(round_of_play=round_of_play)] == [1]

    @pytest.mark.proves("14.19(a)-losing-hand", "14.19(c)-designated")
    def test_14_19_a_a_bad_beat_at_a_game_that_does_not_participate_is_no_claim(self):
        """14.19(a), (c): four nines losing to a straight flush at a table whose game does not take part in the bad
        beat payout open no claim; at a table whose game does, they do."""
        casino = PokerTableFactory().casino
        JackpotFactory(casino=casino)
        outside = PokerTableFactory(casino=casino, bad_beat_participation=False)
        inside = PokerTableFactory(casino=casino)
        for table in (outside, inside):
            heads_up(table, pot_each="100.00", a="9s 9c", b="5s 4s", board="9h 9d 6s 7s 8s")
        assert [c.round_of_play.table_id for c in Claim.objects.select_related("round_of_play")] == [inside.pk]

    @pytest.mark.proves("14.19(a)-losing-hand")
    def test_14_19_a_a_discontinued_primary_takes_no_claim_beside_its_live_secondary(self):
        """14.19(a): the bad beat qualifies for the primary payout (four of a kind) and its secondary (a full house,
        funded by its own contribution); the primary discontinued, only the secondary is claimed."""
        from apps.badbeat.models import Funding, QualifyingHand
        from apps.badbeat.services import create_secondary_jackpot

        table = PokerTableFactory()
        primary = JackpotFactory(casino=table.casino, qualifying_hand=QualifyingHand.FOUR_OF_A_KIND)
        secondary = create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                             funding=Funding.CONTRIBUTIONS, contribution_amount=D("0.50"),
                                             maximum_contribution=D("0.50"), minimum_pot=D("0"))
        Jackpot.objects.filter(pk=primary.pk).update(status=JackpotStatus.DISCONTINUED)
        round_of_play = heads_up(table, pot_each="100.00", a="9s 9c", b="5s 4s", board="9h 9d 6s 7s 8s")
        assert [c.jackpot_id for c in Claim.objects.filter(round_of_play=round_of_play)] == [secondary.pk]

    @pytest.mark.proves("14.19(a)-losing-hand", "14.19(c)-designated")
    def test_14_19_a_in_one_batch_only_the_participating_tables_bad_beat_is_claimed(self):
        """14.19(a), (c): one batch of rounds from two tables of a casino, one whose game takes part in the bad beat
        payout and one whose game does not, each with four nines losing to a straight flush: the participating table's
        round is claimed, the other's not (its casino's payouts are locked for the batch all the same)."""
        from apps.feed.services import record_batch_of_rounds

        inside = PokerTableFactory()
        outside = PokerTableFactory(casino=inside.casino, bad_beat_participation=False)
        JackpotFactory(casino=inside.casino)

        def bad_beat():
            return RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
                PlayerIn(seat=1, contributed=D("100.00"), hole_cards="9s 9c"),
                PlayerIn(seat=2, contributed=D("100.00"), hole_cards="5s 4s")])

        outside_round, inside_round = record_batch_of_rounds(rounds=[(outside, bad_beat()), (inside, bad_beat())])
        assert [c.round_of_play_id for c in Claim.objects.all()] == [inside_round.pk]
        assert not Claim.objects.filter(round_of_play=outside_round).exists()

    @pytest.mark.proves("14.19(a)-losing-hand")
    def test_the_winning_hand_never_opens_a_claim(self):
        table = PokerTableFactory()
        JackpotFactory(casino=table.casino)
        heads_up(table, pot_each="100.00", a="9s 9c", b="2h 3d", board="9h 9d 6s Kc 8s")
        assert not Claim.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_concurrent_rounds_lose_no_cent():
    """Eight writers record rounds at once: the jackpot balance under its row lock equals the sum of the rows."""
    table = PokerTableFactory()
    jackpot = JackpotFactory(casino=table.casino)
    errors = []

    def writer(n):
        try:
            for _ in range(10):
                heads_up(table, pot_each="25.00")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    jackpot = Jackpot.objects.get(pk=jackpot.pk)
    assert Contribution.objects.count() == 80
    assert jackpot.balance == D("80.00") == contributions_total(jackpot=jackpot)


@pytest.mark.proves("14.19(b)2-applied", "14.6(e)9")
def test_14_19_b_2_along_the_money_path_a_pot_short_of_the_minimum_contributes_nothing():
    """14.19(b)2 as the money path applies it (take_contributions, in one batch of rounds), the dealer collecting
    what is required to be contributed where it applies (14.6(e)9): the posted minimum pot is
    $20.00, the contribution $1.00, 12.5 % of the day's contributions set aside for the reset amount (14.19(p)). A
    $19.98 pot contributes nothing; a pot of exactly $20.00 and one of $40.00 contribute $1.00 each, their reset
    parts $0.12 and $0.13 (12.5 % of $1.00, then of $2.00 less the $0.12 already set aside, to the cent). The
    jackpot's balance, reserve and total and the day's and the table's running totals move by exactly that."""
    from apps.badbeat.models import GamingDayContributions, TableDayContributions
    from apps.feed.services import record_batch_of_rounds

    table = PokerTableFactory()
    jackpot = JackpotFactory(casino=table.casino, minimum_pot=D("20.00"), reset_percentage=D("12.50"))
    before = Jackpot.objects.values_list("balance", "reset_reserve", "contributions_total").get(pk=jackpot.pk)

    def pot_of(each: str) -> RoundIn:
        return RoundIn(started_at=timezone.now(), board="Ah Kd 5c 9s 3h", players=[
            PlayerIn(seat=1, contributed=D(each), hole_cards="As Ks"), PlayerIn(seat=2, contributed=D(each),
                                                                                hole_cards="2c 7d")])
    rounds = record_batch_of_rounds(rounds=[(table, pot_of("9.99")), (table, pot_of("10.00")), (table, pot_of("20.00"))])
    taken = [[(c.amount, c.to_reset) for c in Contribution.objects.filter(round_of_play=r)] for r in rounds]
    assert taken == [[], [(D("1.00"), D("0.12"))], [(D("1.00"), D("0.13"))]]
    after = Jackpot.objects.values_list("balance", "reset_reserve", "contributions_total").get(pk=jackpot.pk)
    assert [a - b for a, b in zip(after, before, strict=True)] == [D("1.75"), D("0.25"), D("2.00")]
    day = GamingDayContributions.objects.get(jackpot=jackpot, gaming_day=rounds[0].gaming_day)
    assert (day.contributions, day.to_reset, day.count) == (D("2.00"), D("0.25"), 2)
    at_table = TableDayContributions.objects.get(jackpot=jackpot, table=table, gaming_day=rounds[0].gaming_day)
    assert (at_table.amount, at_table.count) == (D("2.00"), 2)
