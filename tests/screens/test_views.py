"""The room's screens opened by a display link, with no sign-in, and the page that issues and revokes the links
(N.J.A.C. 13:69F-14.18, 14.19(b), (i)1, (k)2, (q)).

A link's URL opens its screen for anyone holding it, without a session; the screen's polls use the same URL; a
revoked link answers a page load with a styled 403 and a poll with a notice that stops the polling (286); a token that
opens nothing answers 404 the same way. The screens show only what patrons see. Only administrators issue and revoke;
a poker shift supervisor sees the list without the links; every other role is refused (403)."""
import re
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.badbeat.models import Claim, Funding, Jackpot, JackpotStatus, QualifyingHand
from apps.badbeat.services import create_secondary_jackpot, verify_claim
from apps.core.roles import Role
from apps.core.rotation import STOP_POLLING
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.screens.models import DisplayLink
from apps.screens.selectors import screen_path, token_for
from apps.screens.services import issue_display_link, revoke_display_link
from apps.seats.models import Seat, Waitlist, WaitlistEntry, WaitlistSource
from apps.seats.selectors import line_key
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory, StaffFactory

D = Decimal
pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
NOT_FOR_ADMINS = [Role.FLOORPERSON, Role.DEALER, Role.ACCOUNTING, Role.SECURITY, Role.SURVEILLANCE]


@pytest.fixture
def admin(staff):
    return staff(Role.ADMIN)


@pytest.fixture
def room(casino, admin, supervisor):
    """A jackpot whose display shows $1,234.56, a bad beat verified at table 3 (payout pending), a player named at
    the table; a jackpot link and a games link."""
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"))
    table = PokerTableFactory(casino=casino, number=3, seats=9)
    bad_beat = record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s",
                                                                  players=[
        PlayerIn(seat=1, contributed=D("50"), hole_cards="9s 9c", name="Annabel Secretname"),
        PlayerIn(seat=2, contributed=D("50"), hole_cards="5s 4s", name="Ben")]))
    jackpot.refresh_from_db()
    jackpot.displayed_amount = D("1234.56")
    jackpot.save(update_fields=["displayed_amount"])
    verify_claim(claim=Claim.objects.get(round_of_play=bad_beat), supervisor=supervisor)
    for number, name in ((1, "Annabel Secretname"), (2, "Ben")):  # the floor's record of who sits there
        Seat.objects.create(table=table, number=number, player=name, since=timezone.now())
    return {"jackpot": jackpot, "table": table,
            "jackpot_link": issue_display_link(casino=casino, kind="jackpot", name="Rail 1", issued_by=admin),
            "games_link": issue_display_link(casino=casino, kind="games", name="Board", issued_by=admin)}


