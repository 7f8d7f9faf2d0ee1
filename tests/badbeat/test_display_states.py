"""What a bad beat jackpot's display says through a payout (N.J.A.C. 13:69F-14.19(i)1, (k), (o), (m)2): payout
pending from the verification, pending adjustment from the payout until accounting adjusts the display, then the
adjusted amount; never a lower amount before that. The room's TV display, the floor map's jackpot tiles and "Needs
a person now" strip, and the public feed say the same (apps.badbeat.selectors.display_status).

The room of the demo: a primary of $437.40 with $48.60 set aside for the next payout (14.19(p)), a Mini funded from
10 % of it (14.19(m)2): once the primary is paid, accounting's record is $48.60 and $4.86."""
import re
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.badbeat.models import Claim, DisplayStatus, Funding, QualifyingHand
from apps.badbeat.selectors import jackpot_displays, payable_amount
from apps.badbeat.services import adjust_display, create_secondary_jackpot, record_payout, verify_claim
from apps.casinos.selectors import current_gaming_day
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.floor.selectors import floor_summary
from apps.public.selectors import public_jackpots
from tests.factories import JackpotFactory, PokerTableFactory

D = Decimal
pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def play(table, *, bad_beat=False):
    """A heads-up round at `table` ($1 to each jackpot's fund): quads beaten by a straight flush when `bad_beat`."""
    board, first, second = (("9h 9d 6s 7s 8s", "9s 9c", "5s 4s") if bad_beat else ("Ah Kd 5c 9s 3h", "As Ks", "2c 7d"))
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=[
        PlayerIn(seat=1, name="Ana", contributed=D("50"), hole_cards=first),
        PlayerIn(seat=2, name="Dee", contributed=D("50"), hole_cards=second)]))


@pytest.fixture
def room(casino, staff, supervisor):
    """The primary ($436.50 and $48.50 set aside) and its Mini; a bad beat at table 3 brings the primary to $437.40
    ($48.60 set aside); accounting adjusts both displays to its record ($437.40 and $43.74); the claim waits."""
    primary = JackpotFactory(casino=casino, name="Bad Beat Jackpot", minimum_pot=D("0"), balance=D("436.50"),
                             reset_reserve=D("48.50"), reset_percentage=D("10"))
    mini = create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                    qualifying_minimum_rank=14, funding=Funding.PRIMARY_PORTION,
                                    primary_portion_percentage=D("10"))
    table = PokerTableFactory(casino=casino, number=3)
    claim = Claim.objects.get(round_of_play=play(table, bad_beat=True), jackpot=primary)
    clerk = staff(Role.ACCOUNTING)
    adjust_all(primary, mini, clerk=clerk, supervisor=supervisor)
    return {"primary": primary, "mini": mini, "table": table, "claim": claim, "clerk": clerk,
            "guard": staff(Role.SECURITY)}


def adjust_all(*jackpots, clerk, supervisor, reason="daily"):
    for jackpot in jackpots:
        jackpot.refresh_from_db()
        adjust_display(jackpot=jackpot, displayed_amount=payable_amount(jackpot=jackpot), adjusted_by=clerk,
                       supervisor_present=supervisor, reason=reason)


def tv(client, jackpot) -> tuple[Decimal, str]:
    """The amount and the notice (the words of its status line, "" for none) of `jackpot`'s panel on the room's TV
    display, as a poll of it shows them."""
    html = client.get("/jackpot/display/", **HX).content.decode()
    panel = html[html.index(f'data-testid="display-{jackpot.pk}"'):]
    panel = panel[:panel.index("</section>")]
    dollars, cents = re.search(r'data-testid="amount-\d+">\$([\d,]+)<span class="cents">\.(\d\d)</span>', panel).groups()
    status = re.search(r'<div class="display-status"[^>]*>(.*?)</div>', panel, re.S)
    return D(f"{dollars.replace(',', '')}.{cents}"), re.sub(r"<[^>]+>", "", status.group(1)) if status else ""


def floor(casino):
    return floor_summary(casino=casino, gaming_day=current_gaming_day(casino=casino))


def public(casino) -> dict[str, tuple[Decimal, str]]:
    return {j.name: (j.amount, j.status) for j in public_jackpots(casino=casino)}


