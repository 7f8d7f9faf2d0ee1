"""Straddles in PHH: pokerkit's notation gives them as further positive `blinds_or_straddles` entries (a straddle
under the gun, a re-straddle after it). Our accounting of the actions (apps.feed.phh.accounting) takes them as live
blinds: the pots it builds, settled by the engine and recorded along the money path, leave every stack where
pokerkit's replay leaves it (a test-only reference). The stakes are the small and big blind (entries 0 and 1), the
further entries are the straddles, recorded on the players (PlayerIn.straddle) and checked against the table's posted
straddles like the JSON feed's (N.J.A.C. 13:69F-14.17): a table that allows none refuses that hand alone, with the
reason. PHH has no action for running a hand more than once: that is the JSON feed's `boards` alone."""
import tomllib
import warnings
from decimal import Decimal

import pytest
from pokerkit import HandHistory

from apps import hands
from apps.feed.phh import ParsedHand, finishing_stacks, parse_phh
from apps.feed.services import import_phh
from apps.rounds.models import Pot, RoundOfPlay
from apps.tables.models import StraddleOption
from tests.factories import PokerTableFactory

D = Decimal

STRADDLED = """variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0, 0]
min_bet = 2
starting_stacks = [200, 200, 200, 200, 200]
actions = ['d dh p1 7c2d', 'd dh p2 8s3h', 'd dh p3 AsAh', 'd dh p4 KdKc', 'd dh p5 Qs4s',
  'p4 cc', 'p5 f', 'p1 f', 'p2 cc', 'p3 cc', 'd db 2c7d9h', 'p2 cc', 'p3 cbr 10', 'p4 cc', 'p2 f',
  'd db 3s', 'p3 cbr 20', 'p4 cc', 'd db 4c', 'p3 cc', 'p4 cc', 'p3 sm AsAh', 'p4 sm KdKc']
"""

#: A straddle under the gun (p3, $4) and a re-straddle (p4, $8); everyone folds to the re-straddle: $4 of it is
#: matched by the straddle, the other $4 uncalled and given back; p4 wins $1 + $2 + $4 + $4 = $11.
RE_STRADDLED = """variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 8, 0]
min_bet = 2
starting_stacks = [200, 200, 200, 200, 200]
actions = ['d dh p1 7c2d', 'd dh p2 8s3h', 'd dh p3 AsAh', 'd dh p4 KdKc', 'd dh p5 Qs4s',
  'p5 f', 'p1 f', 'p2 f', 'p3 f']
"""

#: A re-straddle called to the river, one player all in for less: a side pot.
RE_STRADDLED_ALL_IN = """variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 8, 0]
min_bet = 2
starting_stacks = [200, 200, 30, 200, 200]
actions = ['d dh p1 7c2d', 'd dh p2 8s3h', 'd dh p3 AsAh', 'd dh p4 KdKc', 'd dh p5 QsQd',
  'p5 cc', 'p1 f', 'p2 f', 'p3 cbr 30', 'p4 cbr 60', 'p5 cc', 'd db 2c7d9h', 'p4 cbr 40', 'p5 cc',
  'd db 3s', 'p4 cc', 'p5 cc', 'd db 4c', 'p4 cc', 'p5 cc', 'p3 sm AsAh', 'p4 sm KdKc', 'p5 sm QsQd']
"""


