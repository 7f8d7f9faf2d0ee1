"""The bad beat payout lifecycle: posted rules, claims, payouts, displays, resets, discontinuing (N.J.A.C.
13:69F-14.19)."""
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.badbeat.models import (
    BothQualifyRule,
    Claim,
    ClaimStatus,
    DailyReset,
    Funding,
    Jackpot,
    JackpotKind,
    JackpotStatus,
    MultipleLosersRule,
    PayoutNotification,
    QualifyingHand,
    RuleChangeStatus,
    Transfer,
)
from apps.badbeat.selectors import display_rows, judge_round, ledger
from apps.badbeat.services import (
    adjust_display,
    apply_due_rule_changes,
    create_secondary_jackpot,
    discontinue_jackpot,
    open_claim,
    post_jackpot_rules,
    propose_rule_change,
    record_payout,
    reject_claim,
    reset_part,
    verify_claim,
)
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory, StaffFactory

D = Decimal
pytestmark = pytest.mark.django_db

QUADS_BEATEN = dict(board="9h 9d 6s 7s 8s", hands=["9s 9c", "5s 4s", "Ac Kd", "2c 3d"])


def play(table, *, board, hands, each="10.00", folded=(2, 3), names=("Ann", "Ben", "Cy", "Di")):
    """A round at `table`: seats 0..n-1 with `hands`; the seats in `folded` fold after putting in $1."""
    players = [PlayerIn(seat=i + 1, name=names[i], hole_cards=h, folded=i in folded,
                        contributed=D("1.00") if i in folded else D(each)) for i, h in enumerate(hands)]
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=players))


@pytest.fixture
def table(casino):
    return PokerTableFactory(casino=casino)


@pytest.fixture
def jackpot(casino):
    return JackpotFactory(casino=casino, minimum_players_dealt=4, both_hole_cards_must_play=True,
                          balance=D("0.00"), minimum_pot=D("0"))


def fund(jackpot, table, rounds=10):
    for _ in range(rounds):
        play(table, board="2h 7d 9c Js Kd", hands=["As Ac", "Qh Qd", "3s 4s", "5c 6c"])
    jackpot.refresh_from_db()
    return jackpot


class TestQualifying:
    @pytest.mark.proves("14.19(b)3-applied", "14.19(a)-losing-hand")
    def test_14_19_b_3_quads_beaten_by_a_straight_flush_qualify_and_show_why(self, table, jackpot):
        round_of_play = play(table, **QUADS_BEATEN)
        verdict = judge_round(jackpot=jackpot, round_of_play=round_of_play)
        assert verdict.qualifies
        assert verdict.losing_seats == [1] and verdict.winning_seats == [2]
        assert verdict.losing_hand.category.label == "Four of a kind"
        assert "2 hole cards played (9s 9c)" in verdict.played[1]
        assert [c.label for c in verdict.checks] == ["Players dealt in", "Winning hand", "Losing hand",
                                                     "Both hole cards play"]

    @pytest.mark.proves("14.19(b)3-applied")
    def test_14_19_b_3_at_least_four_players_dealt_in(self, table, jackpot):
        round_of_play = play(table, board=QUADS_BEATEN["board"], hands=QUADS_BEATEN["hands"][:3], folded=(2,))
        verdict = judge_round(jackpot=jackpot, round_of_play=round_of_play)
        assert not verdict.qualifies
        assert "3 dealt in; at least 4 required" in verdict.checks[0].detail

    @pytest.mark.proves("14.19(b)3-applied")
    def test_14_19_b_3_both_hole_cards_must_play(self, table, jackpot):
        """Quads on the board with an ace kicker from one hole card: only one hole card plays."""
        round_of_play = play(table, board="9h 9d 9s 9c 2d", hands=["Ah 3c", "As Kh", "4c 5d", "6h 7h"],
                             folded=(2, 3))
        verdict = judge_round(jackpot=jackpot, round_of_play=round_of_play)
        assert not verdict.qualifies

    @pytest.mark.proves("14.19(b)3-applied")
    def test_14_19_b_3_minimum_rank_within_the_category(self, table, casino):
        jackpot = JackpotFactory(casino=casino, qualifying_hand=QualifyingHand.FOUR_OF_A_KIND,
                                 qualifying_minimum_rank=10, minimum_players_dealt=2)
        round_of_play = play(table, **QUADS_BEATEN)
        verdict = judge_round(jackpot=jackpot, round_of_play=round_of_play)
        assert not verdict.qualifies
        assert "four of a kind of tens or better required" in verdict.checks[-1].detail

    def test_showdown_opens_one_pending_claim(self, table, jackpot):
        round_of_play = play(table, **QUADS_BEATEN)
        claim = Claim.objects.get(round_of_play=round_of_play)
        assert claim.status == ClaimStatus.PENDING and claim.seat == 1 and claim.opened_by is None
        assert claim.evaluation["qualifies"] is True