@pytest.mark.proves("14.19(i)1", "14.19(b)-current-amount")
def test_14_19_i_1_payout_pending_from_the_verification(client, room, supervisor, casino):
    """14.19(i)1: once the supervisor verifies the bad beat, every display says PAYOUT PENDING beside the amount
    accounting adjusted it to."""
    client.force_login(supervisor)
    assert tv(client, room["primary"]) == (D("437.40"), "")
    verify_claim(claim=room["claim"], supervisor=supervisor)
    amount, notice = tv(client, room["primary"])
    assert amount == D("437.40") and notice.startswith("PAYOUT PENDING")
    assert public(casino)["Bad Beat Jackpot"] == (D("437.40"), "payout_pending")
    [tile] = [t for t in floor(casino).jackpots if t.jackpot == room["primary"]]
    assert tile.payout_pending and tile.amount == D("437.40")


@pytest.mark.proves("14.19(i)1", "14.19(o)")
def test_14_19_i_1_k_pending_adjustment_after_the_payout_until_accounting_adjusts(client, room, supervisor, casino):
    """14.19(i)1, (k): once the payout is delivered, the display no longer shows $437.40 as if it were live: it says
    PENDING ADJUSTMENT beside the amount displayed before (not lowered by itself, 14.19(o)), on the TV display, the
    floor tile and the public feed, until accounting adjusts it to its record in a supervisor's presence (14.19(k)1)."""
    client.force_login(supervisor)
    claim = verify_claim(claim=room["claim"], supervisor=supervisor)
    record_payout(claim=claim, method="cash", location="table", delivered_by=room["guard"], recorded_by=supervisor)
    primary = room["primary"]
    primary.refresh_from_db()
    assert payable_amount(jackpot=primary) == D("48.60")  # accounting's record: the reset amount (14.19(p))
    amount, notice = tv(client, primary)
    assert amount == D("437.40") and notice.startswith("PENDING ADJUSTMENT") and "PAYOUT PENDING" not in notice
    page = client.get("/jackpot/display/").content.decode()
    assert f'data-testid="display-{primary.pk}" data-status="pending_adjustment"' in page
    assert public(casino)["Bad Beat Jackpot"] == (D("437.40"), "pending_adjustment")
    feed = client.get(f"/api/public/{casino.code}/").json()["jackpots"]
    assert {"name": "Bad Beat Jackpot", "kind": "primary", "amount": "437.40", "status": "pending_adjustment"} in feed
    [tile] = [t for t in floor(casino).jackpots if t.jackpot == primary]
    assert tile.pending_adjustment and not tile.payout_pending and tile.amount == D("437.40")
    floor_page = client.get("/").content.decode()
    assert f'data-testid="jackpot-status-{primary.pk}">Pending adjustment' in floor_page

    adjust_all(primary, clerk=room["clerk"], supervisor=supervisor, reason="after_payout")
    assert tv(client, primary) == (D("48.60"), "")  # 14.19(k): the adjusted amount, no notice
    assert public(casino)["Bad Beat Jackpot"] == (D("48.60"), "active")
    [tile] = [t for t in floor(casino).jackpots if t.jackpot == primary]
    assert not tile.pending_adjustment and tile.amount == D("48.60")


@pytest.mark.proves("14.19(o)")
def test_14_19_o_the_amount_shown_never_goes_down_unless_paid(client, room, supervisor, casino):
    """14.19(o): through active, payout pending (while rounds still contribute), pending adjustment and adjusted, the
    amount each display shows never goes down, but by accounting's adjustment once the payout was paid; an
    adjustment to a lower amount before the payout is refused."""
    client.force_login(supervisor)
    primary, table = room["primary"], room["table"]
    shown = []

    def look(expected_status):
        [display] = [d for d in jackpot_displays(casino=casino) if d.jackpot == primary]
        amount, _ = tv(client, primary)
        assert display.status == expected_status and display.amount == amount
        assert public(casino)["Bad Beat Jackpot"] == (amount, expected_status)
        shown.append(amount)

    look(DisplayStatus.ACTIVE)
    claim = verify_claim(claim=room["claim"], supervisor=supervisor)
    look(DisplayStatus.PAYOUT_PENDING)
    play(table)  # the room goes on: a contribution, the display unchanged until accounting adjusts it
    look(DisplayStatus.PAYOUT_PENDING)
    adjust_all(primary, clerk=room["clerk"], supervisor=supervisor, reason="after_verification")  # up to the record
    look(DisplayStatus.PAYOUT_PENDING)
    primary.refresh_from_db()
    with pytest.raises(DomainError, match="14.19"):  # not paid yet: never lower
        adjust_display(jackpot=primary, displayed_amount=primary.balance - D("100"), adjusted_by=room["clerk"],
                       supervisor_present=supervisor)
    record_payout(claim=claim, method="cash", location="table", delivered_by=room["guard"], recorded_by=supervisor)
    look(DisplayStatus.PENDING_ADJUSTMENT)
    play(table)
    look(DisplayStatus.PENDING_ADJUSTMENT)
    assert shown == sorted(shown) and shown[-1] == D("438.30")  # $437.40 and the next round's $0.90
    adjust_all(primary, clerk=room["clerk"], supervisor=supervisor, reason="after_payout")
    look(DisplayStatus.ACTIVE)
    assert shown[-1] == D("50.50") < shown[-2]  # down only now: paid (14.19(o)), and adjusted by accounting (k)
    play(table)
    look(DisplayStatus.ACTIVE)
    assert shown[-1] == shown[-2]  # up again only by accounting's next adjustment


