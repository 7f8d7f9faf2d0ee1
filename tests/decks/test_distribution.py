"""The daily distribution of decks among the open tables, N.J.A.C. 13:69F-14.2(c)."""
from decimal import Decimal

import pytest

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.decks.models import DeckDistribution, DeckStatus
from apps.decks.selectors import propose_distribution
from apps.decks.services import distribute_decks, receive_deck
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(casino, staff):
    floor = staff(Role.FLOORPERSON)
    high = PokerTableFactory(casino=casino, number=1, location="High limit", big_blind=Decimal("100"))
    main_a = PokerTableFactory(casino=casino, number=2, location="Main", big_blind=Decimal("2"))
    main_b = PokerTableFactory(casino=casino, number=3, location="Main", big_blind=Decimal("2"),
                               uses_automated_shuffler=True)
    for serial, colour in [("R1", "red"), ("R2", "red"), ("R3", "red"), ("B1", "blue"), ("B2", "blue"),
                           ("G1", "green"), ("Y1", "yellow")]:
        receive_deck(casino=casino, serial=serial, back_colour=colour, by=floor)
    return high, main_a, main_b


@pytest.mark.proves("14.2(c)-considerations")
def test_14_2_c_proposal_considers_limits_location_and_game(casino, room):
    high, main_a, main_b = room
    proposal = propose_distribution(casino=casino)
    assert proposal[0].table == high  # the highest limits are served first
    by_table = {}
    for line in proposal:
        by_table.setdefault(line.table, []).append(line.deck.back_colour)
    assert all(len(set(colours)) == 2 for colours in by_table.values())  # two distinguishable decks (14.2(a))
    # neighbours in the main area, same game, get backs unlike each other where the stock allows
    assert not set(by_table[main_a]) & set(by_table[main_b])
    assert "Limits" in proposal[0].reason


@pytest.mark.proves("14.2(c)-considerations")
def test_14_2_c_the_proposal_in_full_highest_limits_first_neighbours_and_games_told_apart(casino, staff):
    """The whole proposal for a room, line by line: the open tables short of two decks (a closed one and one with
    its two are passed over), the highest limits first (a table's maximum wager, else its big blind, else its
    minimum wager; then its number), each table's decks of two colours (its deck already there counted), a colour
    its area's other tables hold avoided where the stock allows, one its same-game neighbours hold avoided first,
    the oldest deck first among equals, and the reason said ("unlike its neighbours" or "stock allows no other")."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.decks.services import assign_deck

    floor = staff(Role.FLOORPERSON)
    t0 = timezone.now() - timedelta(days=1)
    low = PokerTableFactory(casino=casino, number=1, location="Main", big_blind=Decimal("2"))
    wager = PokerTableFactory(casino=casino, number=2, location="Main", big_blind=Decimal("0"), small_blind=Decimal("0"),
                              minimum_wager=Decimal("10"), maximum_wager=Decimal("20"), betting_structure="fixed_limit")
    high = PokerTableFactory(casino=casino, number=3, location="High limit", big_blind=Decimal("50"))
    omaha = PokerTableFactory(casino=casino, number=4, location="Main", big_blind=Decimal("1"), game="omaha")
    PokerTableFactory(casino=casino, number=5, location="Main", big_blind=Decimal("500"), is_open=False)
    full = PokerTableFactory(casino=casino, number=6, location="Main", big_blind=Decimal("1000"))
    decks = {}
    for minute, (serial, colour) in enumerate([("F1", "grey"), ("F2", "white"), ("W1", "purple"), ("R1", "red"),
                                               ("R2", "red"), ("B1", "blue"), ("R3", "Red"), ("G1", "green"),
                                               ("B2", "blue")]):
        decks[serial] = receive_deck(casino=casino, serial=serial, back_colour=colour, by=floor,
                                     at=t0 + timedelta(minutes=minute))
    for serial, table in (("F1", full), ("F2", full), ("W1", wager)):
        assign_deck(deck=decks[serial], table=table, by=floor)
    proposal = [(line.table.number, line.deck.serial, line.reason) for line in propose_distribution(casino=casino)]

    def line(table, serial, clash):
        colour = decks[serial].back_colour
        return (table.number, serial, f"Limits {table.limits_label}; {table.location}: {colour} back, {clash}.")

    assert proposal == [
        line(high, "R1", "unlike its neighbours"), line(high, "B1", "unlike its neighbours"),  # $50: no neighbour
        line(wager, "R2", "unlike its neighbours"),   # $20 maximum wager: purple there already; none near has red yet
        line(low, "G1", "unlike its neighbours"),     # $2: red at the wager table, same game: the oldest other,
        line(low, "B2", "unlike its neighbours"),     # then another colour
        line(omaha, "R3", "stock allows no other"),   # $1: only red is left, and the hold 'em tables hold red
    ]


def stocked_room(casino, floor, held: dict, stock: list[str]) -> dict:
    """Tables of `casino` made in the order of `held` ({name: (location, game, colours of the decks at it)}), each
    given its decks (one of each colour), and the stock received oldest first, one deck of each colour in `stock`
    (serial S1, S2...): the tables by name."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.decks.services import assign_deck

    t0, tables = timezone.now() - timedelta(days=1), {}
    for number, (name, (location, game, colours)) in enumerate(held.items(), start=1):
        tables[name] = PokerTableFactory(casino=casino, number=number, location=location, game=game,
                                         big_blind=Decimal("2"))
        for colour in colours:
            deck = receive_deck(casino=casino, serial=f"{name}-{colour}", back_colour=colour, by=floor, at=t0)
            assign_deck(deck=deck, table=tables[name], by=floor)
    for minute, colour in enumerate(stock, start=1):
        receive_deck(casino=casino, serial=f"S{minute}", back_colour=colour, by=floor, at=t0 + timedelta(minutes=minute))
    return tables


