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


def deal(table, deck, minutes):
    return record_round_of_play(table=table, round_in=RoundIn(
        started_at=timezone.now() - timedelta(minutes=60 - minutes), deck=deck or "",
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
