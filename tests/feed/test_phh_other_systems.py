"""Hands recorded by other systems (issue 35, item 3 and part of item 1): the online rooms' histories of the PHH dataset
(HandHQ, 2009) — obfuscated player ids, hole cards never shown ('????'), showdowns whose cards were not revealed
(`pN sm ????`), unknown stacks (`inf`), a blind posted out of the blinds' seats (a negative `blinds_or_straddles`
entry), no `table`, a time zone abbreviation ('ET'), and `winnings` written with or without the uncalled bet — are
taken in hand by hand, and each hand that records winnings gets its rake audit (apps.feed.models.SourceSettlement):
the source's rake beside our posted rake (N.J.A.C. 13:69F-14.14)."""
import csv
import io
import re
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.db.models import Count, Q, Sum
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.badbeat.models import Claim
from apps.badbeat.selectors import judge_round
from apps.core.database_roles import append_only_tables
from apps.core.roles import Role
from apps.feed.models import SourceRakeDay, SourceSettlement, WinningsWritten
from apps.feed.phh import ParsedHand, PhhError, RefusedHand, parse_phh
from apps.feed.services import import_phh
from apps.rake.models import RakeRecord
from apps.rounds.models import RoundOfPlay
from tests.core.test_history_queries import seq_scans
from tests.factories import JackpotFactory, RakeStructureFactory
from tests.feed.test_phh import replay, settle

D = Decimal
NEW_YORK = ZoneInfo("America/New_York")
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(casino):
    """No-limit hold 'em at $0.50/$1, raked 10 % of each betting round, each rounded down to $0.10, at most $3."""
    return RakeStructureFactory(table__casino=casino, table__small_blind=D("0.50"), table__big_blind=D("1.00"),
                                table__minimum_wager=D("1.00"), table__seats=9, percentage=D("10.00"),
                                maximum=D("3.00"), increment=D("0.10")).table


def dated(at: datetime, abbreviation: str | None = "ET") -> str:
    """The date fields of a hand at `at` (the casino's local time), as the HandHQ files write them."""
    local = at.astimezone(NEW_YORK)
    return (f"time = {local:%H:%M:%S}\nday = {local.day}\nmonth = {local.month}\nyear = {local.year}\n"
            + (f"time_zone_abbreviation = '{abbreviation}'\n" if abbreviation else ""))


#: Hand 1: everyone folds to a raise; the winner is given back his uncalled $2 and paid the $2 pot — both readings
#: of the winnings fit, and the venue's hand 4 says Absolute Poker writes them without the uncalled bet.
FOLDED_TO_A_RAISE = """variant = 'NT'
ante_trimming_status = false
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [200.30, 81.60, 197]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 3.00', 'p2 f']
venue = 'Absolute Poker'
hand = 3017237436
seats = [6, 3, 5]
table = 'INDIANA ST'
players = ['DeZAZcPNNQ5w+Wb+5ujZdA', 'id+sbECX+YdI8qhMhpje+g', 'vETYfpoA+FhBercnDPJrRw']
winnings = [2, 0, 0]
currency_symbol = '$'
"""
#: Hand 2: a showdown whose winner's cards were not revealed (`p2 sm ????`): the winnings say p2 won, so p1, who
#: showed, concedes. No uncalled bet. Pot $11, winnings $10.50: the source's rake is $0.50.
NOT_REVEALED_WINNER = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [100, 100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc', 'd db 9s7h2c', 'p1 cc',
 'p2 cbr 4', 'p3 f', 'p1 cc', 'd db 9d', 'p1 cc', 'p2 cc', 'd db Kc', 'p1 cc', 'p2 cc', 'p1 sm 8dAs', 'p2 sm ????']
