"""POST /api/qualifiers/odds/: who may compare candidate qualifying rules, the figures it answers, and bad input
(an unknown hand name, 1 player, 0 deals, 10⁹ deals) answered 400 naming the field, in the project's error shape."""
from decimal import Decimal

import pytest

from apps.core.roles import Role
from tests.factories import CasinoFactory, JackpotFactory

pytestmark = pytest.mark.django_db
URL = "/api/qualifiers/odds/"
D = Decimal
QUADS = {"game": "holdem", "losing": "four of a kind", "minimum_players_dealt": 2}
BOAT = {"game": "holdem", "losing": "aces full", "both_hole_cards": True, "minimum_players_dealt": 2}


@pytest.mark.parametrize(("role", "status"), [(Role.POKER_SHIFT_SUPERVISOR, 200), (Role.ADMIN, 200),
                                              (Role.FLOORPERSON, 403), (Role.DEALER, 403), (Role.ACCOUNTING, 403),
                                              (Role.SECURITY, 403), (Role.SURVEILLANCE, 403)])
def test_14_19_q_the_room_managers_compare_qualifying_rules(api, staff, room, role, status):
    """The supervisor and the administrator, who propose the posted qualifying hands (14.19(b)3, (q)), may; no
    other role."""
    api.force_authenticate(staff(role))
    response = api.post(URL, {"candidates": [QUADS], "deals": 1000, "seed": 1}, format="json")
    assert response.status_code == status, response.content


def test_anonymous_is_refused(api, room):
    assert api.post(URL, {"candidates": [QUADS]}, format="json").status_code in (401, 403)


def test_14_19_c_p_the_answer_has_each_candidates_figures(api, supervisor, room):
    """Two candidates: the engine's count with its interval, the room's rates and the jackpot at the hit (14.19(c),
    (p)); the same seed answers the same figures."""
    api.force_authenticate(supervisor)
    body = {"candidates": [{"game": "holdem", "losing": "full house"}, {**BOAT, "game": "omaha"}],
            "jackpot": room.pk, "deals": 5000, "seed": 42}
    response = api.post(URL, body, format="json")
    assert response.status_code == 200, response.content
    data = response.json()
    assert len(data["candidates"]) == 2 and data["deals"] == 5000 and data["seed"] == 42
    boat = data["candidates"][0]
    assert boat["deals"] == 5000 and boat["hits"] > 0
    low, high = boat["ci95"]
    assert low <= boat["probability"] <= high
    assert boat["players"] == 3  # the room's rounds were all dealt to three
    assert boat["rounds_per_day"] == 3.0
    assert boat["days_between_hits"] == pytest.approx(1 / boat["probability"] / 3)
    assert set(boat["chance_within_days"]) == {"30", "90", "365"}
    # $1.00 from the $50 and $80 pots (after the rake), none from the $10 one: 2/3 of a dollar a round
    assert data["jackpot"]["contribution_per_round"] == "0.6667"
    assert Decimal(boat["expected_jackpot_at_next_hit"]) >= Decimal(data["jackpot"]["payable_now"])
    assert data["history"]["holdem"]["rounds"] == 3 and data["history"]["omaha"]["rounds"] == 0
    assert data["candidates"][1]["days_between_hits"] is None  # no Omaha dealt here: unknown
    assert api.post(URL, body, format="json").json()["candidates"] == data["candidates"]


@pytest.mark.parametrize(("body", "field"), [
    ({"candidates": [{"game": "holdem", "losing": "five aces"}]}, "candidates[0].losing"),
    ({"candidates": [QUADS, {"game": "holdem", "losing": "a monster"}]}, "candidates[1].losing"),
    ({"candidates": [QUADS], "players": 1}, "players"),
    ({"candidates": [QUADS], "deals": 0}, "deals"),
    ({"candidates": [QUADS], "deals": 10**9}, "deals"),
    ({"candidates": [{**QUADS, "minimum_players_dealt": 1}]}, "candidates[0].minimum_players_dealt"),
    ({"candidates": [{**QUADS, "minimum_players_dealt": 6}], "players": 4}, "players"),
    ({"candidates": []}, "candidates"),
    ({"candidates": [QUADS] * 5}, "candidates"),
    ({"candidates": [{"game": "stud", "losing": "quads"}]}, "candidates"),
    ({"candidates": [QUADS], "jackpot": 999999}, "jackpot"),
])
def test_bad_input_is_a_400_naming_the_field(api, supervisor, room, body, field):
    api.force_authenticate(supervisor)
    response = api.post(URL, {"deals": 1000, **body}, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json(), response.json()


def test_another_casinos_jackpot_is_refused(api, supervisor, room):
    elsewhere = JackpotFactory(casino=CasinoFactory())
    api.force_authenticate(supervisor)
    response = api.post(URL, {"candidates": [QUADS], "jackpot": elsewhere.pk, "deals": 1000}, format="json")
    assert response.status_code == 400 and "jackpot" in response.json()


def test_the_schema_declares_the_operation_and_its_errors(api, supervisor):
    api.force_authenticate(supervisor)
    schema = api.get("/api/schema/?format=json").json()
    operation = schema["paths"][URL]["post"]
    assert {"200", "400", "403"} <= set(operation["responses"])
