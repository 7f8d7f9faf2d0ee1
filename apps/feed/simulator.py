"""The dealer simulator: hold'em rounds dealt from shuffled decks with simple betting, for the demo.

It plays no strategy worth the name — each player calls, bets or folds by chance — but every round it
produces is a legal round of play: real shuffled cards, blinds, side pots when a short stack is all in.
The hand engine judges the showdowns when the rounds are recorded.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from decimal import Decimal

from apps.rounds.models import RoundSource

from .types import PlayerIn, RoundIn

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NAMES = ["Ana", "Ben", "Chen", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kai"]


def deal_round(rng: random.Random, *, players: int, small_blind: Decimal, big_blind: Decimal,
               started_at: datetime, table_label: str = "") -> RoundIn:
    """One simulated no-limit hold'em round of `players` seats (2-11). Amounts are Decimal dollars."""
    deck = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    stacks = [big_blind * rng.choice([20, 40, 60, 100, 150]) for _ in range(players)]
    hole = [deck.pop() + deck.pop() for _ in range(players)]
    board: list[str] = []
    put_in = [Decimal("0.00")] * players
    folded = [False] * players

    def pay(seat: int, amount: Decimal) -> None:
        amount = min(amount, stacks[seat] - put_in[seat])
        put_in[seat] += amount

    pay(0 % players, small_blind)
    pay(1 % players, big_blind)
    level = big_blind
    for street in range(4):
        if street:
            deck.pop()  # burn card, 14.10(g)-(i)
            board += [deck.pop() for _ in range(3 if street == 1 else 1)]
        order = list(range(2, players)) + [0, 1] if street == 0 else list(range(players))
        for seat in order:
            live = [s for s in range(players) if not folded[s]]
            if len(live) == 1:
                break
            if folded[seat] or put_in[seat] >= stacks[seat]:
                continue
            roll = rng.random()
            if put_in[seat] < level and roll < 0.35:
                folded[seat] = True
            elif roll > 0.9:
                level = min(level + big_blind * rng.choice([2, 3, 5]), stacks[seat])
                pay(seat, level - put_in[seat])
            else:
                pay(seat, level - put_in[seat])
        # players who have not matched the bet fold, unless all in
        for seat in range(players):
            if not folded[seat] and put_in[seat] < level and put_in[seat] < stacks[seat]:
                folded[seat] = True
        if sum(not f for f in folded) == 1:
            break
    if sum(not f for f in folded) > 1 and len(board) < 5:
        while len(board) < 5:
            deck.pop()
            board += [deck.pop() for _ in range(3 if not board else 1)]
    seats = list(range(1, players + 1))
    return RoundIn(
        players=[PlayerIn(seat=seats[i], name=NAMES[i], contributed=put_in[i], hole_cards=hole[i], folded=folded[i],
                          starting_stack=stacks[i]) for i in range(players)],
        started_at=started_at, board="".join(board),
        source=RoundSource.SIMULATOR, source_name=table_label,
    )


def simulate_day(*, seed: int, start: datetime, end: datetime, tables: list[tuple[int, Decimal, Decimal]],
                 rounds_per_hour: int = 30) -> Iterator[tuple[int, RoundIn]]:
    """Rounds for each (table id, small blind, big blind) between start and end, about `rounds_per_hour` each."""
    rng = random.Random(seed)
    for table_id, small_blind, big_blind in tables:
        at = start + timedelta(seconds=rng.randint(0, 600))
        while at < end:
            yield table_id, deal_round(rng, players=rng.randint(2, 9), small_blind=small_blind,
                                       big_blind=big_blind, started_at=at, table_label=f"simulated {at:%H:%M}")
            at += timedelta(seconds=rng.expovariate(rounds_per_hour / 3600))
