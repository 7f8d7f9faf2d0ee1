"""The ante rule on every game's table sign (N.J.A.C. 13:69F-14.9(b), 14.10(b), 14.11(b), 14.12(b), 14.12A(b),
14.12B(b), 14.13(b), 14.13A(b)): "the rule governing the placement of an ante and the amount of the ante, if any,
shall be posted on a sign at each poker table"."""
from decimal import Decimal

import pytest

from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db
#: game -> whether it is dealt with blinds (the flop and draw games) or with a bring-in (the stud games)
GAMES = {"stud": False, "holdem": True, "omaha": True, "draw_high": True, "triple_draw_27": True, "badugi": True,
         "five_card_stud": False, "mambo_stud": False}


@pytest.mark.proves("14.9(b)-ante-posted", "14.10(b)-ante-posted", "14.11(b)-ante-posted", "14.12(b)-ante-posted",
                    "14.12A(b)-ante-posted", "14.12B(b)-ante-posted", "14.13(b)-ante-posted",
                    "14.13A(b)-ante-posted")
@pytest.mark.parametrize("game", list(GAMES))
def test_each_games_sign_posts_its_ante_or_none(client, supervisor, casino, game):
    blinds = {} if GAMES[game] else {"small_blind": Decimal("0"), "big_blind": Decimal("0"),
                                     "bring_in": Decimal("2.00")}
    with_ante = PokerTableFactory(casino=casino, number=31, game=game, seats=6, ante=Decimal("1.25"), **blinds)
    without = PokerTableFactory(casino=casino, number=32, game=game, seats=6, ante=Decimal("0"), **blinds)
    client.force_login(supervisor)
    sign = client.get(f"/tables/{with_ante.pk}/sign/").content.decode()
    assert "<dt>Ante</dt><dd>$1.25 from each player</dd>" in sign
    sign = client.get(f"/tables/{without.pk}/sign/").content.decode()
    assert "<dt>Ante</dt><dd>None</dd>" in sign
