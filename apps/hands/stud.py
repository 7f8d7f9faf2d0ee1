"""Stud betting order: who makes the forced bet on the first round and who acts first later
(N.J.A.C. 13:69F-14.9, 14.13, 14.13A).

Seats are given in clockwise order from the dealer's left, which breaks ties between equal hands showing
(14.9(f)3, 14.13(f)-highest-showing, 14.13(f)-ties-left, 14.13A(h)2). Suits rank spades > hearts > diamonds > clubs
where suits break ties. """
from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Rank
from .errors import CardCountError, RuleSetError
from .games import Game

Seat = str


def _rank_ace_low(card: Card) -> int:
    return 1 if card.rank == Rank.ACE else int(card.rank)


def forced_bet(game: Game | str, up_cards: Sequence[tuple[Seat, Card]]) -> Seat:
    """The seat that must make the forced bet on the first betting round, from each player's up-card.

    Seven-card stud (14.9(d)): high — the lowest up-card; low — the highest up-card (the ace low, so the king
    is highest); high-low split — the highest up-card, the ace below a two; high-low eight or better — the
    lowest up-card, the ace highest. Five-card stud (14.13(d)) and mambo stud (14.13A(d)-lowest-up-card,
    14.13A(d)-suit-ties): the lowest up-card, the ace highest. Equal ranks are told apart by suit, spades > hearts >
    diamonds > clubs. Raises RuleSetError for a game without a forced bet by up-card, CardCountError without up-cards.
    """
    game = Game(game)
    if not up_cards:
        raise CardCountError("No up-cards to compare.")
    if game in (Game.STUD, Game.STUD_HILO8, Game.FIVE_CARD_STUD, Game.MAMBO_STUD):
        return _lowest_up_card(up_cards)
    if game in (Game.STUD_LOW, Game.STUD_HILO):
        return _highest_up_card_ace_low(up_cards)
    raise RuleSetError(f"{game.value} has no forced bet by up-card.")


def _high_showing(cards: Sequence[Card]) -> tuple[int, ...]:
    """Strength of a stud hand showing (one to four up-cards): pairs, trips and quads, then high cards;
    straights and flushes of fewer than five cards count for nothing (14.9(f)1, 14.13(f)-highest-showing)."""
    counts: dict[int, int] = {}
    for card in cards:
        counts[int(card.rank)] = counts.get(int(card.rank), 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    return tuple(n for _, n in groups) + tuple(r for r, _ in groups)


def _low_showing(cards: Sequence[Card]) -> tuple[int, ...]:
    """Strength of a low hand showing in seven-card stud low (14.9(f)2): unpaired and lowest is best, compared from
    the highest card."""
    ranks = [_rank_ace_low(c) for c in cards]
    pairs = len(ranks) - len(set(ranks))
    return (-pairs, *sorted(-r for r in ranks))


def first_to_act(game: Game | str, showing: Sequence[tuple[Seat, Sequence[Card]]],
                 community: Card | None = None) -> Seat:
    """The seat that bets or checks first on a later betting round.

    Seven-card stud (14.9(f)1, 14.9(f)2, 14.9(f)3) and five-card stud (14.13(f)-highest-showing, 14.13(f)-ties-left):
    the best high hand showing, or, in seven-card stud low, the best low hand showing; mambo stud: the highest up-card
    on the second round, the highest one pair of the up-card and the community card, or else the highest up-card, on
    the final round (`mambo_first_to_act`). Equal hands showing: the seat closest to the dealer's left, i.e. the
    first in `showing`. Raises RuleSetError for a game that is no stud game, CardCountError for no hand showing.
    """
    game = Game(game)
    if not showing:
        raise CardCountError("No hands showing.")
    if game is Game.MAMBO_STUD:
        return mambo_first_to_act(showing, community)
    if game not in (Game.STUD, Game.STUD_LOW, Game.STUD_HILO, Game.STUD_HILO8, Game.FIVE_CARD_STUD):
        raise RuleSetError(f"{game.value} is not a stud game.")
    strength = _low_showing if game is Game.STUD_LOW else _high_showing
    best = max(strength(cards) for _, cards in showing)
    return next(seat for seat, cards in showing if strength(cards) == best)


def mambo_first_to_act(showing: Sequence[tuple[Seat, Sequence[Card]]], community: Card | None) -> Seat:
    """Mambo stud: on the second round the highest up-card, ties by suit (14.13A(f)-highest-up-card,
    14.13A(f)-suit-ties); on the final round the highest pair of an up-card and the community card, or else the highest
    up-card (14.13A(h)1); equal hands: the first, the closest to the dealer's left (14.13A(h)2)."""
    if community is None:
        return max(showing, key=lambda sc: (int(sc[1][0].rank), sc[1][0].suit.order))[0]
    pair_rank = community.rank

    def mambo(cards: Sequence[Card]) -> tuple[int, int]:
        up = cards[0]  # a pair of the up-card and the community card beats any up-card alone
        return (1 if up.rank == pair_rank else 0, int(up.rank))

    best = max(mambo(cards) for _, cards in showing)
    return next(seat for seat, cards in showing if mambo(cards) == best)


def _lowest_up_card(up_cards: Sequence[tuple[Seat, Card]]) -> Seat:
    """The seat with the lowest up-card, the ace highest, equal ranks by suit, clubs lowest: seven-card stud high
    (14.9(d)1) and high-low eight or better (14.9(d)4), five-card stud (14.13(d)), mambo stud
    (14.13A(d)-lowest-up-card, 14.13A(d)-suit-ties); 14.9(d)-suit-ties."""
    return min(up_cards, key=lambda sc: (int(sc[1].rank), sc[1].suit.order))[0]


def _highest_up_card_ace_low(up_cards: Sequence[tuple[Seat, Card]]) -> Seat:
    """The seat with the highest up-card, the ace below a two, equal ranks by suit, spades highest: seven-card stud
    low (14.9(d)2) and high-low split (14.9(d)3); 14.9(d)-suit-ties."""
    return max(up_cards, key=lambda sc: (_rank_ace_low(sc[1]), sc[1].suit.order))[0]


__all__ = ["first_to_act", "forced_bet"]
