"""The supervisor's pages: who may open them."""
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from apps.core.roles import Role
from apps.counts.services import close_gaming_day
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, PokerTableFactory
from tests.support.cards import seen

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_of_play(casino):
    table = PokerTableFactory(casino=casino)
    JackpotFactory(casino=casino)
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
        PlayerIn(seat=1, name="Ana", contributed=Decimal("100"), hole_cards="9s 9c"),
        PlayerIn(seat=2, name="Ben", contributed=Decimal("100"), hole_cards="5s 4s")]))


@pytest.mark.parametrize("url", ["/", "/accounting/contributions/"])
def test_anonymous_users_are_sent_to_login(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response.url.startswith("/accounts/login/")


def test_a_dealer_cannot_open_accounting_pages(client, staff):
    client.force_login(staff(Role.DEALER))
    assert client.get("/accounting/contributions/").status_code == 403
    assert client.get("/").status_code == 403


@pytest.mark.parametrize("role", [Role.ACCOUNTING, Role.POKER_SHIFT_SUPERVISOR, Role.SURVEILLANCE])
def test_accounting_page_for_accounting_and_readers(client, staff, role, round_of_play):
    """The page shows the kept totals and the daily ledger check of the last close: nothing re-derived on a request."""
    client.force_login(staff(role))
    response = client.get("/accounting/contributions/")
    assert response.status_code == 200
    assert b"checked against its records when the first gaming day is closed" in response.content
    assert b"$1.00 from 1 pots" in response.content  # the day's running total
    casino = round_of_play.table.casino
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        close_gaming_day(casino=casino, gaming_day=round_of_play.gaming_day)
        response = client.get("/accounting/contributions/")
    assert b"every running total agrees with its records" in response.content


def test_the_ledger_check_shows_a_variance(client, staff, round_of_play):
    """A running total that differs from its records is named at the next close (14.19(k))."""
    from apps.rake.models import TableHourRake

    TableHourRake.objects.filter(table=round_of_play.table).update(amount=Decimal("999.00"))
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        close = close_gaming_day(casino=round_of_play.table.casino, gaming_day=round_of_play.gaming_day)
        client.force_login(staff(Role.ACCOUNTING))
        response = client.get("/accounting/contributions/")
    assert not close.summary["in_order"]
    assert [p for p in close.summary["ledger_problems"] if p.startswith("Rake at table")]
    assert b"VARIANCE" in response.content and b"999.00" in response.content


def test_supervisor_sees_dashboard_table_and_round(client, supervisor, round_of_play):
    client.force_login(supervisor)
    dashboard = client.get("/")
    assert dashboard.status_code == 200
    assert b"Pending bad-beat claims" in dashboard.content and b"Four" in dashboard.content
    table = client.get(f"/tables/{round_of_play.table_id}/")
    assert table.status_code == 200 and f"#{round_of_play.pk}".encode() in table.content
    page = client.get(f"/rounds/{round_of_play.pk}/")
    assert page.status_code == 200
    assert "9♥ 9♦ 6♠ 7♠ 8♠" in seen(page.content.decode())
    assert b"Taken after the rake" in page.content


def test_dashboard_partial_for_htmx(client, supervisor, round_of_play):
    client.force_login(supervisor)
    response = client.get("/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert b"<html" not in response.content and b"Open tables" in response.content


def test_pages_of_another_casino_are_not_found(client, supervisor):
    other_round_table = PokerTableFactory()
    client.force_login(supervisor)
    assert client.get(f"/tables/{other_round_table.pk}/").status_code == 404


@pytest.mark.proves("14.17-limits-posted", "14.17-raises-posted", "14.14(c)-sign", "14.11(b)-kill-posted",
                    "14.19(b)-table-notice")
def test_table_sign_is_generated_from_the_configuration(client, supervisor, casino):
    """N.J.A.C. 13:69F-14.14(c), 14.17, 14.19(b), 14.11(b): game, limits, raise cap, blinds, rake, bad beat, kill."""
    from apps.rake.services import post_rake_structure
    from apps.tables.models import Game, KillOption

    JackpotFactory(casino=casino)
    table = PokerTableFactory(casino=casino, number=11, game=Game.OMAHA_HILO8, betting_structure="fixed_limit",
                              minimum_wager=Decimal("4.00"), maximum_wager=Decimal("8.00"), raise_cap=4,
                              kill_option=KillOption.HALF_KILL, kill_pot_minimum=Decimal("60.00"))
    post_rake_structure(table=table, percentage=Decimal("10"), maximum=Decimal("4.00"))
    client.force_login(supervisor)
    sign = client.get(f"/tables/{table.pk}/sign/").content.decode()
    for words in ["Table 11", "Omaha high-low split eight or better", "$4.00 / $8.00", "At most 4 raises",
                  "10% of each pot", "maximum $4.00", "Half-kill", "$60.00", "four of a kind or better"]:
        assert words in sign, words


def test_dashboard_totals_per_table_are_not_multiplied_by_joins(casino):
    """Rounds and rake of each open table on the gaming day: two rounds of $5 rake each give 2 and $10."""
    from apps.casinos.selectors import current_gaming_day
    from apps.floor.selectors import floor_summary
    from tests.factories import RakeStructureFactory

    table = RakeStructureFactory(table__casino=casino).table
    for _ in range(2):
        record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="Ah Kd 5c 9s 3h", players=[
            PlayerIn(seat=1, contributed=Decimal("50"), hole_cards="As Ks"),
            PlayerIn(seat=2, contributed=Decimal("50"), hole_cards="2c 7d")]))
    summary = floor_summary(casino=casino, gaming_day=current_gaming_day(casino=casino))
    [row] = summary.open_tables
    assert (row.rounds_today, row.rake_today) == (2, Decimal("10.00"))
    assert summary.rounds_today == 2 and summary.rake_today == Decimal("10.00")