class TestScreensWithoutASession:
    def test_the_jackpot_screen_opens_and_polls_by_its_link(self, client, room):
        path = screen_path(room["jackpot_link"])
        page = client.get(path)
        html = page.content.decode()
        assert page.status_code == 200 and "_auth_user_id" not in client.session
        jackpot = room["jackpot"]
        assert f'data-testid="amount-{jackpot.pk}">$1,234<span class="cents">.56</span>' in html  # whole dollars
        assert "PAYOUT PENDING" in html and "Qualifying:" in html  # 14.19(i)1, (b)3
        assert "css/screens.css" in html and "Log out" not in html and "Balance" not in html
        assert f'hx-get="{path}?tick=1"' in html and 'hx-trigger="every 2s"' in html
        assert page["Cache-Control"].startswith("max-age=0")
        poll = client.get(f"{path}?tick=1", **HX)
        assert poll.status_code == 200 and "<html" not in poll.content.decode()
        assert f'hx-get="{path}?tick=2"' in poll.content.decode()
        room["jackpot_link"].refresh_from_db()
        assert room["jackpot_link"].last_seen_at is not None

    @pytest.mark.proves("14.18")
    def test_14_18_the_games_board_shows_games_limits_seats_and_waits_initials_only(self, client, room):
        """One line a game and limits: its open tables, vacant seats and how many wait, with initials, never a name
        or a phone (the round's players, the floor's seated player, the list's players)."""
        casino = room["table"].casino
        closed = PokerTableFactory(casino=casino, number=8, is_open=False, small_blind=D("5"), big_blind=D("10"),
                                   minimum_wager=D("10"))
        key = line_key(room["table"])
        waitlist = Waitlist.objects.create(casino=casino, key=key, game="Texas hold 'em (high)", limits="$1/$2 no limit")
        now = timezone.now()
        for name, phone in (("Marguerite Xylophone", "609-555-0142"), ("Bo", "")):
            WaitlistEntry.objects.create(waitlist=waitlist, name=name, phone=phone, source=WaitlistSource.IN_PERSON,
                                         created_at=now, checked_in_at=now)
        html = client.get(screen_path(room["games_link"])).content.decode()
        assert f'data-testid="line-{key}"' in html and f'data-testid="line-{line_key(closed)}"' not in html  # 14.18
        assert "Texas hold &#x27;em (high)" in html and "$1/$2 no limit" in html
        assert re.search(rf'data-testid="open-{key}">\s*7 open', html)  # 9 seats, 2 players in the newest round
        assert re.search(rf'data-testid="waiting-{key}">.*2 waiting.*M\.X\. B\.O\.', html, re.S)
        for secret in ("Annabel", "Secretname", "Ben", "Marguerite", "Xylophone", "609-555-0142"):
            assert secret not in html, secret
        assert "$1,234" not in html  # the board is not the jackpot display

    def test_the_board_and_the_public_page_show_the_same_games_and_seats(self, client, room):
        """The done-when of issue 17: the room's screens and its public feed (and page) read the same lines."""
        board = client.get(screen_path(room["games_link"])).content.decode()
        feed = client.get(f"/api/public/{room['table'].casino.code}/").json()
        assert feed["games"]
        for line in feed["games"]:
            assert re.search(rf'data-testid="open-{line["key"]}">\s*{line["vacant_seats"]} open', board)
        assert f'{feed["tables_open"]} table' in board and f'{feed["vacant_seats"]} open seat' in board

    def test_staff_data_never_shows(self, client, room, admin):
        """The screen shows what patrons see: no accounting record, no claim's cards, no staff names, no other link
        (its own token is in its page: the screen polls by it)."""
        html = client.get(screen_path(room["jackpot_link"])).content.decode()
        for secret in (admin.username, "9s 9c", "payable", room["games_link"].secret, "/admin/", "/jackpot/"):
            assert secret not in html

    @pytest.mark.parametrize("kind", ["jackpot_link", "games_link"])
    def test_a_revoked_link_stops_at_once(self, client, room, admin, kind):
        path = screen_path(room[kind])
        assert client.get(path).status_code == 200
        revoke_display_link(link=room[kind], revoked_by=admin)
        page = client.get(path)
        assert page.status_code == 403 and "This screen&#x27;s link was revoked" in page.content.decode()
        assert "css/screens.css" in page.content.decode()
        poll = client.get(f"{path}?tick=3", **HX)
        html = poll.content.decode()
        assert poll.status_code == STOP_POLLING == 286  # htmx swaps the notice in and stops polling
        assert "This screen&#x27;s link was revoked" in html and "hx-get" not in html and "<html" not in html
        assert "$1,234" not in html  # the amounts are gone: a stale display is not left up (14.19(k)2)

    @pytest.mark.parametrize("token", ["nothing", "1.abc:def", "%E2%80%8B"])
    def test_a_token_that_opens_nothing(self, client, room, token):
        page = client.get(f"/screens/{token}/")
        assert page.status_code == 404 and "This screen&#x27;s link is not valid" in page.content.decode()
        assert client.get(f"/screens/{token}/", **HX).status_code == STOP_POLLING

    def test_a_link_of_another_casino_shows_that_casino(self, client, room):
        other = CasinoFactory(name="Elsewhere Poker Room")
        link = issue_display_link(casino=other, kind="jackpot", name="Theirs",
                                  issued_by=StaffFactory(casino=other, roles=[Role.ADMIN]))
        html = client.get(screen_path(link)).content.decode()
        assert "Elsewhere Poker Room" in html and "$1,234" not in html and "No bad beat payout is offered." in html

    def test_only_reads_and_a_tick_it_can_take(self, client, room):
        path = screen_path(room["jackpot_link"])
        assert client.post(path).status_code == 405
        assert client.get(f"{path}?tick=-1").status_code == 400
        assert client.get(f"{path}?tick=99999").status_code == 400

    def test_the_display_turns_pages_when_more_payouts_than_fit(self, client, room, admin):
        primary = room["jackpot"]
        for name, rank in (("Mini", 14), ("Micro", 10)):  # aces full, tens full
            create_secondary_jackpot(primary=primary, name=name, qualifying_hand=QualifyingHand.FULL_HOUSE,
                                     qualifying_minimum_rank=rank, funding=Funding.PRIMARY_PORTION,
                                     primary_portion_percentage=D("5"))
        path = screen_path(room["jackpot_link"])
        first = client.get(path).content.decode()
        assert "page 1 of 2" in first and "Mini" in first and "Micro" not in first
        turned = client.get(f"{path}?tick=5", **HX).content.decode()  # 5 polls of 2 s later
        assert "page 2 of 2" in turned and "Micro" in turned and "Mini" not in turned
        assert f'hx-get="{path}?tick=6"' in turned
        assert f'hx-get="{path}?tick=0"' in client.get(f"{path}?tick=9", **HX).content.decode()  # back to page 1

    @pytest.mark.proves("14.19(i)1")
    def test_14_19_i_1_a_payout_pending_is_on_the_first_page_at_once(self, client, room):
        """A payout pending is shown at the next poll whatever page the rotation is on: its panel comes first."""
        primary = room["jackpot"]  # its claim is verified: payout pending
        _mini, micro = (create_secondary_jackpot(primary=primary, name=name, qualifying_hand=QualifyingHand.FULL_HOUSE,
                                                qualifying_minimum_rank=rank, funding=Funding.PRIMARY_PORTION,
                                                primary_portion_percentage=D("5"))
                       for name, rank in (("Mini", 14), ("Micro", 10)))
        Jackpot.objects.filter(pk=micro.pk).update(status=JackpotStatus.PAYOUT_PENDING)
        path = screen_path(room["jackpot_link"])
        for tick in (0, 4):  # every poll of the first page
            first = client.get(f"{path}?tick={tick}", **HX).content.decode()
            assert "page 1 of 2" in first and "Micro" in first and "Mini" not in first
            assert first.count("PAYOUT PENDING") == 2
        assert "Mini" in client.get(f"{path}?tick=5", **HX).content.decode()


