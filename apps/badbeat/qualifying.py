"""Whether a round of play is a bad beat under a jackpot's posted qualifying requirements, and how the payout
is shared (N.J.A.C. 13:69F-14.19(a)-losing-hand, 14.19(n), 14.19(b)3-applied). Plain data in, plain data out: the hand
engine ranks the hands; nothing here touches the database. """
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import combinations

from apps import hands
from apps.core.money import CENT, ZERO, floor_to

#: Games whose high hand is a five-card poker hand (14.3(b)); a bad beat is judged on it.
HIGH_HAND_GAMES = frozenset({hands.Game.HOLDEM, hands.Game.OMAHA, hands.Game.OMAHA_HILO8, hands.Game.STUD,
                             hands.Game.STUD_HILO, hands.Game.STUD_HILO8, hands.Game.FIVE_CARD_STUD,
                             hands.Game.DRAW_HIGH})
RANK_NAMES = {14: "aces", 13: "kings", 12: "queens", 11: "jacks", 10: "tens", 9: "nines", 8: "eights",
              7: "sevens", 6: "sixes", 5: "fives", 4: "fours", 3: "threes", 2: "deuces"}


@dataclass(frozen=True, slots=True)
class QualifyingRule:
    """A jackpot's qualifying requirements: the weakest losing hand (a five-card high category and, within it,
    the lowest principal rank, e.g. four eights), whether both hole cards must play (hold 'em), how many
    players must be dealt in, and which pots can be a bad beat: straddled pots, bomb pots, hands run more than once
    (the defaults are the Jackpot columns' own)."""

    category: hands.FiveCardCategory
    minimum_rank: int | None = None
    both_hole_cards_must_play: bool = False
    minimum_players_dealt: int = 2
    straddled_pots_qualify: bool = True
    bomb_pots_qualify: bool = True
    multiple_runs_qualify: bool = False

    def describe(self) -> str:
        rank = f" of {RANK_NAMES[self.minimum_rank]}" if self.minimum_rank else ""
        return f"{self.category.label.lower()}{rank} or better"

    def hand_meets(self, value: hands.HandValue) -> bool:
        """Whether a five-card high hand is at or above the qualifying hand. The key's second element is the
        principal rank: the quads, the trips of a full house, the top of a straight (flush)."""
        strength = value.category.strength
        if strength != self.category.strength:
            return strength > self.category.strength
        return self.minimum_rank is None or value.key[1] >= self.minimum_rank

    def is_harder_than(self, other: QualifyingRule) -> bool:
        """True when this rule makes qualifying harder than `other` in any respect (14.19(q)-harder-after-won): a
        higher hand, both hole cards to play, more players dealt in, or a kind of pot (straddled, bomb pot, run more
        than once) that qualified and no longer does."""
        mine = (self.category.strength, self.minimum_rank or 0)
        theirs = (other.category.strength, other.minimum_rank or 0)
        excluded = any(theirs_ and not mine_ for mine_, theirs_ in (
            (self.straddled_pots_qualify, other.straddled_pots_qualify), (self.bomb_pots_qualify, other.bomb_pots_qualify),
            (self.multiple_runs_qualify, other.multiple_runs_qualify)))
        return (mine > theirs or (self.both_hole_cards_must_play and not other.both_hole_cards_must_play)
                or self.minimum_players_dealt > other.minimum_players_dealt or excluded)


@dataclass(frozen=True, slots=True)
class SeatCards:
    """One player dealt in: seat, name, cards held (hole cards, and up-cards in stud; none when not recorded),
    whether at the showdown, whether eligible for the main pot, and whether the player folded."""

    seat: int
    hole: tuple[hands.Card, ...]
    at_showdown: bool
    eligible_for_main_pot: bool = True
    name: str = ""
    folded: bool = False


@dataclass(frozen=True, slots=True)
class Check:
    label: str
    passed: bool
    detail: str


@dataclass
class Verdict:
    """The engine's judgement of a round: the checks in the order shown to the supervisor, the qualifying
    losing seats (best hand first), the main-pot winners, the hands as ranked and the cards that played."""

    qualifies: bool
    checks: list[Check]
    losing_seats: list[int] = field(default_factory=list)
    winning_seats: list[int] = field(default_factory=list)
    dealt_seats: list[int] = field(default_factory=list)
    losing_hand: hands.HandValue | None = None
    winning_hand: hands.HandValue | None = None
    played: dict[int, str] = field(default_factory=dict)

    def as_json(self) -> dict:
        return {
            "qualifies": self.qualifies,
            "checks": [{"label": c.label, "passed": c.passed, "detail": c.detail} for c in self.checks],
            "losing_seats": self.losing_seats, "winning_seats": self.winning_seats, "dealt_seats": self.dealt_seats,
            "losing_hand": str(self.losing_hand) if self.losing_hand else "",
            "winning_hand": str(self.winning_hand) if self.winning_hand else "",
            "played": {str(k): v for k, v in self.played.items()},
        }