class TestClaims:
    @pytest.mark.proves("14.19(i)-verified", "14.19(i)2", "14.19(b)3-applied")
    def test_14_19_i_verification_freezes_amount_splits_shares_and_notifies(self, table, jackpot, supervisor):
        jackpot = fund(jackpot, table)
        assert jackpot.balance == D("10.00")
        round_of_play = play(table, **QUADS_BEATEN)
        claim = verify_claim(claim=Claim.objects.get(round_of_play=round_of_play), supervisor=supervisor)
        jackpot.refresh_from_db()
        assert claim.status == ClaimStatus.VERIFIED
        assert claim.payout_amount == D("11.00")  # the bad-beat round itself contributed $1
        assert jackpot.status == JackpotStatus.PAYOUT_PENDING
        shares = {s.seat: (s.role, s.amount) for s in claim.shares.all()}
        # 50/25/25 of $11.00; the table's $2.75 splits into $1.37 twice and the odd cent goes to the loser.
        assert shares == {1: ("losing", D("5.51")), 2: ("winning", D("2.75")), 3: ("table", D("1.37")),
                          4: ("table", D("1.37"))}
        assert PayoutNotification.objects.filter(claim=claim, acknowledged_at__isnull=True).count() == 1
        row = display_rows(casino=jackpot.casino, gaming_day=round_of_play.gaming_day)[0]
        assert row.pending == claim  # the display shows "payout pending" (14.19(i)1)

    @pytest.mark.proves("14.19(i)-verified")
    def test_14_19_i_a_dealer_cannot_verify(self, table, jackpot, staff):
        round_of_play = play(table, **QUADS_BEATEN)
        with pytest.raises(DomainError, match="poker shift supervisor"):
            verify_claim(claim=Claim.objects.get(round_of_play=round_of_play), supervisor=staff(Role.DEALER))

    @pytest.mark.proves("14.19(i)-verified")
    def test_14_19_i_a_hand_that_does_not_qualify_is_refused_with_the_reason(self, table, jackpot, supervisor):
        round_of_play = play(table, board="2h 7d 9c Js Kd", hands=["As Ac", "Qh Qd", "3s 4s", "5c 6c"])
        claim = open_claim(jackpot=jackpot, round_of_play=round_of_play, opened_by=supervisor)
        assert claim.opened_by == supervisor and claim.evaluation["qualifies"] is False
        with pytest.raises(DomainError, match="does not qualify"):
            verify_claim(claim=claim, supervisor=supervisor)
        rejected = reject_claim(claim=claim, supervisor=supervisor, note="Pair of aces is no bad beat.")
        assert rejected.status == ClaimStatus.REJECTED

    @pytest.mark.proves("14.19(n)")
    def test_14_19_n_split_losing_share_between_two_qualifying_hands(self, table, casino, supervisor):
        jackpot = JackpotFactory(casino=casino, minimum_players_dealt=4, multiple_losers_rule=MultipleLosersRule.SPLIT_LOSING_SHARE,
                                 qualifying_hand=QualifyingHand.FULL_HOUSE, minimum_pot=D("0"))
        fund(jackpot, table, rounds=9)
        # Board 9 9 6 7 8 (spades 6-7-8): seat 2 straight flush; seats 1 (quad nines) and 3 (nines full) lose.
        round_of_play = play(table, board="9h 9d 6s 7s 8s", hands=["9s 9c", "5s 4s", "6h 6d", "2c 3d"], folded=(3,))
        claim = Claim.objects.get(round_of_play=round_of_play)
        claim = verify_claim(claim=claim, supervisor=supervisor)
        shares = {s.seat: (s.role, s.amount) for s in claim.shares.all()}
        assert shares[1][0] == shares[3][0] == "losing"
        assert shares[1][1] + shares[3][1] == D("5.00")
        assert shares[2] == ("winning", D("2.50")) and shares[4] == ("table", D("2.50"))

    @pytest.mark.proves("14.19(i)2", "14.19(j)", "14.19(p)-reset", "14.19(a)-separate-fund")
    def test_14_19_i_2_j_payout_recorded_by_security_seeds_the_reset(self, table, casino, staff, supervisor):
        jackpot = JackpotFactory(casino=casino, minimum_players_dealt=4, reset_percentage=D("10"), minimum_pot=D("0"))
        fund(jackpot, table)
        round_of_play = play(table, **QUADS_BEATEN)
        claim = verify_claim(claim=Claim.objects.get(round_of_play=round_of_play), supervisor=supervisor)
        jackpot.refresh_from_db()
        assert jackpot.balance == D("9.90") and jackpot.reset_reserve == D("1.10")
        with pytest.raises(DomainError, match="security or accounting"):
            record_payout(claim=claim, method="cash", location="table", delivered_by=supervisor,
                          recorded_by=supervisor)
        guard = staff(Role.SECURITY)
        payout = record_payout(claim=claim, method="chips", location="table", delivered_by=guard,
                               recorded_by=guard)
        jackpot.refresh_from_db()
        assert payout.amount == D("9.90") and payout.delivered_by == guard
        assert jackpot.balance == D("1.10") and jackpot.reset_reserve == D("0.00")  # 14.19(p): reset funds the next
        assert jackpot.status == JackpotStatus.ACTIVE
        claim.refresh_from_db()
        assert claim.status == ClaimStatus.PAID
        assert ledger(jackpot=jackpot).balance == jackpot.balance

    def test_a_second_claim_waits_while_a_payout_is_pending(self, table, jackpot, supervisor):
        fund(jackpot, table, rounds=3)
        first = play(table, **QUADS_BEATEN)
        second = play(table, **QUADS_BEATEN)
        verify_claim(claim=Claim.objects.get(round_of_play=first), supervisor=supervisor)
        with pytest.raises(DomainError, match="payout pending"):
            verify_claim(claim=Claim.objects.get(round_of_play=second), supervisor=supervisor)


