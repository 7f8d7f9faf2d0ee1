"""Showdown settlement: the main pot and side pots, their winners, and odd chips. Amounts are Decimal dollars.

N.J.A.C. 13:69F-14.7(c)4 (all-in players and side pots), 14.14(d) (the uncalled final bet is no part of the
pot), 14.10(j)-board-plays (tied hands share the pot), 14.9(i)3-split, 14.9(i)3-odd-to-high, 14.9(i)3-tied-high,
14.9(i)3-tied-low and 14.11(f)2-split, 14.11(f)2-odd-to-high, 14.11(f)2-tied-high, 14.11(f)2-tied-low (odd chips). A
hand run more than once (all in before the last card, the players agree to deal the rest of the board two or three
times): `verify_run_boards`, `split_runs`, `award_runs`. """
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from .cards import Card, check_distinct
from .errors import CardCountError, HandError, RuleSetError
from .games import LOW_GAMES, SPLIT_GAMES, Game, ShowdownHand, best_hands
from .rankings import HandValue

Seat = str
ZERO = Decimal("0.00")


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot: its amount (Decimal dollars) and the seats eligible to win it."""

    amount: Decimal
    eligible: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class PotBuild:
    """Main pot first, then side pots; `uncalled` is returned to its player and is not a pot."""

    pots: tuple[Pot, ...]
    uncalled: dict[Seat, Decimal]


@dataclass(frozen=True, slots=True)
class PotResult:
    pot: Pot
    high_winners: tuple[Seat, ...]
    low_winners: tuple[Seat, ...]
    awards: dict[Seat, Decimal]


@dataclass(frozen=True, slots=True)
class Settlement:
    """Each pot as awarded, the awards by seat (Decimal dollars), the showdown hands and the uncalled bet returned.
    A hand run more than once (`award_runs`) keeps each run's own settlement in `runs` (its pots are that run's
    shares); its `hands` are then the first run's."""

    pots: tuple[PotResult, ...]
    awards: dict[Seat, Decimal]
    hands: Mapping[Seat, ShowdownHand]
    uncalled: dict[Seat, Decimal] = field(default_factory=dict)
    runs: tuple[Settlement, ...] = ()


def build_pots(contributions: Mapping[Seat, Decimal], folded: Collection[Seat] = (), *,
               uncalled: Mapping[Seat, Decimal] | None = None,
               dead: Mapping[Seat, Decimal] | None = None) -> PotBuild:
    """Split the players' total contributions into the main pot and side pots (N.J.A.C. 13:69F-14.7(c)4).

    contributions: seat -> everything the player put in (Decimal dollars, >= 0), an uncalled bet included. A
    folded player's chips stay in the pots but the player is eligible for none. The uncalled bet is given back
    (14.14(d)): by default the part of the largest contribution that nobody matched; a feed that tracked the
    betting rounds may give `uncalled` itself (seat -> amount returned). `dead`: seat -> chips that go to the
    main pot without being matched (antes posted as dead money); they are part of `contributions`. Adjacent pots
    with the same eligible seats are merged. Raises HandError for a negative amount, an uncalled or dead part
    larger than the contribution, or when nobody is left to win.
    """
    dead = {seat: amount for seat, amount in (dead or {}).items() if amount}
    if any(amount < 0 for amount in (*contributions.values(), *dead.values(), *(uncalled or {}).values())):
        raise HandError("A contribution cannot be negative.")
    live = [seat for seat in contributions if seat not in folded]
    if not live:
        raise HandError("Every player folded: nobody can win the pot.")
    if uncalled is None:
        matched = {seat: amount - dead.get(seat, ZERO) for seat, amount in contributions.items()}
        ordered = sorted(matched.values(), reverse=True)
        returned: dict[Seat, Decimal] = {}
        if len(ordered) > 1 and ordered[0] > ordered[1]:
            top_seat = max(matched, key=lambda s: matched[s])
            returned[top_seat] = ordered[0] - ordered[1]
    else:
        returned = {seat: amount for seat, amount in uncalled.items() if amount}
    bets = {seat: amount - dead.get(seat, ZERO) - returned.get(seat, ZERO) for seat, amount in contributions.items()}
    if any(amount < 0 for amount in bets.values()):
        raise HandError("The uncalled bet and dead money cannot exceed what a player put in.")
    pots: list[Pot] = []
    if dead:  # dead money is every live player's to win, with the lowest level's pot
        pots.append(Pot(sum(dead.values(), ZERO), tuple(live)))
    floor = ZERO
    for level in sorted({amount for amount in bets.values() if amount > 0}):
        amount = sum((min(c, level) - min(c, floor) for c in bets.values()), ZERO)
        eligible = tuple(s for s in live if bets[s] >= level)
        if not eligible:  # only folded players reached this level: their chips go to the pot below
            eligible = pots[-1].eligible if pots else tuple(live)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount > 0:
            pots.append(Pot(amount, eligible))
        floor = level
    return PotBuild(pots=tuple(pots), uncalled=returned)


