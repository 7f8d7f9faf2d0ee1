"""Our own accounting of PHH actions (pokerkit parses the notation; we work out what each player put in, got back,
held and showed): equal to pokerkit's replay on every shared hand and on random hands of every variant, and able to
take hands pokerkit cannot replay."""
import hashlib
import random
import re
import tomllib
import warnings
from decimal import Decimal
from pathlib import Path

import pytest
from pokerkit import HandHistory
from pokerkit.state import ChipsPushing

from apps import hands
from apps.feed.phh import ParsedHand, PhhError, RefusedHand, finishing_stacks, parse_phh, variant_of
from apps.tables.models import BettingStructure, Game
from tests.support.phh_hands import FIELDS, random_hand

PHH_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "phh"
D = Decimal


def settle(hand: ParsedHand, odd_chip: Decimal = Decimal(1)) -> list[Decimal | None]:
    """Our finishing stacks: the pots built from our accounting and awarded by the engine (no rake)."""
    return finishing_stacks(hand, {int(seat): amount for seat, amount in settlement(hand, odd_chip).awards.items()})


def odd_chips_apart(hand: ParsedHand) -> Decimal:
    """How far apart two engines' finishing stacks may be on `hand` (the sum of the differences, in chips) when they
    build the same pots and find the same winners but give a split pot's odd chips to other winners (14.9(i)3,
    14.11(f)2 give each to the best card by suit; pokerkit gives them all to one winner): for each pot shared by k
    winners, its r = amount mod k odd chips counted twice (each leaves one seat and reaches another)."""
    return sum((Decimal(2 * (int(pot.pot.amount) % len(winners))) for pot in settlement(hand).pots
                for winners in (pot.high_winners, pot.low_winners) if len(winners) > 1), Decimal(0))


def settlement(hand: ParsedHand, odd_chip: Decimal = Decimal(1)) -> hands.Settlement:
    """The engine's settlement of `hand`: the pots built from our accounting, each awarded to its winners."""
    players = hand.round_in.players
    out = {str(p.seat) for p in players if p.folded or p.mucked}
    build = hands.build_pots({str(p.seat): p.contributed for p in players}, folded=out,
                             uncalled={str(p.seat): p.returned for p in players},
                             dead={str(p.seat): p.dead for p in players})
    contested = any(len(pot.eligible) > 1 for pot in build.pots)
    hole = {str(p.seat): hands.parse_cards(p.hole_cards) for p in players if p.hole_cards and str(p.seat) not in out}
    return hands.award_pots(hand.round_in.game, build.pots, hole if contested else {},
                            hands.parse_cards(hand.round_in.board), odd_chip=odd_chip)


def replay(raw: dict):
    """pokerkit's replay of a hand: its final state."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = None
        for state in HandHistory(**HandHistory._filter_non_fields(**raw)):  # noqa: B007 - the last state
            pass
    return state


def shared_hands():
    for path in [*sorted(PHH_DIR.glob("*.phh")), *sorted((PHH_DIR / "pluribus").glob("*.phhs"))]:
        text = path.read_text()
        document = tomllib.loads(text)
        raws = list(document.values()) if path.suffix == ".phhs" else [document]
        yield from zip(parse_phh(text, name=path.name), raws, strict=True)


@pytest.mark.slow
def test_our_accounting_gives_pokerkits_finishing_stacks_on_every_shared_hand():
    """All 10,000 Pluribus hands and the famous hands: what our accounting says each player put in and got back,
    settled by the engine, leaves every stack where pokerkit's replay does; each hand keeps the identity pokerkit
    gives it (SHA-256 of HandHistory.dumps), so hands imported before are recognised. The one exception is the
    odd chip of a split pot, which New Jersey gives by suit (14.9(i)3.iv) where pokerkit gives it by seat."""
    compared = odd_chips = 0
    for hand, raw in shared_hands():
        if isinstance(hand, RefusedHand):
            assert hand.variant == "NS"
            continue
        hh = HandHistory(**HandHistory._filter_non_fields(**raw))
        assert hand.round_in.source_digest == hashlib.sha256(hh.dumps().encode()).hexdigest()
        theirs = [D(str(stack)) for stack in replay(raw).stacks]
        ours = settle(hand)
        compared += 1
        if ours != theirs:
            # the same chips, one moved between two players who split a pot, to the holder of the highest card
            moved = [(i, a - b) for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]
            assert sum(delta for _, delta in moved) == 0 and sorted(abs(d) for _, d in moved) == [1, 1], hand.label
            odd_chips += 1
    assert compared == 10000 + 4
    assert odd_chips <= 3


def pokerkit_put_in(raw: dict) -> list[Decimal]:
    """What each player put into the pots in pokerkit's replay: starting stack − final stack + chips pushed to them."""
    state = replay(raw)
    pushed = [0] * len(state.stacks)
    for op in state.operations:
        if isinstance(op, ChipsPushing):
            pushed = [p + a for p, a in zip(pushed, op.amounts, strict=True)]
    return [D(str(start)) - D(str(end)) + D(str(won))
            for start, end, won in zip(raw["starting_stacks"], state.stacks, pushed, strict=True)]


