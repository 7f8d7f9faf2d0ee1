"""The qualifier designer's arithmetic and checks (apps.qualifiers.designer), without the database: the engine's
"meets" against the claims' own judge, the formulas of the module docstring, fixed seeds, bad input by field."""
import math
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.badbeat.qualifying import QualifyingRule
from apps.core.exceptions import DomainError
from apps.hands import DECK, FiveCardCategory, evaluate_five_card_high, fast, parse_cards
from apps.hands.odds import BadBeatSpec, Odds, parse_losing_hand
from apps.qualifiers.designer import (
    REQUEST_MAX_DEALS,
    Candidate,
    JackpotGrowth,
    chance_of_hit,
    check_candidate,
    check_players,
    check_run,
    figures,
    losing_text,
)
from apps.qualifiers.selectors import RoomHistory

C = FiveCardCategory
RANKS = [None, *range(2, 15)]
#: Strong hands a random draw seldom gives: four of a kind, full houses, straight flushes and a royal flush.
STRONG = ["8s 8h 8d 8c 2s", "As Ah Ad Kc Ks", "9h 9d 9s Tc Th", "5s 4s 3s 2s As", "9d 8d 7d 6d 5d", "Ts Js Qs Ks As",
          "2c 2d 2h 2s Ac", "Kh Kd Kc Ks Qh", "3c 3d 3h 2c 2d", "Td 9d 8d 7d 6d", "7h 7c 7d 4s 4h", "Ac Kc Qc Jc 9c"]


five_cards = st.one_of(st.sampled_from(STRONG).map(parse_cards),
                       st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True))


@settings(max_examples=150, deadline=None)
@given(five_cards)
def test_14_19_b_3_spec_meets_agrees_with_the_claims_judge_on_every_category_and_rank(cards):
    """N.J.A.C. 13:69F-14.19(b)3: the engine's odds count a losing hand as qualifying exactly when the claims' judge
    (badbeat.qualifying.QualifyingRule.hand_meets) would, for every category and minimum rank."""
    value = evaluate_five_card_high(cards)
    score = fast.high_score(fast.card_ids(cards))
    for category in C:
        for rank in RANKS:
            spec = BadBeatSpec(game="holdem", losing_category=category, losing_minimum_rank=rank)
            assert bool(spec.losing_meets(score)) == QualifyingRule(category=category, minimum_rank=rank).hand_meets(
                value), (category, rank, value)


@pytest.mark.parametrize("category", [C.FULL_HOUSE, C.FOUR_OF_A_KIND, C.STRAIGHT_FLUSH, C.ROYAL_FLUSH])
def test_14_19_b_3_every_posted_qualifying_hand_is_written_as_the_engine_reads_it(category):
    """The page opens with the jackpot's posted qualifying hand (14.19(b)3) written out: the engine reads it back."""
    ranks = [None] if category is C.ROYAL_FLUSH else [None, *range(5 if category is C.STRAIGHT_FLUSH else 2, 14)]
    for rank in ranks:
        assert parse_losing_hand(losing_text(category, rank)) == (category, rank)


def test_chance_of_a_hit_is_one_minus_the_chance_of_none():
    for p, rounds in [(0.01, 100), (1e-6, 3_000), (0.2, 1), (1e-9, 5e6)]:
        assert chance_of_hit(p, rounds) == pytest.approx(1 - (1 - p) ** rounds, rel=1e-6)
    assert chance_of_hit(0.0, 1000) == 0.0
    assert chance_of_hit(0.5, 0) == 0.0


def fake_run(hits_per_deal: float):
    """An engine stand-in: `hits_per_deal` of the deals hit; records the table size asked."""
    asked = []

    def run(spec, *, players, deals, seed):
        asked.append(players)
        hits = round(deals * hits_per_deal)
        return Odds(deals=deals, hits=hits, probability=hits / deals, ci95=(hits / deals / 2, hits / deals * 2),
                    players=players, seed=seed)

    run.asked = asked
    return run


def history(**kwargs) -> RoomHistory:
    values = dict(game="holdem", start=date(2026, 1, 1), end=date(2026, 3, 31), rounds=9_000, days_played=30,
                  table_days=90, all_rounds=12_000, all_days_played=30,
                  players_dealt={3: 100, 6: 300, 9: 500, 10: 100})
    return RoomHistory(**(values | kwargs))


