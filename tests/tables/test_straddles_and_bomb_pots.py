"""The straddles and the bomb pot a game posts (N.J.A.C. 13:69F-14.17: the forced bets and limits posted at the table),
posted through the tables API for a table or each game of its rotation, and shown with the posted game."""
from decimal import Decimal

import pytest

from apps.tables.models import PokerTable, StraddleOption
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db


def new_table(**overrides):
    return {"number": 12, "game": "holdem", "seats": 9, "minimum_wager": "2.00", "small_blind": "1.00",
            "big_blind": "2.00"} | overrides


def test_14_17_a_table_posts_its_straddles_and_bomb_pot(api, supervisor):
    """14.17: a table posts where a straddle may be made and how many, and its bomb-pot ante; they are read back and
    shown among its forced bets."""
    api.force_authenticate(supervisor)
    response = api.post("/api/tables/", new_table(straddles="under_the_gun", maximum_straddles=2,
                                                  bomb_pot_ante="5.00"), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["straddles"], body["maximum_straddles"], body["bomb_pot_ante"]) == ("under_the_gun", 2, "5.00")
    table = PokerTable.objects.get(pk=body["id"])
    assert table.forced_bets_label == ("blinds $1.00/$2.00, straddle under the gun (at most 2), "
                                       "bomb pot ante $5.00")
    changed = api.patch(f"/api/tables/{table.pk}/", {"straddles": "none", "bomb_pot_ante": "0.00"}, format="json")
    assert changed.status_code == 200 and changed.json()["straddles"] == "none"
    assert PokerTable.objects.get(pk=table.pk).forced_bets_label == "blinds $1.00/$2.00"


@pytest.mark.parametrize(("overrides", "field"), [
    ({"straddles": "button", "maximum_straddles": 2}, "maximum_straddles"),     # the button straddles once
    ({"straddles": "any_seat", "maximum_straddles": 0}, "maximum_straddles"),
    ({"straddles": "under_the_gun", "small_blind": "0.00", "big_blind": "0.00"}, "straddles"),  # no blind to raise
    ({"game": "stud", "ante": "1.00", "bring_in": "2.00", "small_blind": "0.00", "big_blind": "0.00",
      "bomb_pot_ante": "5.00"}, "bomb_pot_ante"),  # a bomb pot is dealt with a flop
    ({"straddles": "mississippi"}, "straddles"),
    ({"bomb_pot_ante": "-1.00"}, "bomb_pot_ante"),
])
def test_14_17_straddles_and_bomb_pots_a_game_cannot_post_are_refused(api, supervisor, overrides, field):
    """14.17: a straddle raises a posted big blind (one on the button); a bomb pot needs a flop; refused naming the
    field, nothing written."""
    api.force_authenticate(supervisor)
    response = api.post("/api/tables/", new_table(**overrides), format="json")
    assert response.status_code == 400 and field in response.json(), response.content
    assert not PokerTable.objects.exists()


def test_14_17_each_game_of_a_rotation_posts_its_own_straddles(api, supervisor):
    """14.8, 14.17: a mixed-game table posts straddles and the bomb pot game by game; a stud game may post neither."""
    api.force_authenticate(supervisor)
    rotation = [{"game": "holdem", "betting_structure": "no_limit", "minimum_wager": "2.00", "small_blind": "1.00",
                 "big_blind": "2.00", "straddles": "any_seat", "maximum_straddles": 3, "bomb_pot_ante": "10.00"},
                {"game": "stud", "betting_structure": "fixed_limit", "minimum_wager": "4.00", "maximum_wager": "8.00",
                 "ante": "1.00", "bring_in": "1.00"}]
    response = api.post("/api/tables/", new_table(seats=8, rotation_name="HS", rotation=rotation), format="json")
    assert response.status_code == 201, response.content
    games = response.json()["rotation"]
    assert [(g["straddles"], g["maximum_straddles"], g["bomb_pot_ante"]) for g in games] == [
        ("any_seat", 3, "10.00"), ("none", 1, "0.00")]
    rotation[1] |= {"straddles": "under_the_gun"}
    refused = api.post("/api/tables/", new_table(number=13, seats=8, rotation_name="HS", rotation=rotation),
                       format="json")
    assert refused.status_code == 400 and "rotation[1].straddles" in refused.json()


def test_the_posted_game_shows_its_straddles_on_the_table_page(client, supervisor, casino):
    """14.17: the table page shows the straddles and the bomb pot with the forced bets, and the table sign posts them."""
    table = PokerTableFactory(casino=casino, straddles=StraddleOption.BUTTON, bomb_pot_ante=Decimal("5.00"))
    client.force_login(supervisor)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "straddle on the button (at most 1)" in page and "bomb pot ante $5.00" in page
    sign = client.get(f"/tables/{table.pk}/sign/").content.decode()
    assert "Straddle on the button (at most 1)" in sign and "Bomb pot ante $5.00 from each player" in sign
