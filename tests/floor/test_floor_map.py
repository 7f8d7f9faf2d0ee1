"""The floor map (issue 15): every table as a tile with its decks' clocks, the dealer in the box, the seats, claims
and payouts; what needs a person now; a number of queries that grows neither with the rounds nor with the tables."""
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.badbeat.services import verify_claim
from apps.casinos.selectors import current_gaming_day
from apps.core.roles import Role
from apps.dealers.services import plan_rotation
from apps.decks.selectors import current_alerts, rotation_board
from apps.decks.services import record_deck_event
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.floor.selectors import floor_summary
from apps.seats.models import Seat
from apps.tables.services import close_table, create_table, open_table
from tests.decks.factories import deck_at_table
from tests.factories import JackpotFactory, PokerTableFactory

pytestmark = pytest.mark.django_db
NEW_YORK = ZoneInfo("America/New_York")
T0 = datetime(2026, 11, 20, 12, 0, tzinfo=NEW_YORK)
D = Decimal


def summary_of(casino):
    return floor_summary(casino=casino, gaming_day=current_gaming_day(casino=casino))


def tile_of(summary, number):
    [tile] = [t for t in summary.tiles if t.table.number == number]
    return tile


def play(table, *, at=None, seats=2, bad_beat=False):
    """A round at `table`: quads beaten by a straight flush when `bad_beat` (a claim opens), else a plain one."""
    board, first, second = (("9h 9d 6s 7s 8s", "9s 9c", "5s 4s") if bad_beat else ("Ah Kd 5c 9s 3h", "As Ks", "2c 7d"))
    players = [PlayerIn(seat=1, name="Ana", contributed=D("50"), hole_cards=first),
               PlayerIn(seat=2, name="Ben", contributed=D("50"), hole_cards=second)]
    players += [PlayerIn(seat=n, name=f"P{n}", contributed=D("0"), folded=True) for n in range(3, seats + 1)]
    return record_round_of_play(table=table, round_in=RoundIn(started_at=at or timezone.now(), board=board,
                                                              players=players))


# --- deck clocks: the tile shows the rotation board's clocks, due and overdue at the same moments -------------------

@pytest.mark.parametrize(("clock", "elapsed", "state"), [
    ("sort", timedelta(hours=2, minutes=40), "ok"),            # 20 minutes before the 3 hours: not yet due soon
    ("sort", timedelta(hours=2, minutes=41), "due_soon"),
    ("sort", timedelta(hours=3), "due_soon"),                  # 3:00 is in time (14.2(b))
    ("sort", timedelta(hours=3, minutes=1), "overdue"),
    ("change", timedelta(hours=5, minutes=31), "due_soon"),
    ("change", timedelta(hours=6), "due_soon"),                # 6:00 is in time (14.2(b))
    ("change", timedelta(hours=6, minutes=1), "overdue"),
    ("count", timedelta(minutes=12), "ok"),
    ("count", timedelta(minutes=12, seconds=1), "due_soon"),
    ("count", timedelta(minutes=15), "due_soon"),              # 0:15 is in time (14.6(e)4)
    ("count", timedelta(minutes=15, seconds=1), "overdue"),
])
@pytest.mark.proves("14.2(b)-three-hours", "14.2(b)-six-hours", "14.6(e)4-every-fifteen-minutes")
def test_a_tiles_deck_clocks_turn_due_and_overdue_with_the_rotation_board(casino, supervisor, clock, elapsed, state):
    """14.2(b): placed into suit and sequence every 3 hours, changed every 6; 14.6(e)4: counted every 15 minutes. The
    tile's clock, its colour and the alert are those of the rotation board at the same moment (the same selector)."""
    table = PokerTableFactory(casino=casino, number=5)
    with time_machine.travel(T0, tick=False):
        red = deck_at_table(table, "R-5", "red", supervisor, at=T0)
        deck_at_table(table, "B-5", "blue", supervisor, at=T0)
        record_deck_event(deck=red, kind="put_in_use", by=supervisor, at=T0)
    with time_machine.travel(T0 + elapsed - timedelta(minutes=1), tick=False):
        if clock == "change":  # keep the other clocks in time: sorted and counted just before the moment looked at
            record_deck_event(deck=red, kind="sorted", by=supervisor)
        if clock != "count":
            record_deck_event(deck=red, kind="counted", card_count=52, by=supervisor)
    with time_machine.travel(T0 + elapsed, tick=False):
        tile = tile_of(summary_of(casino), 5)
        board = {row.table.pk: row for row in rotation_board(casino=casino, now=timezone.now())}[table.pk]
        alerts = current_alerts(casino=casino, now=timezone.now())
    [deck] = [d for d in tile.board.decks if d.deck.serial == "R-5"]
    [on_board] = [d for d in board.decks if d.deck.serial == "R-5"]
    assert getattr(deck, clock).state == state == getattr(on_board, clock).state
    assert getattr(deck, clock).elapsed == elapsed
    kinds = {"sort": "sort_overdue", "change": "change_overdue", "count": "count_overdue"}
    assert (kinds[clock] in {a.kind for a in tile.alerts}) == (state == "overdue")
    assert [a.kind for a in tile.alerts] == [a.kind for a in alerts]
    assert tile.state == ("overdue" if state == "overdue" else state)


