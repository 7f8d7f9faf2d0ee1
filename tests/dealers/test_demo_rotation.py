"""The demo room's dealers (seed_demo): enough dealers for a rotation of its open tables, the rotation of the shift
under way planned, so the floor map has a dealer in the box at each open table and the demo dealer's home shows the
down, the table's decks and the next break; seeding again changes nothing."""
import io
import re

import pytest
from django.core.management import call_command
from django.utils import timezone

from apps.casinos.models import User
from apps.core.roles import Role
from apps.dealers.models import DealerDown
from apps.tables.models import PokerTable

pytestmark = pytest.mark.django_db


def login(client, username):
    assert client.post("/accounts/login/", {"username": username, "password": f"demo-{username}"}).status_code == 302


def test_the_demos_dealers_rotation_floor_map_and_dealers_home(client):
    """One seed for all (it takes seconds): the dealers, the floor map, the demo dealer's home, the planner, and a
    second seed that changes nothing."""
    out = io.StringIO()
    call_command("seed_demo", "--no-rounds", stdout=out)
    # enough dealers for the open tables and two on break, each with its demo login, named in the demo's logins
    open_tables = list(PokerTable.objects.filter(is_open=True).order_by("number"))
    dealers = User.objects.filter(groups__name=Role.DEALER.value)
    assert len(open_tables) == 4 and dealers.count() == len(open_tables) + 2
    assert "dealer2 / demo-dealer2" in out.getvalue()
    login(client, "dealer2")

    # the floor map: a dealer in the box at each open table, since the down began
    login(client, Role.POKER_SHIFT_SUPERVISOR.value)
    page = client.get("/").content.decode()
    for table in open_tables:
        cell = page[page.index(f'data-testid="dealer-{table.number}">'):]
        cell = cell[:cell.index("</dd>")]
        assert "Demo" in cell and "since" in cell, (table.number, cell)
    assert "no dealer in the box" not in page

    # the demo dealer's home: the down under way (table, since, until), the table's decks and the next break
    login(client, Role.DEALER.value)
    page = client.get("/dealers/home/").content.decode()
    now = timezone.now()
    down = DealerDown.objects.get(dealer__username=Role.DEALER.value, starts_at__lte=now, ends_at__gt=now)
    assert down.table == open_tables[0]
    since, until = (timezone.localtime(t, down.casino.zone).strftime("%H:%M") for t in (down.starts_at, down.ends_at))
    assert f"Dealing at table {down.table.number}</strong>" in page and f"since {since}, until {until}" in page
    decks = page[page.index('data-testid="my-decks"'):]
    assert 'data-testid="deck-R-0101"' in decks and 'data-testid="deck-B-0101"' in decks
    brk = page[page.index('data-testid="next-break"'):]
    assert re.match(r'data-testid="next-break"><strong>Next break</strong> \d\d:\d\d–\d\d:\d\d\.', brk), brk[:200]

    # seeding again duplicates nothing
    downs = DealerDown.objects.count()
    call_command("seed_demo", "--no-rounds", stdout=io.StringIO())
    assert (dealers.count(), DealerDown.objects.count()) == (len(open_tables) + 2, downs)

    # the planner offers every dealer and open table: planned as offered, no "need at least" refusal
    login(client, Role.POKER_SHIFT_SUPERVISOR.value)
    page = client.get("/dealers/").content.decode()
    assert 'data-testid="rotation"' in page  # the shift's rotation is shown
    form = page[page.index('data-testid="plan-rotation"'):]
    checked = re.findall(r'<input type="checkbox" name="(dealers|tables)" value="(\d+)"[^>]*checked', form)
    start = re.search(r'name="start" value="([^"]+)"', form).group(1)
    data = {"start": start, "hours": "8", "down_minutes": "30",
            "dealers": [pk for name, pk in checked if name == "dealers"],
            "tables": [pk for name, pk in checked if name == "tables"]}
    assert (len(data["dealers"]), len(data["tables"])) == (len(open_tables) + 2, len(open_tables))
    response = client.post("/dealers/", data, follow=True)
    page = response.content.decode()
    assert response.status_code == 200 and "Rotation planned." in page and "need at least" not in page