venue = 'Absolute Poker'
table = 'ALABAMA ST'
players = ['uwsIGbIB4ktlhz44JKQKDQ', 'ahN79dgDL8C99nHik5Up7Q', '9tEZRm6oI+e1Tz0x72b0vQ']
winnings = [0, 10.50, 0]
"""
#: Hand 3: iPoker: unknown stacks, no table, winnings written with the uncalled bet given back ($14.10 > the $8.50 pot:
#: only that reading fits): p3 was paid his $6 back and $8.10 of the pot; the source's rake is $0.40.
WITH_THE_UNCALLED_BET = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [inf, inf, inf]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 4', 'p1 f', 'p2 cc', 'd db Ah8c3d', 'p2 cc',
 'p3 cbr 6', 'p2 f']
venue = 'iPoker'
players = ['Zm9vYmFyYmF6cXV4MTIz', 'cXV1eGNvcmdlZ3JhdWx0', 'Z2FycGx5d2FsZG9mcmVk']
winnings = [0, 0, 14.10]
"""
#: Hand 4: p4 posts $1 out of the blinds' seats (-1: live, as pokerkit reads it) and raises to $30 over p3's all-in for
#: $10: $20 goes back to p4, who loses the showdown and is paid nothing — so the winnings leave the uncalled bet out.
#: Pot $21.50, p3 paid $20.50: the source's rake is $1.
POSTED_OUT_OF_THE_BLINDS = """variant = 'NT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [0.50, 1, 0, -1]
min_bet = 1
starting_stacks = [50, 50, 10, 60]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????', 'p3 cbr 10', 'p4 cbr 30', 'p1 f', 'p2 f',
 'd db 2c3d4h', 'd db 5s', 'd db 9c', 'p3 sm AsAd', 'p4 sm KsKd']
venue = 'Absolute Poker'
table = 'BOSTON ST'
players = ['T2ajzRHKw9rbcdn8+iwiCw', 'bXfPLTrkNbaf0hIiTkE4Bw', 'UUZLGIYvajc7TdZla2bLDw', 'DeZAZcPNNQ5w+Wb+5ujZdA']
winnings = [0, 0, 20.50, 0]
"""
#: Hand 5: a card that is no card: refused on its own.
BAD_CARD = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [0.50, 1]
min_bet = 1
starting_stacks = [100, 100]
actions = ['d dh p1 AsXd', 'd dh p2 ????', 'p2 f']
venue = 'Absolute Poker'
"""
#: Hand 7: the winnings pay p3, who folded: the hand does not reconcile at all; it is recorded, settled by our
#: accounting (p1 takes the pot), and flagged.
PAID_A_FOLDED_PLAYER = FOLDED_TO_A_RAISE.replace("winnings = [2, 0, 0]", "winnings = [0, 0, 2]").replace(
    "hand = 3017237436", "hand = 3017237999")


@pytest.fixture
def session(table):
    """The file of other systems' hands, dated an hour ago (the casino's open gaming day), and its import's summary."""
    at = timezone.now() - timedelta(hours=1)
    hands = [(FOLDED_TO_A_RAISE, "ET"), (NOT_REVEALED_WINNER, "ET"), (WITH_THE_UNCALLED_BET, None),
             (POSTED_OUT_OF_THE_BLINDS, "ET"), (BAD_CARD, "ET"), (NOT_REVEALED_WINNER.replace("[0, 10.50, 0]",
                                                                                               "[0, 10.40, 0]"), "CEST"),
             (PAID_A_FOLDED_PLAYER, "ET")]
    text = "\n".join(f"[{n}]\n{body}{dated(at + timedelta(seconds=n), zone)}"
                     for n, (body, zone) in enumerate(hands, start=1))
    summary = import_phh(casino=table.casino, text=text, name="abs.phhs", table=table)
    return summary, {r.source_name: r for r in RoundOfPlay.objects.all()}, text


def test_the_good_hands_go_in_and_the_bad_ones_are_refused_with_their_reasons(session):
    """A hand that is malformed or dated in a zone that disagrees with the casino's is refused with its label and
    reason; the file's other five hands are recorded."""
    summary, rounds, _ = session
    assert (summary.imported, summary.refused, summary.files_refused) == (5, 2, [])
    refused = dict(summary.variants["NT"].refused)
    assert set(refused) == {"abs.phhs#5", "abs.phhs#6"}
    assert "'AsXd' is not a list of cards" in refused["abs.phhs#5"]
    assert re.search(r"time_zone_abbreviation 'CEST' names UTC\+02:00, which does not agree with the casino's time "
                     r"zone America/New_York \(UTC-0[45]:00 on ", refused["abs.phhs#6"]), refused["abs.phhs#6"]
    assert sorted(rounds) == ["abs.phhs#1", "abs.phhs#2", "abs.phhs#3", "abs.phhs#4", "abs.phhs#7"]