@pytest.mark.parametrize("variant", [v for v in FIELDS if v != "NS"])
def test_our_accounting_equals_pokerkits_on_random_hands_of_every_variant(variant):
    """Random legal hands (all-ins, side pots, short antes, uncalled bets, draws, mucks), 40 a variant. A hand won
    without a showdown leaves every stack where pokerkit leaves it. At a showdown each player's chips in the pots (put
    in less given back, 14.14(d)) are pokerkit's; the stacks then differ at most by the odd chips of split pots, and,
    in the high-low games, where pokerkit splits a side pot that has no qualifying low among its players (New Jersey
    gives it whole to the high, 14.9(j), 14.11(g)). (pokerkit hands a lone player's last bet back whole, where
    14.14(d) returns only its unmatched part: the same stacks, counted differently, hence the showdown-only check.)"""
    rng = random.Random(f"phh-{variant}")
    showdowns = 0
    for n in range(40):
        text = random_hand(variant, rng)
        raw = tomllib.loads(text)
        (hand,) = parse_phh(text, name=f"{variant}#{n}")
        expected = [D(str(s)) for s in raw["finishing_stacks"]]
        if sum(not (p.folded or p.mucked) for p in hand.round_in.players) < 2:
            assert settle(hand) == expected, text
            continue
        showdowns += 1
        assert [p.contributed - p.returned for p in hand.round_in.players] == pokerkit_put_in(raw), text
        if variant not in ("FO/8", "F7S/8"):
            mine = settle(hand)
            assert sum(mine, D(0)) == sum(expected, D(0))
            assert sum(abs(a - b) for a, b in zip(mine, expected, strict=True)) <= odd_chips_apart(hand), text
    assert showdowns >= 5


ALL_IN_BEFORE_THE_LAST_CARD = """variant = 'FR'
ante_trimming_status = true
antes = [10, 10]
bring_in = 10
small_bet = 30
big_bet = 60
starting_stacks = [265, 2705]
actions = ['d dh p1 8c2h4c', 'd dh p2 4h3d8d', 'p2 pb', 'p1 cbr 30', 'p2 cbr 60', 'p1 cc', 'd dh p1 Ad', 'd dh p2 2s',
 'p1 cbr 30', 'p2 cbr 60', 'p1 cc', 'd dh p1 Qd', 'd dh p2 Td', 'p2 cbr 60', 'p1 cc', 'd dh p1 Jd', 'd dh p2 8s',
 'p1 cbr 60', 'p2 cbr 75', 'p1 cc', 'p2 sm 4h3d8d2sTd8s', 'p1 sm 8c2h4cAdQdJd', 'd dh p1 Kh', 'd dh p2 7h',
 'p1 sm 8c2h4cAdQdJdKh', 'p2 sm 4h3d8d2sTd8s7h']
finishing_stacks = [0, 2970]
"""


def test_14_9_all_in_players_show_before_the_last_card_and_the_hand_is_taken_in():
    """Razz (14.9(i)2): both players show when the short stack is all in on sixth street, then seventh street is
    dealt face down to each. pokerkit cannot replay this; our accounting takes it and the engine settles it: p2's
    eight-low (8-7-4-3-2) beats p1's jack-low (J-8-4-2-A), each the best five of seven cards, ace low."""
    with pytest.raises(ValueError, match="Unable to repair"):
        replay(tomllib.loads(ALL_IN_BEFORE_THE_LAST_CARD))
    (hand,) = parse_phh(ALL_IN_BEFORE_THE_LAST_CARD, name="razz.phh")
    p1, p2 = hand.round_in.players
    assert p1.hole_cards == "8c 2h 4c Ad Qd Jd Kh" and p2.hole_cards == "4h 3d 8d 2s Td 8s 7h"
    assert p1.contributed == D("265") and p1.returned == 0 and p2.returned == D("0")
    assert settle(hand) == [D("0"), D("2970")]  # the file's finishing stacks
    best = {seat: hands.best_hands("stud_low", hands.parse_cards(p.hole_cards)).low for seat, p in ((1, p1), (2, p2))}
    assert best[2] > best[1] and best[2].category.label == "Eight-low"


FIVE_CARD_DRAW = """variant = 'F5CD'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsAhKd7c2s', 'd dh p2 QcQdJh9s3c', 'd dh p3 8h6d5c4s2d', 'p3 f', 'p1 cbr 4', 'p2 cc',
 'p1 sd 7c2s', 'p2 sd 9s3c', 'd dh p1 Ad8c', 'd dh p2 Qh4d', 'p1 cbr 4', 'p2 cbr 8', 'p1 cc', 'p1 sm AsAhKdAd8c',
 'p2 sm QcQdJhQh4d']
"""