def proposed(casino) -> list[tuple[int, str]]:
    return [(line.table.number, line.deck.back_colour) for line in propose_distribution(casino=casino)]


@pytest.mark.proves("14.2(c)-considerations")
def test_14_2_c_neighbours_are_the_tables_of_the_area_and_the_same_game_is_avoided_before_another(casino, staff):
    """Whose backs a table's new decks avoid (14.2(c): location and type of poker), each choice told apart by the
    stock's order (the oldest deck first among equals). In one area, a hold 'em table short of both decks beside two
    hold 'em tables (made before and after it), a badugi and an Omaha table (both full): the four colours left in
    stock are each held by one of them, the hold 'em tables' the oldest; it is proposed the badugi's and the Omaha's
    (another game in its area), not a hold 'em table's. In another room, a table whose area holds none of the stock's
    colours but whose game's tables in two other areas ("High limit" and "Poker pit", before and after "Main") hold
    them all: it takes them oldest first, as tables of no concern. A table whose one deck's colour is all the stock
    holds is proposed nothing (its two decks must differ)."""
    from tests.factories import CasinoFactory, StaffFactory

    floor = staff(Role.FLOORPERSON)
    tables = stocked_room(casino, floor, {
        "holdem-before": ("Main", "holdem", ["red", "pink"]), "badugi": ("Main", "badugi", ["blue", "navy"]),
        "short": ("Main", "holdem", []), "omaha": ("Main", "omaha", ["green", "teal"]),
        "holdem-after": ("Main", "holdem", ["black", "grey"])}, stock=["red", "black", "blue", "green"])
    assert proposed(casino) == [(tables["short"].number, "blue"), (tables["short"].number, "green")]

    other = CasinoFactory()
    tables = stocked_room(other, StaffFactory(casino=other, roles=[Role.FLOORPERSON]), {
        "high": ("High limit", "holdem", ["gold", "amber"]), "short": ("Main", "holdem", []),
        "pit": ("Poker pit", "holdem", ["white", "cream"])}, stock=["white", "gold"])
    assert proposed(other) == [(tables["short"].number, "white"), (tables["short"].number, "gold")]

    third = CasinoFactory()
    stocked_room(third, StaffFactory(casino=third, roles=[Role.FLOORPERSON]), {"one-deck": ("Main", "holdem", ["red"])},
                 stock=["Red"])
    assert proposed(third) == []