def test_ids_unknown_stacks_hidden_cards_and_the_posted_blind_are_recorded(session):
    """Obfuscated ids are the players' names; `inf` stacks are recorded as unknown; '????' folders have no cards; the
    blind posted out of the blinds' seats is live (it counts toward p4's raise: $30 put in, not $31)."""
    _, rounds, _ = session
    first = {p.seat: p for p in rounds["abs.phhs#1"].players.all()}
    assert first[6].name == "DeZAZcPNNQ5w+Wb+5ujZdA" and first[6].hole_cards == "" and first[6].awarded == D("1.80")
    assert rounds["abs.phhs#1"].started_at.astimezone(NEW_YORK).utcoffset() in (timedelta(hours=-4),
                                                                                 timedelta(hours=-5))
    assert {p.starting_stack for p in rounds["abs.phhs#3"].players.all()} == {None}
    posted = {p.seat: p for p in rounds["abs.phhs#4"].players.all()}
    assert (posted[4].contributed, posted[4].returned) == (D("30.00"), D("20.00"))
    assert posted[3].awarded > 0 and posted[3].high_hand == "Straight"


def test_a_showdown_whose_winners_cards_were_not_revealed_is_settled_by_the_winnings(session):
    """`p2 sm ????` with winnings that pay p2: p1, who showed 8d As, concedes and p2 takes the pot."""
    _, rounds, _ = session
    players = {p.seat: p for p in rounds["abs.phhs#2"].players.all()}
    assert players[1].hole_cards == "8d As" and not players[1].at_showdown and players[1].awarded == 0
    assert players[2].hole_cards == "" and players[2].awarded > 0


#: Hand-worked audit of each recorded hand: (pot, uncalled, winnings as written, how written, source's rake, our
#: rake, reconciles, same winners). Our rake: 10 % of each betting round, rounded down to $0.10.
AUDIT = {
    "abs.phhs#1": (D("2.00"), D("2.00"), D("2.00"), WinningsWritten.WITHOUT_UNCALLED, D("0.00"), D("0.20"), True, True),
    "abs.phhs#2": (D("11.00"), D("0.00"), D("10.50"), WinningsWritten.NO_UNCALLED, D("0.50"), D("1.10"), True, True),
    "abs.phhs#3": (D("8.50"), D("6.00"), D("14.10"), WinningsWritten.WITH_UNCALLED, D("0.40"), D("0.80"), True, True),
    "abs.phhs#4": (D("21.50"), D("20.00"), D("20.50"), WinningsWritten.WITHOUT_UNCALLED, D("1.00"), D("2.10"), True,
                   True),
    "abs.phhs#7": (D("2.00"), D("2.00"), D("2.00"), WinningsWritten.WITHOUT_UNCALLED, None, D("0.20"), False, False),
}


def test_the_audit_rows_are_the_hand_worked_amounts(session):
    """Issue 35, item 6: per round, the source's rake = pot (put in − uncalled bet given back) − what the winnings pay
    from the pots, whichever way they are written, beside our posted rake (the round's rake record, 14.14)."""
    _, rounds, _ = session
    found = {row.round_of_play.source_name: (row.pot, row.uncalled, row.winnings_total, row.written, row.source_rake,
                                             row.our_rake, row.reconciles, row.same_winners)
             for row in SourceSettlement.objects.select_related("round_of_play")}
    assert found == AUDIT
    for label, row in AUDIT.items():
        assert RakeRecord.objects.get(round_of_play=rounds[label]).amount == row[5]
    notes = {row.round_of_play.source_name: row.note for row in SourceSettlement.objects.select_related("round_of_play")}
    assert "both readings fit; read as the other hands of Absolute Poker in this import are written" in notes["abs.phhs#1"]
    assert "paid less than it: the winnings leave it out" in notes["abs.phhs#4"]
    assert "more than the pot, by no more than the uncalled bet given back (6.00): they include it" in notes["abs.phhs#3"]
    assert "cards not revealed at the showdown" in notes["abs.phhs#2"]
    assert "does not reconcile: p3 folded but is paid 2.00" in notes["abs.phhs#7"]
    assert "the source pays seat(s) 5, our settlement seat(s) 6" in notes["abs.phhs#7"]


