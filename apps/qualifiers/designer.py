"""The qualifier designer: how often a proposed bad beat qualifying rule would hit in this room, and how large the
jackpot would be when it does (the qualifying requirements a room posts). Reads only; writes nothing.

A room posts its qualifying hands and may not make them harder until the payout is won, so it lives
with its choice. For up to four candidate rules, side by side:

1. The engine's odds (`apps.hands.odds.bad_beat_odds`): the probability that a round of play dealt to `players`
   players produces a qualifying bad beat, by Monte Carlo over full deals (every player's best hand; the qualifying
   losing hand and a better winning hand both reach the showdown), with its 95 % confidence interval. Every
   candidate is dealt the same deals (the same seed), so their differences are not noise of the draw.
2. The players dealt in (the posted minimum). The odds are run at one table size: the room's most common number of
   players dealt in among the rounds that meet the candidate's minimum (`RoomHistory.typical_players`), or the size
   asked for. A round dealt to fewer than the minimum never qualifies, so the probability per round of play is
       p = share of the room's rounds dealt to at least the minimum × P(bad beat | typical table size).
   (An approximation: a bad beat is somewhat likelier at a fuller table and rarer at a shorter one.)
3. From the room's history (apps.qualifiers.selectors.room_history): R rounds of the game a gaming day, so
       rounds between hits N = 1 / p, days between hits = N / R,
       chance of a hit within d days = 1 − (1 − p)^(R × d), for d = 30, 90 and 365.
4. The jackpot at the hit, from the posted contribution rule (a fixed amount or a percentage of the pot
   after the rake, at most the posted maximum, from pots that reach the minimum pot; taken after the rake as the feed
   takes them) applied to the room's recent pots: c, the average contribution per round of play (rounds below the
   minimum pot contribute 0), and C, the contributions of a day (c × rounds of every participating game a day). Of
   each contribution the posted reset percentage r funds the next payout; the rest adds to this one. Over
   the D days to a hit the payout grows by C × D × (1 − r), so
       expected jackpot at the next hit = payable amount now + C × D × (1 − r);
       expected jackpot at a later hit = reset seed + C × D × (1 − r), where the reset seed is the reserve that one
       stretch between hits sets aside, C × D × r: in all, C × D.
   Hits come at random (a geometric number of rounds): these are expectations, not promises.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from apps.badbeat.models import Funding, Jackpot
from apps.badbeat.selectors import payable_amount
from apps.badbeat.services import compute_contribution
from apps.casinos.models import Casino
from apps.core.exceptions import DomainError
from apps.core.money import ZERO, money
from apps.hands import FiveCardCategory, OddsInputError
from apps.hands import Game as EngineGame
from apps.hands import odds as engine
from apps.tables.models import SEAT_MAXIMUM, Game

from .selectors import RoomHistory, room_history

#: The games whose odds the engine computes (a five-card high hand; hold 'em and Omaha).
GAMES: dict[str, str] = {Game.HOLDEM.value: "Texas hold 'em", Game.OMAHA.value: "Omaha"}
MAX_CANDIDATES = 4
#: Deals per candidate: the default, and the most a page or an API request may ask (it answers in a few seconds);
#: the command may ask up to the engine's MAX_DEALS.
DEFAULT_DEALS = 100_000
MIN_DEALS = 1_000
REQUEST_MAX_DEALS = 250_000
DEFAULT_SEED = 2026
MAX_SEED = 2**63 - 1
#: The table size when the room has no history of the game (a full hold 'em or Omaha table).
DEFAULT_PLAYERS = 9
#: The spans (days) of the chance of a hit.
SPANS = (30, 90, 365)
HUNDRED = Decimal(100)


@dataclass(frozen=True)
class Candidate:
    """A proposed qualifying rule, as the jackpot rules hold it: the game, the weakest losing hand as
    written ("four of a kind", "aces full or better", ...), whether both hole cards must play, the minimum players
    dealt in, and what the losing hand must be beaten by (empty: any better hand)."""

    game: str
    losing: str
    both_hole_cards: bool = False
    minimum_players_dealt: int = 2
    beaten_by: str = ""

    def describe(self) -> str:
        text = f"{GAMES.get(self.game, self.game)}: {self.losing.strip()}"
        if self.both_hole_cards:
            text += ", both hole cards play"
        if self.beaten_by.strip():
            text += f", beaten by {self.beaten_by.strip()}"
        return text + f", at least {self.minimum_players_dealt} dealt in"


def seat_maximum(game: str) -> int:
    """The most players the engine deals `game` to: the table's seats (the seat maximum the game posts) as far as one
    deck serves (hands.odds.MAX_PLAYERS: ten in hold 'em and in Omaha)."""
    return min(SEAT_MAXIMUM[game][0], engine.MAX_PLAYERS[EngineGame(game)])


def check_candidate(candidate: Candidate) -> engine.BadBeatSpec:
    """The engine's specification of a candidate rule. Raises DomainError naming the field at fault: `game` (not hold
    'em or Omaha), `losing` / `beaten_by` (a hand the engine cannot read), `minimum_players_dealt` (below 2 or above
    the game's seats)."""
    if candidate.game not in GAMES:
        raise DomainError(f"Choose {' or '.join(GAMES.values())}: the engine computes the odds of those games.",
                          field="game")
    if not candidate.losing.strip():
        raise DomainError("Name the weakest losing hand that qualifies, e.g. “four of a kind”.", field="losing")
    try:
        losing = engine.parse_losing_hand(candidate.losing)
    except ValueError as exc:
        raise DomainError(str(exc), field="losing") from exc
    beaten_by: tuple = (None, None)
    if candidate.beaten_by.strip():
        try:
            beaten_by = engine.parse_losing_hand(candidate.beaten_by)
        except ValueError as exc:
            raise DomainError(str(exc), field="beaten_by") from exc
    most = seat_maximum(candidate.game)
    if not 2 <= candidate.minimum_players_dealt <= most:
        raise DomainError(f"Between 2 and {most} players (a {GAMES[candidate.game]} table seats {most}).",
                          field="minimum_players_dealt")
    return engine.BadBeatSpec(game=candidate.game, losing_category=losing[0], losing_minimum_rank=losing[1],
                              both_hole_cards=candidate.both_hole_cards, beaten_by_category=beaten_by[0],
                              beaten_by_minimum_rank=beaten_by[1])


def check_run(*, deals: int, seed: int, players: int | None = None, maximum: int = REQUEST_MAX_DEALS) -> None:
    """Check a run's settings. Raises DomainError naming `deals` (fewer than MIN_DEALS or more than `maximum`),
    `seed` (negative or above MAX_SEED) or `players` (below 2 or above the most the engine deals, seat_maximum)."""
    if not MIN_DEALS <= deals <= maximum:
        raise DomainError(f"Between {MIN_DEALS:,} and {maximum:,} deals.", field="deals")
    if not 0 <= seed <= MAX_SEED:
        raise DomainError("A whole number from 0 to 2⁶³ − 1.", field="seed")
    most = max(seat_maximum(game) for game in GAMES)
    if players is not None and not 2 <= players <= most:
        raise DomainError(f"Between 2 and {most} players: a round of play has at least two.", field="players")


def designable_jackpots(*, casino: Casino):
    """The casino's live jackpots funded by their own contributions (14.19(m)1): those whose growth a candidate
    rule's odds tell. A secondary funded from the primary has no contribution rule of its own."""
    from apps.badbeat.selectors import live_jackpots

    return live_jackpots(casino=casino).filter(funding=Funding.CONTRIBUTIONS)


#: A rank's name, one and several (14.3(b)).
RANK_WORDS = {14: ("ace", "aces"), 13: ("king", "kings"), 12: ("queen", "queens"), 11: ("jack", "jacks"),
              10: ("ten", "tens"), 9: ("nine", "nines"), 8: ("eight", "eights"), 7: ("seven", "sevens"),
              6: ("six", "sixes"), 5: ("five", "fives"), 4: ("four", "fours"), 3: ("three", "threes"),
              2: ("deuce", "deuces")}


def losing_text(category: FiveCardCategory, minimum_rank: int | None) -> str:
    """A qualifying hand as the designer writes it and `hands.odds.parse_losing_hand` reads it back: "four of a
    kind", "four eights", "aces full", "nine-high straight flush", "royal flush"."""
    if minimum_rank is None:
        return category.label.lower()
    one, several = RANK_WORDS[minimum_rank]
    return {FiveCardCategory.FOUR_OF_A_KIND: f"four {several}", FiveCardCategory.FULL_HOUSE: f"{several} full",
            FiveCardCategory.THREE_OF_A_KIND: f"three {several}", FiveCardCategory.TWO_PAIR: f"{several} up",
            FiveCardCategory.ONE_PAIR: f"pair of {several}"}.get(category, f"{one}-high {category.label.lower()}")


def check_players(candidate: Candidate, players: int) -> int:
    """`players`, the table size asked for, when it suits the candidate. Raises DomainError(field="players") below
    the candidate's minimum players dealt in (such a round never qualifies) or above the game's seats."""
    if players < candidate.minimum_players_dealt:
        raise DomainError(f"At least the minimum players dealt in ({candidate.minimum_players_dealt}) of every "
                          "candidate: a round dealt to fewer never qualifies.", field="players")
    most = seat_maximum(candidate.game)
    if players > most:
        raise DomainError(f"At most {most} players: a {GAMES[candidate.game]} table seats {most}.", field="players")
    return players


def average_contribution(*, jackpot: Jackpot, pots: Sequence[tuple[Decimal, Decimal]]) -> Decimal:
    """The average bad beat contribution per round of play (Decimal dollars, to 1/10,000 of a dollar) that the
    jackpot's posted rule takes from `pots` — (pot, pot after the rake) of the room's rounds — by the feed's own
    computation (`badbeat.services.compute_contribution`); a round below the minimum pot counts 0.
    ZERO without pots."""
    if not pots:
        return ZERO
    total = sum((compute_contribution(jackpot=jackpot, pot_total=pot, after_rake=after)[0] for pot, after in pots),
                ZERO)
    return (total / len(pots)).quantize(Decimal("0.0001"))


def chance_of_hit(p: float, rounds: float) -> float:
    """The chance (0..1) of at least one hit in `rounds` rounds of play of probability `p` each: 1 − (1 − p)^rounds,
    exact for tiny p (log1p, expm1)."""
    if p <= 0 or rounds <= 0:
        return 0.0
    if p >= 1:
        return 1.0
    return -math.expm1(rounds * math.log1p(-p))


@dataclass(frozen=True)
class Figures:
    """One candidate's figures (see the module for the formulas). Probabilities 0..1 (floats); rounds and days as
    floats, None when the rule never hit in the deals or the room has no history of the game; money Decimal dollars
    with cents, None when the days to a hit are unknown."""

    candidate: Candidate
    odds: engine.Odds
    players: int
    share_meeting_minimum: float
    probability: float
    ci95: tuple[float, float]
    rounds_per_day: float
    rounds_between_hits: float | None
    days_between_hits: float | None
    chance_within: dict[int, float | None]
    expected_at_next_hit: Decimal | None
    reset_seed: Decimal | None
    expected_at_later_hit: Decimal | None

    def as_json(self) -> dict:
        def money(value):
            return None if value is None else f"{value:.2f}"

        return {
            "game": self.candidate.game, "losing": self.candidate.losing,
            "both_hole_cards": self.candidate.both_hole_cards,
            "minimum_players_dealt": self.candidate.minimum_players_dealt, "beaten_by": self.candidate.beaten_by,
            "description": self.candidate.describe(),
            "deals": self.odds.deals, "hits": self.odds.hits, "seed": self.odds.seed, "players": self.players,
            "probability_at_players": self.odds.probability, "ci95_at_players": list(self.odds.ci95),
            "share_meeting_minimum": self.share_meeting_minimum,
            "probability": self.probability, "ci95": list(self.ci95), "rounds_per_day": self.rounds_per_day,
            "rounds_between_hits": self.rounds_between_hits, "days_between_hits": self.days_between_hits,
            "chance_within_days": {str(days): chance for days, chance in self.chance_within.items()},
            "expected_jackpot_at_next_hit": money(self.expected_at_next_hit), "reset_seed": money(self.reset_seed),
            "expected_jackpot_at_later_hit": money(self.expected_at_later_hit),
        }


@dataclass(frozen=True)
class JackpotGrowth:
    """The jackpot's posted terms as the room's pots fill it: the average contribution per round of play and per
    gaming day (Decimal dollars), the reset percentage and the amount payable now."""

    jackpot: Jackpot
    payable_now: Decimal
    contribution_per_round: Decimal
    contributions_per_day: Decimal
    reset_percentage: Decimal

    def as_json(self) -> dict:
        return {"id": self.jackpot.pk, "name": self.jackpot.name, "payable_now": f"{self.payable_now:.2f}",
                "contribution_rule": self.jackpot.contribution_label,
                "minimum_pot": f"{self.jackpot.minimum_pot:.2f}",
                "contribution_per_round": f"{self.contribution_per_round:.4f}",
                "contributions_per_day": f"{self.contributions_per_day:.2f}",
                "reset_percentage": f"{self.reset_percentage:.2f}"}


def figures(*, candidate: Candidate, spec: engine.BadBeatSpec, history: RoomHistory, growth: JackpotGrowth | None,
            deals: int, seed: int, players: int | None = None,
            run: Callable[..., engine.Odds] = engine.bad_beat_odds) -> Figures:
    """One candidate's figures (module docstring, steps 1-4): runs the engine's `deals` deals at the table size
    chosen (`players`, else the room's typical size among rounds meeting the minimum, else DEFAULT_PLAYERS, within
    the game's seats). Raises DomainError(field="players") when `players` is below the candidate's minimum or above
    the game's seats."""
    minimum = candidate.minimum_players_dealt
    if players is not None:
        table = check_players(candidate, players)
    else:
        table = history.typical_players(minimum) or min(max(DEFAULT_PLAYERS, minimum), seat_maximum(candidate.game))
    try:
        odds = run(spec, players=table, deals=deals, seed=seed)
    except OddsInputError as exc:  # checked above; the engine's own word if it still refuses
        raise DomainError(str(exc), field=exc.field or None) from exc
    share = history.share_dealt_at_least(minimum)
    p = share * odds.probability
    ci95 = (share * odds.ci95[0], share * odds.ci95[1])
    rate = history.rounds_per_day
    between = 1 / p if p > 0 else None
    days = between / rate if between is not None and rate > 0 else None
    # No hit in the deals says only that the rule is rarer than one in them: its chances are unknown, not nil. A rule
    # no round of the room's history meets (share 0) does not hit at this room's tables: 0.
    unknown = rate <= 0 or (odds.hits == 0 and share > 0)
    chances = {span: (None if unknown else chance_of_hit(p, rate * span)) for span in SPANS}
    at_next = seed_amount = at_later = None
    if growth is not None and days is not None:
        stretch = growth.contributions_per_day * Decimal(repr(days))
        kept = stretch * (1 - growth.reset_percentage / HUNDRED)
        at_next = money(growth.payable_now + kept)
        seed_amount = money(stretch - kept)
        at_later = money(stretch)
    return Figures(candidate=candidate, odds=odds, players=table, share_meeting_minimum=share, probability=p,
                   ci95=ci95, rounds_per_day=rate, rounds_between_hits=between, days_between_hits=days,
                   chance_within=chances, expected_at_next_hit=at_next, reset_seed=seed_amount,
                   expected_at_later_hit=at_later)


@dataclass(frozen=True)
class Comparison:
    """Candidates compared on one jackpot and one run: the room's history of each game asked (by game), the
    jackpot's growth, and each candidate's figures, in the order given."""

    histories: dict[str, RoomHistory]
    growth: JackpotGrowth | None
    results: list[Figures]
    deals: int
    seed: int

    def as_json(self) -> dict:
        return {
            "deals": self.deals, "seed": self.seed,
            "jackpot": self.growth.as_json() if self.growth else None,
            "history": {game: {"first_day": h.start.isoformat(), "last_day": h.end.isoformat(), "rounds": h.rounds,
                               "days_played": h.days_played, "rounds_per_day": h.rounds_per_day,
                               "rounds_per_table_day": h.rounds_per_table_day, "sampled_rounds": h.sampled,
                               "players_dealt": {str(k): v for k, v in h.players_dealt.items()}}
                        for game, h in self.histories.items()},
            "candidates": [f.as_json() for f in self.results],
        }


def jackpot_growth(*, jackpot: Jackpot, history: RoomHistory) -> JackpotGrowth:
    """How the jackpot grows under its posted rule on the room's recent pots (module docstring, step 4)."""
    per_round = average_contribution(jackpot=jackpot, pots=history.pots)
    per_day = (per_round * Decimal(repr(history.all_rounds_per_day))).quantize(Decimal("0.0001"))
    return JackpotGrowth(jackpot=jackpot, payable_now=payable_amount(jackpot=jackpot), contribution_per_round=per_round,
                         contributions_per_day=per_day, reset_percentage=jackpot.reset_percentage)


def compare(*, casino: Casino, candidates: Sequence[Candidate], jackpot: Jackpot | None, deals: int = DEFAULT_DEALS,
            seed: int = DEFAULT_SEED, players: int | None = None, maximum_deals: int = REQUEST_MAX_DEALS,
            run: Callable[..., engine.Odds] = engine.bad_beat_odds) -> Comparison:
    """Compare up to MAX_CANDIDATES candidate rules for `jackpot` (a jackpot of `casino` funded by contributions, or
    None for the odds and rates alone) on `deals` deals each, from `seed` (the same deals for every candidate).

    Raises DomainError naming the field at fault, before any deal is dealt: `candidates` (none, or more than four),
    `candidates[i].<field>` for a candidate (check_candidate), `deals`, `seed`, `players` (check_run, figures),
    `jackpot` (another casino's, or one without its own contributions).
    """
    if not candidates:
        raise DomainError("Propose at least one qualifying rule.", field="candidates")
    if len(candidates) > MAX_CANDIDATES:
        raise DomainError(f"At most {MAX_CANDIDATES} candidates side by side.", field="candidates")
    check_run(deals=deals, seed=seed, players=players, maximum=maximum_deals)
    specs = []
    for index, candidate in enumerate(candidates):
        try:
            specs.append(check_candidate(candidate))
        except DomainError as exc:
            raise DomainError(exc.message, field=f"candidates[{index}].{exc.field}") from exc
    if jackpot is not None and (jackpot.casino_id != casino.pk or jackpot.funding != Funding.CONTRIBUTIONS):
        raise DomainError("Choose a jackpot of this casino funded by its own contributions.", field="jackpot")
    if players is not None:  # the table size asked for must suit every candidate, before dealing any
        for candidate in candidates:
            check_players(candidate, players)
    histories = {game: room_history(casino=casino, game=game) for game in dict.fromkeys(c.game for c in candidates)}
    first = histories[candidates[0].game]
    growth = jackpot_growth(jackpot=jackpot, history=first) if jackpot is not None else None
    results = [figures(candidate=c, spec=s, history=histories[c.game], growth=growth, deals=deals, seed=seed,
                       players=players, run=run) for c, s in zip(candidates, specs, strict=True)]
    return Comparison(histories=histories, growth=growth, results=results, deals=deals, seed=seed)


__all__ = ["DEFAULT_DEALS", "DEFAULT_SEED", "GAMES", "MAX_CANDIDATES", "REQUEST_MAX_DEALS", "SPANS", "Candidate",
           "Comparison", "Figures", "JackpotGrowth", "average_contribution", "check_candidate", "check_run", "compare",
           "chance_of_hit", "losing_text", "designable_jackpots", "figures", "jackpot_growth"]
