"""Random legal hands of every PHH variant pokerkit plays, written as PHH text, for tests of the feed.

pokerkit deals and checks every action; we choose the actions at random (folds, calls, bets and raises of any
legal size, all-ins, draws, mucks), so the hands cover side pots, uncalled bets, short antes and draws that no
one wrote by hand. Seeded: the same seed gives the same hands.
"""
from __future__ import annotations

import random
import warnings

from pokerkit import HandHistory

#: variant -> the fields of a hand besides stacks and actions (amounts in dollars)
FIELDS: dict[str, dict] = {
    "NT": {"antes": [0], "blinds_or_straddles": [1, 2], "min_bet": 2},
    "FT": {"antes": [0], "blinds_or_straddles": [2, 4], "small_bet": 4, "big_bet": 8},
    "PO": {"antes": [0], "blinds_or_straddles": [5, 10], "min_bet": 10},
    "FO/8": {"antes": [0], "blinds_or_straddles": [4, 8], "small_bet": 8, "big_bet": 16},
    "F7S": {"antes": [1], "bring_in": 2, "small_bet": 5, "big_bet": 10},
    "F7S/8": {"antes": [1], "bring_in": 2, "small_bet": 5, "big_bet": 10},
    "FR": {"antes": [1], "bring_in": 2, "small_bet": 5, "big_bet": 10},
    "F2L3D": {"antes": [0], "blinds_or_straddles": [5, 10], "small_bet": 10, "big_bet": 20},
    "N2L1D": {"antes": [0], "blinds_or_straddles": [25, 50], "min_bet": 50},
    "FB": {"antes": [0], "blinds_or_straddles": [1, 2], "small_bet": 2, "big_bet": 4},
    "NS": {"antes": [3], "blinds_or_straddles": [0, 3], "min_bet": 3},
}
PLAYERS = {"NT": (2, 9), "FT": (2, 9), "PO": (2, 6), "FO/8": (2, 6), "F7S": (2, 7), "F7S/8": (2, 7), "FR": (2, 7),
           "F2L3D": (2, 6), "N2L1D": (2, 6), "FB": (2, 6), "NS": (2, 6)}


def _cards(cards) -> str:
    return "".join(f"{c.rank}{c.suit}" for c in cards)


def _to_deal(state, index: int, rng: random.Random) -> int:
    """Deal a player's first cards at once or one at a time (both are written in PHH)."""
    pending = len(state.hole_dealing_statuses[index])
    return 1 if rng.random() < 0.3 else max(1, pending)


def random_hand(variant: str, rng: random.Random, *, players: int | None = None) -> str:
    """One legal hand of `variant`, played to its end with random actions, as PHH text (finishing stacks included).
    A deal that pokerkit itself cannot finish (an internal assertion on rare all-in spots), or in which it loses the
    chips of a side pot whose only players mucked, is dealt again."""
    for _ in range(20):
        try:
            return _play(variant, rng, players)
        except (AssertionError, ValueError):
            continue
    raise RuntimeError(f"pokerkit could not finish a {variant} hand")


def _play(variant: str, rng: random.Random, players: int | None) -> str:
    low, high = PLAYERS[variant]
    count = players or rng.randint(low, high)
    fields = dict(FIELDS[variant])
    for key in ("antes", "blinds_or_straddles"):
        if key in fields:
            fields[key] = (fields[key] + [0] * count)[:count]
    stacks = [rng.choice([3, 8, 20, 50, 150]) * 10 for _ in range(count)]
    if rng.random() < 0.2:
        stacks[rng.randrange(count)] = rng.choice([1, 2, 5])  # a short stack: all in on the forced bets
    hh = HandHistory(variant=variant, ante_trimming_status=True, starting_stacks=stacks, actions=[], **fields)
    # pokerkit shuffles its deck with the random module's own generator: seeded from `rng`, the cards dealt follow
    # `rng` as the actions do, whatever other tests drew before (else a test's hands change with the tests' order)
    random.seed(rng.getrandbits(64))
    state = hh.create_state()
    actions: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(500):
            if not state.status:
                break
            if state.can_burn_card():  # burn cards are not written in PHH
                state.burn_card()
            elif state.can_deal_hole():
                index = state.hole_dealee_index
                cards = state.deal_hole(_to_deal(state, index, rng)).cards
                actions.append(f"d dh p{index + 1} {_cards(cards)}")
            elif state.can_deal_board():
                actions.append(f"d db {_cards(state.deal_board().cards)}")
            elif state.can_stand_pat_or_discard():
                index = state.stand_patter_or_discarder_index
                hole = list(state.hole_cards[index])
                thrown = [c for c in hole if rng.random() < 0.4]
                state.stand_pat_or_discard(thrown)
                actions.append(f"p{index + 1} sd {_cards(thrown)}".rstrip())
            elif state.can_post_bring_in() and rng.random() < 0.7:
                actions.append(f"p{state.actor_index + 1} pb")
                state.post_bring_in()
            elif state.actor_index is not None:
                _bet(state, rng, actions)
            elif state.can_show_or_muck_hole_cards():
                index = state.showdown_index
                if rng.random() < 0.15 and sum(state.statuses) > 1:
                    state.show_or_muck_hole_cards(False)
                    actions.append(f"p{index + 1} sm")
                else:
                    op = state.show_or_muck_hole_cards(True)
                    actions.append(f"p{index + 1} sm {_cards(op.hole_cards)}")
            else:
                break
    assert not state.status, f"{variant}: the hand did not finish"
    # when every player who could win a side pot mucked, pokerkit loses those chips: deal such a hand again
    assert sum(state.stacks) == sum(stacks), f"{variant}: pokerkit lost chips"
    hh = HandHistory(variant=variant, ante_trimming_status=True, starting_stacks=stacks, actions=actions,
                     finishing_stacks=list(state.stacks), **fields)
    return hh.dumps()


def _bet(state, rng: random.Random, actions: list[str]) -> None:
    index = state.actor_index
    roll = rng.random()
    if state.can_post_bring_in() and not state.can_complete_bet_or_raise_to():
        state.post_bring_in()
        actions.append(f"p{index + 1} pb")
    elif state.can_post_bring_in() and (roll > 0.65 or not state.can_check_or_call()):
        amount = state.min_completion_betting_or_raising_to_amount
        state.complete_bet_or_raise_to(amount)
        actions.append(f"p{index + 1} cbr {amount}")
    elif state.checking_or_calling_amount and state.can_fold() and roll < 0.25:
        state.fold()
        actions.append(f"p{index + 1} f")
    elif state.can_complete_bet_or_raise_to() and roll > 0.65:
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        amount = high if rng.random() < 0.2 else rng.randint(low, max(low, min(high, low * 3)))
        state.complete_bet_or_raise_to(amount)
        actions.append(f"p{index + 1} cbr {amount}")
    else:
        state.check_or_call()
        actions.append(f"p{index + 1} cc")


def random_file(variant: str, rng: random.Random, hands: int) -> str:
    """A `.phhs` text of `hands` random hands of `variant`."""
    return "\n\n".join(f"[{n}]\n{random_hand(variant, rng)}" for n in range(1, hands + 1)) + "\n"