def test_the_running_totals_of_a_table_day_are_the_rows_added_up(session, table):
    """SourceRakeDay, kept beside the rows in the batch's transaction, equals the rows added up (design.md, "Money"):
    the flagged hand counts but stays out of the sums."""
    day = SourceRakeDay.objects.get(table=table)
    assert (day.hands, day.flagged, day.pot, day.source_rake, day.our_rake) == (
        5, 1, D("43.00"), D("1.90"), D("4.20"))
    assert day.difference == D("-2.30")
    derived = SourceSettlement.objects.filter(table=table).aggregate(
        hands=Count("id"), flagged=Count("id", filter=Q(reconciles=False)),
        pot=Sum("pot", filter=Q(reconciles=True)), source=Sum("source_rake"),
        ours=Sum("our_rake", filter=Q(reconciles=True)))
    assert derived == {"hands": day.hands, "flagged": day.flagged, "pot": day.pot, "source": day.source_rake,
                       "ours": day.our_rake}


def test_importing_again_changes_nothing(session, table):
    _, _, text = session
    before = (SourceSettlement.objects.count(), SourceRakeDay.objects.get(table=table).hands)
    again = import_phh(casino=table.casino, text=text, name="abs.phhs", table=table)
    assert (again.imported, again.already_stored, again.refused) == (0, 5, 2)
    assert (SourceSettlement.objects.count(), SourceRakeDay.objects.get(table=table).hands) == before


# --- the parser, hand by hand ---------------------------------------------------------------------------------------

def one(text: str, **kwargs) -> ParsedHand | RefusedHand:
    (hand,) = parse_phh(text, name="h.phh", zone=NEW_YORK, refuse_malformed=True, **kwargs)
    return hand


@pytest.mark.parametrize(("fields", "offset"), [
    ("year = 2009\nmonth = 7\nday = 1\ntime = 00:00:09\ntime_zone_abbreviation = 'ET'\n", -4),
    ("year = 2009\nmonth = 7\nday = 1\ntime = 00:00:09\ntime_zone_abbreviation = 'EDT'\n", -4),
    ("year = 2009\nmonth = 1\nday = 5\ntime = 21:30:00\ntime_zone_abbreviation = 'EST'\n", -5),
    ("year = 2009\nmonth = 1\nday = 5\ntime = 21:30:00\ntime_zone_abbreviation = 'et'\n", -5),
    ("year = 2009\nmonth = 1\nday = 5\ntime = 21:30:00\ntime_zone = 'ET'\n", -5),
    # the hour the clocks repeat: the abbreviation says which of the two it is
    ("year = 2009\nmonth = 11\nday = 1\ntime = 01:30:00\ntime_zone_abbreviation = 'EDT'\n", -4),
    ("year = 2009\nmonth = 11\nday = 1\ntime = 01:30:00\ntime_zone_abbreviation = 'EST'\n", -5),
    ("year = 2009\nmonth = 7\nday = 1\ntime = 06:00:09\ntime_zone = 'Europe/Paris'\ntime_zone_abbreviation = 'CEST'\n",
     2),
    ("year = 2009\nmonth = 7\nday = 1\ntime = 00:00:09\n", -4),  # no zone at all: the casino's
])
def test_a_time_zone_abbreviation_that_agrees_places_the_hand_in_the_casinos_zone(fields, offset):
    hand = one(FOLDED_TO_A_RAISE + fields)
    assert isinstance(hand, ParsedHand), hand
    assert hand.round_in.started_at.utcoffset() == timedelta(hours=offset)


