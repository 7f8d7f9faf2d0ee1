"""Searching the floor's history (apps.floor.search): the round search page and the API's list of rounds, by table,
game, gaming day, time, player name, pot and hand shown, newest first in keyset pages, each round linking to its page;
the contributions ledger by gaming day and table."""
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.casinos.selectors import gaming_day_bounds, gaming_day_of
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.tables.models import BettingStructure, Game
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory, StaffFactory

pytestmark = pytest.mark.django_db
D = Decimal
ROUND = re.compile(r'data-testid="round-(\d+)"')


def play(table, when, board, *seats, game=None):
    """A round at `table` started at `when`; each seat (name, hole cards, put in)."""
    return record_round_of_play(table=table, round_in=RoundIn(started_at=when, board=board, game=game, players=[
        PlayerIn(seat=i + 1, name=name, hole_cards=cards, contributed=D(put)) for i, (name, cards, put) in
        enumerate(seats)]))


def _four_hours_in_one_gaming_day(casino):
    """The start of four hours past, all in one gaming day: the last four hours when the day began four hours ago or
    more, else from an hour into the previous gaming day (the day begins at 06:00 in New York: a test run at 12:00
    UTC would otherwise put the rounds in two gaming days)."""
    now = timezone.now().replace(microsecond=0)
    opened, _ = gaming_day_bounds(casino=casino, gaming_day=gaming_day_of(casino=casino, moment=now))
    if now - opened >= timedelta(hours=4):
        return now - timedelta(hours=4)
    before, _ = gaming_day_bounds(casino=casino, gaming_day=gaming_day_of(casino=casino, moment=opened)
                                  - timedelta(days=1))
    return before + timedelta(hours=1)


@pytest.fixture
def room(casino):
    """Table 1 (hold 'em) and table 2 (Omaha) of a casino, four rounds an hour apart, the newest last."""
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    holdem = PokerTableFactory(casino=casino, number=1)
    omaha = PokerTableFactory(casino=casino, number=2, game=Game.OMAHA, betting_structure=BettingStructure.POT_LIMIT)
    start = _four_hours_in_one_gaming_day(casino)
    rounds = {
        # four nines beaten by a straight flush: "Four of a kind", "Straight flush"
        "bad_beat": play(holdem, start, "9h 9d 6s 7s 8s", ("Ana Ruiz", "9s 9c", "100"), ("Bob", "5s 4s", "100")),
        "small": play(holdem, start + timedelta(hours=1), "Ah Kd 5c 9s 3h", ("anastasia", "As Ks", "5"),
                      ("Cy", "2c 7d", "5")),
        "omaha": play(omaha, start + timedelta(hours=2), "2h 7d 9c Js Kd", ("Bob", "As Ac Qh Qd", "40"),
                      ("Di", "3s 4s 5c 6c", "40")),
        "newest": play(holdem, start + timedelta(hours=3), "2h 7d 9c Js Kd", ("Ed", "As Ac", "20"),
                       ("Bob", "Qh Qd", "20")),
    }
    return {"table_1": holdem, "table_2": omaha, "start": start, **rounds}


def found(client, query: str) -> list[int]:
    response = client.get(f"/rounds/?{query}")
    assert response.status_code == 200, response.content.decode()[:2000]
    return [int(pk) for pk in ROUND.findall(response.content.decode())]


def test_each_filter_finds_its_rounds_newest_first(client, supervisor, room):
    client.force_login(supervisor)
    ids = {name: room[name].pk for name in ("bad_beat", "small", "omaha", "newest")}
    assert found(client, "") == [ids["newest"], ids["omaha"], ids["small"], ids["bad_beat"]]
    assert found(client, "player=ANA") == [ids["small"], ids["bad_beat"]]  # the start of a name, capitals or not
    assert found(client, "player=ana+ruiz") == [ids["bad_beat"]]
    assert found(client, "player=bob") == [ids["newest"], ids["omaha"], ids["bad_beat"]]
    assert found(client, "pot_min=40&pot_max=80") == [ids["newest"], ids["omaha"]]  # $40 and $80 pots
    assert found(client, "pot_min=100") == [ids["bad_beat"]]
    assert found(client, "hand=Four+of+a+kind") == [ids["bad_beat"]]
    assert found(client, "hand=Straight+flush") == [ids["bad_beat"]]
    assert found(client, "hand=One+pair") == [ids["newest"], ids["omaha"]]
    assert found(client, f"table={room['table_1'].pk}") == [ids["newest"], ids["small"], ids["bad_beat"]]
    assert found(client, "game=omaha") == [ids["omaha"]]
    local = timezone.localtime(room["start"], room["table_1"].casino.zone)
    after, before = local + timedelta(minutes=30), local + timedelta(hours=2, minutes=30)
    assert found(client, f"started_after={after:%Y-%m-%dT%H:%M}&started_before={before:%Y-%m-%dT%H:%M}") == [
        ids["omaha"], ids["small"]]  # the casino's local time
    day = room["bad_beat"].gaming_day
    newest_first = [room[name] for name in ("newest", "omaha", "small", "bad_beat")]
    assert found(client, f"gaming_day={day:%Y-%m-%d}") == [r.pk for r in newest_first if r.gaming_day == day]
    assert found(client, f"player=bob&table={room['table_1'].pk}&hand=One+pair") == [ids["newest"]]  # all at once


