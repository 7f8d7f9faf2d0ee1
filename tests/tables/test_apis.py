"""Tables: seat maxima per game (N.J.A.C. 13:69F-14.9(b) ... 14.13A(b)) and who may change a table."""
import pytest

from apps.core.roles import Role
from apps.tables.models import PokerTable
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db


def new_table(**overrides):
    return {"number": 12, "game": "holdem", "seats": 10, "minimum_wager": "2.00", "small_blind": "1.00",
            "big_blind": "2.00"} | overrides


@pytest.mark.parametrize(("game", "maximum", "clause"), [
    ("holdem", 11, "14.10(b)"), ("omaha", 10, "14.11(b)"), ("stud", 9, "14.9(b)"), ("draw_high", 8, "14.12(b)"),
    ("triple_draw_27", 7, "14.12A(b)"), ("badugi", 9, "14.12B(b)"), ("five_card_stud", 8, "14.13(b)"),
    ("mambo_stud", 11, "14.13A(b)")])
@pytest.mark.proves("14.9(b)-seat-maximum", "14.10(b)-seat-maximum", "14.11(b)-seat-maximum",
                    "14.12(b)-seat-maximum", "14.12A(b)-seat-maximum", "14.12B(b)-seat-maximum",
                    "14.13(b)-seat-maximum", "14.13A(b)-seat-maximum")
def test_seat_maximum_per_game(api, supervisor, game, maximum, clause):
    """Each game's table seats at most the players its section allows: 14.9(b) seven-card stud 9, 14.10(b) hold 'em
    11, 14.11(b) Omaha 10, 14.12(b) five-card draw 8, 14.12A(b) triple draw 7, 14.12B(b) badugi 9, 14.13(b) five-card
    stud 8, 14.13A(b) mambo stud 11; one seat more is refused naming the clause, fewer are posted. The table shows the
    game's maximum; a mixed-game table with the game in its rotation (beside one seating 11) is held to it the same
    way."""
    api.force_authenticate(supervisor)
    created = api.post("/api/tables/", new_table(game=game, seats=maximum), format="json")
    assert created.status_code == 201 and created.json()["seat_maximum"] == maximum
    fewer = api.post("/api/tables/", new_table(number=16, game=game, seats=maximum - 2), format="json")
    assert fewer.status_code == 201 and fewer.json()["seats"] == maximum - 2  # fewer seats than the most: posted
    refused = api.post("/api/tables/", new_table(number=13, game=game, seats=maximum + 1), format="json")
    assert refused.status_code == 400
    assert clause in refused.json()["seats"][0]
    other = "mambo_stud" if game == "holdem" else "holdem"
    rotation = [{"game": game, "minimum_wager": "2"}, {"game": other, "minimum_wager": "2", "big_blind": "2"}]
    mixed = {"number": 14, "seats": maximum, "rotation_name": "Mix", "rotation": rotation}
    created = api.post("/api/tables/", mixed, format="json")
    assert created.status_code == 201 and created.json()["seat_maximum"] == maximum
    assert api.post("/api/tables/", mixed | {"number": 17, "seats": maximum - 2}, format="json").status_code == 201
    refused = api.post("/api/tables/", mixed | {"number": 15, "seats": maximum + 1}, format="json")
    assert refused.status_code == 400 and clause in refused.json()["seats"][0]


@pytest.mark.parametrize(("role", "status"), [
    (Role.POKER_SHIFT_SUPERVISOR, 201), (Role.ADMIN, 201), (Role.DEALER, 403), (Role.FLOORPERSON, 403),
    (Role.SURVEILLANCE, 403), (Role.ACCOUNTING, 403)])
def test_who_may_create_a_table(api, staff, role, status):
    api.force_authenticate(staff(role))
    assert api.post("/api/tables/", new_table(), format="json").status_code == status


def test_surveillance_reads_tables_of_its_casino_only(api, staff, casino):
    PokerTableFactory(casino=casino, number=1)
    PokerTableFactory(number=2)  # another casino
    api.force_authenticate(staff(Role.SURVEILLANCE))
    assert [t["number"] for t in api.get("/api/tables/").json()["results"]] == [1]


def test_duplicate_number_and_max_below_min_are_field_errors(api, supervisor, casino):
    PokerTableFactory(casino=casino, number=12)
    api.force_authenticate(supervisor)
    assert "number" in api.post("/api/tables/", new_table(), format="json").json()
    response = api.post("/api/tables/", new_table(number=14, maximum_wager="1.00"), format="json")
    assert "maximum_wager" in response.json()
    assert PokerTable.objects.count() == 1


def test_token_auth(api, supervisor):
    supervisor.set_password("pw-for-tests-1")
    supervisor.save()
    token = api.post("/api/token/", {"username": supervisor.username, "password": "pw-for-tests-1"}).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/tables/").status_code == 200


class TestTableWithoutSeats:
    """The hostile inputs of issue 13: a table posted without `game` or `seats` is a table with the defaults, not a 500;
    its seats are then 9 or its game's maximum when smaller (N.J.A.C. 13:69F-14.12(b): 8 at five-card draw)."""

    def test_hold_em_by_default_with_nine_seats(self, api, supervisor):
        api.force_authenticate(supervisor)
        answer = api.post("/api/tables/", {"number": 41, "minimum_wager": "2.00"}, format="json")
        assert answer.status_code == 201, answer.json()
        assert (answer.json()["game"], answer.json()["seats"]) == ("holdem", 9)

    def test_a_draw_table_seats_its_game_maximum(self, api, supervisor):
        api.force_authenticate(supervisor)
        answer = api.post("/api/tables/", {"number": 42, "game": "draw_high", "betting_structure": "fixed_limit",
                                           "minimum_wager": "2.00", "maximum_wager": "4.00"},
                          format="json")
        assert answer.status_code == 201, answer.json()
        assert answer.json()["seats"] == 8
