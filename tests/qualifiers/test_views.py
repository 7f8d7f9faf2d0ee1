"""The designer's page (/qualifiers/): for the room's managers only, in the navigation for them, errors beside their
fields (400, nothing computed), and two candidates side by side with their chart."""
import json
import re

import pytest

from apps.core.roles import Role
from tests.factories import JackpotFactory

pytestmark = pytest.mark.django_db
URL = "/qualifiers/"


def run_query(**overrides) -> dict:
    query = {"deals": "2000", "seed": "5", "c1_game": "holdem", "c1_losing": "full house",
             "c1_minimum_players_dealt": "2", "c2_game": "holdem", "c2_losing": "three of a kind",
             "c2_minimum_players_dealt": "2", "c3_game": "holdem", "c3_minimum_players_dealt": "4",
             "c4_game": "omaha", "c4_minimum_players_dealt": "4", "players": "6"}
    return query | overrides


@pytest.mark.parametrize(("role", "allowed"), [(Role.POKER_SHIFT_SUPERVISOR, True), (Role.ADMIN, True),
                                               (Role.FLOORPERSON, False), (Role.DEALER, False),
                                               (Role.ACCOUNTING, False), (Role.SECURITY, False),
                                               (Role.SURVEILLANCE, False)])
def test_14_19_q_the_page_and_its_link_are_for_the_room_managers(client, staff, casino, role, allowed):
    JackpotFactory(casino=casino)
    client.force_login(staff(role))
    response = client.get(URL)
    assert response.status_code == (200 if allowed else 403)
    home = client.get("/jackpot/rules/").content.decode()
    assert (f'href="{URL}"' in home) is allowed


def test_anonymous_is_sent_to_sign_in(client):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_14_19_b_3_the_form_opens_with_the_posted_qualifying_hand(client, supervisor, casino):
    JackpotFactory(casino=casino, qualifying_minimum_rank=8, both_hole_cards_must_play=True, minimum_players_dealt=6)
    client.force_login(supervisor)
    page = client.get(URL).content.decode()
    assert 'name="c1_losing" value="four eights"' in page
    assert re.search(r'name="c1_both_hole_cards"[^>]*checked', page)
    assert 'name="c1_minimum_players_dealt" value="6"' in page


def test_two_candidates_side_by_side_with_their_chart(client, supervisor, room):
    client.force_login(supervisor)
    response = client.get(URL, run_query(jackpot=str(room.pk)))
    assert response.status_code == 200, response.content.decode()[:3000]
    page = response.content.decode()
    assert 'data-testid="result-column-1"' in page and 'data-testid="result-column-2"' in page
    assert 'data-testid="result-column-3"' not in page
    data = json.loads(re.search(r'id="chart-chance-of-hit-data"[^>]*>(.*?)</script>', page, re.S).group(1))
    assert [s["label"] for s in data["series"]] == ["Candidate 1", "Candidate 2"]
    assert 'data-testid="chart-table-days-between-hits"' in page  # the figures also as a table
    assert 'data-testid="jackpot-1"' in page and 'data-testid="jackpot-2"' in page


@pytest.mark.parametrize(("overrides", "field", "message"), [
    ({"c1_losing": "five aces"}, "c1_losing", "Unknown hand"),
    ({"players": "1"}, "players", "Between 2 and 10 players"),
    ({"deals": "0"}, "deals", "Between 1,000 and"),
    ({"deals": str(10**9)}, "deals", "Between 1,000 and"),
    ({"c2_losing": "full house", "c2_minimum_players_dealt": "8"}, "players", "minimum players dealt in (8)"),
    ({"c1_losing": "", "c2_losing": ""}, "c1_losing", "at least one candidate"),
])
def test_bad_input_is_shown_beside_its_field(client, supervisor, casino, overrides, field, message):
    JackpotFactory(casino=casino)
    client.force_login(supervisor)
    response = client.get(URL, run_query(**overrides))
    assert response.status_code == 400
    page = response.content.decode()
    beside = re.search(rf'id="id_{field}_error"[^>]*>(.*?)</ul>', page, re.S)
    assert beside and message in beside.group(1), page[:4000]
    assert 'data-testid="designer-results"' not in page


def test_a_rule_with_few_hits_says_its_interval_is_wide(client, supervisor, room):
    """Royal flush beaten in 2,000 deals hits (almost) never: its column says the interval is wide; three of a kind
    hits hundreds of times and says nothing."""
    client.force_login(supervisor)
    page = client.get(URL, run_query(c1_losing="royal flush")).content.decode()
    assert 'data-testid="few-hits-1"' in page and 'data-testid="few-hits-2"' not in page
    assert "fewer than 10 hits: a wide interval, deal more" in page
