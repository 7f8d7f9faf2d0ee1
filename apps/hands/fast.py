"""Fast evaluation for audits and rule design: integer scores from lookup tables, per hand and in batches.

A card is an integer 0-51: (rank - 2) * 4 + suit, suits ordered clubs, diamonds, hearts, spades; `card_ids`
converts Card objects. A score is an int, greater = better, ordering hands exactly as `evaluate` does under
five-card high (N.J.A.C. 13:69F-14.3): category * 13**5 + tie-break ranks. Scores of the lows
(A-5 and deuce-to-seven of 14.3 and 14.12A) order hands as their rule sets
do, best highest.

How: the ranks of a hand, whatever their suits, are a multiset; its best non-flush hand is looked up by a
base-5 key (the sum of 5**rank over the cards). A flush is seen from packed suit counts, and the flush cards'
rank bitmask is looked up in a table of 8,192 entries. Tables are built at first use (well under 2 s).

Omaha and "both hole cards play" evaluate two hole cards with three board cards, 60 (or 10) five-card hands per
player: the non-flush value of five ranks is read straight from a dense table indexed by the ranks in base 13
(13**5 = 371,293 entries of 16 bits, 742 KB, built from the rank table in about 0.2 s), whose index is the sum
of a hole-pair part and a board-triple part, so all the combinations of a batch are one addition and one
lookup; a flush needs five cards of one suit, so only the pairs and triples of one suit are looked up in the
flush table.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations

import numpy as np

from .cards import Card, Suit
from .errors import CardCountError
from .rankings import FiveCardCategory as C

_BASE = 13**5
_STRAIGHTS = [(top, frozenset(range(top - 4, top + 1)) if top > 5 else frozenset({14, 2, 3, 4, 5}))
              for top in range(14, 4, -1)]  # from ace-high down to the wheel, 14.3(b)6


def card_ids(cards: Iterable[Card]) -> list[int]:
    """Card objects as integers 0-51 for this module."""
    return [(int(c.rank) - 2) * 4 + c.suit.order for c in cards]


def _score(category: C, ranks: Sequence[int]) -> int:
    value = category.strength
    for i in range(5):
        value = value * 13 + ((ranks[i] - 2) if i < len(ranks) else 0)
    return value


def _straight_top(present: set[int]) -> int | None:
    for top, needed in _STRAIGHTS:
        if needed <= present:
            return top
    return None


def _best_without_flush(counts: dict[int, int]) -> int:
    """Best five-card high score a multiset of ranks makes when suits do not matter (no flush)."""
    by_rank = sorted(counts, reverse=True)
    quads = [r for r in by_rank if counts[r] >= 4]
    trips = [r for r in by_rank if counts[r] >= 3]
    pairs = [r for r in by_rank if counts[r] >= 2]
    if quads:
        return _score(C.FOUR_OF_A_KIND, [quads[0], next(r for r in by_rank if r != quads[0])])
    if trips:
        partner = next((r for r in pairs if r != trips[0]), None)
        if partner is not None:
            return _score(C.FULL_HOUSE, [trips[0], partner])
    top = _straight_top(set(by_rank))
    if top is not None:
        return _score(C.STRAIGHT, [top])
    if trips:
        return _score(C.THREE_OF_A_KIND, [trips[0], *[r for r in by_rank if r != trips[0]][:2]])
    if len(pairs) >= 2:
        return _score(C.TWO_PAIR, [pairs[0], pairs[1], next(r for r in by_rank if r not in pairs[:2])])
    if pairs:
        return _score(C.ONE_PAIR, [pairs[0], *[r for r in by_rank if r != pairs[0]][:3]])
    return _score(C.HIGH_CARD, by_rank[:5])


def _multisets(size: int, low: int = 2) -> Iterator[dict[int, int]]:
    if size == 0:
        yield {}
        return
    if low > 14:
        return
    for n in range(min(4, size), -1, -1):
        for rest in _multisets(size - n, low + 1):
            yield ({low: n} if n else {}) | rest


@cache
def _rank_table(size: int) -> dict[int, int]:
    """Base-5 rank key -> best non-flush score, for every multiset of `size` ranks (at most four of each)."""
    return {sum(n * 5 ** (r - 2) for r, n in counts.items()): _best_without_flush(counts)
            for counts in _multisets(size)}


@cache
def _flush_table() -> list[int]:
    """13-bit rank mask of five or more cards of one suit -> best flush or straight flush score (0 otherwise)."""
    table = [0] * 8192
    for mask in range(8192):
        ranks = [r for r in range(14, 1, -1) if mask >> (r - 2) & 1]
        if len(ranks) < 5:
            continue
        top = _straight_top(set(ranks))
        if top is not None:
            table[mask] = _score(C.ROYAL_FLUSH if top == 14 else C.STRAIGHT_FLUSH, [top])
        else:
            table[mask] = _score(C.FLUSH, ranks[:5])
    return table


_KEY = [5 ** (i // 4) for i in range(52)]           # base-5 rank key of each card
_SUIT = [1 << (4 * (i % 4)) for i in range(52)]      # packed suit counter, one nibble per suit
_BIT = [1 << (i // 4) for i in range(52)]            # rank bit of each card


def high_score(cards: Sequence[int]) -> int:
    """Score of the best five-card high hand in 5 to 7 cards (ints 0-51), pure Python, per hand.

    Orders hands as `evaluate("five_card_high", ...)` does (14.3(b)-order, 14.3(d)-kicker, 14.3(d)-tie); hold'em's
    any five of seven (14.10(j)-best-hand). KeyError for a duplicate-laden or impossible hand (five of a rank)."""
    key = suits = 0
    for c in cards:
        key += _KEY[c]
        suits += _SUIT[c]
    best = _rank_table(len(cards))[key]
    flush = (suits + 0x3333) & 0x8888  # a nibble of 5 or more sets its top bit
    if flush:
        suit = (flush.bit_length() - 4) // 4
        mask = 0
        for c in cards:
            if c % 4 == suit:
                mask |= _BIT[c]
        return max(best, _flush_table()[mask])
    return best


def seven_card_high(c0: int, c1: int, c2: int, c3: int, c4: int, c5: int, c6: int) -> int:
    """high_score for exactly seven cards, unrolled for speed: the per-hand figure of bench/hands_benchmark.py (the
    engine ranks players' hands through games.best_hands)."""
    key = _KEY[c0] + _KEY[c1] + _KEY[c2] + _KEY[c3] + _KEY[c4] + _KEY[c5] + _KEY[c6]
    flush = (_SUIT[c0] + _SUIT[c1] + _SUIT[c2] + _SUIT[c3] + _SUIT[c4] + _SUIT[c5] + _SUIT[c6] + 0x3333) & 0x8888
    if flush:
        return high_score((c0, c1, c2, c3, c4, c5, c6))
    return (_RANK7 or _load_rank7())[key]


_RANK7: dict[int, int] = {}


def _load_rank7() -> dict[int, int]:
    """The seven-card table, built at the first use (about a second) rather than at import."""
    _RANK7.update(_rank_table(7))
    return _RANK7


def category_of(score: int) -> C:
    """The five-card high category of a score."""
    strength = score // _BASE
    return next(c for c in C if c.strength == strength)


# --- batches (NumPy) ---------------------------------------------------------------------------------------------

@cache
def _np_tables(size: int) -> tuple[np.ndarray, np.ndarray]:
    table = _rank_table(size)
    keys = np.fromiter(table.keys(), dtype=np.int64, count=len(table))
    order = np.argsort(keys)
    return keys[order], np.fromiter(table.values(), dtype=np.int64, count=len(table))[order]


_NP_KEY = np.array(_KEY, dtype=np.int64)
_NP_SUIT = np.array(_SUIT, dtype=np.int64)
_NP_BIT = np.array(_BIT, dtype=np.int64)
_NP_SUIT32 = _NP_SUIT.astype(np.int32)


def high_scores(cards: np.ndarray) -> np.ndarray:
    """Scores of many hands at once: `cards` is an int array of shape (hands, 5 to 7) of card ids 0-51.

    Returns an int64 array of the best five-card high score of each row, any five of the row (14.3(b)-order,
    14.3(d)-kicker, 14.3(d)-tie). """
    cards = np.asarray(cards, dtype=np.int64)
    keys, values = _np_tables(cards.shape[1])
    key = _NP_KEY[cards].sum(axis=1)
    best: np.ndarray = values[np.searchsorted(keys, key)]
    suits = _NP_SUIT[cards].sum(axis=1)
    flush = ((suits + 0x3333) & 0x8888) != 0
    if flush.any():
        rows = cards[flush]
        counts = (suits[flush][:, None] >> (4 * np.arange(4))) & 0xF
        suit = counts.argmax(axis=1)
        masks = np.where(rows % 4 == suit[:, None], _NP_BIT[rows], 0)
        mask = np.bitwise_or.reduce(masks, axis=1)
        best[flush] = np.maximum(best[flush], np.array(_flush_table(), dtype=np.int64)[mask])
    return best


_OMAHA = [(*two, *three) for two in combinations(range(4), 2) for three in combinations(range(4, 9), 3)]
_TRIPLES = np.array(list(combinations(range(5), 3)), dtype=np.intp)      # the 10 board triples
_BATCH = 16_384                                                        # rows per step: the work stays in cache


@cache
def _dense_five() -> tuple[np.ndarray, np.ndarray]:
    """The non-flush hand of five ranks r0..r4 (0-12 for deuce..ace), in any order, at index r0 + 13 r1 +
    169 r2 + 2197 r3 + 28561 r4 of a uint16 table of 13**5 entries (742 KB: it stays in cache) holding the
    hand's place among the 6,176 distinct values (0: five of a rank, impossible); the second array turns a
    place back into its score. Places order hands as scores do."""
    keys, values = _np_tables(5)
    ranks = np.indices((13,) * 5, dtype=np.int64).reshape(5, -1)[::-1]   # ranks[i] varies as 13**i
    key = (np.int64(5) ** ranks).sum(axis=0)
    at = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
    scores, places = np.unique(np.where(keys[at] == key, values[at], 0), return_inverse=True)
    assert len(scores) < 2**16 and np.array_equal(np.arange(13**5), (ranks * 13 ** np.arange(5)[:, None]).sum(axis=0))
    return places.astype(np.uint16).reshape(-1), scores.astype(np.int64)


@cache
def _np_flush_table() -> np.ndarray:
    return np.array(_flush_table(), dtype=np.int32)


def two_plus_three_scores(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """Best five-card high score per row made of exactly two of the row's hole cards (shape (n, h), h >= 2) and
    exactly three of its five board cards (shape (n, 5)); int64 array of shape (n,).

    Omaha high (h = 4, 14.11(f)) and a hold'em hand whose both hole cards must play (h = 2, a bad beat's
    qualifying requirement, in apps.hands.odds). Scores as `high_score`, exactly."""
    hole = np.asarray(hole)
    return two_plus_three_deal_scores(hole.reshape(len(hole), 1, hole.shape[1]), board)[:, 0]


def two_plus_three_deal_scores(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """`two_plus_three_scores` for every player of every deal: `hole` of shape (n, players, h), `board` of shape
    (n, 5) shared by the deal's players; int64 scores of shape (n, players). Omaha deals (14.11(f)). Raises
    CardCountError for fewer than two or more than five hole cards, or a board of other than five cards."""
    hole = np.asarray(hole)
    board = np.asarray(board)
    n_all, players, size = hole.shape
    if not 2 <= size <= 5 or board.shape != (n_all, 5):
        raise CardCountError(f"Two to five hole cards and a five-card board, not {size} and {board.shape[1:]}.")
    pairs = np.array(list(combinations(range(size), 2)), dtype=np.intp)
    (places, scores), flushes = _dense_five(), _np_flush_table()
    out = np.empty((n_all, players), dtype=np.int64)
    step = max(1, _BATCH // players)
    for start in range(0, n_all, step):
        h = hole[start:start + step].astype(np.int32)                                        # (n, players, h)
        b = board[start:start + step].astype(np.int32)                                       # (n, 5)
        n = len(h)
        hr, br = h >> 2, b >> 2
        pair_part = hr[:, :, pairs[:, 0]] + 13 * hr[:, :, pairs[:, 1]]                       # (n, players, pairs)
        triple_part = 169 * (br[:, _TRIPLES[:, 0]] + 13 * br[:, _TRIPLES[:, 1]] + 169 * br[:, _TRIPLES[:, 2]])
        index = pair_part[:, :, :, None] + triple_part[:, None, None, :]                     # (n, players, pairs, 10)
        best = scores[places[index.reshape(n, players, -1)].max(axis=2)]
        # a flush is possible for a player with 2+ hole and 3+ board cards of one suit: counts packed one nibble a
        # suit; +2 sets a hole nibble's bit 2 from two cards, +5 a board nibble's bit 3 from three
        hole_two = (_NP_SUIT32[h].sum(axis=2) + 0x2222) & 0x4444
        board_three = (_NP_SUIT32[b].sum(axis=1) + 0x5555) & 0x8888
        deal, player = np.nonzero((hole_two << 1) & board_three[:, None])
        if len(deal):
            hs, bs = h[deal, player] & 3, b[deal] & 3
            hbit, bbit = 1 << hr[deal, player], 1 << br[deal]
            first = hs[:, pairs[:, 0]]
            pair_suit = np.where(first == hs[:, pairs[:, 1]], first, -1)
            first = bs[:, _TRIPLES[:, 0]]
            triple_suit = np.where((first == bs[:, _TRIPLES[:, 1]]) & (first == bs[:, _TRIPLES[:, 2]]), first, -2)
            pair_mask = hbit[:, pairs[:, 0]] | hbit[:, pairs[:, 1]]
            triple_mask = bbit[:, _TRIPLES[:, 0]] | bbit[:, _TRIPLES[:, 1]] | bbit[:, _TRIPLES[:, 2]]
            flush = np.where(pair_suit[:, :, None] == triple_suit[:, None, :],
                             flushes[pair_mask[:, :, None] | triple_mask[:, None, :]], 0)
            best[deal, player] = np.maximum(best[deal, player], flush.reshape(len(deal), -1).max(axis=1))
        out[start:start + n] = best
    return out


def omaha_high_scores(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """Best Omaha high score per row: exactly two of the four hole cards (shape (n, 4)) and three of the five
    board cards (shape (n, 5)), N.J.A.C. 13:69F-14.11(f); int64 array of shape (n,)."""
    return two_plus_three_scores(hole, board)


def holdem_high_scores(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """Best hold'em high score of every player of every deal: `hole` of shape (n, players, 2), `board` of
    shape (n, 5); any five of the seven cards (14.10(j)-best-hand). Returns int64 scores of shape (n, players), equal
    to `high_scores` of each player's seven cards."""
    hole = np.asarray(hole, dtype=np.int64)
    board = np.asarray(board, dtype=np.int64)
    keys, values = _np_tables(7)
    best: np.ndarray = values[np.searchsorted(keys, _NP_KEY[board].sum(axis=1)[:, None] + _NP_KEY[hole].sum(axis=2))]
    suits = _NP_SUIT[board].sum(axis=1)[:, None] + _NP_SUIT[hole].sum(axis=2)
    deal, player = np.nonzero(((suits + 0x3333) & 0x8888) != 0)
    if len(deal):
        best[deal, player] = high_scores(np.concatenate([hole[deal, player], board[deal]], axis=1))
    return best


# --- lows ----------------------------------------------------------------------------------------------------------

#: The suits of a rank multiset's five cards, card by card, its ranks in order (a rank's copies side by side): a
#: rank's copies take different suits, and the five are never all of one suit, so never a flush.
_SUITS_IN_TURN = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS)


@cache
def _low_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each five-card rank multiset: A-5 low score and deuce-to-seven rank score (no flush), best highest."""
    from .cards import Rank
    from .rankings import evaluate_ace_to_five_low, evaluate_deuce_to_seven_low

    entries = []
    for counts in _multisets(5):
        ranks = [r for r, n in counts.items() for _ in range(n)]
        hand = [Card(Rank(r), suit) for r, suit in zip(ranks, _SUITS_IN_TURN, strict=True)]
        key = sum(5 ** (r - 2) for r in ranks)
        entries.append((key, _key_int(evaluate_ace_to_five_low(hand).key),
                        _key_int(evaluate_deuce_to_seven_low(hand).key)))
    entries.sort()
    keys, ace_five, deuce_seven = (np.array(col, dtype=np.int64) for col in zip(*entries, strict=True))
    return keys, ace_five, deuce_seven


def _key_int(key: tuple[int, ...]) -> int:
    """A rule-set key tuple (small signed ints, at most six) as one int with the same order; keys of one
    category have one length, keys of different categories differ in their first part."""
    value = 0
    for part in (*key, *([-32] * (6 - len(key)))):
        value = value * 64 + (part + 32)
    return value


def ace_to_five_low_scores(cards: np.ndarray, *, qualifier: int | None = None) -> np.ndarray:
    """A-5 low scores of five-card rows (14.3(e)-ace-low, 14.3(e)-suits, 14.3(f)-inverse, 14.3(f)-straights-flushes),
    best highest; with `qualifier` (8: eight or better, 14.9(j)-qualifier) a row that does not qualify scores -1."""
    cards = np.asarray(cards, dtype=np.int64)
    keys, ace_five, _ = _low_tables()
    scores: np.ndarray = ace_five[np.searchsorted(keys, _NP_KEY[cards].sum(axis=1))]
    if qualifier is not None:
        low_ranks = np.where(cards // 4 == 12, 1, cards // 4 + 2)
        sorted_ranks = np.sort(low_ranks, axis=1)
        ok = (sorted_ranks.max(axis=1) <= qualifier) & (np.diff(sorted_ranks, axis=1) > 0).all(axis=1)
        scores = np.where(ok, scores, -1)
    return scores


def deuce_to_seven_scores(cards: np.ndarray) -> np.ndarray:
    """Deuce-to-seven low scores of five-card rows (14.12A): the lower the high hand, the higher the score;
    flushes and straight flushes (scored from the high table) count against the hand."""
    cards = np.asarray(cards, dtype=np.int64)
    keys, _, deuce_seven = _low_tables()
    scores: np.ndarray = deuce_seven[np.searchsorted(keys, _NP_KEY[cards].sum(axis=1))]
    suits = _NP_SUIT[cards].sum(axis=1)
    flush = ((suits + 0x3333) & 0x8888) != 0
    if flush.any():
        from .cards import Rank, Suit
        from .rankings import evaluate_deuce_to_seven_low

        suits_of = [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]
        for i in np.flatnonzero(flush):  # one hand in 500 or so: judged one by one
            hand = [Card(Rank(int(c) // 4 + 2), suits_of[int(c) % 4]) for c in cards[i]]
            scores[i] = _key_int(evaluate_deuce_to_seven_low(hand).key)
    return scores


def omaha_low8_scores(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """Best eight-or-better A-5 low score per row of Omaha high-low (two hole and three board cards,
    14.11(f), 14.11(g)-qualifier, 14.11(h)); -1 where no qualifying low can be made."""
    cards = np.concatenate([np.asarray(hole, dtype=np.int64), np.asarray(board, dtype=np.int64)], axis=1)
    fives = cards[:, np.array(_OMAHA)].reshape(-1, 5)
    best: np.ndarray = ace_to_five_low_scores(fives, qualifier=8).reshape(len(cards), len(_OMAHA)).max(axis=1)
    return best