def test_the_showdown_choice_reads_any_yes_or_no(client, supervisor, room):
    """The search's empty choice for "Went to showdown" says what it does, "Any" (Django's select says "Unknown"),
    and finds every round; "No" finds the rounds that did not reach a showdown (none here)."""
    client.force_login(supervisor)
    page = client.get("/rounds/").content.decode()
    select = re.search(r'<select name="went_to_showdown".*?</select>', page, re.S)
    assert select is not None
    assert re.findall(r"<option[^>]*>([^<]*)</option>", select.group(0)) == ["Any", "Yes", "No"]
    everything = found(client, "")
    assert found(client, "went_to_showdown=unknown") == everything
    assert found(client, "went_to_showdown=true") == everything
    assert found(client, "went_to_showdown=false") == []


def test_each_row_links_to_its_round_and_table_and_the_table_to_its_search(client, supervisor, room):
    client.force_login(supervisor)
    page = client.get(f"/rounds/?table={room['table_2'].pk}").content.decode()
    assert f'href="/rounds/{room["omaha"].pk}/"' in page and f'href="/tables/{room["table_2"].pk}/"' in page
    assert "Bob (One pair), Di (High card)" in page and "$80.00" in page
    table_page = client.get(f"/tables/{room['table_2'].pk}/").content.decode()
    assert f'href="/rounds/?table={room["table_2"].pk}"' in table_page


def test_pages_are_keyset_pages_newest_first(client, supervisor, room, monkeypatch):
    monkeypatch.setattr("apps.floor.search.ROUNDS_PAGE", 3)
    client.force_login(supervisor)
    first = client.get("/rounds/?table=" + str(room["table_1"].pk)).content.decode()
    assert [int(pk) for pk in ROUND.findall(first)] == [room["newest"].pk, room["small"].pk, room["bad_beat"].pk]
    assert 'rel="next"' not in first  # three of three
    monkeypatch.setattr("apps.floor.search.ROUNDS_PAGE", 2)  # Bob played three rounds: two pages
    first = client.get("/rounds/?player=b").content.decode()
    assert [int(pk) for pk in ROUND.findall(first)] == [room["newest"].pk, room["omaha"].pk]
    older = re.search(r'href="([^"]+)" rel="next"', first).group(1).replace("&amp;", "&")
    assert "player=b" in older and "cursor=" in older  # the search is kept
    second = client.get(older).content.decode()
    assert [int(pk) for pk in ROUND.findall(second)] == [room["bad_beat"].pk]
    newer = re.search(r'href="([^"]+)" rel="prev"', second).group(1).replace("&amp;", "&")
    assert [int(pk) for pk in ROUND.findall(client.get(newer).content.decode())] == [
        room["newest"].pk, room["omaha"].pk]


def test_a_search_that_cannot_be_read_says_so_beside_its_field(client, supervisor, room):
    client.force_login(supervisor)
    elsewhere = PokerTableFactory(casino=CasinoFactory())
    for query, field in (("pot_min=lots", "pot_min"), (f"table={elsewhere.pk}", "table"), ("gaming_day=13/45", "gaming_day"),
                         ("hand=Five+aces", "hand"), ("started_after=yesterday", "started_after")):
        response = client.get(f"/rounds/?{query}")
        assert response.status_code == 400, query
        page = response.content.decode()
        assert 'data-testid="form-errors"' in page and f'id="id_{field}_error"' in page, query
        assert ROUND.findall(page) == []


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_every_role_that_reads_rounds_searches_its_own_casinos(client, room, role):
    client.force_login(StaffFactory(casino=room["table_1"].casino, roles=[role]))
    assert len(found(client, "")) == 4
    client.force_login(StaffFactory(casino=CasinoFactory(), roles=[role]))
    assert found(client, "") == []
    client.logout()
    assert client.get("/rounds/").status_code == 302  # to sign in


def test_the_api_searches_rounds_as_the_page_does(api, supervisor, room):
    api.force_authenticate(supervisor)

    def ids(query):
        response = api.get(f"/api/rounds/?{query}")
        assert response.status_code == 200, response.json()
        return [r["id"] for r in response.json()["results"]]

    assert ids("player=ana") == [room["small"].pk, room["bad_beat"].pk]
    assert ids("hand=Four of a kind") == [room["bad_beat"].pk]
    assert ids("pot_min=40&pot_max=80&game=holdem") == [room["newest"].pk]
    assert ids(f"table={room['table_2'].pk}") == [room["omaha"].pk]
    assert api.get("/api/rounds/?pot_min=lots").status_code == 400


# --- the contributions ledger: a gaming day and a table ------------------------------------------------------------

def test_the_ledger_shows_the_contributions_of_a_day_and_a_table(client, staff, room):
    client.force_login(staff(Role.ACCOUNTING))
    holdem, omaha = room["table_1"], room["table_2"]
    day = room["newest"].gaming_day
    page = client.get(f"/accounting/contributions/?day={day:%Y-%m-%d}&table={omaha.pk}").content.decode()
    ledger = page[page.index('data-testid="contributions"'):]
    assert f'href="/rounds/{room["omaha"].pk}/"' in ledger and f'href="/rounds/{room["newest"].pk}/"' not in ledger
    assert 'data-testid="ledger-search"' in page
    everything = client.get(f"/accounting/contributions/?day={day:%Y-%m-%d}").content.decode()
    assert f'href="/rounds/{room["newest"].pk}/"' in everything and holdem.number == 1
    assert client.get("/accounting/contributions/?table=x").status_code == 400
    assert client.get("/accounting/contributions/?day=2020-13-01").status_code == 400