class TestTheStaffDisplay:
    def test_a_poll_after_the_session_ended_stops_with_a_notice_not_the_sign_in_page(self, client, room, supervisor):
        client.force_login(supervisor)
        assert client.get("/jackpot/display/", **HX).status_code == 200
        client.logout()
        poll = client.get("/jackpot/display/?tick=4", **HX)
        html = poll.content.decode()
        assert poll.status_code == STOP_POLLING
        assert "Signed out: this display stopped" in html and "password" not in html and "$1,234" not in html
        assert client.get("/jackpot/display/").status_code == 302  # a page load still goes to sign in

    def test_a_poll_by_a_user_of_no_casino_stops_too(self, client, room):
        client.force_login(StaffFactory(casino=None, roles=[Role.DEALER]))
        poll = client.get("/jackpot/display/", **HX)
        assert poll.status_code == STOP_POLLING and "This display stopped" in poll.content.decode()

    def test_the_staff_display_shows_whole_dollars_and_polls_itself(self, client, room, supervisor):
        client.force_login(supervisor)
        adjust = room["jackpot"]
        html = client.get("/jackpot/display/").content.decode()
        assert f'data-testid="amount-{adjust.pk}">$1,234<span class="cents">.56</span>' in html
        assert 'hx-get="/jackpot/display/?tick=1"' in html


class TestTheLinksPage:
    def test_an_administrator_issues_a_link_and_sees_it(self, client, admin, room):
        client.force_login(admin)
        response = client.post("/screens/", {"kind": "games", "name": "Board by the desk", "location": "Desk"},
                               follow=True)
        link = DisplayLink.objects.get(name="Board by the desk")
        assert (link.kind, link.issued_by, link.casino) == ("games", admin, admin.casino)
        html = response.content.decode()
        assert f"http://testserver/screens/{token_for(link)}/" in html  # the message and the row
        assert f'data-testid="url-{link.pk}"' in html and f'data-testid="revoke-{link.pk}"' in html
        assert response.headers["Cache-Control"].startswith("max-age=0")

    def test_form_errors_are_shown_and_nothing_is_written(self, client, admin):
        client.force_login(admin)
        response = client.post("/screens/", {"kind": "slots", "name": ""})
        assert response.status_code == 400 and not DisplayLink.objects.exists()
        assert 'data-testid="issue-errors"' in response.content.decode()

    def test_an_administrator_revokes_a_link_with_the_confirmation(self, client, admin, room):
        client.force_login(admin)
        link = room["jackpot_link"]
        client.post(f"/screens/{link.pk}/revoke/")  # no confirmation: nothing
        link.refresh_from_db()
        assert link.revoked_at is None
        page = client.post(f"/screens/{link.pk}/revoke/", {"confirm": "yes"}, follow=True).content.decode()
        link.refresh_from_db()
        assert link.revoked_by == admin and "Display link revoked" in page
        assert token_for(link) not in page  # a revoked link's URL is no longer shown

    def test_a_supervisor_sees_the_screens_but_not_their_links(self, client, supervisor, room):
        client.force_login(supervisor)
        page = client.get("/screens/")
        html = page.content.decode()
        assert page.status_code == 200 and "Rail 1" in html and "Board" in html
        assert token_for(room["jackpot_link"]) not in html and room["jackpot_link"].secret not in html
        assert 'data-testid="issue-form"' not in html and "Revoke…" not in html
        assert client.post("/screens/", {"kind": "games", "name": "Mine"}).status_code == 403
        assert client.post(f"/screens/{room['games_link'].pk}/revoke/", {"confirm": "yes"}).status_code == 403
        assert DisplayLink.objects.count() == 2 and not DisplayLink.objects.filter(revoked_at__isnull=False).exists()

    @pytest.mark.parametrize("role", NOT_FOR_ADMINS, ids=str)
    def test_other_roles_are_refused(self, client, staff, room, role):
        client.force_login(staff(role))
        assert client.get("/screens/").status_code == 403
        assert client.post("/screens/", {"kind": "games", "name": "Mine"}).status_code == 403
        assert client.post(f"/screens/{room['games_link'].pk}/revoke/", {"confirm": "yes"}).status_code == 403
        assert DisplayLink.objects.count() == 2 and not DisplayLink.objects.filter(revoked_at__isnull=False).exists()

    def test_path_segments_no_record_can_have(self, client, admin, room):
        client.force_login(admin)
        assert client.post("/screens/99999999999999999999/revoke/", {"confirm": "yes"}).status_code == 404
        for token in ("%00", "A" * 10_000, "1.%00:x", "%F0%9F%82%A1"):
            assert client.get(f"/screens/{token}/").status_code == 404

    def test_an_administrator_of_another_casino_cannot_revoke_ours(self, client, room):
        client.force_login(StaffFactory(casino=CasinoFactory(), roles=[Role.ADMIN]))
        assert client.post(f"/screens/{room['games_link'].pk}/revoke/", {"confirm": "yes"}).status_code == 404
        assert "Rail 1" not in client.get("/screens/").content.decode()

    def test_anonymous_is_sent_to_sign_in(self, client):
        assert client.get("/screens/").status_code == 302


