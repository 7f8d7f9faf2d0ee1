"""How often a proposed bad beat qualifying rule (a posted qualifying requirement) is met: a Monte Carlo count over
full deals, scored in batches by the fast path (`fast.py`).

A deal: a deck shuffled by a NumPy Generator, `players` hands dealt (two hole cards in hold'em, four in Omaha)
and a five-card board. Every player reaches the showdown. The round of play is a *qualifying bad beat* (a hit)
when

- some player's best high hand meets the losing requirement (`BadBeatSpec.losing_meets`: a
  stronger category, or the same category with a principal rank at least the minimum: the quads, the trips of
  a full house, the top of a straight or straight flush, the highest card of a flush, as
  `badbeat.qualifying.QualifyingRule.hand_meets`); in hold'em with `both_hole_cards`, the best hand using both
  hole cards must be as good as the player's best hand (as `badbeat.qualifying.judge`); in Omaha exactly two
  hole cards always play (14.11(f)), so `both_hole_cards` changes nothing;
- and that hand loses: the best hand at the table is strictly better (a tie for the best hand is no loss), and
  the best hand meets the beaten-by requirement, when there is one (`BadBeatSpec.beaten_by_meets`). "Meets" only
  grows with the hand, so "another player's hand is better and meets it" is the same as "the winning hand does".

Reproducible: the deals are made in blocks of 32,768, block k shuffled by a Generator seeded with
SeedSequence(seed, spawn_key=(k,)), so a seed gives the same deals (and counts) whatever `chunk` is, on the same
NumPy. `deal_cards` yields these deals; `qualifying_deals` judges them; `bad_beat_odds` counts and gives the Wilson
95 % interval. Speed is measured in bench/qualifier_odds.py, never in tests.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from . import fast
from .errors import HandNameError, OddsInputError
from .games import Game
from .rankings import FiveCardCategory

MAX_DEALS = 50_000_000
MIN_PLAYERS = 2
MAX_PLAYERS = {Game.HOLDEM: 10, Game.OMAHA: 10}   # 25 and 45 cards of the 52
HOLE_CARDS = {Game.HOLDEM: 2, Game.OMAHA: 4}
BLOCK = 32_768                                    # deals per seeded block: fixes the deals whatever the chunk
_Z95 = 1.959963984540054                          # the standard normal's 97.5 % quantile
_CATEGORY_BASE = 13**5                            # fast.py scores: category * 13**5 + ranks in base 13
_PRINCIPAL_BASE = 13**4


def _meets(scores: np.ndarray | int, category: FiveCardCategory, minimum_rank: int | None) -> np.ndarray | bool:
    """Whether fast-path scores are at or above a category and, within it, a principal rank (2-14)."""
    strength = scores // _CATEGORY_BASE
    if minimum_rank is None:
        return strength >= category.strength
    principal = (scores // _PRINCIPAL_BASE) % 13 + 2
    return (strength > category.strength) | ((strength == category.strength) & (principal >= minimum_rank))


@dataclass(frozen=True, slots=True)
class BadBeatSpec:
    """A proposed qualifying rule in the engine's terms.

    game: "holdem" or "omaha" (hands.Game values); losing_category and losing_minimum_rank (2-14, or None for
    the whole category): the weakest qualifying losing hand, as `QualifyingRule.category` and `.minimum_rank`;
    both_hole_cards: hold'em's losing hand must use both hole cards; beaten_by_category and
    beaten_by_minimum_rank: the least winning hand (None: any better hand).
    """

    game: str
    losing_category: FiveCardCategory
    losing_minimum_rank: int | None = None
    both_hole_cards: bool = False
    beaten_by_category: FiveCardCategory | None = None
    beaten_by_minimum_rank: int | None = None

    def losing_meets(self, score: int | np.ndarray) -> bool | np.ndarray:
        """Whether a five-card high hand (a `fast` score, or an array of them) is at or above the losing
        requirement; the same answer as `QualifyingRule(category, minimum_rank).hand_meets` on that hand."""
        return _meets(score, self.losing_category, self.losing_minimum_rank)

    def beaten_by_meets(self, score: int | np.ndarray) -> bool | np.ndarray:
        """Whether a winning hand (a `fast` score or an array of them) meets the beaten-by requirement; always
        true without one."""
        if self.beaten_by_category is None:
            return np.ones(np.shape(score), dtype=bool) if np.ndim(score) else True
        return _meets(score, self.beaten_by_category, self.beaten_by_minimum_rank)

    def check(self) -> None:
        """Raises OddsInputError (with its field) for a game without odds or a rank outside 2-14."""
        if self.game not in HOLE_CARDS:
            raise OddsInputError(f"Odds are computed for hold'em and Omaha, not {self.game!r}.", field="game")
        if not isinstance(self.losing_category, FiveCardCategory):
            raise OddsInputError("The losing hand must be a five-card high category.", field="losing")
        if self.beaten_by_category is not None and not isinstance(self.beaten_by_category, FiveCardCategory):
            raise OddsInputError("The beaten-by hand must be a five-card high category.", field="beaten_by")
        for field, rank in (("losing", self.losing_minimum_rank), ("beaten_by", self.beaten_by_minimum_rank)):
            if rank is not None and not (isinstance(rank, int) and 2 <= rank <= 14):
                raise OddsInputError(f"A minimum rank is 2 (deuce) to 14 (ace), not {rank!r}.", field=field)
        if self.beaten_by_minimum_rank is not None and self.beaten_by_category is None:
            raise OddsInputError("A beaten-by rank needs a beaten-by hand.", field="beaten_by")


@dataclass(frozen=True, slots=True)
class Odds:
    """The count: hits among deals, the probability of a qualifying bad beat per round of play (hits / deals),
    its Wilson score 95 % interval, and the players per deal and seed it was counted with."""

    deals: int
    hits: int
    probability: float
    ci95: tuple[float, float]
    players: int
    seed: int


def wilson_interval(hits: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95 % by default), clipped to [0, 1]."""
    p = hits / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _whole(value: object, low: int, high: float, field: str, message: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not low <= value <= high:
        raise OddsInputError(f"{message}, not {value!r}.", field=field)
    return int(value)


def _check_request(game: str, players: int, deals: int, seed: int, chunk: int) -> tuple[int, int, int, int]:
    if game not in HOLE_CARDS:
        raise OddsInputError(f"Odds are computed for hold'em and Omaha, not {game!r}.", field="game")
    most = MAX_PLAYERS[Game(game)]
    return (_whole(players, MIN_PLAYERS, most, "players", f"Players dealt in must be {MIN_PLAYERS} to {most}"),
            _whole(deals, 1, MAX_DEALS, "deals", f"Deals must be 1 to {MAX_DEALS:,}"),
            _whole(seed, 0, math.inf, "seed", "The seed must be a whole number, 0 or more"),
            _whole(chunk, 1, math.inf, "chunk", "The chunk must be 1 or more deals"))


def _block(seed: int, index: int, size: int, width: int) -> np.ndarray:
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
    return np.argsort(rng.random((size, 52)), axis=1)[:, :width].astype(np.int8)


def deal_cards(game: str, *, players: int, deals: int, seed: int, chunk: int = 100_000) -> Iterator[np.ndarray]:
    """The deals `bad_beat_odds` counts, in order, as int8 arrays of card ids (0-51, `fast.card_ids`) of shape
    (at most `chunk`, players * hole cards + 5): player p's hole cards in columns p*h .. p*h + h - 1 (h = 2 in
    hold'em, 4 in Omaha), then the board. The same deals for a seed whatever `chunk` is. Raises OddsInputError.
    """
    players, deals, seed, chunk = _check_request(game, players, deals, seed, chunk)
    width = players * HOLE_CARDS[Game(game)] + 5
    pending: list[np.ndarray] = []
    have = 0
    for index, start in enumerate(range(0, deals, BLOCK)):
        pending.append(_block(seed, index, min(BLOCK, deals - start), width))
        have += len(pending[-1])
        while have >= chunk:
            rows = np.concatenate(pending) if len(pending) > 1 else pending[0]
            yield rows[:chunk]
            pending, have = [rows[chunk:]], have - chunk
    if have:
        yield np.concatenate(pending)


def qualifying_deals(spec: BadBeatSpec, cards: np.ndarray, *, players: int) -> np.ndarray:
    """For deals shaped as `deal_cards` yields, a boolean array: which rounds are a qualifying bad beat under
    `spec` (the hit of the module docstring). Raises OddsInputError for a spec without odds."""
    spec.check()
    game = Game(spec.game)
    h = HOLE_CARDS[game]
    cards = np.asarray(cards)
    if cards.ndim != 2 or cards.shape[1] != players * h + 5:
        raise OddsInputError(f"{players} players of {game.value} need rows of {players * h + 5} cards, not "
                             f"{cards.shape[1:]}.", field="players")
    n = len(cards)
    hole = cards[:, :players * h].reshape(n, players, h)
    board = cards[:, players * h:players * h + 5]
    if game == Game.HOLDEM:
        scores = fast.holdem_high_scores(hole, board)
    else:
        scores = fast.two_plus_three_deal_scores(hole, board)
    top = scores.max(axis=1)
    losing = spec.losing_meets(scores) & (scores < top[:, None])
    if spec.both_hole_cards and game == Game.HOLDEM:
        deal, player = np.nonzero(losing)
        if len(deal):
            with_both = fast.two_plus_three_scores(hole[deal, player], board[deal])
            losing[deal, player] = with_both == scores[deal, player]
    hits: np.ndarray = losing.any(axis=1) & spec.beaten_by_meets(top)
    return hits


def bad_beat_odds(spec: BadBeatSpec, *, players: int, deals: int, seed: int, chunk: int = 100_000) -> Odds:
    """The probability that a round of play with `players` dealt in (all to the showdown) is a qualifying bad
    beat under `spec`, counted over `deals` deals from `seed`, with its Wilson 95 % interval.

    `chunk` bounds the deals held in memory at once (about 100 bytes a deal); it does not change the result.
    Raises OddsInputError (a ValueError, with `.field`) for a game other than hold'em or Omaha, players outside
    2-10, deals outside 1-MAX_DEALS, a negative seed or a minimum rank outside 2-14.
    """
    spec.check()
    hits = 0
    for cards in deal_cards(spec.game, players=players, deals=deals, seed=seed, chunk=chunk):
        hits += int(qualifying_deals(spec, cards, players=players).sum())
    return Odds(deals=deals, hits=hits, probability=hits / deals, ci95=wilson_interval(hits, deals),
                players=players, seed=seed)


# --- hand names -----------------------------------------------------------------------------------------------

_RANK_WORDS: dict[str, int] = {}
for _rank, _words in {2: "deuce two 2", 3: "trey three 3", 4: "four 4", 5: "five 5", 6: "six 6", 7: "seven 7",
                      8: "eight 8", 9: "nine 9", 10: "ten 10 t", 11: "jack j", 12: "queen q", 13: "king k",
                      14: "ace a"}.items():
    for _word in _words.split():
        _RANK_WORDS[_word] = _rank
        _RANK_WORDS[_word + ("es" if _word == "six" else "s")] = _rank
_RANK = r"(?P<rank>[a-z0-9]+)"
_CATEGORY_NAMES = {
    FiveCardCategory.ROYAL_FLUSH: ("royal flush", "royal"),
    FiveCardCategory.STRAIGHT_FLUSH: ("straight flush",),
    FiveCardCategory.FOUR_OF_A_KIND: ("four of a kind", "quads", "quad"),
    FiveCardCategory.FULL_HOUSE: ("full house", "boat", "full boat"),
    FiveCardCategory.FLUSH: ("flush",),
    FiveCardCategory.STRAIGHT: ("straight",),
    FiveCardCategory.THREE_OF_A_KIND: ("three of a kind", "trips", "set"),
    FiveCardCategory.TWO_PAIR: ("two pair", "two pairs"),
    FiveCardCategory.ONE_PAIR: ("one pair", "pair"),
    FiveCardCategory.HIGH_CARD: ("high card",),
}
_BY_NAME = {name: category for category, names in _CATEGORY_NAMES.items() for name in names}
_PATTERNS: list[tuple[re.Pattern[str], FiveCardCategory]] = [
    (re.compile(rf"^(?:four of a kind|four|quads?)(?: of)? {_RANK}$"), FiveCardCategory.FOUR_OF_A_KIND),
    (re.compile(rf"^{_RANK} full(?: house)?(?: (?:of|over) (?P<kicker>[a-z0-9]+))?$"), FiveCardCategory.FULL_HOUSE),
    (re.compile(rf"^full house(?: of)? {_RANK}(?: full)?(?: (?:of|over) (?P<kicker>[a-z0-9]+))?$"),
     FiveCardCategory.FULL_HOUSE),
    (re.compile(rf"^(?:three of a kind|three|trips?|set)(?: of)? {_RANK}$"), FiveCardCategory.THREE_OF_A_KIND),
    (re.compile(rf"^{_RANK} high straight flush$"), FiveCardCategory.STRAIGHT_FLUSH),
    (re.compile(rf"^straight flush {_RANK} high$"), FiveCardCategory.STRAIGHT_FLUSH),
    (re.compile(rf"^{_RANK} high straight$"), FiveCardCategory.STRAIGHT),
    (re.compile(rf"^straight {_RANK} high$"), FiveCardCategory.STRAIGHT),
    (re.compile(rf"^{_RANK} high flush$"), FiveCardCategory.FLUSH),
    (re.compile(rf"^flush {_RANK} high$"), FiveCardCategory.FLUSH),
    (re.compile(rf"^(?:two pairs? )?{_RANK} up$"), FiveCardCategory.TWO_PAIR),
    (re.compile(rf"^(?:one )?pair of {_RANK}$"), FiveCardCategory.ONE_PAIR),
    (re.compile(rf"^{_RANK} high$"), FiveCardCategory.HIGH_CARD),
]
#: The lowest principal rank a category can have, and its name.
_LOWEST = {FiveCardCategory.STRAIGHT_FLUSH: (5, "five-high"), FiveCardCategory.STRAIGHT: (5, "five-high"),
           FiveCardCategory.FLUSH: (7, "seven-high"), FiveCardCategory.HIGH_CARD: (7, "seven-high"),
           FiveCardCategory.TWO_PAIR: (3, "threes up")}


def parse_losing_hand(text: str, *, field: str = "losing") -> tuple[FiveCardCategory, int | None]:
    """A qualifying hand's name as (category, minimum principal rank 2-14 or None), the terms of
    `QualifyingRule`. "four of a kind" -> (FOUR_OF_A_KIND, None); "four eights", "quad eights",
    "quad 8s" -> (FOUR_OF_A_KIND, 8); "aces full", "aces full of tens" -> (FULL_HOUSE, 14) (the rule holds the
    trips' rank only: "of tens" is checked but not kept); "trip kings", "ten-high straight", "king high straight
    flush", "ace-high flush", "aces up", "pair of jacks"; "ace-high straight flush" is a royal flush. A trailing
    "or better" and a leading "a"/"an" are ignored, as are case, hyphens and underscores.

    Raises HandNameError (an OddsInputError, a ValueError; `.field` is `field`) on an unknown or impossible name.
    """
    cleaned = " ".join(re.sub(r"[-_,.']", " ", str(text).lower()).split())
    cleaned = re.sub(r"\s+or (?:better|higher)$", "", cleaned)
    cleaned = re.sub(r"^(?:an?|the) ", "", cleaned)
    if not cleaned:
        raise HandNameError("Name the qualifying hand, e.g. 'four of a kind' or 'aces full'.", field=field)
    if cleaned in _BY_NAME:
        return _BY_NAME[cleaned], None
    for pattern, category in _PATTERNS:
        match = pattern.match(cleaned)
        if not match or match.group("rank") not in _RANK_WORDS:
            continue
        rank = _RANK_WORDS[match.group("rank")]
        kicker = match.groupdict().get("kicker")
        if kicker is not None and (kicker not in _RANK_WORDS or _RANK_WORDS[kicker] == rank):
            raise HandNameError(f"{text!r}: a full house's pair must be another rank.", field=field)
        if category is FiveCardCategory.STRAIGHT_FLUSH and rank == 14:
            return FiveCardCategory.ROYAL_FLUSH, None
        lowest, name = _LOWEST.get(category, (2, ""))
        if rank < lowest:
            raise HandNameError(f"{text!r} is no hand: the lowest {category.label.lower()} is {name}.", field=field)
        return category, rank
    raise HandNameError(f"Unknown hand {text!r}: name a category ('four of a kind', 'full house', 'straight flush'"
                        f"...) or a hand such as 'four eights', 'aces full' or 'ten-high straight'.", field=field)
