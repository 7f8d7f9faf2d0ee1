"""Each rake method on real rounds (Pluribus PHH): the pot is read independently from pokerkit's replay."""
from decimal import ROUND_DOWN, Decimal
from pathlib import Path

import pytest
from pokerkit import HandHistory
from pokerkit.state import BetCollection, ChipsPulling

from apps.core.roles import Role
from apps.feed.services import import_phh
from apps.rake.models import RakeMethod, RakeRecord
from apps.rake.services import post_rake_structure
from tests.factories import PokerTableFactory

SESSION = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "phh" / "pluribus" / "30.phhs"
D = Decimal
pytestmark = pytest.mark.django_db


def hands_by_name() -> dict[str, tuple[Decimal, list[Decimal] | None]]:
    """Per hand, read from pokerkit's replay (not from our code): the sums bet with the uncalled final bet
    excluded (N.J.A.C. 13:69F-14.14(d)), and what each betting round added to the pot.

    Each player's chips in = starting stack - final stack + chips pulled back; the uncalled part is the excess
    of the largest amount in over the second largest. The betting rounds are pokerkit's bet collections. When
    a raise was not called, pokerkit hands it back whole, even the part that matched a bet before it, and
    collects less than the sums bet; for those hands the betting rounds are left as None (only the pot is known).
    """
    found = {}
    for number, hh in enumerate(HandHistory.loads_all(SESSION.read_text()), start=1):
        state = None
        for state, _ in hh.state_actions:  # noqa: B007
            pass
        rounds = [D(sum(op.bets)) for op in state.operations if isinstance(op, BetCollection)]
        pulled = [0] * len(hh.starting_stacks)
        for op in state.operations:
            if isinstance(op, ChipsPulling):
                pulled[op.player_index] += op.amount
        chips_in = sorted((s - f + p for s, f, p in zip(hh.starting_stacks, state.stacks, pulled, strict=True)),
                          reverse=True)
        pot = D(sum(chips_in) - (chips_in[0] - chips_in[1]))
        found[f"{SESSION.name}#{number}"] = (pot, [r for r in rounds if r] if sum(rounds) == pot else None)
    return found


@pytest.fixture(scope="module")
def expected_hands():
    return hands_by_name()


@pytest.fixture(scope="module")
def expected_pots(expected_hands):
    return {name: pot for name, (pot, _) in expected_hands.items()}


def records(table):
    return {r.round_of_play.source_name: r for r in RakeRecord.objects.filter(table=table).select_related("round_of_play")}


@pytest.mark.proves("14.14(b)1-ten-percent", "14.14(b)1-per-betting-round")
def test_14_14_b_1_percentage_rake_on_real_rounds_betting_round_by_betting_round(expected_hands):
    """At most 10 % of the sums bet in each betting round, each rounded down to the $1 chip, at most $500."""
    table = PokerTableFactory(bad_beat_participation=False)
    post_rake_structure(table=table, percentage=D("10"), maximum=D("500.00"), minimum_pot=D("200"))
    import_phh(casino=table.casino, table=table, text=SESSION.read_text(), name=SESSION.name)
    found = records(table)
    assert len(found) == len(expected_hands) > 50
    several_rounds = checked_by_round = 0
    for name, (pot, known_rounds) in expected_hands.items():
        ours = [D(b) for b in found[name].round_of_play.betting_rounds if D(b)]
        assert sum(ours) == pot, name  # the betting rounds add up to the independently derived pot
        if known_rounds is not None:
            assert ours == known_rounds, name
            checked_by_round += 1
        per_round = sum(((r / 10).quantize(D("1"), rounding=ROUND_DOWN) for r in ours), D(0))
        expected = D(0) if pot < 200 else min(per_round, D("500"))
        assert (found[name].basis, found[name].amount) == (pot, expected), name
        several_rounds += len(ours) > 1
    assert checked_by_round >= len(expected_hands) // 3  # the others: pokerkit collected an uncalled raise short
    assert several_rounds > 10  # many hands are raked over several betting rounds


@pytest.mark.proves("14.14(b)2-levels")
def test_14_14_b_2_incremental_rake_on_real_rounds(expected_pots):
    table = PokerTableFactory(bad_beat_participation=False)
    levels = [{"pot": "200", "take": "1"}, {"pot": "500", "take": "1"}, {"pot": "1000", "take": "2"},
              {"pot": "3000", "take": "3"}]
    post_rake_structure(table=table, method=RakeMethod.INCREMENTAL, maximum=D("5.00"), levels=levels)
    import_phh(casino=table.casino, table=table, text=SESSION.read_text(), name=SESSION.name)
    found = records(table)
    for name, pot in expected_pots.items():
        expected = min(sum((D(lv["take"]) for lv in levels if pot >= D(lv["pot"])), D(0)), D("5"))
        assert (found[name].basis, found[name].amount) == (pot, expected), name
    assert {r.amount for r in found.values()} >= {D("0"), D("1"), D("2"), D("4"), D("5")}


@pytest.mark.parametrize(("levels", "words"), [
    ([], "at least one pot level"),
    ([{"pot": "50", "take": "2"}, {"pot": "20", "take": "1"}], "pot levels rise"),
    ([{"pot": "2", "take": "3"}], "would be taken"),
    ([{"pot": "twenty", "take": "1"}], "give a pot level"),
])
def test_14_14_b_2_bad_incremental_levels_are_refused(levels, words):
    from apps.core.exceptions import DomainError

    with pytest.raises(DomainError, match=words) as exc:
        post_rake_structure(table=PokerTableFactory(), method=RakeMethod.INCREMENTAL, maximum=D("5"), levels=levels)
    assert exc.value.field == "levels"


@pytest.mark.parametrize(("role", "status"), [
    (Role.POKER_SHIFT_SUPERVISOR, 200), (Role.ADMIN, 200), (Role.DEALER, 403), (Role.FLOORPERSON, 403),
    (Role.SURVEILLANCE, 403)])
def test_who_may_change_a_rake_structure(api, staff, casino, role, status):
    table = PokerTableFactory(casino=casino)
    post_rake_structure(table=table, percentage=D("5"), maximum=D("3"))
    api.force_authenticate(staff(role))
    url = f"/api/tables/{table.pk}/rake-structure/"
    assert api.get(url).json()["percentage"] == "5.00"
    response = api.put(url, {"method": "incremental", "maximum": "4.00",
                             "levels": [{"pot": "20", "take": "1"}, {"pot": "60", "take": "2"}]}, format="json")
    assert response.status_code == status
    if status == 200:
        assert response.json()["label"] == "Incremental: $1.00 at $20.00, $2.00 at $60.00; maximum $4.00 per pot"


def test_over_the_legal_maximum_through_the_api_is_a_400(api, supervisor, casino):
    table = PokerTableFactory(casino=casino)
    api.force_authenticate(supervisor)
    response = api.put(f"/api/tables/{table.pk}/rake-structure/", {"method": "percentage", "percentage": "12.5",
                                                                  "maximum": "5"}, format="json")
    assert response.status_code == 400
    assert "percentage" in response.json()