ACE_TO_FIVE_DRAW = FIVE_CARD_DRAW.replace("'F5CD'", "'FAL1D'").replace("'p1 sm AsAhKdAd8c'", "'p1 sm'")


def test_14_12_five_card_draw_high_and_low_are_taken_in():
    """Five-card draw, which PHH has no code for, under the codes written the PHH way: F5CD (high, 14.12(h)1) and
    FAL1D (ace-to-five low, 14.12(h)2). The draws are recorded; trips of aces beat trips of queens."""
    (high,) = parse_phh(FIVE_CARD_DRAW, name="draw.phh")
    assert (high.variant.game, high.variant.betting_structure) == (Game.DRAW_HIGH, BettingStructure.FIXED_LIMIT)
    p1, p2, p3 = high.round_in.players
    assert p1.dealt_cards == "As Ah Kd 7c 2s" and p1.draws[0].discarded == "7c 2s" and p1.draws[0].drawn == "Ad 8c"
    assert p1.hole_cards == "As Ah Kd Ad 8c" and p3.folded and p3.contributed == 0
    assert [p.contributed for p in high.round_in.players] == [D("12"), D("12"), D("0")]
    assert settle(high) == [D("112"), D("88"), D("100")]  # three aces beat three queens (14.12(h)1, 14.3(b)7)
    (low,) = parse_phh(ACE_TO_FIVE_DRAW, name="low.phh")
    assert low.variant.game == Game.DRAW_LOW and low.round_in.players[0].mucked
    assert settle(low) == [D("88"), D("112"), D("100")]  # p1 conceded at the showdown (14.15(d))


@pytest.mark.parametrize(("code", "game", "structure"), [
    ("NT", Game.HOLDEM, BettingStructure.NO_LIMIT), ("FT", Game.HOLDEM, BettingStructure.FIXED_LIMIT),
    ("PO", Game.OMAHA, BettingStructure.POT_LIMIT), ("FO/8", Game.OMAHA_HILO8, BettingStructure.FIXED_LIMIT),
    ("F7S", Game.STUD, BettingStructure.FIXED_LIMIT), ("F7S/8", Game.STUD_HILO8, BettingStructure.FIXED_LIMIT),
    ("FR", Game.STUD_LOW, BettingStructure.FIXED_LIMIT), ("F2L3D", Game.TRIPLE_DRAW_27, BettingStructure.FIXED_LIMIT),
    ("N2L1D", Game.SINGLE_DRAW_27, BettingStructure.NO_LIMIT), ("FB", Game.BADUGI, BettingStructure.FIXED_LIMIT),
    ("F5CD", Game.DRAW_HIGH, BettingStructure.FIXED_LIMIT), ("FAL1D", Game.DRAW_LOW, BettingStructure.FIXED_LIMIT),
])
def test_14_8_each_phh_variant_is_dealt_as_a_new_jersey_game(code, game, structure):
    variant = variant_of(code)
    assert (variant.game, variant.betting_structure) == (game, structure)


@pytest.mark.parametrize(("code", "words"), [
    ("NS", "short-deck hold 'em (36 cards) is not a game of N.J.A.C. 13:69F-14.8"),
    ("XYZ", "no game of N.J.A.C. 13:69F-14.8, 14.12A or 14.12B matches it"),
    (7, "variant '7' is not taken in"),
])
def test_14_8_b_a_variant_no_new_jersey_game_matches_is_refused_by_name(code, words):
    with pytest.raises(PhhError, match=re.escape(words)):
        variant_of(code)


@pytest.mark.parametrize(("change", "words"), [
    (("starting_stacks = [100, 100, 100]", "starting_stacks = [100, 100]"), "one amount per player"),
    (("'p1 sd 7c2s'", "'p1 sd 7c3s'"), "discards 3s, which they do not hold"),
    (("'p2 sm QcQdJhQh4d'", "'p2 sm QcQdJhQh4c'"), "shows cards other than those dealt to them"),
    (("'d dh p1 Ad8c'", "'d dh p1 AdQc'"), "duplicate card 'Qc'"),
    (("'p1 cbr 4', 'p2 cbr 8', 'p1 cc', ", "'p1 cbr 4', 'p2 cbr 8', "), "neither calling nor folding"),
    (("'p1 cbr 4', 'p2 cc',", "'p1 cbr 4', 'p2 cc', 'p2 cbr 1e400',"), "cannot be read"),
    (("small_bet = 2", "small_bet = 2.005"), "is not an amount of dollars and cents"),
    (("'p3 f', ", "'p3 f', 'p3 cc', "), "p3 has folded"),
    (("'p1 sd 7c2s'", "'p1 sd 7c2s', 'p1 sd'"), "Five-card draw (high) has 1 draw(s)"),
])
def test_a_hand_that_cannot_have_happened_is_refused_naming_the_action(change, words):
    with pytest.raises(PhhError, match=re.escape(words)):
        list(parse_phh(FIVE_CARD_DRAW.replace(*change), name="draw.phh"))