@pytest.mark.parametrize(("fields", "words"), [
    ("year = 2009\nmonth = 7\nday = 1\ntime = 00:00:09\ntime_zone_abbreviation = 'EST'\n",
     "time_zone_abbreviation 'EST' names UTC-05:00, which does not agree with the casino's time zone America/New_York "
     "(UTC-04:00 on 2009-07-01 at 00:00:09)"),
    ("year = 2009\nmonth = 1\nday = 5\ntime = 21:30:00\ntime_zone_abbreviation = 'EDT'\n",
     "time_zone_abbreviation 'EDT' names UTC-04:00, which does not agree with the casino's time zone America/New_York"),
    ("year = 2009\nmonth = 7\nday = 1\ntime = 00:00:09\ntime_zone_abbreviation = 'CEST'\n",
     "time_zone_abbreviation 'CEST' names UTC+02:00, which does not agree with the casino's time zone America/New_York"),
    ("year = 2009\nmonth = 7\nday = 1\ntime = 00:00:09\ntime_zone = 'CET'\n",
     "time_zone 'CET' names UTC+01:00, which does not agree with the casino's time zone America/New_York"),
    ("year = 2009\nmonth = 7\nday = 1\ntime = 00:00:09\ntime_zone_abbreviation = 'XYZ'\n",
     "time_zone_abbreviation 'XYZ' is not a time zone abbreviation we can resolve (e.g. 'ET', 'EST', 'EDT', 'CEST'); "
     "the casino's time zone is America/New_York"),
    ("time_zone_abbreviation = 5\n", "time_zone_abbreviation 5 is not a time zone abbreviation"),
])
def test_a_time_zone_abbreviation_that_disagrees_refuses_the_hand_naming_the_field_and_zone(fields, words):
    hand = one(FOLDED_TO_A_RAISE + fields)
    assert isinstance(hand, RefusedHand) and words in hand.reason, hand


def test_a_negative_blind_is_posted_live_as_pokerkit_plays_it():
    """pokerkit reads a negative `blinds_or_straddles` entry as a blind posted out of the blinds' seats: its amount is
    the player's live bet (pokerkit.state: get_effective_blind_or_straddle takes abs(), the sign only keeps it from
    deciding who opens). p4's post of $2 counts toward the call of p3's raise to $6: $6 put in, no dead money; every
    finishing stack is pokerkit's."""
    import tomllib

    text = """variant = 'NT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, -2]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 QcQd', 'd dh p4 JcJd', 'p3 cbr 6', 'p4 cc', 'p1 f', 'p2 cc',
 'd db 2h3h4s', 'p2 cc', 'p3 cc', 'p4 cc', 'd db 8c', 'p2 cc', 'p3 cbr 10', 'p4 f', 'p2 cc', 'd db 9d', 'p2 cc',
 'p3 cc', 'p2 sm KcKd', 'p3 sm QcQd']
"""
    hand = one(text)
    p4 = hand.round_in.players[3]
    assert (p4.contributed, p4.dead, p4.returned) == (D("6.00"), D("0.00"), D("0.00"))
    assert settle(hand) == [D(str(stack)) for stack in replay(tomllib.loads(text)).stacks] == [
        D("99"), D("123"), D("84"), D("94")]
    assert (hand.stakes.small_blind, hand.stakes.big_blind) == (D("1.00"), D("2.00"))  # the post is no table stake


SHOWDOWN = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 AsKs', 'd dh p2 ????', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc', 'd db AhKd5c', 'p1 cc', 'p2 cc',
 'p3 cc', 'd db 9s', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 3h', 'p1 cc', 'p2 cc', 'p3 cc', 'p1 sm AsKs', 'p2 sm ????',
 'p3 sm ????']