def test_the_page_colours_each_clock_and_says_its_state_in_words(client, casino, supervisor):
    table = PokerTableFactory(casino=casino, number=6)
    opened = timezone.now() - timedelta(hours=3, minutes=5)
    red = deck_at_table(table, "R-6", "red", supervisor, at=opened)
    deck_at_table(table, "B-6", "blue", supervisor, at=opened)
    record_deck_event(deck=red, kind="put_in_use", by=supervisor, at=opened)
    record_deck_event(deck=red, kind="counted", card_count=52, by=supervisor)
    client.force_login(supervisor)
    page = client.get("/").content.decode()
    row = page.split('data-testid="tile-deck-R-6"')[1].split("</tr>")[0]
    assert 'class="badge overdue" data-state="overdue">3:05<span class="sr-only"> of 3:00: Overdue' in row
    assert 'data-state="ok">0:00' in row  # just counted
    assert 'data-testid="tile-state-6">Needs a person' in page
    attention = page.split('data-testid="needs-attention"')[1].split("</section>")[0]
    assert "Table 6, deck R-6: Not placed into suit and sequence for 3 hours" in attention


# --- the dealer in the box ------------------------------------------------------------------------------------------

def test_the_dealer_in_the_box_and_since_when(client, casino, staff, supervisor):
    """The rotation's down under way at each table names the dealer and when the down began; an open table the
    rotation leaves without a dealer needs a person; with no rotation planned now, nothing is claimed."""
    tables = [PokerTableFactory(casino=casino, number=n) for n in (1, 2)]
    uncovered = PokerTableFactory(casino=casino, number=3)
    dealers = [staff(Role.DEALER, username=f"dealer{i}", first_name=f"Dee{i}", last_name="Ler") for i in range(3)]
    start = timezone.now().replace(second=0, microsecond=0) - timedelta(minutes=10)
    plan_rotation(casino=casino, dealers=dealers, tables=tables, start=start, hours=1, down_minutes=30,
                  planned_by=supervisor)
    summary = summary_of(casino)
    first, second = tile_of(summary, 1), tile_of(summary, 2)
    assert (first.dealer.dealer, first.dealer.starts_at) == (dealers[0], start)
    assert second.dealer.dealer == dealers[1]
    assert tile_of(summary, 3).dealer is None and tile_of(summary, 3).missing_dealer
    assert [t.table for t in summary.tables_needing_attention] == [uncovered]
    client.force_login(supervisor)
    page = client.get("/").content.decode()
    since = timezone.localtime(start, casino.zone).strftime("%H:%M")
    assert f'data-testid="dealer-1">Dee0 Ler <span class="muted">since {since}</span>' in page
    assert "Table 3: no dealer in the box" in page
    with time_machine.travel(start + timedelta(hours=2)):  # the rotation is over: no claim about dealers
        later = summary_of(casino)
    assert all(t.dealer is None and not t.missing_dealer for t in later.tiles)


# --- seats, claims, payouts, jackpots, closed and mixed tables ------------------------------------------------------

def test_14_18_seats_are_the_floors_record_flagged_while_the_newest_round_disagrees(client, casino, supervisor):
    """The tile's seats are the seats board's (apps.seats.selectors.seats_of): the floor's record. A current round
    that reports other seats flags the tile; a round too old to say who sits there now flags nothing."""
    table = PokerTableFactory(casino=casino, number=4)
    for number in (1, 2, 5):
        Seat.objects.create(table=table, number=number, player=f"P{number}", since=timezone.now())
    play(table, seats=3)  # seats 1, 2 and 3: 3 is not in the record, 5 is not in the round
    client.force_login(supervisor)
    tile = tile_of(summary_of(casino), 4)
    assert tile.seated == 3 and tile.seats.taken == (1, 2, 5) and tile.seats.disagrees
    page = client.get("/").content.decode()
    assert 'data-seated="1,2,5">3 of 9 <span class="muted">(seats 1, 2, 5)</span>' in page
    assert 'data-testid="seats-flag-4"' in page and 'data-testid="accept-round-4"' in page
    with time_machine.travel(timezone.now() + timedelta(minutes=31)):
        assert tile_of(summary_of(casino), 4).seated == 3
        page = client.get("/").content.decode()
    assert 'data-seated="1,2,5">3 of 9' in page and 'data-testid="seats-flag-4"' not in page
    PokerTableFactory(casino=casino, number=5)  # no round yet, nobody seated
    assert 'data-testid="seats-5" data-seated="">0 of 9</dd>' in client.get("/").content.decode()