class TestSecondary:
    @pytest.mark.proves("14.19(m)2-deducted", "14.19(j)")
    def test_14_19_m_2_secondary_funded_from_primary_is_deducted_when_won(self, table, casino, staff, supervisor):
        primary = JackpotFactory(casino=casino, qualifying_hand=QualifyingHand.STRAIGHT_FLUSH, minimum_pot=D("0"),
                                 minimum_players_dealt=4)
        secondary = create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FOUR_OF_A_KIND,
                                             funding=Funding.PRIMARY_PORTION, primary_portion_percentage=D("10"))
        assert secondary.kind == JackpotKind.SECONDARY and "deducted from the primary" in secondary.contribution_label
        fund(primary, table, rounds=20)
        round_of_play = play(table, **QUADS_BEATEN)  # quads lose: the secondary qualifies, the primary not
        claim = Claim.objects.get(round_of_play=round_of_play)
        assert claim.jackpot == secondary
        claim = verify_claim(claim=claim, supervisor=supervisor)
        assert claim.payout_amount == D("2.10")  # 10 % of $21.00
        record_payout(claim=claim, method="cash", location="cage", delivered_by=staff(Role.ACCOUNTING),
                      recorded_by=supervisor)
        primary.refresh_from_db()
        assert primary.balance == D("18.90")

    @pytest.mark.proves("14.19(m)-lesser-hand")
    def test_14_19_m_secondary_must_be_a_lesser_hand(self, casino):
        """N.J.A.C. 13:69F-14.19(m): a secondary payout is awarded to a lesser qualifying hand than the primary's: a
        harder hand (a royal flush under four of a kind) and the same hand are refused on the qualifying hand, writing
        nothing; a lesser one (a full house) is offered."""
        primary = JackpotFactory(casino=casino, qualifying_hand=QualifyingHand.FOUR_OF_A_KIND)
        for hand in (QualifyingHand.ROYAL_FLUSH, QualifyingHand.FOUR_OF_A_KIND):
            with pytest.raises(DomainError, match="lesser") as refused:
                create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=hand,
                                         funding=Funding.CONTRIBUTIONS, contribution_amount=D("0.50"))
            assert refused.value.field == "qualifying_hand"
        assert not Jackpot.objects.filter(kind=JackpotKind.SECONDARY).exists()
        mini = create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                        funding=Funding.CONTRIBUTIONS, contribution_amount=D("0.50"))
        assert (mini.kind, mini.primary, mini.qualifying_hand) == (
            JackpotKind.SECONDARY, primary, QualifyingHand.FULL_HOUSE)

    @pytest.mark.proves("14.19(m)2-both-qualify", "14.19(m)1")
    def test_14_19_m_2_i_both_qualify_pays_only_the_primary(self, table, casino):
        primary = JackpotFactory(casino=casino, qualifying_hand=QualifyingHand.FOUR_OF_A_KIND, minimum_players_dealt=4,
                                 minimum_pot=D("0"))
        create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                 funding=Funding.CONTRIBUTIONS, contribution_amount=D("0.50"),
                                 maximum_contribution=D("0.50"), minimum_pot=D("0"),
                                 when_both_qualify=BothQualifyRule.PRIMARY_ONLY)
        round_of_play = play(table, **QUADS_BEATEN)
        assert [c.jackpot_id for c in Claim.objects.filter(round_of_play=round_of_play)] == [primary.pk]
        assert round_of_play.bad_beat_contributions.count() == 2  # 14.19(m)1: its own contribution per pot