@pytest.mark.proves("14.2(c)-daily-distribution", "14.2(c)-considerations")
def test_14_2_c_the_supervisor_decides_and_it_is_recorded(casino, room, staff):
    proposal = propose_distribution(casino=casino)
    lines = [(p.table, p.deck) for p in proposal]
    with pytest.raises(DomainError, match="supervisor"):
        distribute_decks(casino=casino, assignments=lines, decided_by=staff(Role.FLOORPERSON), considerations="x")
    supervisor = staff(Role.POKER_SHIFT_SUPERVISOR)
    with pytest.raises(DomainError) as exc:
        distribute_decks(casino=casino, assignments=lines, decided_by=supervisor, considerations=" ")
    assert exc.value.field == "considerations"
    distribution = distribute_decks(casino=casino, assignments=lines, decided_by=supervisor,
                                    considerations="High limit first; main-floor neighbours in different colours.")
    assert distribution.lines.count() == 6
    assert all(line.deck.status == DeckStatus.AT_TABLE for line in distribution.lines.select_related("deck"))


@pytest.mark.proves("14.2(c)-daily-distribution")
def test_distribution_is_all_or_nothing(casino, room, staff):
    high, *_ = room
    decks = [p.deck for p in propose_distribution(casino=casino)][:3]
    with pytest.raises(DomainError, match="two decks"):
        distribute_decks(casino=casino, assignments=[(high, d) for d in decks],
                         decided_by=staff(Role.POKER_SHIFT_SUPERVISOR), considerations="too many")
    assert not DeckDistribution.objects.exists()
    assert all(d.status == DeckStatus.IN_STORAGE for d in type(decks[0]).objects.all())


@pytest.mark.proves("14.2(c)-daily-distribution", "14.2(c)-considerations")
def test_distribution_page(client, casino, room, staff):
    """The supervisor's page: the proposal and its considerations; nothing chosen, or no considerations, is refused
    (400, nothing recorded, the error shown); a line that is not table:deck is passed over; the lines accepted are
    recorded with the considerations as written; a dealer may not distribute."""
    from apps.decks.models import DeckDistribution

    supervisor = staff(Role.POKER_SHIFT_SUPERVISOR)
    client.force_login(supervisor)
    page = client.get("/decks/distribution/")
    assert page.status_code == 200
    lines = [f"{p.table.pk}:{p.deck.pk}" for p in propose_distribution(casino=casino)]
    refused = client.post("/decks/distribution/", {"line": ["not-a-line"], "considerations": "as proposed"})
    assert refused.status_code == 400 and b"Choose at least one deck" in refused.content
    refused = client.post("/decks/distribution/", {"line": lines, "considerations": "  "})
    assert refused.status_code == 400 and b"Say how limits, location and game were considered" in refused.content
    assert not DeckDistribution.objects.exists()
    lines = ["7:", *lines]
    response = client.post("/decks/distribution/", {"line": lines, "considerations": "as proposed"}, follow=True)
    assert b"6 deck(s) distributed" in response.content
    recorded = DeckDistribution.objects.get()
    assert (recorded.decided_by, recorded.considerations, recorded.lines.count()) == (supervisor, "as proposed", 6)
    for n in range(10):  # the page's record: the ten newest distributions
        DeckDistribution.objects.create(casino=casino, gaming_day=recorded.gaming_day, decided_by=supervisor,
                                        considerations=f"later {n}")
    history = client.get("/decks/distribution/").context["history"]
    assert [d.considerations for d in history] == [f"later {n}" for n in range(9, -1, -1)]
    client.force_login(staff(Role.DEALER))
    assert client.post("/decks/distribution/", {"line": lines, "considerations": "x"}).status_code == 403
