"""An irregularity reported at a table needs a person (issue 34, item 3): it reaches the floor map's strip and the
table's tile until the poker shift supervisor or a floorperson resolves it (N.J.A.C. 13:69F-14.15)."""
import pytest
from django.db import DatabaseError, transaction

from apps.core.exceptions import AlreadyRecorded, DomainError
from apps.core.roles import Role
from apps.decks.services import record_deck_event
from apps.irregularities.models import Irregularity, IrregularityKind, IrregularityResolution
from apps.irregularities.services import log_irregularity, resolve_irregularity
from tests.decks.factories import deck_at_table
from tests.factories import CasinoFactory, PokerTableFactory, StaffFactory

pytestmark = pytest.mark.django_db
FACE_UP = "Card found face up in the deck (14.15(h))"


@pytest.fixture
def table(casino, supervisor):
    """Table 2, its decks in order: a tile that needs a person only for what a test adds."""
    table = PokerTableFactory(casino=casino, number=2)
    red = deck_at_table(table, "R-2", "red", supervisor)
    deck_at_table(table, "B-2", "blue", supervisor)
    record_deck_event(deck=red, kind="put_in_use", by=supervisor)
    return table


@pytest.fixture
def reported(table, staff):
    return log_irregularity(table=table, kind=IrregularityKind.CARD_FACE_UP_IN_DECK, reported_by=staff(Role.DEALER),
                            description="Six of clubs face up in the stub")


def strip(page: str) -> str:
    return page.split('data-testid="needs-attention"')[1].split("</section>")[0]


class TestService:
    @pytest.mark.parametrize("role", [Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON])
    def test_14_15_the_floor_resolves_it_once(self, staff, reported, role):
        floor = staff(role)
        done = resolve_irregularity(irregularity=reported, by=floor, note=" Deck changed ")
        assert (done.irregularity, done.resolved_by, done.note) == (reported, floor, "Deck changed")
        with pytest.raises(AlreadyRecorded) as exc:
            resolve_irregularity(irregularity=reported, by=floor)
        assert exc.value.status_code == 409 and exc.value.field == "irregularity"
        assert IrregularityResolution.objects.count() == 1

    @pytest.mark.parametrize("role", [Role.DEALER, Role.SECURITY, Role.ACCOUNTING])
    def test_others_may_not(self, staff, reported, role):
        with pytest.raises(DomainError) as exc:
            resolve_irregularity(irregularity=reported, by=staff(role))
        assert exc.value.field == "by" and not IrregularityResolution.objects.exists()

    def test_not_an_irregularity_of_another_room(self, reported):
        stranger = StaffFactory(casino=CasinoFactory(), roles=[Role.POKER_SHIFT_SUPERVISOR])
        with pytest.raises(DomainError) as exc:
            resolve_irregularity(irregularity=reported, by=stranger)
        assert exc.value.field == "irregularity"

    def test_the_resolution_is_append_only(self, supervisor, reported):
        done = resolve_irregularity(irregularity=reported, by=supervisor)
        with pytest.raises(DatabaseError, match="permission denied|append_only"), transaction.atomic():
            IrregularityResolution.objects.filter(pk=done.pk).update(note="edited")


def test_14_15_h_a_dealers_report_needs_a_person_on_the_floor_map_until_resolved(client, staff, supervisor, table):
    """A dealer reports a card face up in the deck: the floor map's strip and table 2's tile say so (the tile needs a
    person), and the count of the strip counts it; the supervisor resolves it from the strip: gone, the tile in
    order again."""
    client.force_login(staff(Role.DEALER))
    client.post("/irregularities/", {"table": table.pk, "kind": IrregularityKind.CARD_FACE_UP_IN_DECK,
                                     "description": "Six of clubs face up in the stub"})
    reported = Irregularity.objects.get()
    client.force_login(supervisor)
    page = client.get("/").content.decode()
    assert f"Table 2: {FACE_UP} — reported" in strip(page) and "Six of clubs face up in the stub" in strip(page)
    assert '<span class="count">1</span>' in strip(page)
    assert 'data-testid="tile-state-2">Needs a person' in page
    assert f"Irregularity to resolve: {FACE_UP}" in page.split('data-testid="problems-2"')[1]

    response = client.post(f"/irregularities/{reported.pk}/resolve/", {"next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    page = client.get("/").content.decode()
    assert f"Irregularity at table 2 resolved: {FACE_UP}." in page
    assert FACE_UP not in strip(page) and 'data-testid="tile-state-2">In order' in page
    assert reported.resolution.resolved_by == supervisor


def test_the_list_shows_who_resolved_it_and_refuses_twice_and_others(client, staff, supervisor, reported):
    client.force_login(staff(Role.DEALER))
    page = client.get("/irregularities/").content.decode()
    assert f'action="/irregularities/{reported.pk}/resolve/"' not in page  # a dealer reports, the floor resolves
    assert client.post(f"/irregularities/{reported.pk}/resolve/").status_code == 403
    client.force_login(staff(Role.FLOORPERSON, username="flo"))
    page = client.get("/irregularities/").content.decode()
    assert f'action="/irregularities/{reported.pk}/resolve/"' in page
    response = client.post(f"/irregularities/{reported.pk}/resolve/", {"note": "Deck changed, round dead"},
                           follow=True)
    cell = response.content.decode().split(f'data-testid="resolution-{reported.pk}"')[1].split("</td>")[0]
    assert "by flo: Deck changed, round dead" in cell
    again = client.post(f"/irregularities/{reported.pk}/resolve/")
    assert again.status_code == 409 and "This irregularity was resolved already" in again.content.decode()
    assert IrregularityResolution.objects.count() == 1
