"""The designer's tests: a room with a jackpot and a few rounds of play behind it."""
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, RakeStructureFactory

D = Decimal


@pytest.fixture
def room(casino):
    """A jackpot ($1 from each pot of $20 or more, 10 % reset) and three rounds of play at a raked table."""
    jackpot = JackpotFactory(casino=casino, reset_percentage=D("10.00"))
    table = RakeStructureFactory(table__casino=casino).table
    for board, pot in (("2h 7d 9c Js Kd", D("25")), ("3c 8d Th Qs 2s", D("5")), ("4d 5d 6h 9s Ac", D("40"))):
        record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=[
            PlayerIn(seat=1, name="Ana", contributed=pot, hole_cards="As Ad"),
            PlayerIn(seat=2, name="Ben", contributed=pot, hole_cards="Kh Kc"),
            PlayerIn(seat=3, name="Cy", contributed=D("0"), hole_cards="Qh Qc", folded=True)]))
    return jackpot