def _card_precedence(cards: Sequence[Card]) -> tuple[int, int]:
    """Highest card by rank, then suit (spades > hearts > diamonds > clubs), 14.9(i)3-tied-high."""
    return max((int(c.rank), c.suit.order) for c in cards)


def _low_card_precedence(cards: Sequence[Card]) -> tuple[int, int]:
    """The lowest low card (ace lowest), then the lowest suit, as a key where greater comes first
    (14.9(i)3-tied-low)."""
    lowest = min(((1 if c.rank == 14 else int(c.rank)), c.suit.order) for c in cards)
    return (-lowest[0], -lowest[1])


def _split(amount: Decimal, winners: Sequence[Seat], precedence: Sequence[Seat], unit: Decimal) -> dict[Seat, Decimal]:
    """Equal shares in units of `unit`; the excess to the first of `precedence` among the winners."""
    units = int(amount / unit)
    share, rest = divmod(units, len(winners))
    awards = {seat: share * unit for seat in winners}
    first = next(seat for seat in precedence if seat in winners)
    awards[first] += rest * unit + (amount - units * unit)
    return awards


def _add(into: dict[Seat, Decimal], more: Mapping[Seat, Decimal]) -> dict[Seat, Decimal]:
    for seat, amount in more.items():
        into[seat] = into.get(seat, ZERO) + amount
    return into


def _made(showdown: Mapping[Seat, ShowdownHand], seats: Sequence[Seat], *, low: bool) -> dict[Seat, HandValue]:
    """The seats' high hands (low=False) or low hands (low=True), by seat. Every hand of a high game has a high and
    every hand of a low game a low (best_hands); raises HandError for a showdown given without one."""
    made: dict[Seat, HandValue] = {}
    for seat in seats:
        value = showdown[seat].low if low else showdown[seat].high
        if value is None:
            raise HandError(f"Seat {seat} has no {'low' if low else 'high'} hand at the showdown.")
        made[seat] = value
    return made


def showdown_hands(game: Game | str, pots: Sequence[Pot], hands: Mapping[Seat, Sequence[Card]],
                   board: Sequence[Card] = ()) -> dict[Seat, ShowdownHand]:
    """The best hands (`best_hands`) of every seat that contests a pot (one with two or more eligible seats), by seat.
    Raises HandError for a contender without cards, or cards that do not fit the game."""
    contested = {seat for pot in pots if len(pot.eligible) > 1 for seat in pot.eligible}
    showdown: dict[Seat, ShowdownHand] = {}
    for seat in sorted(contested):
        if seat not in hands:
            raise HandError(f"Seat {seat} is at the showdown without cards.")
        showdown[seat] = best_hands(game, hands[seat], board)
    return showdown