class TestTheAdminSite:
    @pytest.fixture
    def admin_site(self, client, admin):
        admin.is_staff = True
        admin.save()
        client.force_login(admin)
        return client

    def test_issue_and_revoke_from_the_admin_site(self, admin_site, admin, room):
        response = admin_site.post("/admin/screens/displaylink/add/", {"kind": "jackpot", "name": "Bar screen",
                                                                       "location": "Bar"})
        assert response.status_code == 302
        link = DisplayLink.objects.get(name="Bar screen")
        assert (link.issued_by, link.casino, len(link.secret) >= 32) == (admin, admin.casino, True)
        change = admin_site.get(f"/admin/screens/displaylink/{link.pk}/change/").content.decode()
        assert screen_path(link) in change
        admin_site.post("/admin/screens/displaylink/", {"action": "revoke", "_selected_action": [link.pk]})
        link.refresh_from_db()
        assert link.revoked_by == admin
        assert DisplayLink.pgh_event_model.objects.filter(pgh_obj_id=link.pk).count() == 2
        assert admin_site.post(f"/admin/screens/displaylink/{link.pk}/delete/", {"post": "yes"}).status_code == 403

    def test_the_admin_site_lists_only_the_casinos_links(self, admin_site, room):
        other = CasinoFactory()
        issue_display_link(casino=other, kind="games", name="Not ours",
                           issued_by=StaffFactory(casino=other, roles=[Role.ADMIN]))
        listing = admin_site.get("/admin/screens/displaylink/").content.decode()
        assert "Rail 1" in listing and "Not ours" not in listing


def test_a_long_line_shows_its_first_tables_and_initials_and_how_many_more(client, casino, admin):
    """Six tables deal the game and eight players wait: the board's line keeps to its box (BOARD_TABLES numbers,
    BOARD_INITIALS initials, and how many more)."""
    tables = [PokerTableFactory(casino=casino, number=n) for n in range(1, 7)]
    key = line_key(tables[0])
    waitlist = Waitlist.objects.create(casino=casino, key=key, game="Texas hold 'em (high)", limits="$1/$2 no limit")
    now = timezone.now()
    for name in ("Al Bo", "Cy Do", "Ed Fa", "Gi Ho", "Ivy Jo", "Ka Lu", "Mo No", "Ox Pi"):
        WaitlistEntry.objects.create(waitlist=waitlist, name=name, source=WaitlistSource.IN_PERSON, created_at=now,
                                     checked_in_at=now)
    link = issue_display_link(casino=casino, kind="games", name="Board", issued_by=admin)
    html = client.get(screen_path(link)).content.decode()
    assert '<span class="clamp">1, 2, 3, 4 +2</span>' in html
    assert re.search(rf'data-testid="waiting-{key}">.*8 waiting.*A\.B\. C\.D\. E\.F\. G\.H\. I\.J\. K\.L\. \+2', html,
                     re.S)
    shown = html.replace(screen_path(link), "")  # the link's signed token is random text: it may hold "Ox"
    assert screen_path(link) in html and "Ox" not in shown and "Mo No" not in shown
    assert "M.N." not in shown and "O.P." not in shown
