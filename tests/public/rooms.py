"""A room for the public feed's tests (tests/public, tests/browser/test_public_page.py): two open $1/$2 hold 'em tables
(3 and 5, one game line), a $2/$5 table (7), a closed table (8); a bad beat verified at table 3 (payout pending), the
display at $1,234.56; the floor keeps the round's two players seated at table 3 and a player at table 5; a waitlist for the $1/$2 line with two players, one
with a distinctive name and phone."""
from dataclasses import dataclass
from decimal import Decimal

from django.utils import timezone

from apps.badbeat.models import Claim, Jackpot
from apps.badbeat.services import verify_claim
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.seats.models import Seat, Waitlist, WaitlistEntry, WaitlistSource
from apps.seats.selectors import line_key, line_texts
from tests.factories import JackpotFactory, PokerTableFactory

D = Decimal
#: What must never appear in the public feed or page: players' names, initials and phones.
SECRET_NAME, SECRET_PHONE, SECRET_INITIALS = "Marguerite Xylophone", "609-555-0142", "M.X."
SEATED_NAME, ROUND_NAME = "Zebediah Quuxworth", "Annabel Secretname"


@dataclass
class PublicRoom:
    casino: object
    tables: dict
    jackpot: object
    waitlist: object


def add_to_list(waitlist, name: str, phone: str = "") -> WaitlistEntry:
    now = timezone.now()
    return WaitlistEntry.objects.create(waitlist=waitlist, name=name, phone=phone, source=WaitlistSource.IN_PERSON,
                                        created_at=now, checked_in_at=now)


def build_public_room(casino, supervisor) -> PublicRoom:
    tables = {n: PokerTableFactory(casino=casino, number=n) for n in (3, 5)}
    tables[7] = PokerTableFactory(casino=casino, number=7, small_blind=D("2"), big_blind=D("5"),
                                  minimum_wager=D("5"))
    tables[8] = PokerTableFactory(casino=casino, number=8, is_open=False)
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"))
    bad_beat = record_round_of_play(table=tables[3], round_in=RoundIn(
        started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
            PlayerIn(seat=1, contributed=D("50"), hole_cards="9s 9c", name=ROUND_NAME),
            PlayerIn(seat=2, contributed=D("50"), hole_cards="5s 4s", name="Ben")]))
    verify_claim(claim=Claim.objects.get(round_of_play=bad_beat), supervisor=supervisor)
    Jackpot.objects.filter(pk=jackpot.pk).update(displayed_amount=D("1234.56"))
    for number, name in ((1, ROUND_NAME), (2, "Ben")):
        Seat.objects.create(table=tables[3], number=number, player=name, since=timezone.now())
    Seat.objects.create(table=tables[5], number=1, player=SEATED_NAME, since=timezone.now())
    game, limits, rotation = line_texts(tables[3])
    waitlist = Waitlist.objects.create(casino=casino, key=line_key(tables[3]), game=game, limits=limits,
                                       rotation=rotation)
    add_to_list(waitlist, SECRET_NAME, SECRET_PHONE)
    add_to_list(waitlist, "Bo")
    return PublicRoom(casino=casino, tables=tables, jackpot=jackpot, waitlist=waitlist)