def award_pots(game: Game | str, pots: Sequence[Pot], hands: Mapping[Seat, Sequence[Card]],
               board: Sequence[Card] = (), *, odd_chip: Decimal = Decimal("0.01"),
               showdown: Mapping[Seat, ShowdownHand] | None = None) -> Settlement:
    """Award each pot to its winners as the engine ranks the hands (14.10(j)-winner, 14.11(f),
    14.11(g)-qualifier).

    A pot with one eligible seat goes to it without a showdown. In a low game the best low takes the pot
    (`_award_low`); in a high-low game with a qualifying low the pot is halved between the best high and the best low
    (`_award_high_low`); otherwise the best high takes it (`_award_high`): in a high-low game, when no low qualifies,
    the high takes the whole pot (14.9(j)-high-takes-all, 14.11(g)-high-takes-all, 14.13A(k)-high-takes-all). Tied
    hands share, in units of `odd_chip` (Decimal dollars), the odd chips to the first of `_high_winners` or
    `_low_winners`. Chips are conserved: sum(awards) == sum(pot amounts). `showdown`: the players' best hands when
    already ranked (see showdown_hands). Raises HandError for missing or bad cards. """
    game = Game(game)
    if showdown is None:
        showdown = showdown_hands(game, pots, hands, board)
    results: list[PotResult] = []
    totals: dict[Seat, Decimal] = {}
    for pot in pots:
        if len(pot.eligible) == 1:
            result = PotResult(pot=pot, high_winners=pot.eligible, low_winners=(),
                               awards={pot.eligible[0]: pot.amount})
        elif game in LOW_GAMES:
            result = _award_low(pot, showdown, hands, odd_chip)
        else:
            lows = ({s: low for s in pot.eligible if (low := showdown[s].low) is not None}
                    if game in SPLIT_GAMES else {})
            result = (_award_high_low(pot, showdown, lows, hands, odd_chip) if lows
                      else _award_high(pot, showdown, hands, odd_chip))
        results.append(result)
        _add(totals, result.awards)
    return Settlement(pots=tuple(results), awards=totals, hands=showdown)


def _high_winners(pot: Pot, showdown: Mapping[Seat, ShowdownHand],
                  hands: Mapping[Seat, Sequence[Card]]) -> list[Seat]:
    """The seats of `pot` holding its best high hand, the first the one that takes an odd chip: the highest card of
    the hand, by rank then suit, then of all the player's cards (14.9(i)3-tied-high, 14.11(f)2-tied-high); tied high
    hands share the pot (14.10(j)-board-plays)."""
    high_of = _made(showdown, pot.eligible, low=False)
    best = max(high_of.values())
    return sorted((s for s in pot.eligible if high_of[s] == best),
                  key=lambda s: (_card_precedence(high_of[s].cards), _card_precedence(hands[s])), reverse=True)


def _low_winners(lows: Mapping[Seat, HandValue], hands: Mapping[Seat, Sequence[Card]]) -> list[Seat]:
    """The seats holding the best of `lows` (seat -> low hand), the first the one that takes an odd chip: the lowest
    low card, ace lowest, then the lowest suit, of the hand, then of all the player's cards (14.9(i)3-tied-low,
    14.11(f)2-tied-low)."""
    best = max(lows.values())
    return sorted((s for s in lows if lows[s] == best),
                  key=lambda s: (_low_card_precedence(lows[s].cards), _low_card_precedence(hands[s])), reverse=True)


def _award_high(pot: Pot, showdown: Mapping[Seat, ShowdownHand], hands: Mapping[Seat, Sequence[Card]],
                odd_chip: Decimal) -> PotResult:
    """A pot of a high game, or of a high-low game with no qualifying low: the best high hand takes it, tied hands
    share it equally in units of `odd_chip`, the excess to the first of `_high_winners` (14.10(j)-winner,
    14.10(j)-board-plays, 14.9(i)3-tied-high, 14.11(f)2-tied-high)."""
    order = _high_winners(pot, showdown, hands)
    winners = tuple(s for s in pot.eligible if s in order)
    return PotResult(pot=pot, high_winners=winners, low_winners=(), awards=_split(pot.amount, winners, order, odd_chip))