class TestPostedRules:
    @pytest.mark.proves("14.19(q)-notice")
    def test_14_19_q_a_change_is_noticed_before_it_takes_effect(self, table, jackpot, supervisor):
        fund(jackpot, table, rounds=1)
        with pytest.raises(DomainError, match="notice"):
            propose_rule_change(jackpot=jackpot, changes={"minimum_pot": "25.00"}, effective_at=timezone.now(),
                                proposed_by=supervisor)
        change = propose_rule_change(jackpot=jackpot, changes={"minimum_pot": "25.00"},
                                     effective_at=timezone.now() + timedelta(days=1), proposed_by=supervisor)
        assert "Minimum pot" in change.summary.title() or "minimum pot" in change.summary
        assert apply_due_rule_changes() == 0
        with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
            assert apply_due_rule_changes() == 1
        jackpot.refresh_from_db()
        change.refresh_from_db()
        assert jackpot.minimum_pot == D("25.00") and change.status == RuleChangeStatus.APPLIED

    @pytest.mark.proves("14.19(q)-harder-after-won")
    def test_14_19_q_harder_qualifying_refused_until_won(self, table, jackpot, supervisor, staff):
        fund(jackpot, table, rounds=2)
        later = timezone.now() + timedelta(days=1)
        with pytest.raises(DomainError, match="until this payout has been won") as refused:
            propose_rule_change(jackpot=jackpot, changes={"qualifying_hand": QualifyingHand.STRAIGHT_FLUSH},
                                effective_at=later, proposed_by=supervisor)
        assert refused.value.field == "qualifying_hand"
        easier = propose_rule_change(jackpot=jackpot, changes={"qualifying_hand": QualifyingHand.FULL_HOUSE},
                                     effective_at=later, proposed_by=supervisor)
        assert not easier.makes_qualifying_harder
        claim = verify_claim(claim=Claim.objects.get(round_of_play=play(table, **QUADS_BEATEN)), supervisor=supervisor)
        record_payout(claim=claim, method="cash", location="table", delivered_by=staff(Role.SECURITY),
                      recorded_by=supervisor)
        harder = propose_rule_change(jackpot=jackpot, changes={"minimum_players_dealt": 6}, effective_at=later,
                                     proposed_by=supervisor)
        assert harder.makes_qualifying_harder

    def test_shares_must_add_up_and_fields_are_named(self, jackpot, supervisor):
        with pytest.raises(DomainError) as bad:
            propose_rule_change(jackpot=jackpot, changes={"losing_share": "60"},
                                effective_at=timezone.now() + timedelta(hours=1), proposed_by=supervisor)
        assert bad.value.field == "losing_share"

    @pytest.mark.proves("14.19(b)-rules-posted")
    def test_14_19_b_rules_are_posted_with_the_payout_and_set_again_only_before_any_contribution(self, casino,
                                                                                                  table):
        """14.19(b): a primary payout is offered with its posted rules, in force from then; posted again before it
        has taken a contribution, the same payout takes the new rules (terms not given keep their posted value,
        validated against them); once it has, the rules are refused (a change needs its notice, 14.19(q)) and
        stay as posted."""
        first = post_jackpot_rules(casino=casino, minimum_pot=D("5"), maximum_contribution=D("1"),
                                   qualifying_hand=QualifyingHand.FOUR_OF_A_KIND, contribution_amount=D("1"),
                                   reset_percentage=D("10"), losing_share=D("60"), winning_share=D("20"),
                                   table_share=D("20"))
        assert (first.minimum_pot, first.qualifying_hand, first.reset_percentage) == (
            D("5.00"), QualifyingHand.FOUR_OF_A_KIND, D("10"))
        assert first.rules_effective_at is not None
        # Two of the three shares posted again: validated with the posted losing share (60 %), not the default (50 %).
        rule = dict(minimum_pot=D("5"), maximum_contribution=D("1"), qualifying_hand=QualifyingHand.FOUR_OF_A_KIND,
                    contribution_amount=D("1"))
        with pytest.raises(DomainError, match="add up to 100") as shares:
            post_jackpot_rules(casino=casino, **rule, winning_share=D("25"), table_share=D("25"))  # 60 + 25 + 25
        assert shares.value.field == "losing_share"
        post_jackpot_rules(casino=casino, **rule, winning_share=D("30"), table_share=D("10"))  # 60 + 30 + 10
        first.refresh_from_db()
        assert (first.losing_share, first.winning_share, first.table_share) == (D("60"), D("30"), D("10"))
        again = post_jackpot_rules(casino=casino, minimum_pot=D("20"), maximum_contribution=D("2"),
                                   qualifying_hand=QualifyingHand.STRAIGHT_FLUSH, contribution_amount=D("2"),
                                   name="Big Bad Beat")
        assert again.pk == first.pk and Jackpot.objects.filter(casino=casino).count() == 1
        again.refresh_from_db()
        assert (again.name, again.minimum_pot, again.maximum_contribution, again.qualifying_hand) == (
            "Big Bad Beat", D("20.00"), D("2.00"), QualifyingHand.STRAIGHT_FLUSH)
        assert again.reset_percentage == D("10") and again.rules_effective_at >= first.rules_effective_at
        play(table, board="2h 7d 9c Js Kd", hands=["As Ac", "Qh Qd", "3s 4s", "5c 6c"])
        with pytest.raises(DomainError, match="post a notice of the change first") as refused:
            post_jackpot_rules(casino=casino, minimum_pot=D("5"), maximum_contribution=D("1"),
                               qualifying_hand=QualifyingHand.FULL_HOUSE, contribution_amount=D("1"))
        assert refused.value.field == "name"
        again.refresh_from_db()
        assert (again.minimum_pot, again.qualifying_hand) == (D("20.00"), QualifyingHand.STRAIGHT_FLUSH)

    def test_post_rules_refused_once_contributions_are_taken(self, casino, table, jackpot):
        fund(jackpot, table, rounds=1)
        with pytest.raises(DomainError, match="notice"):
            post_jackpot_rules(casino=casino, minimum_pot=D("5"), maximum_contribution=D("1"),
                               qualifying_hand=QualifyingHand.FULL_HOUSE, contribution_amount=D("1"))


class TestDisplay:
    @pytest.mark.proves("14.19(k)1", "14.19(k)2")
    def test_14_19_k_display_must_equal_accounting_record_with_a_supervisor_present(self, table, jackpot, staff,
                                                                                     supervisor):
        """14.19(k)1: accounting adjusts the displayed amount in a poker supervisor's presence (a floorperson, or the
        person adjusting, is refused); 14.19(k)2: the amount displayed must correspond to accounting's record ($4.00
        is refused when the record is $3.00)."""
        fund(jackpot, table, rounds=3)
        clerk = staff(Role.ACCOUNTING)
        with pytest.raises(DomainError) as wrong:
            adjust_display(jackpot=jackpot, displayed_amount=D("4.00"), adjusted_by=clerk,
                           supervisor_present=supervisor)
        assert wrong.value.field == "displayed_amount"
        with pytest.raises(DomainError, match="supervisor"):
            adjust_display(jackpot=jackpot, displayed_amount=D("3.00"), adjusted_by=clerk,
                           supervisor_present=staff(Role.FLOORPERSON))
        with pytest.raises(DomainError, match="accounting"):
            adjust_display(jackpot=jackpot, displayed_amount=D("3.00"), adjusted_by=supervisor,
                           supervisor_present=supervisor)
        adjustment = adjust_display(jackpot=jackpot, displayed_amount=D("3.00"), adjusted_by=clerk,
                                    supervisor_present=supervisor)
        assert adjustment.previous_amount == D("0.00") and adjustment.accounting_amount == D("3.00")

    @pytest.mark.proves("14.19(o)")
    def test_14_19_o_display_goes_down_only_after_a_payout(self, table, jackpot, staff, supervisor):
        clerk, guard = staff(Role.ACCOUNTING), staff(Role.SECURITY)
        fund(jackpot, table, rounds=3)
        claim = verify_claim(claim=Claim.objects.get(round_of_play=play(table, **QUADS_BEATEN)),
                             supervisor=supervisor)
        adjust_display(jackpot=jackpot, displayed_amount=D("4.00"), adjusted_by=clerk, supervisor_present=supervisor)
        record_payout(claim=claim, method="cash", location="table", delivered_by=guard, recorded_by=guard)
        adjustment = adjust_display(jackpot=jackpot, displayed_amount=D("0.00"), adjusted_by=clerk,
                                    supervisor_present=supervisor, reason="after_payout")
        assert adjustment.previous_amount == D("4.00") and adjustment.displayed_amount == D("0.00")