def _best_with_both_hole_cards(hole: Sequence[hands.Card], board: Sequence[hands.Card]) -> hands.HandValue:
    return max(hands.evaluate_five_card_high((*hole, *three)) for three in combinations(board, 3))


def _played_text(value: hands.HandValue, hole: Sequence[hands.Card]) -> str:
    from_hole = [c for c in value.cards if c in hole]
    return (f"{hands.format_cards(value.cards)} — {len(from_hole)} hole card"
            f"{'' if len(from_hole) == 1 else 's'} played ({hands.format_cards(from_hole) or 'none'})")


def judge(rule: QualifyingRule, game: str, board: Sequence[hands.Card], seats: Sequence[SeatCards], *,
          boards: Sequence[Sequence[hands.Card]] = (), straddled: bool = False, bomb_pot: bool = False,
          from_another_system: bool = False) -> Verdict:
    """Judge a round of play against a qualifying rule (N.J.A.C. 13:69F-14.19(b)3-applied).

    A losing hand is a hand at the showdown, eligible for the main pot, ranked below the best high hand there.
    It qualifies when the engine ranks it at or above the rule's hand, with both hole cards in the five that
    play where the rule asks it (hold 'em: the best hand that uses both must be as good as the best hand), and
    enough players were dealt in. Returns a Verdict whose checks say why; never raises for a hand that does not
    qualify. Raises hands.HandError for impossible cards.

    The kind of pot, as the posted rules take it: a straddled pot (`straddled`) and a bomb pot (`bomb_pot`) qualify
    only where the rule says they do; each adds a check, first, naming the term that decided. A hand run two or three
    times (`boards`: each run's board; `board` is then ignored) qualifies only where the rule says hands run more
    than once do; it is then judged on each run's board as a hand of its own, and qualifies when any run's showdown
    qualifies: the verdict is that run's (its losing and winning seats, which the payout shares follow), the run
    with the highest qualifying losing hand, the earlier run on a tie (the first run when none qualifies). Every
    run's checks are kept, each named by its run.

    A round recorded by another system's hand history (`from_another_system`: a PHH source) in which two players or
    more did not fold, one of them without cards in the history (shown as `pN sm ????`, or never shown), cannot
    qualify (14.19(i)): the supervisor has nothing to verify. A check, "Cards revealed", first, names the seats.
    """
    terms = [check for check in (_cards_revealed(seats),) if check is not None] if from_another_system else []
    if straddled:
        terms.append(Check("Straddled pot", rule.straddled_pots_qualify,
                           f"Straddled pots {'' if rule.straddled_pots_qualify else 'do not '}qualify under the posted "
                           "rules."))
    if bomb_pot:
        terms.append(Check("Bomb pot", rule.bomb_pots_qualify,
                           f"Bomb pots {'' if rule.bomb_pots_qualify else 'do not '}qualify under the posted rules."))
    if len(boards) > 1:
        terms.append(Check(f"Run {len(boards)} times", rule.multiple_runs_qualify,
                           "Hands run more than once qualify under the posted rules, on any run's board."
                           if rule.multiple_runs_qualify else
                           "Hands run more than once do not qualify under the posted rules."))
        runs = [_judge_board(rule, game, run, seats) for run in boards]
        qualifying = [index for index, run in enumerate(runs) if run.qualifies]
        chosen = max(qualifying, key=lambda index: (runs[index].losing_hand, -index)) if qualifying else 0
        verdict = runs[chosen]
        verdict.checks = [Check(f"Run {index + 1}: {check.label}", check.passed, check.detail)
                          for index, run in enumerate(runs) for check in run.checks]
        verdict.checks.append(Check("Runs", bool(qualifying),
                                    f"Run {chosen + 1} of {len(boards)} qualifies "
                                    f"({hands.format_cards(boards[chosen])})." if qualifying else
                                    "No run's showdown qualifies."))
    else:
        verdict = _judge_board(rule, game, boards[0] if boards else board, seats)
    verdict.checks[:0] = terms
    verdict.qualifies = verdict.qualifies and all(term.passed for term in terms)
    return verdict


def _cards_revealed(seats: Sequence[SeatCards]) -> Check | None:
    """The failed check of a showdown whose cards another system's history does not reveal: two players or more did
    not fold and some of them have no cards recorded; None otherwise."""
    standing = [s for s in seats if not s.folded]
    hidden = [s.seat for s in standing if not s.hole]
    if len(standing) < 2 or not hidden:
        return None
    return Check("Cards revealed", False,
                 f"Seat {', '.join(map(str, sorted(hidden)))}: the cards were not revealed: nothing to verify.")