def test_the_round_page_shows_a_draw_games_hands_as_dealt_and_each_draw(client, supervisor):
    """14.12A: the hand as dealt, the cards thrown and drawn in each of the three draws, the hand at the showdown."""
    from apps.feed.services import DrawIn, PlayerIn, RoundIn, record_round_of_play
    from apps.tables.models import Game
    from apps.tables.services import create_table, open_table

    table = open_table(table=create_table(casino=supervisor.casino, number=18, game=Game.TRIPLE_DRAW_27, seats=6,
                                          minimum_wager=Decimal("2")))
    round_of_play = record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), players=[
        PlayerIn(seat=1, contributed=Decimal("12"), dealt_cards="Kd 5d 4h 3s 2c", hole_cards="7c 5d 4h 3s 2c",
                 draws=(DrawIn("Kd", "7c"), DrawIn(), DrawIn())),
        PlayerIn(seat=2, contributed=Decimal("12"), dealt_cards="Ac Ks 6d 4c 3h", hole_cards="8c 6d 4c 3h 2d",
                 draws=(DrawIn("Ac Ks", "8c 2d"), DrawIn(), DrawIn()))]))
    client.force_login(supervisor)
    page = client.get(f"/rounds/{round_of_play.pk}/").content.decode()
    assert "Triple draw low ball deuce to seven" in page and "Draw 3: thrown / drawn" in page
    assert "K♦ → 7♣" in seen(page) and "A♣ K♠ → 8♣ 2♦" in seen(page) and "stood pat" in page


def test_the_table_page_shows_the_newest_round_first_in_pages(client, supervisor, casino):
    """The table page lists the newest rounds first, 50 a page, and reaches every round through its Older links
    (issue 14: it listed the oldest 200)."""
    import re

    table = PokerTableFactory(casino=casino)
    start = timezone.now() - timedelta(hours=3)
    ids = [record_round_of_play(table=table, round_in=RoundIn(
        started_at=start + timedelta(minutes=i), board="Ah Kd 5c 9s 3h", players=[
            PlayerIn(seat=1, contributed=Decimal("5"), hole_cards="As Ks"),
            PlayerIn(seat=2, contributed=Decimal("5"), hole_cards="2c 7d")])).pk for i in range(120)]
    client.force_login(supervisor)
    seen, url = [], f"/tables/{table.pk}/"
    while url:
        page = client.get(url)
        assert page.status_code == 200
        text = page.content.decode()
        seen += [int(n) for n in re.findall(r'data-testid="rounds".*?</table>', text, re.S) and
                 re.findall(r'href="/rounds/(\d+)/"', re.search(r'data-testid="rounds".*?</table>', text, re.S)[0])]
        older = re.search(r'href="([^"]+)" rel="next"', text)
        url = older[1].replace("&amp;", "&") if older else None
    assert seen == ids[::-1]  # newest first, every round once
    assert client.get(f"/tables/{table.pk}/?cursor=not-ours").status_code == 400


@pytest.mark.proves("14.10(d)-blinds-posted", "14.13(b)-ante-posted")
def test_14_10_d_the_table_sign_posts_the_blinds_and_the_ante(client, casino, supervisor):
    """14.10(d): the amount and number of the blind bets are posted on the table's sign; 14.10(b), 14.12(b), 14.13(b):
    so is the ante rule (an ante, or none)."""
    holdem = PokerTableFactory(casino=casino, number=21, small_blind=Decimal("2.00"), big_blind=Decimal("5.00"))
    stud = PokerTableFactory(casino=casino, number=22, game="five_card_stud", seats=8, small_blind=Decimal("0"),
                             big_blind=Decimal("0"), ante=Decimal("1.00"), bring_in=Decimal("2.00"))
    client.force_login(supervisor)
    sign = client.get(f"/tables/{holdem.pk}/sign/").content.decode()
    assert "Blinds" in sign and "$2.00 / $5.00" in sign and "Ante" in sign
    sign = client.get(f"/tables/{stud.pk}/sign/").content.decode()
    assert "$1.00 from each player" in sign