class TestReset:
    @pytest.mark.proves("14.19(p)-reset")
    def test_14_19_p_reset_parts_add_up_to_the_percentage_of_the_day(self):
        parts, total = [], D("0")
        for amount in [D("0.33")] * 10 + [D("1.00"), D("0.07")]:
            parts.append(reset_part(day_total_before=total, amount=amount, percentage=D("15")))
            total += amount
        assert total == D("4.37")
        assert sum(parts) == D("0.65")  # floor(15 % of $4.37 = $0.6555), whatever the order of the parts

    @pytest.mark.proves("14.19(p)-reset")
    def test_14_19_p_only_a_payout_won_from_its_own_fund_is_seeded_from_its_reserve(self, table, casino, staff,
                                                                                    supervisor):
        """14.19(p): the reset amount set aside funds the next payout once the payout is won. A secondary paid from a
        portion of the primary leaves the primary's reserve where it is (the primary was not won); the primary won,
        its whole reserve moves to its balance, recorded as the payout's reset seed; won again with nothing set aside
        since, nothing is seeded."""
        from apps.badbeat.models import ResetSeed

        primary = JackpotFactory(casino=casino, qualifying_hand=QualifyingHand.FOUR_OF_A_KIND, minimum_pot=D("0"),
                                 minimum_players_dealt=4, reset_percentage=D("10"))
        secondary = create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                             funding=Funding.PRIMARY_PORTION, primary_portion_percentage=D("10"))
        fund(primary, table, rounds=5)  # $0.50 set aside: a reserve under a dollar seeds as a larger one does
        clerk = staff(Role.ACCOUNTING)

        def won(hands, board):
            claim = Claim.objects.get(round_of_play=play(table, board=board, hands=hands))
            claim = verify_claim(claim=claim, supervisor=supervisor)
            record_payout(claim=claim, method="cash", location="cage", delivered_by=clerk, recorded_by=supervisor)
            primary.refresh_from_db()
            return claim

        # a full house loses to four nines: the secondary, paid from the primary's fund, is won
        reserve = Jackpot.objects.get(pk=primary.pk).reset_reserve
        claim = won(["6h 2c", "9s 9c", "Ac Kd", "2d 3d"], "9h 9d 6s 6c 2h")
        assert claim.jackpot_id == secondary.pk and claim.payout.debited_id == primary.pk
        assert primary.reset_reserve == reserve + D("0.10") > 0 and not ResetSeed.objects.exists()
        # four nines lose to a straight flush: the primary is won and seeded with its reserve
        reserve = Jackpot.objects.get(pk=primary.pk).reset_reserve
        balance = primary.balance
        claim = won(QUADS_BEATEN["hands"], QUADS_BEATEN["board"])
        seed = ResetSeed.objects.get()
        assert claim.jackpot_id == primary.pk and (seed.payout, seed.jackpot_id) == (claim.payout, primary.pk)
        assert primary.reset_reserve == 0 and seed.amount == reserve + D("0.10") == D("0.70")  # the round's part too
        assert primary.balance == seed.amount and balance > 0
        # won again, nothing set aside since (its pot below a minimum posted meanwhile): no seed
        Jackpot.objects.filter(pk=primary.pk).update(minimum_pot=D("1000.00"))
        won(QUADS_BEATEN["hands"], QUADS_BEATEN["board"])
        assert primary.reset_reserve == 0 and ResetSeed.objects.count() == 1

    @pytest.mark.proves("14.19(p)-documented")
    def test_14_19_p_daily_reset_documented_at_close(self, casino, table):
        from apps.counts.services import close_gaming_day
        jackpot = JackpotFactory(casino=casino, reset_percentage=D("20"), minimum_pot=D("0"))
        fund(jackpot, table, rounds=7)
        day = jackpot.contributions.first().gaming_day
        with time_machine.travel(timezone.now() + timedelta(days=1, hours=1)):
            close_gaming_day(casino=casino, gaming_day=day)
        reset = DailyReset.objects.get(jackpot=jackpot, gaming_day=day)
        assert (reset.contributions, reset.percentage, reset.amount) == (D("7.00"), D("20.00"), D("1.40"))


