"""One truth per fact (N.J.A.C. 13:69F-14.18): the floor map, the seats board, the games board (a room screen), the
kiosk and the public feed read the open tables (apps.tables.selectors.open_tables) and who sits at them
(apps.seats.selectors.seats_of, the floor's record) from one selector each; on one seeded room they show the same
seated seats per table, the same open tables, and open seats that are the tables' seats minus the seated ones."""
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from apps.core.roles import Role
from apps.screens.models import ScreenKind
from apps.screens.selectors import screen_path
from apps.screens.services import issue_display_link
from apps.seats.selectors import line_key
from tests.factories import PokerTableFactory, StaffFactory

from .factories import deal, entry, keep, waitlist_for
from .test_selectors import dealing_table

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded():
    """Tables 1 and 2 deal $1/$2 hold 'em (9 seats), table 3 $2/$5 (8 seats), table 4 is closed. The record: seats
    1, 2, 4, 5, 7 at table 1 (7 away), 1, 2, 3 at table 2, none at table 3. The newest rounds: 1, 2, 3 at table 1
    (it disagrees), 1, 2, 3 at table 2 (it agrees), every seat at table 3 (it disagrees). Three wait for $1/$2."""
    now = timezone.now()
    one = dealing_table(number=1, seats=9)
    casino = one.casino
    two = dealing_table(casino, number=2, seats=9)
    three = dealing_table(casino, number=3, seats=8, small_blind=D("2"), big_blind=D("5"), minimum_wager=D("5"))
    PokerTableFactory(casino=casino, number=4, is_open=False)
    since = now - timedelta(minutes=30)
    for number, player in ((1, "Ann"), (2, "Bo"), (4, "Cy"), (5, "Di")):
        keep(one, number, player, since)
    keep(one, 7, "Ed", since, away_since=now - timedelta(minutes=5))
    for number, player in ((1, "Fay"), (2, "Gus"), (3, "Hal")):
        keep(two, number, player, since)
    deal(one, {1: "Ann", 2: "Bo", 3: "Ivy"}, now - timedelta(minutes=2))
    deal(two, {1: "Fay", 2: "Gus", 3: "Hal"}, now - timedelta(minutes=2))
    deal(three, {n: f"P{n}" for n in range(1, 9)}, now - timedelta(minutes=2))
    waitlist = waitlist_for(one)
    for minutes, name in ((15, "Jo Kim"), (10, "LM"), (5, "Ned Oh")):
        entry(waitlist, name, now - timedelta(minutes=minutes))
    admin = StaffFactory(casino=casino, roles=[Role.ADMIN])
    return {"casino": casino, "tables": {1: one, 2: two, 3: three},
            "games": issue_display_link(casino=casino, kind=ScreenKind.GAMES, name="Board", issued_by=admin),
            "kiosk": issue_display_link(casino=casino, kind=ScreenKind.KIOSK, name="Desk", issued_by=admin)}


SEATED = {1: (1, 2, 4, 5, 7), 2: (1, 2, 3), 3: ()}  # the record, table by table


def test_14_18_every_page_shows_the_same_seats_and_open_tables(client, seeded):
    tables = seeded["tables"]
    client.force_login(StaffFactory(casino=seeded["casino"], roles=[Role.POKER_SHIFT_SUPERVISOR]))

    floor_map = client.get("/").content.decode()
    seated_on_map = {int(n): tuple(int(s) for s in seats.split(",") if s) for n, seats in
                     re.findall(r'data-testid="seats-(\d+)" data-seated="([\d,]*)"', floor_map)}
    assert seated_on_map == SEATED
    assert re.search(r'data-testid="open-tables">3<', floor_map)
    assert [n for n in (1, 2, 3) if f'data-testid="seats-flag-{n}"' in floor_map] == [1, 3]

    board = client.get("/seats/").content.decode()
    rows = re.findall(r'data-testid="seat-(\d+)-(\d+)" class="seat-(\w+)"', board)
    seated_on_board = {n: tuple(int(s) for t, s, status in rows if int(t) == n and status != "vacant")
                       for n in {int(t) for t, _, _ in rows}}
    assert seated_on_board == SEATED
    assert [n for n in (1, 2, 3) if f'data-testid="seats-flag-{n}"' in board] == [1, 3]

    small, big = line_key(tables[1]), line_key(tables[3])
    open_seats = {small: 9 - 5 + 9 - 3, big: 8}  # the tables' seats minus the seated ones: 10 and 8
    screen = Client()
    games = screen.get(screen_path(seeded["games"])).content.decode()
    for key, vacant in open_seats.items():
        assert re.search(rf'data-testid="open-{key}">\s*{vacant} open<', games)
    assert re.search(rf'data-testid="waiting-{small}"><span class="board-wait-count">3 waiting', games)
    assert "3 tables open · 18 open seats" in games

    kiosk = screen.get(screen_path(seeded["kiosk"])).content.decode()
    assert "<td>10</td><td>3</td>" in kiosk and "<td>8</td><td>0</td>" in kiosk

    feed = screen.get(f"/api/public/{seeded['casino'].code}/").json()
    assert (feed["tables_open"], feed["vacant_seats"]) == (3, 18)
    assert {g["key"]: (g["tables"], g["vacant_seats"], g["waitlist_length"]) for g in feed["games"]} == {
        small: (["Table 1", "Table 2"], 10, 3), big: (["Table 3"], 8, 0)}
    page = screen.get(f"/public/{seeded['casino'].code}/").content.decode()
    assert re.search(rf'data-testid="vacant-{small}">\s*10 of 18', page)
