"""Irregularities of N.J.A.C. 13:69F-14.15, logged with who, when, table, deck and round."""
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.irregularities.models import Irregularity, IrregularityKind
from apps.irregularities.services import log_irregularity
from tests.decks.factories import deck_at_table
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(casino):
    return PokerTableFactory(casino=casino, number=2)


@pytest.mark.proves("14.15(g)-dead")
def test_14_15_g_a_dead_round_from_the_feed_is_logged(table):
    dead = record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), dead_reason="52nd card missing", players=[
        PlayerIn(seat=1, contributed=Decimal("4")), PlayerIn(seat=2, contributed=Decimal("4"))]))
    irregularity = Irregularity.objects.get()
    assert irregularity.kind == IrregularityKind.DEAD_ROUND and irregularity.round_of_play == dead
    assert "$8.00 returned" in irregularity.description


def test_14_15_p_shuffler_jam_with_deck_and_reporter(table, staff):
    floor = staff(Role.FLOORPERSON)
    deck = deck_at_table(table, "R-2", "red", floor)
    logged = log_irregularity(table=table, kind=IrregularityKind.SHUFFLER_JAM, deck=deck, reported_by=floor,
                              description="Shuffler stopped mid-cycle; deck reshuffled by hand.")
    assert (logged.deck, logged.reported_by, logged.table) == (deck, floor, table)


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"kind": "nonsense", "description": "x"}, "kind"),
    ({"kind": IrregularityKind.MISDEAL, "description": "  "}, "description"),
])
def test_bad_input_names_the_field(table, kwargs, field):
    with pytest.raises(DomainError) as exc:
        log_irregularity(table=table, **kwargs)
    assert exc.value.field == field
    assert not Irregularity.objects.exists()


def test_a_round_of_another_table_is_refused(table, casino):
    other = PokerTableFactory(casino=casino, number=9)
    played = record_round_of_play(table=other, round_in=RoundIn(started_at=timezone.now(), players=[
        PlayerIn(seat=1, contributed=Decimal("2")), PlayerIn(seat=2, contributed=Decimal("1"), folded=True)]))
    with pytest.raises(DomainError) as exc:
        log_irregularity(table=table, kind=IrregularityKind.MISDEAL, description="x", round_of_play=played)
    assert exc.value.field == "round_of_play"


def test_the_shift_page_lists_and_logs_by_role(client, staff, table):
    client.force_login(staff(Role.DEALER))
    response = client.post("/irregularities/", {"table": table.pk, "kind": "card_off_table",
                                                "description": "Card flew off at seat 3"}, follow=True)
    assert b"Card flew off at seat 3" in response.content
    bad = client.post("/irregularities/", {"table": table.pk, "kind": "misdeal", "description": "x", "deck": "NOPE"})
    assert bad.status_code == 400 and b"No such deck" in bad.content
    client.force_login(staff(Role.SURVEILLANCE))
    assert client.get("/irregularities/").status_code == 200
    assert client.post("/irregularities/", {"table": table.pk, "kind": "misdeal", "description": "x"}).status_code == 403
    client.force_login(staff(Role.ACCOUNTING))
    assert client.get("/irregularities/").status_code == 403
    assert Irregularity.objects.count() == 1