class TestDiscontinuing:
    @pytest.mark.proves("14.19(l)-discontinue", "14.19(c)-terminate", "14.19(a)-all-to-players")
    def test_14_19_l_transfer_moves_every_cent_and_stops_contributions(self, casino, table, supervisor):
        old = JackpotFactory(casino=casino, reset_percentage=D("10"), minimum_pot=D("0"))
        fund(old, table, rounds=5)
        new = create_secondary_jackpot(primary=old, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                       funding=Funding.CONTRIBUTIONS, contribution_amount=D("0.50"),
                                       maximum_contribution=D("0.50"), minimum_pot=D("0"))
        transfer = discontinue_jackpot(jackpot=old, target=new, reason="Replaced by the new payout.",
                                       made_by=supervisor)
        old.refresh_from_db()
        new.refresh_from_db()
        assert (transfer.amount, transfer.reset_amount) == (D("4.50"), D("0.50"))
        assert old.status == JackpotStatus.DISCONTINUED and not old.is_collecting and old.balance == 0
        assert new.balance == D("4.50") and new.reset_reserve == D("0.50")
        play(table, board="2h 7d 9c Js Kd", hands=["As Ac", "Qh Qd", "3s 4s", "5c 6c"])
        old.refresh_from_db()
        new.refresh_from_db()
        assert old.balance == 0 and new.balance == D("5.00")
        for j in (old, new):
            assert ledger(jackpot=j).balance == j.balance and ledger(jackpot=j).reset_reserve == j.reset_reserve


    @pytest.mark.proves("14.19(c)-terminate")
    def test_14_19_c_a_payout_whose_collection_is_terminated_takes_nothing_and_the_others_still_do(
            self, casino, table):
        """Which payouts take a contribution from a pot: not one whose collection is terminated (its collecting flag
        cleared, with or without the payout discontinued, and a discontinued one even were its flag left set), not a
        secondary funded from a portion of the primary; a payout being paid still collects, and so does every other
        in its order, each from what the one before left."""
        primary = JackpotFactory(casino=casino, minimum_pot=D("0"))
        mini = create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                        funding=Funding.CONTRIBUTIONS, contribution_amount=D("0.50"),
                                        maximum_contribution=D("0.50"), minimum_pot=D("0"))
        create_secondary_jackpot(primary=primary, name="Portion", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                 funding=Funding.PRIMARY_PORTION, primary_portion_percentage=D("10"))

        def contributions():
            round_of_play = play(table, board="2h 7d 9c Js Kd", hands=["As Ac", "Qh Qd", "3s 4s", "5c 6c"])
            return {c.jackpot.name: c.amount for c in round_of_play.bad_beat_contributions.select_related("jackpot")}

        assert contributions() == {primary.name: D("1.00"), "Mini": D("0.50")}
        Jackpot.objects.filter(pk=primary.pk).update(status=JackpotStatus.PAYOUT_PENDING)
        assert contributions() == {primary.name: D("1.00"), "Mini": D("0.50")}
        Jackpot.objects.filter(pk=primary.pk).update(status=JackpotStatus.ACTIVE, is_collecting=False)
        assert contributions() == {"Mini": D("0.50")}
        Jackpot.objects.filter(pk=primary.pk).update(status=JackpotStatus.DISCONTINUED, is_collecting=True)
        assert contributions() == {"Mini": D("0.50")}
        Jackpot.objects.filter(pk=mini.pk).update(is_collecting=False)
        assert contributions() == {}

    @pytest.mark.proves("14.19(l)-discontinue", "14.19(c)-terminate", "14.19(a)-all-to-players")
    def test_14_19_l_a_payout_is_discontinued_only_into_a_live_payout_of_the_casino_holding_its_own_funds(self, db):
        """All the funds of a discontinued payout are paid to players: they go, by a supervisor's or an
        administrator's decision with its reason, to another live payout of the same casino that holds its own funds,
        and not while a payout of it is pending or a payout funded from it is still offered. Each refusal names its
        field and moves nothing. Ids are above 256, as a room's are after its first days (compared by value)."""
        casino, lower, higher = CasinoFactory(pk=90_002), CasinoFactory(pk=90_001), CasinoFactory(pk=90_003)
        boss = StaffFactory(casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
        source = JackpotFactory(pk=90_020, casino=casino, balance=D("500.00"), reset_reserve=D("50.00"))
        target = JackpotFactory(pk=90_010, casino=casino, kind=JackpotKind.SECONDARY, primary=source,
                                qualifying_hand=QualifyingHand.FULL_HOUSE, balance=D("20.00"))
        portion = create_secondary_jackpot(primary=source, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                           funding=Funding.PRIMARY_PORTION, primary_portion_percentage=D("10"))

        def refused(field, match, *, jackpot=source, to=target, by=boss, reason="Replaced."):
            with pytest.raises(DomainError, match=match) as exc:
                discontinue_jackpot(jackpot=Jackpot.objects.get(pk=jackpot.pk), target=Jackpot.objects.get(pk=to.pk),
                                    reason=reason, made_by=by)
            assert exc.value.field == field

        def status(jackpot, value):
            Jackpot.objects.filter(pk=jackpot.pk).update(status=value)

        refused("made_by", "A supervisor or an administrator", by=StaffFactory(casino=casino, roles=[Role.DEALER]))
        refused("reason", "Give the reason", reason="   ")
        refused("target", "Transfer to another bad beat payout", to=source)
        for casino_elsewhere in (lower, higher):
            refused("target", "same casino", to=JackpotFactory(casino=casino_elsewhere))
        status(source, JackpotStatus.DISCONTINUED)
        refused("jackpot", "already discontinued")
        status(source, JackpotStatus.PAYOUT_PENDING)
        refused("jackpot", "A payout is pending")
        status(source, JackpotStatus.ACTIVE)
        status(target, JackpotStatus.DISCONTINUED)
        refused("target", "a live payout that holds its own funds")
        status(target, JackpotStatus.ACTIVE)
        refused("target", "a live payout that holds its own funds", to=portion)
        refused("jackpot", "Discontinue the secondary payout funded from this one first")
        assert not Transfer.objects.exists()
        assert Jackpot.objects.get(pk=source.pk).balance == D("500.00")
        status(portion, JackpotStatus.DISCONTINUED)
        status(target, JackpotStatus.PAYOUT_PENDING)  # a live payout being paid still takes the funds, after its payout
        transfer = discontinue_jackpot(jackpot=Jackpot.objects.get(pk=source.pk),
                                       target=Jackpot.objects.get(pk=target.pk), reason=f" {'R' * 305} ",
                                       made_by=boss)
        assert (transfer.amount, transfer.reset_amount, transfer.reason) == (D("500.00"), D("50.00"), "R" * 300)
        source.refresh_from_db()
        target.refresh_from_db()
        assert (source.status, source.is_collecting, source.balance, source.reset_reserve) == (
            JackpotStatus.DISCONTINUED, False, D("0.00"), D("0.00"))
        assert (target.balance, target.reset_reserve) == (D("520.00"), D("50.00"))


OPS = st.lists(st.sampled_from(["contribute", "contribute", "contribute", "adjust", "claim"]), min_size=5,
               max_size=25)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS, reset=st.sampled_from([D("0"), D("7.5"), D("25")]))