"""


@pytest.mark.proves("14.15(d)-conceded")
def test_without_winnings_the_players_whose_cards_were_not_revealed_concede():
    hand = one(SHOWDOWN)
    assert hand.cards_not_revealed and hand.winnings is None
    assert [(p.mucked, p.hole_cards) for p in hand.round_in.players] == [(False, "As Ks"), (True, ""), (True, "")]


@pytest.mark.proves("14.15(d)-conceded")
def test_a_show_of_unknown_cards_by_a_player_dealt_known_ones_keeps_the_cards_dealt():
    """'p1 sm ????' after 'd dh p1 AsKs' was refused ("shows cards other than those dealt"): the cards dealt stand."""
    hand = one(SHOWDOWN.replace("'p1 sm AsKs'", "'p1 sm ????'"))
    assert isinstance(hand, ParsedHand) and hand.round_in.players[0].hole_cards == "As Ks"
    assert not hand.round_in.players[0].mucked


@pytest.mark.proves("14.15(d)-conceded")
@pytest.mark.parametrize(("winnings", "words"), [
    ("[0, 2.85, 2.85]", "the winnings pay p2, p3 at the showdown, but the cards of p2, p3 were not revealed"),
    ("[2.85, 2.85, 0]", "the cards of p2 were not revealed: the pots cannot be split between them"),
])
def test_winnings_that_split_a_pot_with_a_player_whose_cards_are_unknown_refuse_the_hand(winnings, words):
    hand = one(SHOWDOWN + f"winnings = {winnings}\n")
    assert isinstance(hand, RefusedHand) and words in hand.reason, hand


@pytest.mark.proves("14.15(d)-conceded")
def test_no_cards_revealed_and_no_winnings_refuse_the_hand():
    hand = one(SHOWDOWN.replace("'d dh p1 AsKs'", "'d dh p1 ????'").replace("'p1 sm AsKs'", "'p1 sm ????'"))
    assert isinstance(hand, RefusedHand) and "no cards are revealed at the showdown" in hand.reason


HEADS_UP = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 AsKs', 'd dh p2 ????', 'p2 cc', 'p1 cc', 'd db AhKd5c', 'p1 cc', 'p2 cc', 'd db 9s', 'p1 cc', 'p2 cc',
 'd db 3h', 'p1 cc', 'p2 cc', 'p1 sm AsKs', 'p2 sm ????']
"""


def settled(hand: ParsedHand) -> list[tuple[int, bool, str]]:
    return [(p.seat, p.mucked, p.hole_cards) for p in hand.round_in.players]


@pytest.mark.proves("14.15(d)-conceded")
@pytest.mark.parametrize(("text", "players"), [
    # the winnings pay the player whose cards were not revealed: the others concede, the shown hand too
    (SHOWDOWN + "winnings = [0, 5.70, 0]\n", [(1, True, "As Ks"), (2, False, ""), (3, True, "")]),
    # they pay the player who showed: the two whose cards were not revealed concede
    (SHOWDOWN + "winnings = [5.70, 0, 0]\n", [(1, False, "As Ks"), (2, True, ""), (3, True, "")]),
    # they pay no contender: as without winnings, the players whose cards were not revealed concede
    (SHOWDOWN + "winnings = [0, 0, 0]\n", [(1, False, "As Ks"), (2, True, ""), (3, True, "")]),
    # two shown hands stay in (the engine ranks them); the one not revealed concedes
    (SHOWDOWN.replace("'d dh p3 ????'", "'d dh p3 2c2d'").replace("'p3 sm ????'", "'p3 sm 2c2d'"),
     [(1, False, "As Ks"), (2, True, ""), (3, False, "2c 2d")]),
    # heads up: the one contender whose cards were not revealed concedes, or, paid by the winnings, the other does
    (HEADS_UP, [(1, False, "As Ks"), (2, True, "")]),
    (HEADS_UP + "winnings = [0, 3.80]\n", [(1, True, "As Ks"), (2, False, "")]),
])
def test_14_15_d_who_concedes_a_showdown_whose_cards_were_not_all_revealed(text, players):
    """N.J.A.C. 13:69F-14.15(d): a player holding a losing hand may concede it unshown. A history whose showdown
    does not give a contender's cards is read so: the contenders the winnings pay stay in, the others concede (mucked,
    taking no part in the pot); without winnings that pay a contender, those whose cards were not revealed concede."""
    hand = one(text)
    assert isinstance(hand, ParsedHand) and hand.cards_not_revealed
    assert settled(hand) == players


