"""Display links (N.J.A.C. 13:69F-14.18, 14.19(b), (i)1): issued and revoked by an administrator of the casino only,
each in the audit trail; a token opens its link's screen until the link is revoked, and nothing else opens one; the
games-and-seats board says what patrons may be told (games, limits, vacant seats) and no more."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import signing
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.core.money import posted_dollars
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.rounds.selectors import SEATS_FRESH_FOR
from apps.screens.models import DisplayLink, ScreenKind
from apps.screens.selectors import (
    TOKEN_SALT,
    TokenProblem,
    games_board,
    link_from_token,
    screen_path,
    token_for,
)
from apps.screens.services import issue_display_link, note_seen, revoke_display_link
from apps.seats.models import Seat
from apps.seats.selectors import line_key, room_board
from apps.tables.models import BettingStructure, Game
from apps.tables.services import create_table, open_table
from tests.factories import CasinoFactory, PokerTableFactory, StaffFactory

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(staff):
    return staff(Role.ADMIN)


def issue(admin, kind=ScreenKind.JACKPOT, name="Rail screen 2", location="By the cage"):
    return issue_display_link(casino=admin.casino, kind=kind, name=name, location=location, issued_by=admin)


def events(link):
    return list(DisplayLink.pgh_event_model.objects.filter(pgh_obj_id=link.pk).order_by("pgh_id"))


class TestIssueAndRevoke:
    def test_an_administrator_issues_a_link_that_opens_its_screen(self, admin):
        link = issue(admin)
        assert (link.casino, link.kind, link.issued_by, link.revoked_at) == (admin.casino, "jackpot", admin, None)
        assert len(link.secret) >= 32 and link.secret != issue(admin).secret
        check = link_from_token(token_for(link))
        assert check.link == link and check.problem is None
        assert screen_path(link) == f"/screens/{token_for(link)}/"
        assert token_for(link) == token_for(DisplayLink.objects.get(pk=link.pk))  # the same URL for its whole life

    @pytest.mark.parametrize("role", [r for r in Role if r != Role.ADMIN], ids=str)
    def test_no_other_role_issues_one(self, staff, role):
        with pytest.raises(DomainError) as refused:
            issue(staff(role))
        assert refused.value.field == "issued_by"
        assert not DisplayLink.objects.exists()

    def test_an_administrator_of_another_casino_issues_none_here(self, admin):
        elsewhere = StaffFactory(casino=CasinoFactory(), roles=[Role.ADMIN])
        with pytest.raises(DomainError):
            issue_display_link(casino=admin.casino, kind="games", name="Board", issued_by=elsewhere)

    @pytest.mark.parametrize("kind, name, field", [("slots", "Board", "kind"), ("games", "  ", "name"),
                                                   ("games", "Board\x00", "name"), ("games", "B" * 81, "name")])
    def test_what_is_refused(self, admin, kind, name, field):
        with pytest.raises(DomainError) as refused:
            issue(admin, kind=kind, name=name)
        assert refused.value.field == field and not DisplayLink.objects.exists()

    def test_revoking_stops_the_token_at_once_and_only_once(self, admin, staff):
        link = issue(admin)
        token = token_for(link)
        for role in (Role.POKER_SHIFT_SUPERVISOR, Role.SURVEILLANCE):
            with pytest.raises(DomainError):
                revoke_display_link(link=link, revoked_by=staff(role))
        assert link_from_token(token).problem is None
        revoke_display_link(link=link, revoked_by=admin)
        link.refresh_from_db()
        assert link.revoked_by == admin and link.revoked_at is not None
        assert link_from_token(token).problem == TokenProblem.REVOKED
        with pytest.raises(DomainError) as again:
            revoke_display_link(link=link, revoked_by=admin)
        assert again.value.field == "status"

    def test_issue_and_revocation_are_in_the_audit_trail_not_the_secret_nor_each_sighting(self, admin):
        link = issue(admin)
        note_seen(link=link)
        note_seen(link=DisplayLink.objects.get(pk=link.pk), now=timezone.now() + timedelta(minutes=5))
        revoke_display_link(link=link, revoked_by=admin)
        trail = events(link)
        assert [e.pgh_label for e in trail] == ["insert", "update"]
        assert (trail[0].issued_by_id, trail[0].name, trail[0].revoked_at) == (admin.pk, "Rail screen 2", None)
        assert trail[1].revoked_by_id == admin.pk and trail[1].revoked_at is not None
        assert not hasattr(trail[0], "secret") and not hasattr(trail[0], "last_seen_at")


class TestTokens:
    @pytest.fixture
    def link(self, admin):
        return issue(admin)

    def test_a_token_not_ours_opens_nothing(self, link, admin):
        other = issue(admin)
        signer = signing.Signer(salt=TOKEN_SALT)
        forged = [
            "",
            "not-a-token",
            token_for(link)[:-2] + "xx",  # the signature altered
            signer.sign(f"{link.pk}.{other.secret}"),  # signed by us, but another link's secret
            signer.sign(f"{link.pk + 1000}.{link.secret}"),  # no such link
            signer.sign(f"{link.pk}"),  # no secret at all
            signer.sign(f"x{link.pk}.{link.secret}"),
            signer.sign(f"{'9' * 40}.{link.secret}"),
            signing.Signer(salt="another.salt").sign(f"{link.pk}.{link.secret}"),
            signing.Signer(key="another-key", salt=TOKEN_SALT).sign(f"{link.pk}.{link.secret}"),
            signing.dumps({"id": link.pk, "secret": link.secret}, salt=TOKEN_SALT),
        ]
        assert [link_from_token(token) for token in forged] == [link_from_token("")] * len(forged)
        assert link_from_token("").link is None and link_from_token("").problem == TokenProblem.INVALID

    def test_last_seen_is_kept_to_the_minute(self, link):
        now = timezone.now()
        note_seen(link=link, now=now)
        link.refresh_from_db()
        assert link.last_seen_at == now
        note_seen(link=link, now=now + timedelta(seconds=30))
        link.refresh_from_db()
        assert link.last_seen_at == now
        note_seen(link=link, now=now + timedelta(seconds=61))
        link.refresh_from_db()
        assert link.last_seen_at == now + timedelta(seconds=61)


class TestGamesBoard:
    """14.18: the games offered, their minimum/maximum wagers and the vacant seats at the open tables, one line a game
    and limits (or rotation), from apps.seats.selectors.room_board; how many wait, initials only."""

    @pytest.mark.proves("14.18")
    def test_14_18_game_lines_their_limits_tables_and_vacant_seats(self, casino):
        holdem = PokerTableFactory(casino=casino, number=3, seats=9, small_blind=D("1"), big_blind=D("2"))
        other_holdem = PokerTableFactory(casino=casino, number=5, seats=9, small_blind=D("1"), big_blind=D("2"))
        PokerTableFactory(casino=casino, number=4, is_open=False)
        stud = PokerTableFactory(casino=casino, number=7, game=Game.STUD, betting_structure=BettingStructure.FIXED_LIMIT,
                                 seats=8, small_blind=D("0"), big_blind=D("0"), minimum_wager=D("0.50"),
                                 maximum_wager=D("1"), bad_beat_participation=False)
        mixed = create_table(casino=casino, number=21, seats=8, rotation_name="H.O.R.S.E.", rotation=[
            {"game": Game.HOLDEM, "betting_structure": BettingStructure.FIXED_LIMIT, "small_blind": D("10"),
             "big_blind": D("20"), "minimum_wager": D("20"), "maximum_wager": D("40")},
            {"game": Game.STUD, "betting_structure": BettingStructure.FIXED_LIMIT, "ante": D("3"),
             "bring_in": D("5"), "minimum_wager": D("20"), "maximum_wager": D("40")},
            {"game": Game.HOLDEM, "betting_structure": BettingStructure.NO_LIMIT, "small_blind": D("25"),
             "big_blind": D("50"), "minimum_wager": D("50")}])
        open_table(table=mixed)
        now = timezone.now()
        record_round_of_play(table=holdem, round_in=RoundIn(started_at=now - timedelta(minutes=2), board="2h 7d 9c Js Kd",
                                                            players=[PlayerIn(seat=s, name=f"Player {s}", contributed=D("2"),
                                                                              hole_cards=cards)
                                                                     for s, cards in ((1, "As Ac"), (4, "Qh Qd"),
                                                                                      (6, "3c 4c"))]))
        record_round_of_play(table=stud, round_in=RoundIn(
            started_at=now - SEATS_FRESH_FOR - timedelta(minutes=1), players=[
                PlayerIn(seat=1, contributed=D("1"), name="Old", hole_cards="As Ac Kd Kc Qh Qd Jc"),
                PlayerIn(seat=2, contributed=D("1"), name="News", hole_cards="2s 3c 4d 5c 7h 8d 9c")]))
        for number in (1, 4, 6):  # the floor's record of the round's players
            Seat.objects.create(table=holdem, number=number, player=f"Player {number}", since=now)
        Seat.objects.create(table=other_holdem, number=2, player="Kept Player", since=now)

        board = games_board(casino=casino, now=now)
        assert board == room_board(casino=casino, now=now)  # the one board of the room: screens and public page
        assert [(r.key, r.limits, r.tables, r.seats, r.vacant_seats, r.waitlist_length) for r in board] == [
            (line_key(holdem), "$1/$2 no limit", ("Table 3", "Table 5"), 18, (9 - 3) + (9 - 1), 0),
            (line_key(stud), "$0.50/$1 fixed limit", ("Table 7",), 8, 8, 0),  # nobody in the record
            (line_key(mixed), "$20/$40 fixed limit · $25/$50 no limit", ("Table 21",), 8, 8, 0),
        ]
        assert (board[0].game, board[2].rotation) == ("Texas hold 'em (high)", "H.O.R.S.E.")
        assert board[2].game.startswith("H.O.R.S.E.")

    def test_a_full_table_has_no_vacant_seat(self, casino):
        table = PokerTableFactory(casino=casino, number=1, seats=2)
        record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
            PlayerIn(seat=1, contributed=D("2"), hole_cards="As Ac"), PlayerIn(seat=2, contributed=D("2"),
                                                                                hole_cards="Qh Qd")]))
        for number in (1, 2):
            Seat.objects.create(table=table, number=number, player=f"P{number}", since=timezone.now())
        [row] = games_board(casino=casino, now=timezone.now())
        assert (row.seats, row.vacant_seats) == (2, 0)

    def test_whole_dollars(self):
        assert [posted_dollars(D(v)) for v in ("2", "2.00", "1000", "0.50", "2.25")] == ["$2", "$2", "$1,000", "$0.50",
                                                                                   "$2.25"]