@pytest.mark.proves("14.19(i)1")
def test_a_verified_claim_is_a_payout_pending_on_the_tile_the_jackpot_and_the_strip(client, casino, supervisor):
    """14.19(i)1: once verified, the payout is pending until delivered; the floor map says so on the table's tile,
    on the jackpot and at the top of the page."""
    jackpot = JackpotFactory(casino=casino)
    table = PokerTableFactory(casino=casino, number=9)
    claim = play(table, bad_beat=True).bad_beat_claims.get()
    summary = summary_of(casino)
    assert tile_of(summary, 9).claims == [claim] and summary.attention_count >= 1
    client.force_login(supervisor)
    page = client.get("/").content.decode()
    assert f"Table 9: bad beat claim on round #{claim.round_of_play_id} waits for verification" in page
    verify_claim(claim=claim, supervisor=supervisor)
    claim.refresh_from_db()
    summary = summary_of(casino)
    tile = tile_of(summary, 9)
    assert tile.payouts == [claim] and tile.claims == [] and tile.state == "overdue"
    [jackpot_tile] = summary.jackpots
    assert jackpot_tile.payout_pending and jackpot_tile.pending == [claim]
    page = client.get("/").content.decode()
    assert f'data-testid="jackpot-status-{jackpot.pk}">Payout pending' in page
    assert f"Table 9: payout pending, ${claim.payout_amount:,.2f} of the {jackpot.name} to deliver" in page
    assert f"Payout of ${claim.payout_amount:,.2f} to deliver (14.19(i)2)" in page  # on the tile


def test_closed_tables_and_mixed_games_have_their_tiles(client, casino, supervisor):
    mixed = create_table(casino=casino, number=8, seats=8, rotation_name="HO", rotation=[
        {"game": "holdem", "betting_structure": "fixed_limit", "minimum_wager": "4", "maximum_wager": "8"},
        {"game": "omaha_hilo8", "betting_structure": "fixed_limit", "minimum_wager": "4", "maximum_wager": "8"}])
    open_table(table=mixed)
    closed = PokerTableFactory(casino=casino, number=2)
    close_table(table=closed, by=supervisor, reason="Game broke", drop_box_removed=True)
    summary = summary_of(casino)
    assert [t.table.number for t in summary.tiles] == [8, 2]  # the open ones first
    assert tile_of(summary, 2).state == "closed" and not tile_of(summary, 2).problems
    client.force_login(supervisor)
    page = client.get("/").content.decode()
    assert 'data-testid="tile-state-2">Closed' in page
    assert "HO rotation, 2 games" in page and "$4.00/$8.00 fixed limit" in page
    assert f'href="/tables/{closed.pk}/">Table 2</a>' in page and f'href="/tables/{mixed.pk}/">Table 8</a>' in page


def test_the_live_region_says_when_it_was_read_by_the_casinos_clock(client, casino, supervisor):
    client.force_login(supervisor)
    with time_machine.travel(T0, tick=False):
        full = client.get("/").content.decode()
        partial = client.get("/", HTTP_HX_REQUEST="true").content.decode()
    assert 'data-testid="floor-updated">Updated at 12:00:00' in full
    assert 'data-testid="floor-updated">Updated at 12:00:00' in partial and "<html" not in partial
    assert "Nothing: no deck overdue, no claim to verify, no payout to deliver." in partial


# --- queries: flat in the rounds, bounded in the tables ---------------------------------------------------------------

def _furnish(casino, supervisor, numbers, *, rounds):
    for number in numbers:
        table = PokerTableFactory(casino=casino, number=number)
        red = deck_at_table(table, f"R-{number}", "red", supervisor)
        deck_at_table(table, f"B-{number}", "blue", supervisor)
        record_deck_event(deck=red, kind="put_in_use", by=supervisor)
        play(table, bad_beat=True)  # a pending claim at every table
        for _ in range(rounds - 1):
            play(table, seats=3)
    PokerTableFactory(casino=casino, number=100 + numbers[0], is_open=False)


def _dashboard_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/")
    assert response.status_code == 200
    return len(queries)


def test_the_dashboards_queries_do_not_grow_with_the_tables_or_the_rounds(client, casino, staff, supervisor):
    """2 tables or 6, 1 round a table or 5: the same number of queries (no N+1, nothing sums the day's rounds)."""
    JackpotFactory(casino=casino)
    dealers = [staff(Role.DEALER, username=f"d{i}") for i in range(8)]
    client.force_login(supervisor)
    _furnish(casino, supervisor, [1, 2], rounds=1)
    tables = list(casino.tables.filter(is_open=True))
    plan_rotation(casino=casino, dealers=dealers[:3], tables=tables, start=timezone.now() - timedelta(minutes=5),
                  hours=1, down_minutes=30, planned_by=supervisor)
    two_tables = _dashboard_queries(client)
    _furnish(casino, supervisor, [3, 4, 5, 6], rounds=5)
    tables = list(casino.tables.filter(is_open=True))
    plan_rotation(casino=casino, dealers=dealers[:7], tables=tables, start=timezone.now() - timedelta(minutes=5),
                  hours=1, down_minutes=30, planned_by=supervisor)
    summary = summary_of(casino)
    assert len([t for t in summary.tiles if t.is_open]) == 6 and all(t.dealer for t in summary.tiles if t.is_open)
    assert len(summary.pending_claims) == 6 and summary.rounds_today == 2 + 4 * 5
    six_tables = _dashboard_queries(client)
    for table in tables:
        play(table)
    assert _dashboard_queries(client) == six_tables == two_tables