def _award_high_low(pot: Pot, showdown: Mapping[Seat, ShowdownHand], lows: Mapping[Seat, HandValue],
                    hands: Mapping[Seat, Sequence[Card]], odd_chip: Decimal) -> PotResult:
    """A pot of a high-low game with a qualifying low (`lows`: seat -> low hand): halved between the best high and
    the best low, the odd unit to the high half (14.9(i)3-split, 14.9(i)3-odd-to-high, 14.11(f)2-split,
    14.11(f)2-odd-to-high, 14.13A(j)-split, 14.13A(j)1 through 4); each half shared by its tied hands, the excess to
    the first of `_high_winners` or `_low_winners`."""
    high_order, low_order = _high_winners(pot, showdown, hands), _low_winners(lows, hands)
    high, low = tuple(s for s in pot.eligible if s in high_order), tuple(s for s in lows if s in low_order)
    low_half = (int(pot.amount / odd_chip) // 2) * odd_chip
    awards = _add(_split(pot.amount - low_half, high, high_order, odd_chip), _split(low_half, low, low_order, odd_chip))
    return PotResult(pot=pot, high_winners=high, low_winners=low, awards=awards)


def _award_low(pot: Pot, showdown: Mapping[Seat, ShowdownHand], hands: Mapping[Seat, Sequence[Card]],
               odd_chip: Decimal) -> PotResult:
    """A pot of a low game: the best low hand takes it, tied lows share it equally in units of `odd_chip`, the
    excess to the first of `_low_winners` (14.9(i)2, 14.12(h)2, 14.12A(l), 14.12B(l)5)."""
    order = _low_winners(_made(showdown, pot.eligible, low=True), hands)
    winners = tuple(s for s in pot.eligible if s in order)
    return PotResult(pot=pot, high_winners=(), low_winners=winners, awards=_split(pot.amount, winners, order, odd_chip))


def settle(game: Game | str, contributions: Mapping[Seat, Decimal], hands: Mapping[Seat, Sequence[Card]],
           board: Sequence[Card] = (), folded: Collection[Seat] = (), *,
           odd_chip: Decimal = Decimal("0.01"), boards: Sequence[Sequence[Card]] = ()) -> Settlement:
    """build_pots then award_pots (award_runs when `boards` gives two or three run boards); the uncalled bet is on
    `Settlement.uncalled`."""
    build = build_pots(contributions, folded)
    if len(boards) > 1:
        result = award_runs(game, build.pots, hands, boards, odd_chip=odd_chip)
    else:
        result = award_pots(game, build.pots, hands, board, odd_chip=odd_chip)
    return Settlement(pots=result.pots, awards=result.awards, hands=result.hands, uncalled=build.uncalled,
                      runs=result.runs)


# --- a hand run more than once -----------------------------------------------------------------------------------

#: How many times a hand may be run: twice or three times.
RUNS = (2, 3)
#: The community cards of a full board (hold 'em, Omaha), and the cards that may be shared by the runs: none (all in
#: before the flop), the flop, or the flop and the turn.
FULL_BOARD = 5
SHARED_BEFORE_RUN = (0, 3, 4)


def verify_run_boards(boards: Sequence[Sequence[Card]], *held: Sequence[Card]) -> int:
    """Check the boards of a hand run two or three times; the number of cards they share (0, 3 or 4: those dealt
    before the run-out).

    Each board is a full board of five cards. The boards agree on the cards dealt before the players were all in
    (their common beginning: none, the flop, or the flop and the turn) and differ in every card after it; no card
    appears twice across the shared cards, every run's own cards and `held` (the players' hole cards): one deck
    deals every run (14.2(a)-one-deck). Raises CardCountError (not two or three boards, a board not full), RuleSetError
    (boards that share one or two cards, or all five) or DuplicateCardError.

    >>> from .cards import parse_cards
    >>> verify_run_boards([parse_cards("As Kd 7c 2h 3s"), parse_cards("As Kd 7c 9h Td")], parse_cards("Ah Ac"))
    3
    """
    if len(boards) not in RUNS:
        raise CardCountError(f"A hand is run two or three times, not {len(boards)}.")
    for index, board in enumerate(boards):
        if len(board) != FULL_BOARD:
            raise CardCountError(f"Run {index + 1}: a run's board has {FULL_BOARD} cards, got {len(board)}.")
    shared = 0
    while shared < FULL_BOARD and all(board[shared] == boards[0][shared] for board in boards):
        shared += 1
    if shared not in SHARED_BEFORE_RUN:
        raise RuleSetError("The runs share the cards dealt before the all-in (none, the flop, or the flop and the "
                           f"turn) and differ after them; these share {shared}.")
    check_distinct(boards[0][:shared], *(board[shared:] for board in boards), *held)
    return shared


def split_runs(amount: Decimal, runs: int, odd_chip: Decimal = Decimal("0.01")) -> tuple[Decimal, ...]:
    """A pot's equal shares, one per run, in units of `odd_chip` (Decimal dollars); what does not divide evenly goes
    to the first run, as the engine gives a split pot's excess to the first in precedence (the highest card of tied
    hands, the high half of a high-low split). A hand run more than once is the players' agreement, which the
    games' procedures neither require nor forbid: it implements no clause. The shares add up to `amount`.

    >>> split_runs(Decimal("100.03"), 2)
    (Decimal('50.02'), Decimal('50.01'))
    >>> split_runs(Decimal("100.00"), 3)
    (Decimal('33.34'), Decimal('33.33'), Decimal('33.33'))
    """
    if runs < 1:
        raise HandError("A hand is run at least once.")
    shares = _split(amount, [str(run) for run in range(runs)], [str(run) for run in range(runs)], odd_chip)
    return tuple(shares[str(run)] for run in range(runs))


def award_runs(game: Game | str, pots: Sequence[Pot], hands: Mapping[Seat, Sequence[Card]],
               boards: Sequence[Sequence[Card]], *, odd_chip: Decimal = Decimal("0.01"),
               showdowns: Sequence[Mapping[Seat, ShowdownHand]] | None = None) -> Settlement:
    """Award the pots of a hand run two or three times (14.7(c)4).

    `pots`: the pots as they are awarded, the rake and the bad beat contribution already taken from them once (by
    the money path). Each pot and side pot is split into equal shares, one per run (`split_runs`: the
    excess to the first run); each run's share goes to the winners of that run's board, as `award_pots` awards it, with
    that run's own odd chips. `showdowns`: each run's best hands when already ranked. The settlement's pots are the pots
    given, their awards summed over the runs, their winners those of any run (first run first); `runs` holds each run's
    settlement. Chips are conserved: sum(awards) == sum(pot amounts). Raises HandError for fewer than two boards,
    missing or bad cards. """
    if len(boards) < 2:
        raise CardCountError("A hand run more than once has two or three boards.")
    shares = [split_runs(pot.amount, len(boards), odd_chip) for pot in pots]
    runs = tuple(award_pots(game, [Pot(shares[p][run], pot.eligible) for p, pot in enumerate(pots)], hands, board,
                            odd_chip=odd_chip, showdown=showdowns[run] if showdowns is not None else None)
                 for run, board in enumerate(boards))
    results: list[PotResult] = []
    totals: dict[Seat, Decimal] = {}
    for p, pot in enumerate(pots):
        awards: dict[Seat, Decimal] = {}
        high: list[Seat] = []
        low: list[Seat] = []
        for run in runs:
            result = run.pots[p]
            _add(awards, result.awards)
            high += [s for s in result.high_winners if s not in high]
            low += [s for s in result.low_winners if s not in low]
        results.append(PotResult(pot=pot, high_winners=tuple(high), low_winners=tuple(low), awards=awards))
        _add(totals, awards)
    return Settlement(pots=tuple(results), awards=totals, hands=runs[0].hands, runs=runs)