@pytest.mark.proves("14.19(o)", "14.19(a)-separate-fund", "14.19(p)-reset")
def test_14_19_o_p_display_never_decreases_but_by_payout_and_ledger_agrees(db, ops, reset):
    """Property: for any sequence of contributions, display adjustments and paid claims, the displayed amount
    never goes down except after a payout (14.19(o)), and the balance equals contributions − reset parts −
    payouts − transfers + reset seeds, to the cent (14.19(k), (p))."""
    casino = CasinoFactory()  # a fresh casino per example: hypothesis does not roll back between examples
    table = PokerTableFactory(casino=casino)
    jackpot = JackpotFactory(casino=casino, reset_percentage=reset, contribution_amount=None,
                             contribution_percentage=D("3"), maximum_contribution=D("2.00"), minimum_pot=D("0"),
                             minimum_players_dealt=4)
    clerk, boss, guard = (StaffFactory(casino=casino, roles=[role])
                          for role in (Role.ACCOUNTING, Role.POKER_SHIFT_SUPERVISOR, Role.SECURITY))
    shown, paid_since_shown = D("0"), False
    for i, op in enumerate(ops):
        if op == "contribute":
            play(table, board="2h 7d 9c Js Kd", hands=["As Ac", "Qh Qd", "3s 4s", "5c 6c"], each=f"{7 + i}.13")
        elif op == "claim":
            claim = Claim.objects.get(round_of_play=play(table, **QUADS_BEATEN), jackpot=jackpot)
            try:
                claim = verify_claim(claim=claim, supervisor=boss)
            except DomainError:
                continue  # $0.00 to pay
            record_payout(claim=claim, method="cash", location="table", delivered_by=guard, recorded_by=guard)
            paid_since_shown = True
        else:
            jackpot.refresh_from_db()
            adjustment = adjust_display(jackpot=jackpot, displayed_amount=jackpot.balance, adjusted_by=clerk,
                                        supervisor_present=boss)
            assert adjustment.displayed_amount >= shown or paid_since_shown
            shown, paid_since_shown = adjustment.displayed_amount, False
        jackpot.refresh_from_db()
        derived = ledger(jackpot=jackpot)
        assert derived.balance == jackpot.balance and derived.reset_reserve == jackpot.reset_reserve
        if not paid_since_shown and jackpot.balance < shown:
            with pytest.raises(DomainError):
                adjust_display(jackpot=jackpot, displayed_amount=jackpot.balance, adjusted_by=clerk,
                               supervisor_present=boss)


@pytest.mark.proves("14.19(m)2-both-qualify")
def test_14_19_m_2_i_the_posted_rule_decides_when_both_qualify_at_the_claim_its_preview_and_its_verification(
        table, casino, supervisor):
    """14.19(m)2: a round holding both qualifying hands. Posted "both are paid": a claim for each payout, the
    secondary's previewed with its amount, and the primary's verified (the primary's own rule field, "only the
    primary", says nothing of itself). Posted "only the primary" (changed before the secondary's claim is verified):
    the secondary's claim is previewed as refused and its verification refused, nothing frozen. A round that holds
    only the secondary's hand (nines full losing to four nines) is claimed from the secondary under either rule."""
    from apps.badbeat.previews import verification_preview

    primary = JackpotFactory(casino=casino, qualifying_hand=QualifyingHand.FOUR_OF_A_KIND, minimum_pot=D("0"),
                             minimum_players_dealt=4)
    assert primary.when_both_qualify == BothQualifyRule.PRIMARY_ONLY
    secondary = create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                         funding=Funding.CONTRIBUTIONS, contribution_amount=D("0.50"),
                                         maximum_contribution=D("0.50"), minimum_pot=D("0"),
                                         when_both_qualify=BothQualifyRule.BOTH)
    fund(primary, table, rounds=4)
    both = play(table, **QUADS_BEATEN)
    claims = {c.jackpot_id: c for c in Claim.objects.filter(round_of_play=both)}
    assert set(claims) == {primary.pk, secondary.pk}
    preview = verification_preview(claim=claims[secondary.pk])
    assert preview.amount is not None and preview.amount > 0, preview.note
    assert verify_claim(claim=claims[primary.pk], supervisor=supervisor).status == ClaimStatus.VERIFIED

    Jackpot.objects.filter(pk=secondary.pk).update(when_both_qualify=BothQualifyRule.PRIMARY_ONLY)
    refused = verification_preview(claim=Claim.objects.get(pk=claims[secondary.pk].pk))
    assert refused.amount is None and "pays only the primary" in refused.note
    with pytest.raises(DomainError, match="also qualifies for the primary payout") as not_verified:
        verify_claim(claim=Claim.objects.get(pk=claims[secondary.pk].pk), supervisor=supervisor)
    assert not_verified.value.field == "claim"
    assert Claim.objects.get(pk=claims[secondary.pk].pk).status == ClaimStatus.PENDING

    only_secondary = play(table, board="9h 9d 6s 7c 2d", hands=["6h 6d", "9s 9c", "Ac Kd", "3c 4d"])
    assert [c.jackpot_id for c in Claim.objects.filter(round_of_play=only_secondary)] == [secondary.pk]


