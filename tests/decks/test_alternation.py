"""With an automated shuffler both decks alternate every round, N.J.A.C. 13:69F-14.2(d)3."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.decks.models import AlertKind, DeckAlert, RoundDeck
from apps.decks.selectors import alternation_breaks
from apps.decks.services import refresh_deck_alerts
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.rounds.models import RoundOfPlay
from tests.decks.factories import deck_at_table
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def shuffler_table(casino, staff):
    table = PokerTableFactory(casino=casino, number=8, uses_automated_shuffler=True)
    floor = staff(Role.FLOORPERSON)
    deck_at_table(table, "R-8", "red", floor)
    deck_at_table(table, "B-8", "blue", floor)
    return table


def deal(table, deck, minutes, start=None):
    """A round dealt `minutes` after `start` (an hour ago when not given), from the deck of serial `deck`."""
    start = start or timezone.now() - timedelta(hours=1)
    return record_round_of_play(table=table, round_in=RoundIn(
        started_at=start + timedelta(minutes=minutes), deck=deck or "",
        players=[PlayerIn(seat=1, contributed=Decimal("2")), PlayerIn(seat=2, contributed=Decimal("1"), folded=True)]))


@pytest.mark.proves("14.2(d)3")
def test_14_2_d_3_alternating_decks_pass(shuffler_table):
    for minute, deck in enumerate(["R-8", "B-8", "R-8", "B-8"]):
        deal(shuffler_table, deck, minute)
    assert alternation_breaks(table=shuffler_table) == []
    assert refresh_deck_alerts(casino=shuffler_table.casino) == (0, 0)


@pytest.mark.proves("14.2(d)3")
def test_14_2_d_3_the_same_deck_twice_in_a_row_is_flagged_and_alerted(shuffler_table):
    rounds = [deal(shuffler_table, deck, minute) for minute, deck in enumerate(["R-8", "B-8", "B-8", "R-8", None])]
    breaks = alternation_breaks(table=shuffler_table)
    assert [(b.round_id, b.deck_serial) for b in breaks] == [(rounds[2].pk, "B-8"), (rounds[4].pk, None)]
    refresh_deck_alerts(casino=shuffler_table.casino)
    assert DeckAlert.objects.get(cleared_at=None).kind == AlertKind.ALTERNATION
    deal(shuffler_table, "B-8", 10)
    refresh_deck_alerts(casino=shuffler_table.casino)
    assert not DeckAlert.objects.filter(cleared_at=None).exists()


def test_a_deck_not_at_the_table_is_refused_and_nothing_is_stored(shuffler_table):
    with pytest.raises(DomainError, match="not at table 8") as exc:
        deal(shuffler_table, "G-404", 1)
    assert exc.value.field == "deck"
    assert not RoundOfPlay.objects.exists() and not RoundDeck.objects.exists()


def test_tables_without_a_shuffler_are_not_checked(casino):
    table = PokerTableFactory(casino=casino)
    deal(table, None, 1)
    assert alternation_breaks(table=table) == []


def test_the_feed_reports_the_deck_through_the_api(api, staff, shuffler_table):
    api.force_authenticate(staff(Role.DEALER))
    body = {"table": shuffler_table.pk, "deck": "R-8", "players": [
        {"seat": 1, "contributed": "2.00"}, {"seat": 2, "contributed": "1.00", "folded": True}]}
    assert api.post("/api/rounds/", body, format="json").status_code == 201
    refused = api.post("/api/rounds/", body | {"deck": "X-1"}, format="json")
    assert refused.status_code == 400 and "deck" in refused.json()
    assert RoundDeck.objects.get().deck.serial == "R-8"


def breaks_of(table, since=None):
    return [(b.round_id, b.previous_round_id, b.deck_serial) for b in alternation_breaks(table=table, since=since)]


@pytest.mark.proves("14.2(d)3")
def test_14_2_d_3_breaks_are_read_in_the_order_dealt_from_the_moment_asked(shuffler_table):
    """Rounds are walked by their start, then as recorded: a round without a deck breaks the alternation, and so does
    the next one only when it repeats the deck before (not when the round before had none). From `since`, the rounds
    before are not read: the first read has no round before it."""
    start = timezone.now() - timedelta(hours=1)
    rounds = [deal(shuffler_table, deck, minute, start=start)
              for minute, deck in [(0, "R-8"), (1, None), (2, "R-8"), (3, "B-8"), (3, "R-8"), (4, "R-8"), (5, "B-8")]]
    ids = [r.pk for r in rounds]
    assert breaks_of(shuffler_table) == [(ids[1], ids[0], None), (ids[5], ids[4], "R-8")]
    assert breaks_of(shuffler_table, since=start + timedelta(minutes=2)) == [(ids[5], ids[4], "R-8")]
    assert breaks_of(shuffler_table, since=start + timedelta(minutes=4)) == []  # its first round has none before it
    assert breaks_of(shuffler_table, since=start + timedelta(minutes=1)) == [(ids[1], None, None),
                                                                             (ids[5], ids[4], "R-8")]


@pytest.mark.proves("14.2(d)3")
def test_14_2_d_3_the_alert_is_of_the_last_two_rounds_at_each_shuffler_table(casino, staff, shuffler_table):
    """An earlier break mended since raises no alert; the last round repeating its deck, or dealt with none, raises one
    at its table only; a table without a shuffler raises none, whatever its decks."""
    floor = staff(Role.FLOORPERSON)
    plain = PokerTableFactory(casino=casino, number=9)
    deck_at_table(plain, "R-9", "red", floor)
    deck_at_table(plain, "B-9", "blue", floor)
    other = PokerTableFactory(casino=casino, number=10, uses_automated_shuffler=True)
    deck_at_table(other, "R-10", "red", floor)
    deck_at_table(other, "B-10", "blue", floor)

    def alerts():
        refresh_deck_alerts(casino=casino)
        return sorted(a.table_id for a in DeckAlert.objects.filter(cleared_at=None, kind=AlertKind.ALTERNATION))

    for minute, deck in enumerate(["R-8", "R-8", "B-8"]):
        deal(shuffler_table, deck, minute)
    for minute, deck in enumerate(["R-9", "R-9", "R-9"]):
        deal(plain, deck, minute)
    deal(other, "R-10", 1)
    deal(other, "B-10", 2)
    assert alerts() == []  # the break at table 8 was mended by its last round
    deal(other, None, 3)
    assert alerts() == [other.pk]
    deal(shuffler_table, "B-8", 3)
    assert alerts() == [shuffler_table.pk, other.pk]
    deal(other, "R-10", 4)
    assert alerts() == [shuffler_table.pk]
    deal(other, None, 3)  # reported late, without a deck: dealt before table 10's last round, which alternates
    deal(shuffler_table, "R-8", 4)
    assert alerts() == []


@pytest.mark.proves("14.2(d)3")
def test_14_2_d_3_a_shuffler_tables_first_round_without_a_deck_raises_the_alert(shuffler_table):
    deal(shuffler_table, None, 1)
    assert refresh_deck_alerts(casino=shuffler_table.casino) == (1, 0)
    assert DeckAlert.objects.get(cleared_at=None).kind == AlertKind.ALTERNATION


@pytest.mark.proves("14.2(d)3")
def test_14_2_d_3_each_round_is_linked_to_the_deck_at_its_own_table_by_serial(casino, staff, shuffler_table):
    """The serial as the feed gives it, spaces around it ignored, blank for none; a deck of that serial elsewhere (at
    another table, at another casino, or recorded as no longer at the table) is refused and nothing is recorded."""
    from apps.decks.models import Deck, DeckStatus
    from tests.factories import CasinoFactory

    floor = staff(Role.FLOORPERSON)
    first = deal(shuffler_table, " R-8 ", 1)
    blank = deal(shuffler_table, "   ", 2)
    assert RoundDeck.objects.get(round_of_play=first).deck.serial == "R-8"
    assert not RoundDeck.objects.filter(round_of_play=blank).exists()
    elsewhere = PokerTableFactory(casino=CasinoFactory(), number=8, uses_automated_shuffler=True)
    deck_at_table(elsewhere, "G-8", "green", floor)  # a deck of that serial at another casino's table 8 only
    beside = PokerTableFactory(casino=casino, number=12)
    deck_at_table(beside, "Y-12", "yellow", floor)
    for serial in ("G-8", "Y-12", "X-404"):
        with pytest.raises(DomainError, match=f"Deck {serial} is not at table 8") as refused:
            deal(shuffler_table, serial, 3)
        assert refused.value.field == "deck"
    with pytest.raises(DomainError, match="Deck R-8 is not at table 12"):  # and the other way round
        deal(beside, "R-8", 3)
    Deck.objects.filter(serial="B-8").update(status=DeckStatus.DESTROYED)  # its table still named on the record
    with pytest.raises(DomainError, match="Deck B-8 is not at table 8"):
        deal(shuffler_table, "B-8", 4)
    assert RoundOfPlay.objects.filter(table__casino=casino).count() == 2 and RoundDeck.objects.count() == 1