@pytest.mark.proves("14.15(d)-conceded")
@pytest.mark.parametrize(("text", "players"), [
    # every card revealed: nobody concedes, the engine settles the showdown
    (SHOWDOWN.replace("'d dh p2 ????'", "'d dh p2 QcQd'").replace("'p2 sm ????'", "'p2 sm QcQd'")
     .replace("'d dh p3 ????'", "'d dh p3 2c2d'").replace("'p3 sm ????'", "'p3 sm 2c2d'"),
     [(1, False, "As Ks"), (2, False, "Qc Qd"), (3, False, "2c 2d")]),
    # no showdown (one player left, the other folded): there is nothing to concede, unknown cards or not
    ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [200, 200]\n"
     "actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cbr 6', 'p1 f']\n", [(1, False, ""), (2, False, "")]),
])
def test_14_15_d_nobody_concedes_without_a_showdown_of_unrevealed_cards(text, players):
    hand = one(text)
    assert isinstance(hand, ParsedHand) and not hand.cards_not_revealed
    assert settled(hand) == players


def test_a_text_that_is_not_phh_is_still_refused_whole():
    with pytest.raises(PhhError, match="not valid PHH/TOML"):
        list(parse_phh("[1]\nvariant = 'NT'\n\n[2]\nactions = [", name="x.phhs", refuse_malformed=True))


# --- the bad beat verdict ---------------------------------------------------------------------------------------------

QUADS_BEATEN = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [100, 100, 100]
actions = ['d dh p1 9c9d', 'd dh p2 JhTh', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc', 'd db 9h9sAh', 'p1 cbr 5',
 'p2 cc', 'p3 cc', 'd db Kh', 'p1 cc', 'p2 cc', 'p3 cc', 'd db Qh', 'p1 cc', 'p2 cc', 'p3 cc', 'p1 sm 9c9d',
 'p2 sm JhTh', 'p3 sm ????']
"""
#: The same, but p3 folds to the bet on the flop: two hands shown down, both known.
QUADS_BEATEN_HEADS_UP = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [100, 100, 100]
actions = ['d dh p1 9c9d', 'd dh p2 JhTh', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc', 'd db 9h9sAh', 'p1 cbr 5',
 'p2 cc', 'p3 f', 'd db Kh', 'p1 cc', 'p2 cc', 'd db Qh', 'p1 cc', 'p2 cc', 'p1 sm 9c9d', 'p2 sm JhTh']
"""


@pytest.mark.parametrize("text", [QUADS_BEATEN, QUADS_BEATEN_HEADS_UP], ids=["not revealed", "all revealed"])
def test_14_19_b_3_a_showdown_whose_cards_were_not_revealed_cannot_qualify(table, text):
    """Four nines beaten by a royal flush qualify (a claim is opened for the supervisor, 14.19(i)) — unless a third
    player reached the showdown and the history does not reveal the cards (`p3 sm ????`): the verdict then says "the
    cards were not revealed: nothing to verify", and no claim is opened."""
    jackpot = JackpotFactory(casino=table.casino, minimum_pot=D("0"))
    summary = import_phh(casino=table.casino, text=text + dated(timezone.now() - timedelta(minutes=30)),
                         name="quads.phh", table=table)
    assert summary.imported == 1, summary.as_json()
    round_of_play = RoundOfPlay.objects.get()
    verdict = judge_round(jackpot=jackpot, round_of_play=round_of_play)
    hidden = "Seat 3: the cards were not revealed: nothing to verify."
    if text is QUADS_BEATEN_HEADS_UP:
        assert verdict.qualifies and Claim.objects.filter(round_of_play=round_of_play).count() == 1
        assert hidden not in [c.detail for c in verdict.checks]
    else:
        assert not verdict.qualifies and not Claim.objects.exists()
        assert (verdict.checks[0].label, verdict.checks[0].detail) == ("Cards revealed", hidden)