@pytest.mark.proves("14.19(m)2-deducted")
def test_14_19_m_2_ii_money_promised_to_a_secondary_is_not_paid_twice(table, casino, staff, supervisor):
    primary = JackpotFactory(casino=casino, qualifying_hand=QualifyingHand.FOUR_OF_A_KIND, minimum_pot=D("0"),
                             minimum_players_dealt=4)
    secondary = create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                         funding=Funding.PRIMARY_PORTION, primary_portion_percentage=D("10"),
                                         when_both_qualify=BothQualifyRule.BOTH)
    fund(primary, table, rounds=19)
    # Nines full lose to quad nines: the secondary qualifies, the primary not.
    mini = play(table, board="9h 9d 6s 7c 2d", hands=["6h 6d", "9s 9c", "Ac Kd", "3c 4d"])
    mini_claim = verify_claim(claim=Claim.objects.get(round_of_play=mini, jackpot=secondary), supervisor=supervisor)
    assert mini_claim.payout_amount == D("2.00")  # 10 % of $20.00
    big = play(table, **QUADS_BEATEN)
    big_claim = verify_claim(claim=Claim.objects.get(round_of_play=big, jackpot=primary), supervisor=supervisor)
    assert big_claim.payout_amount == D("19.00")  # $21.00 less the $2.00 promised to the secondary
    guard = staff(Role.SECURITY)
    for claim in (mini_claim, big_claim):
        record_payout(claim=claim, method="cash", location="table", delivered_by=guard, recorded_by=guard)
    primary.refresh_from_db()
    assert primary.balance == D("0.00") and ledger(jackpot=primary).balance == primary.balance


@pytest.mark.proves("14.19(m)1")
def test_14_19_m_1_a_secondary_payout_takes_its_own_contribution_from_each_pot(table, jackpot):
    """14.19(m)1: a secondary bad beat payout funded by contributions takes its own prescribed contribution from each
    pot at a participating table, beside the primary's, without touching the primary's fund. Three rounds in one
    batch (the feed's batch endpoint): $0.50 each to the secondary, its own 10.75 % of the day's contributions to
    its reset amount, $0.05, $0.05, $0.06 (10.75 % of $0.50, $1.00 and $1.50 is $0.05, $0.10 and $0.16 to the cent);
    its balance, reserve and running totals of the day and of the table move by exactly that."""
    from apps.badbeat.models import GamingDayContributions, TableDayContributions
    from apps.feed.services import record_batch_of_rounds

    mini = create_secondary_jackpot(primary=jackpot, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                    funding=Funding.CONTRIBUTIONS, contribution_amount=D("0.50"),
                                    maximum_contribution=D("0.50"), minimum_pot=D("0"), reset_percentage=D("10.75"))
    players = [PlayerIn(seat=i + 1, hole_cards=h, folded=i > 1, contributed=D("10.00") if i < 2 else D("1.00"))
               for i, h in enumerate(["As Ac", "Qh Qd", "3s 4s", "5c 6c"])]
    rounds = record_batch_of_rounds(rounds=[
        (table, RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=players)) for _ in range(3)])
    for round_of_play in rounds:
        by_payout = {c.jackpot_id: c.amount for c in round_of_play.bad_beat_contributions.all()}
        assert set(by_payout) == {jackpot.pk, mini.pk} and by_payout[mini.pk] == D("0.50")
    primary_taken = sum(c.amount for r in rounds for c in r.bad_beat_contributions.filter(jackpot=jackpot))
    jackpot.refresh_from_db()
    mini.refresh_from_db()
    assert jackpot.balance + jackpot.reset_reserve == primary_taken > 0  # the primary's fund: its own contributions
    assert [c.to_reset for r in rounds for c in r.bad_beat_contributions.filter(jackpot=mini)] == [
        D("0.05"), D("0.05"), D("0.06")]
    assert (mini.balance, mini.reset_reserve, mini.contributions_total) == (D("1.34"), D("0.16"), D("1.50"))
    day = GamingDayContributions.objects.get(jackpot=mini)
    assert (day.contributions, day.to_reset, day.count) == (D("1.50"), D("0.16"), 3)
    at_table = TableDayContributions.objects.get(jackpot=mini, table=table)
    assert (at_table.amount, at_table.count) == (D("1.50"), 3)