def test_14_19_c_p_days_to_hit_and_jackpot_at_the_hit_follow_the_documented_formulas():
    """N.J.A.C. 13:69F-14.19(c), (p): p = share of rounds meeting the minimum × p at the typical table size;
    days = 1 / (p × rounds a day); the jackpot at the next hit = payable now + C × D × (1 − r); at a later hit, the
    reset seed C × D × r plus the same."""
    run = fake_run(0.001)
    room = history()
    growth = JackpotGrowth(jackpot=None, payable_now=Decimal("5000.00"), contribution_per_round=Decimal("0.8000"),
                           contributions_per_day=Decimal("320.0000"), reset_percentage=Decimal("10.00"))
    candidate = Candidate(game="holdem", losing="four of a kind", minimum_players_dealt=4)
    result = figures(candidate=candidate, spec=check_candidate(candidate), history=room, growth=growth, deals=10_000,
                     seed=7, run=run)
    assert run.asked == [9]  # the most common size among rounds dealt to 4 or more
    share = 900 / 1000
    p = share * 0.001
    assert result.share_meeting_minimum == pytest.approx(share)
    assert result.probability == pytest.approx(p)
    assert result.ci95 == pytest.approx((share * 0.0005, share * 0.002))
    assert result.rounds_per_day == pytest.approx(300.0)
    assert result.rounds_between_hits == pytest.approx(1 / p)
    days = 1 / p / 300
    assert result.days_between_hits == pytest.approx(days)
    assert result.chance_within[30] == pytest.approx(1 - (1 - p) ** (300 * 30))
    assert result.chance_within[365] == pytest.approx(1 - (1 - p) ** (300 * 365))
    stretch = Decimal("320") * Decimal(repr(days))
    assert result.expected_at_next_hit == (Decimal("5000") + stretch * Decimal("0.9")).quantize(Decimal("0.01"))
    assert result.reset_seed == (stretch * Decimal("0.1")).quantize(Decimal("0.01"))
    assert result.expected_at_later_hit == stretch.quantize(Decimal("0.01"))
    assert isinstance(result.expected_at_next_hit, Decimal)


def test_14_19_b_3_a_rule_no_round_meets_never_hits_and_no_history_means_unknown_days():
    run = fake_run(0.01)
    candidate = Candidate(game="holdem", losing="full house", minimum_players_dealt=10)
    spec = check_candidate(candidate)
    short = figures(candidate=candidate, spec=spec, history=history(players_dealt={6: 10}), growth=None, deals=1000,
                    seed=1, run=run)
    assert short.probability == 0.0 and short.rounds_between_hits is None and short.chance_within[30] == 0.0
    empty = figures(candidate=candidate, spec=spec, history=history(rounds=0, days_played=0, players_dealt={}),
                    growth=None, deals=1000, seed=1, run=run)
    assert run.asked == [10, 10]  # no size meets ten, no history: the rule's minimum, within the seats
    assert empty.probability == pytest.approx(0.01) and empty.days_between_hits is None
    assert empty.chance_within == {30: None, 90: None, 365: None}


def test_14_19_b_3_no_hit_in_the_deals_leaves_the_chances_unknown_not_nil():
    """A rule the deals never saw hit is rarer than one in them, not impossible: its days and chances are unknown."""
    candidate = Candidate(game="holdem", losing="royal flush", minimum_players_dealt=4)
    rare = figures(candidate=candidate, spec=check_candidate(candidate), history=history(players_dealt={6: 10}),
                   growth=None, deals=1000, seed=1, run=fake_run(0.0))
    assert rare.odds.hits == 0 and rare.probability == 0.0 and rare.days_between_hits is None
    assert rare.chance_within == {30: None, 90: None, 365: None}


@pytest.mark.parametrize(("candidate", "field"), [
    (Candidate(game="stud", losing="four of a kind"), "game"),
    (Candidate(game="holdem", losing="five aces"), "losing"),
    (Candidate(game="holdem", losing=""), "losing"),
    (Candidate(game="holdem", losing="full house", beaten_by="a monster"), "beaten_by"),
    (Candidate(game="holdem", losing="full house", minimum_players_dealt=1), "minimum_players_dealt"),
    (Candidate(game="omaha", losing="full house", minimum_players_dealt=11), "minimum_players_dealt"),
])
def test_14_19_b_3_a_candidate_the_engine_cannot_read_is_refused_by_field(candidate, field):
    with pytest.raises(DomainError) as refused:
        check_candidate(candidate)
    assert refused.value.field == field and refused.value.message


@pytest.mark.parametrize(("run", "field"), [
    ({"deals": 0, "seed": 1}, "deals"), ({"deals": 10**9, "seed": 1}, "deals"),
    ({"deals": REQUEST_MAX_DEALS + 1, "seed": 1}, "deals"), ({"deals": 5000, "seed": -1}, "seed"),
    ({"deals": 5000, "seed": 1, "players": 1}, "players"), ({"deals": 5000, "seed": 1, "players": 11}, "players"),
])
def test_bad_run_settings_are_refused_by_field(run, field):
    with pytest.raises(DomainError) as refused:
        check_run(**run)
    assert refused.value.field == field


def test_14_19_b_3_a_table_smaller_than_the_minimum_is_refused():
    with pytest.raises(DomainError) as refused:
        check_players(Candidate(game="holdem", losing="quads", minimum_players_dealt=6), 4)
    assert refused.value.field == "players"
    assert check_players(Candidate(game="holdem", losing="quads", minimum_players_dealt=6), 6) == 6


def test_fixed_seeds_reproduce_the_engine_count():
    """The same seed deals the same cards: the same hits; another seed, other deals."""
    candidate = Candidate(game="holdem", losing="full house")
    spec = check_candidate(candidate)
    first, again, other = (figures(candidate=candidate, spec=spec, history=history(), growth=None, deals=20_000,
                                   seed=seed, players=9) for seed in (11, 11, 12))
    assert first.odds == again.odds and first.odds.hits > 0
    assert other.odds.hits != first.odds.hits
    assert first.odds.ci95[0] < first.odds.probability < first.odds.ci95[1]
    assert math.isclose(first.probability, first.odds.probability * history().share_dealt_at_least(2))