# --- the rake audit page ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("role", "status"), [
    (Role.ACCOUNTING, 200), (Role.SURVEILLANCE, 200), (Role.POKER_SHIFT_SUPERVISOR, 200), (Role.ADMIN, 200),
    (Role.DEALER, 403), (Role.FLOORPERSON, 403), (Role.SECURITY, 403)])
def test_who_may_open_the_rake_audit(client, staff, role, status):
    client.force_login(staff(role))
    assert client.get(reverse("feed:rake-audit")).status_code == status
    assert client.get(reverse("feed:rake-audit-csv")).status_code == status


def test_a_visitor_who_is_not_signed_in_is_sent_to_sign_in(client, casino):
    for name in ("feed:rake-audit", "feed:rake-audit-csv"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_page_shows_each_hand_and_the_table_days_sums(client, staff, session, table):
    client.force_login(staff(Role.ACCOUNTING))
    day = RoundOfPlay.objects.first().gaming_day
    page = client.get(reverse("feed:rake-audit"), {"day": day.isoformat()}).content.decode()
    total = re.search(r'<tr data-testid="audit-day-total">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r'<td class="num">([^<]*)</td>', total) == ["5", "1", "$43.00", "$1.90", "$4.20", "−$2.30"]
    hands = page[page.index('data-testid="audit-hands"'):]
    assert hands.index("abs.phhs#7") < hands.index("abs.phhs#4") < hands.index("abs.phhs#1")  # newest first
    assert "Does not reconcile" in hands and "p3 folded but is paid 2.00" in hands
    every_day = client.get(reverse("feed:rake-audit")).content.decode()
    days = every_day[every_day.index('data-testid="audit-days"'):every_day.index('data-testid="audit-hands"')]
    assert "$43.00" in days and "$1.90" in days and "$4.20" in days and "−$2.30" in days


def test_the_csv_has_a_line_per_hand_with_the_hand_worked_amounts(client, staff, session):
    client.force_login(staff(Role.SURVEILLANCE))
    day = RoundOfPlay.objects.first().gaming_day
    response = client.get(reverse("feed:rake-audit-csv"), {"day": day.isoformat()})
    assert response["Content-Type"] == "text/csv"
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    found = {row["hand"]: (row["pot"], row["source_rake"], row["our_rake"], row["difference"], row["reconciles"],
                           row["winnings_written"]) for row in rows}
    assert found == {
        "abs.phhs#1": ("2.00", "0.00", "0.20", "-0.20", "yes", "without_uncalled"),
        "abs.phhs#2": ("11.00", "0.50", "1.10", "-0.60", "yes", "no_uncalled"),
        "abs.phhs#3": ("8.50", "0.40", "0.80", "-0.40", "yes", "with_uncalled"),
        "abs.phhs#4": ("21.50", "1.00", "2.10", "-1.10", "yes", "without_uncalled"),
        "abs.phhs#7": ("2.00", "", "0.20", "", "no", "without_uncalled")}
    assert [row["hand"] for row in rows] == ["abs.phhs#7", "abs.phhs#4", "abs.phhs#3", "abs.phhs#2", "abs.phhs#1"]


def test_the_page_scans_no_history_table(client, staff, session):
    """Every query of the page is backed by an index (tests/core/test_history_queries.py's check)."""
    client.force_login(staff(Role.ACCOUNTING))
    day = RoundOfPlay.objects.first().gaming_day
    history = set(append_only_tables()) | {"feed_sourcerakeday"}
    problems = []
    for url in (reverse("feed:rake-audit"), f"{reverse('feed:rake-audit')}?day={day}"):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        for query in captured.captured_queries:
            sql = query["sql"]
            sql = sql.split(";", 1)[-1].strip() if sql.startswith("SELECT set_config") else sql
            if sql.lstrip().upper().startswith("SELECT"):
                problems += [(url, name) for name in seq_scans(sql, history)]
    assert problems == []