def _judge_board(rule: QualifyingRule, game: str, board: Sequence[hands.Card], seats: Sequence[SeatCards]) -> Verdict:
    """`judge` on one board (one run of the hand)."""
    checks: list[Check] = []
    game = hands.Game(game)
    dealt = sorted(s.seat for s in seats)
    verdict = Verdict(qualifies=False, checks=checks, dealt_seats=dealt)
    if game not in HIGH_HAND_GAMES:
        checks.append(Check("Game", False, f"{game.value} has no five-card high hand; no bad beat is offered."))
        return verdict
    checks.append(Check("Players dealt in", len(dealt) >= rule.minimum_players_dealt,
                        f"{len(dealt)} dealt in; at least {rule.minimum_players_dealt} required."))
    contenders = [s for s in seats if s.at_showdown and s.eligible_for_main_pot and s.hole]
    if len(contenders) < 2:
        checks.append(Check("Showdown", False, "Fewer than two hands were shown down for the main pot."))
        return verdict
    high: dict[int, hands.HandValue] = {}
    for s in contenders:
        made = hands.best_hands(game, s.hole, board).high
        if made is None:  # never: every hand of a high-hand game has a high
            raise hands.HandError(f"Seat {s.seat}: {game.value} ranks no high hand.")
        high[s.seat] = made
        verdict.played[s.seat] = _played_text(made, s.hole)
    best = max(high.values())
    verdict.winning_seats = sorted(seat for seat, value in high.items() if value == best)
    verdict.winning_hand = best
    checks.append(Check("Winning hand", True, f"Seat {', '.join(map(str, verdict.winning_seats))}: {best}."))
    losers = sorted((seat for seat, value in high.items() if value < best), key=lambda seat: high[seat], reverse=True)
    qualifying = []
    for seat in losers:
        value = high[seat]
        if not rule.hand_meets(value):
            continue
        hole = next(s.hole for s in contenders if s.seat == seat)
        if rule.both_hole_cards_must_play and game == hands.Game.HOLDEM:
            with_both = _best_with_both_hole_cards(hole, board)
            if with_both != value:
                checks.append(Check(f"Seat {seat}: both hole cards play", False,
                                    f"{value} does not use both hole cards; with both the best is {with_both}."))
                continue
        qualifying.append(seat)
    if qualifying:
        top = qualifying[0]
        verdict.losing_seats, verdict.losing_hand = qualifying, high[top]
        checks.append(Check("Losing hand", True,
                            f"Seat {top}: {high[top]} lost; {rule.describe()} required."
                            + (f" Also qualifying: seat {', '.join(map(str, qualifying[1:]))}." if qualifying[1:]
                               else "")))
        if rule.both_hole_cards_must_play and game == hands.Game.HOLDEM:
            checks.append(Check("Both hole cards play", True, verdict.played[top]))
    else:
        shown = f"best losing hand {high[losers[0]]}" if losers else "no losing hand at the showdown"
        checks.append(Check("Losing hand", False, f"{shown}; {rule.describe()} required."))
    verdict.qualifies = all(c.passed for c in checks if not c.label.startswith("Seat ")) and bool(qualifying)
    return verdict


@dataclass(frozen=True, slots=True)
class Shares:
    losing: Decimal
    winning: Decimal
    table: Decimal


def split_payout(amount: Decimal, verdict: Verdict, shares: Shares, *, split_losing_share: bool) -> list[tuple[int, str, Decimal]]:
    """Split a payout amount (Decimal dollars) among the players of a qualifying round: [(seat, role, amount)].

    The losing share goes to the highest qualifying losing hand, or is split among every qualifying losing hand
    when `split_losing_share` (the posted rule for more than one qualifying hand, 14.19(n)); the winning share
    to the main-pot winners; the table share to every other player dealt in (with the losing share, when it is
    not split, to the other qualifying losers). Shares are percentages of the amount; each player's part is
    rounded down to the cent and the odd cents go to the losing player(s), seat by seat, so the parts add up to
    the amount exactly. A share with nobody to receive it falls to the losing player(s). Raises ValueError when
    the percentages do not add up to 100.
    """
    if shares.losing + shares.winning + shares.table != Decimal(100):
        raise ValueError("The shares must add up to 100 %.")
    losers = verdict.losing_seats if split_losing_share else verdict.losing_seats[:1]
    winners = verdict.winning_seats
    others = [s for s in verdict.dealt_seats if s not in losers and s not in winners]
    groups = [("losing", losers, shares.losing), ("winning", winners, shares.winning), ("table", others, shares.table)]
    parts: dict[int, list] = {}
    orphaned = ZERO
    for role, seats, pct in groups:
        pot = floor_to(amount * pct / Decimal(100), CENT)
        if not seats:
            orphaned += pot
            continue
        each = floor_to(pot / len(seats), CENT)
        for seat in seats:
            parts[seat] = [role, each]
    remainder = amount - sum(p[1] for p in parts.values())
    # Odd cents and orphaned shares: to the losing player(s), a cent at a time, seat order.
    cents = int(((remainder - orphaned) / CENT).to_integral_value())
    for i in range(cents):
        parts[losers[i % len(losers)]][1] += CENT
    if orphaned:
        each = floor_to(orphaned / len(losers), CENT)
        for seat in losers:
            parts[seat][1] += each
        parts[losers[0]][1] += orphaned - each * len(losers)
    result = [(seat, role, value) for seat, (role, value) in sorted(parts.items())]
    assert sum(v for _, _, v in result) == amount
    return result