def pokerkit_stacks(text: str) -> list[Decimal]:
    raw = tomllib.loads(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = None
        for state in HandHistory(**HandHistory._filter_non_fields(**raw)):  # noqa: B007 - the last state
            pass
    assert state is not None
    return [D(str(stack)) for stack in state.stacks]


def engine_stacks(text: str) -> list[Decimal | None]:
    """Our accounting's pots, settled by the engine (no rake), as finishing stacks."""
    (hand,) = parse_phh(text, name="straddle.phh")
    assert isinstance(hand, ParsedHand) and hand.round_in.game is not None, hand
    players = hand.round_in.players
    out = {str(p.seat) for p in players if p.folded or p.mucked}
    build = hands.build_pots({str(p.seat): p.contributed for p in players}, folded=out,
                             uncalled={str(p.seat): p.returned or D("0") for p in players},
                             dead={str(p.seat): p.dead for p in players})
    hole = {str(p.seat): hands.parse_cards(p.hole_cards) for p in players if p.hole_cards and str(p.seat) not in out}
    contested = any(len(pot.eligible) > 1 for pot in build.pots)
    settlement = hands.award_pots(hand.round_in.game, build.pots, hole if contested else {},
                                  hands.parse_cards(hand.round_in.board))
    return finishing_stacks(hand, {int(seat): amount for seat, amount in settlement.awards.items()})


@pytest.mark.parametrize("text", [STRADDLED, RE_STRADDLED, RE_STRADDLED_ALL_IN])
def test_14_7_c_4_straddles_in_phh_are_live_blinds_as_pokerkit_plays_them(text):
    """14.7(c)4, 14.14(d): a straddle and a re-straddle are live bets (matched, called, given back when uncalled);
    our accounting and the engine leave every stack where pokerkit's replay does."""
    assert engine_stacks(text) == pokerkit_stacks(text)


def test_14_14_d_a_re_straddle_nobody_calls_is_given_back_in_part():
    """14.14(d): the re-straddle of $8 is matched by the $4 straddle; the unmatched $4 is returned (hand-worked)."""
    (hand,) = parse_phh(RE_STRADDLED, name="re-straddle.phh")
    by_seat = {p.seat: p for p in hand.round_in.players}
    assert [by_seat[s].contributed for s in range(1, 6)] == [D("1.00"), D("2.00"), D("4.00"), D("8.00"), D("0.00")]
    assert by_seat[4].returned == D("4.00") and by_seat[4].dead == D("0.00")
    assert pokerkit_stacks(RE_STRADDLED) == [D("199"), D("198"), D("196"), D("207"), D("200")]


@pytest.mark.django_db
def test_a_straddled_phh_hand_is_recorded_as_pokerkit_settles_it():
    """The straddled hand imported at a table (no rake posted) that allows a straddle under the gun: the pot,
    $1 + $4 + $34 + $34 = $73.00, to p3; the recorded stacks are pokerkit's."""
    table = PokerTableFactory(straddles=StraddleOption.UNDER_THE_GUN)
    summary = import_phh(casino=table.casino, text=STRADDLED, name="straddle.phh", table=table)
    assert summary.imported == 1
    round_of_play = RoundOfPlay.objects.get()
    assert [p.gross for p in Pot.objects.filter(round_of_play=round_of_play)] == [D("73.00")]
    stacks = [D("200") - p.contributed + p.returned + p.awarded for p in round_of_play.players.order_by("seat")]
    assert stacks == pokerkit_stacks(STRADDLED)


#: A straddle on the button (p5, $4): pokerkit has the small blind act first; all fold to it, and the $2 of it the
#: big blind does not match is given back.
BUTTON_STRADDLE = STRADDLED.replace("[1, 2, 4, 0, 0]", "[1, 2, 0, 0, 4]").split("actions = ")[0] + (
    "actions = ['d dh p1 7c2d', 'd dh p2 8s3h', 'd dh p3 AsAh', 'd dh p4 KdKc', 'd dh p5 Qs4s', 'p1 f', 'p2 f', "
    "'p3 f', 'p4 f']\n")

#: Heads up, PHH writes the blinds small, big: pokerkit has p2 (the button) post the small blind.
HEADS_UP = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 7c2d', 'd dh p2 8s3h', 'p2 f']
"""

#: No straddle: the blinds are folded to.
PLAIN = STRADDLED.replace("[1, 2, 4, 0, 0]", "[1, 2, 0, 0, 0]").split("actions = ")[0] + (
    "actions = ['d dh p1 7c2d', 'd dh p2 8s3h', 'd dh p3 AsAh', 'd dh p4 KdKc', 'd dh p5 Qs4s', 'p3 f', 'p4 f', "
    "'p5 f', 'p1 f']\n")


def straddles_of(text: str) -> dict[int, Decimal]:
    (hand,) = parse_phh(text, name="straddle.phh")
    assert isinstance(hand, ParsedHand), hand
    return {p.seat: p.straddle for p in hand.round_in.players if p.straddle}


@pytest.mark.parametrize(("text", "straddles", "button"), [
    (STRADDLED, {3: D("4.00")}, 5),
    (RE_STRADDLED, {3: D("4.00"), 4: D("8.00")}, 5),
    (BUTTON_STRADDLE, {5: D("4.00")}, 5),
    (PLAIN, {}, 5),
    (HEADS_UP, {}, 2),
], ids=["under the gun", "re-straddled", "on the button", "none", "heads up"])
def test_14_17_the_stakes_are_the_blinds_and_each_straddle_is_recorded_on_its_player(text, straddles, button):
    """14.17: `blinds_or_straddles` = [1, 2, 4, 8, 0] is a $1/$2 game with a $4 straddle and an $8 re-straddle — not
    a $1/$8 game; the straddles go on their players and the button is the last player (heads up, p2)."""
    (hand,) = parse_phh(text, name="straddle.phh")
    assert isinstance(hand, ParsedHand), hand
    assert (hand.stakes.small_blind, hand.stakes.big_blind) == (D("1.00"), D("2.00"))
    assert straddles_of(text) == straddles
    assert hand.round_in.button == button
    assert engine_stacks(text) == pokerkit_stacks(text)


def test_a_short_stack_straddles_what_it_has_and_a_posted_blind_is_no_straddle():
    """A player with $3 behind straddles $3, all in (pokerkit's effective blind); a negative entry (a blind posted out
    of the blinds' seats) is neither a straddle nor the stakes."""
    short = STRADDLED.replace("[200, 200, 200, 200, 200]", "[200, 200, 3, 200, 200]").split("actions = ")[0] + (
        "actions = ['d dh p1 7c2d', 'd dh p2 8s3h', 'd dh p3 AsAh', 'd dh p4 KdKc', 'd dh p5 Qs4s', 'p4 cc', "
        "'p5 f', 'p1 f', 'p2 f', 'd db 2c7d9h', 'd db 3s', 'd db 4c', 'p3 sm AsAh', 'p4 sm KdKc']\n")
    assert straddles_of(short) == {3: D("3.00")}
    assert engine_stacks(short) == pokerkit_stacks(short)
    posted = PLAIN.replace("[1, 2, 0, 0, 0]", "[1, 2, 0, -2, 0]").replace("'p4 f', 'p5 f', 'p1 f'",
                                                                          "'p4 cbr 6', 'p5 f', 'p1 f', 'p2 f'")
    assert engine_stacks(posted) == pokerkit_stacks(posted)
    (hand,) = parse_phh(posted, name="posted.phh")
    assert isinstance(hand, ParsedHand), hand
    assert straddles_of(posted) == {} and (hand.stakes.small_blind, hand.stakes.big_blind) == (D("1.00"), D("2.00"))


def imported(table, text, name="straddle.phhs"):
    return import_phh(casino=table.casino, text=text, name=name, table=table)


@pytest.mark.django_db
@pytest.mark.parametrize(("text", "option", "most"), [
    (STRADDLED, StraddleOption.UNDER_THE_GUN, 1),
    (RE_STRADDLED, StraddleOption.UNDER_THE_GUN, 2),
    (BUTTON_STRADDLE, StraddleOption.BUTTON, 1),
    (RE_STRADDLED, StraddleOption.ANY_SEAT, 2),
], ids=["under the gun", "re-straddled", "on the button", "any seat"])
def test_14_17_a_phh_hands_straddles_are_recorded_where_the_table_posts_them(text, option, most):
    """14.17: a hand straddled as the table posts (where, how many) is recorded with its straddles and button, like a
    JSON round; a re-straddle nobody calls is given back in part (14.14(d))."""
    table = PokerTableFactory(straddles=option, maximum_straddles=most)
    summary = imported(table, text, name="straddle.phh")
    assert summary.imported == 1, summary.as_json()
    round_of_play = RoundOfPlay.objects.get()
    assert round_of_play.straddles == len(straddles_of(text)) and round_of_play.button == 5
    assert {p.seat: p.straddle for p in round_of_play.players.all() if p.straddle} == straddles_of(text)
    stacks = [D("200") - p.contributed + p.returned + p.awarded for p in round_of_play.players.order_by("seat")]
    assert stacks == pokerkit_stacks(text)


@pytest.mark.django_db
@pytest.mark.parametrize(("text", "option", "most", "words"), [
    (STRADDLED, StraddleOption.NONE, 1, "players[2].straddle: Texas hold 'em (high), no limit allows no straddle as posted."),
    (RE_STRADDLED, StraddleOption.UNDER_THE_GUN, 1, "players[3].straddle: At most 1 straddle(s) a round, as posted."),
    (STRADDLED, StraddleOption.BUTTON, 1, "players[2].straddle: Seat 3 may not straddle: this game allows a straddle "
                                          "on the button (seat 5), not by a blind."),
    (BUTTON_STRADDLE, StraddleOption.UNDER_THE_GUN, 1, "players[4].straddle: Seat 5 may not straddle"),
], ids=["no straddle", "one straddle", "button only", "under the gun only"])
def test_14_17_a_straddle_the_table_does_not_post_refuses_that_hand_alone(text, option, most, words):
    """14.17: in a file of two hands, the straddled one the table's posted game does not allow (none, too many, at
    the wrong seat) is refused with the reason naming the player's straddle; the other goes in."""
    table = PokerTableFactory(straddles=option, maximum_straddles=most)
    summary = imported(table, f"[1]\n{text}\n[2]\n{PLAIN}")
    assert summary.imported == 1, summary.as_json()
    (label, reason), = [(label, reason) for t in summary.variants.values() for label, reason in t.refused]
    assert label == "straddle.phhs#1" and reason.startswith(words), reason
    assert RoundOfPlay.objects.get().source_name == "straddle.phhs#2"


@pytest.mark.django_db
def test_a_straddled_hand_goes_to_a_table_posting_its_blinds_that_allows_the_straddle(casino):
    """The hand's stakes are its blinds, $1/$2: not the $1/$4 table its straddle would have made it; among the $1/$2
    tables the one that allows a straddle takes the straddled hand, the lowest-numbered the plain one."""
    PokerTableFactory(casino=casino, number=1, small_blind=D("1.00"), big_blind=D("4.00"),
                      straddles=StraddleOption.ANY_SEAT)
    plain = PokerTableFactory(casino=casino, number=2)
    allowing = PokerTableFactory(casino=casino, number=3, straddles=StraddleOption.UNDER_THE_GUN)
    summary = import_phh(casino=casino, text=f"[1]\n{STRADDLED}\n[2]\n{PLAIN}", name="straddle.phhs")
    assert summary.imported == 2, summary.as_json()
    tables = dict(RoundOfPlay.objects.values_list("source_name", "table_id"))
    assert tables == {"straddle.phhs#1": allowing.pk, "straddle.phhs#2": plain.pk}
