"""Only the games 13:69F permits are offered (N.J.A.C. 13:69F-14.8(b)): a table of any other game, or a mixed-game
table with one in its rotation, is refused naming the field, by the API and by the service behind it, and nothing is
written."""
from decimal import Decimal

import pytest

from apps.core.exceptions import DomainError
from apps.tables.models import Game, PokerTable
from apps.tables.services import create_table

pytestmark = pytest.mark.django_db
NOT_PERMITTED = ["short_deck_holdem", "pai_gow", "razz_2_7_single", "texas_holdem_hi_lo"]


@pytest.mark.proves("14.8(b)")
@pytest.mark.parametrize("game", NOT_PERMITTED)
def test_14_8_b_a_game_13_69f_does_not_permit_is_refused(api, supervisor, casino, game):
    assert game not in Game.values
    api.force_authenticate(supervisor)
    body = {"number": 12, "game": game, "seats": 6, "minimum_wager": "2.00", "small_blind": "1.00",
            "big_blind": "2.00"}
    response = api.post("/api/tables/", body, format="json")
    assert response.status_code == 400 and "game" in response.json()
    rotation = {"number": 13, "seats": 6, "rotation_name": "Mix", "rotation": [
        {"game": "holdem", "minimum_wager": "2", "big_blind": "2", "small_blind": "1"},
        {"game": game, "minimum_wager": "2"}]}
    response = api.post("/api/tables/", rotation, format="json")
    assert response.status_code == 400 and "game" in response.json()["rotation"]["1"]
    with pytest.raises(DomainError) as refused:
        create_table(casino=casino, number=14, game=game, seats=6, minimum_wager=Decimal("2"))
    assert refused.value.field == "game"
    for other in (game, None, 7):  # the service refuses what the API's choices would: any game not of 13:69F
        with pytest.raises(DomainError) as refused:
            create_table(casino=casino, number=15, seats=6, rotation_name="Mix", rotation=[
                {"game": "holdem", "minimum_wager": "2"}, {"game": other, "minimum_wager": "2"}])
        assert refused.value.field == "rotation[1].game" and "permissible games" in refused.value.message
    assert not PokerTable.objects.exists()