def test_14_19_m_2_k_the_secondary_shows_accountings_amount_and_its_notice(client, room, supervisor, casino):
    """14.19(m)2, (k): the Mini, funded from 10 % of the primary, shows the amount accounting set on its display
    ($43.74), never a figure derived from the primary when read; once the primary is paid its record falls to 10 % of
    the primary's reset amount ($4.87 here, $4.86 in the demo) and its display says PENDING ADJUSTMENT beside $43.74,
    on the TV, the floor tile and the public feed, until accounting adjusts it to that record."""
    client.force_login(supervisor)
    mini = room["mini"]
    play(room["table"])  # the primary's balance grows: the Mini's derived figure would grow with it
    mini.refresh_from_db()
    assert payable_amount(jackpot=mini) == D("43.83")
    assert tv(client, mini) == (D("43.74"), "")
    assert public(casino)["Mini"] == (D("43.74"), "active")
    [tile] = [t for t in floor(casino).jackpots if t.jackpot == mini]
    assert tile.amount == D("43.74")
    page = client.get("/").content.decode()
    tile_html = page[page.index(f'data-testid="jackpot-tile-{mini.pk}"'):]
    assert '<span class="value">$43.74</span>' in tile_html[:tile_html.index("</div>")]

    claim = verify_claim(claim=room["claim"], supervisor=supervisor)
    record_payout(claim=claim, method="cash", location="table", delivered_by=room["guard"], recorded_by=supervisor)
    mini.refresh_from_db()
    assert payable_amount(jackpot=mini) == D("4.87")  # 10 % of the primary's $48.70 (the reset amount, 14.19(p))
    amount, notice = tv(client, mini)
    assert amount == D("43.74") and notice.startswith("PENDING ADJUSTMENT")
    assert public(casino)["Mini"] == (D("43.74"), "pending_adjustment")
    adjust_all(mini, clerk=room["clerk"], supervisor=supervisor, reason="after_payout")
    assert tv(client, mini) == (D("4.87"), "")
    assert public(casino)["Mini"] == (D("4.87"), "active")
    assert public(casino)["Bad Beat Jackpot"][1] == "pending_adjustment"  # its own display: not adjusted yet


@pytest.mark.proves("14.19(k)1")
def test_14_19_k_the_floor_asks_for_the_adjustment_until_accounting_makes_it(client, room, supervisor, casino):
    """14.19(k): "Needs a person now" lists each display awaiting adjustment after a payout, counts it, and drops it
    once accounting has adjusted that display."""
    client.force_login(supervisor)
    claim = verify_claim(claim=room["claim"], supervisor=supervisor)
    before = floor(casino)
    assert before.displays_awaiting_adjustment == []
    record_payout(claim=claim, method="cash", location="table", delivered_by=room["guard"], recorded_by=supervisor)
    summary = floor(casino)
    assert [d.jackpot for d in summary.displays_awaiting_adjustment] == [room["primary"], room["mini"]]
    assert summary.attention_count == before.attention_count - 1 + 2  # the payout delivered; two displays to adjust
    page = client.get("/").content.decode()
    start = page.index('data-testid="needs-attention"')
    strip = page[start:page.index("</section>", start)]
    assert ("Bad Beat Jackpot: display awaiting adjustment — paid out, it still shows $437.40 marked pending "
            "adjustment until accounting adjusts it in a poker supervisor's presence (14.19(i)1, (k))") in strip
    assert "Mini: display awaiting adjustment" in strip and 'href="/jackpot/display/adjust/"' in strip

    adjust_all(room["primary"], clerk=room["clerk"], supervisor=supervisor, reason="after_payout")
    summary = floor(casino)
    assert [d.jackpot for d in summary.displays_awaiting_adjustment] == [room["mini"]]
    adjust_all(room["mini"], clerk=room["clerk"], supervisor=supervisor, reason="after_payout")
    summary = floor(casino)
    assert summary.displays_awaiting_adjustment == [] and summary.attention_count == before.attention_count - 1
    page = client.get("/").content.decode()
    assert 'data-testid="attention-displays"' not in page and "display awaiting adjustment" not in page
