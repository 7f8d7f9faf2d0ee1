"""Steps 1 and 2 of the money path (apps.feed.services.money_path), before anything is written: a round of play
checked against its table (step 1: `verify_round`) and its pots built and showdown ranked (step 2: `build_round`).

Step 1 reads the table (open or closed, its seats), its posted games (a mixed-game table's rotation) and its casino
(time zone, start of the gaming day, the first gaming day it keeps records of), and compares the round's time with
the clock; step 2 is computed in memory by the hand engine (apps.hands). Neither writes nor takes a lock: whether the
round's gaming day is still open is settled in the transaction that writes it (hold_open_gaming_days).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django.utils import timezone

from apps import hands
from apps.casinos.models import Backfill
from apps.casinos.selectors import CLOCK_TOLERANCE, current_gaming_day, gaming_day_of, not_open_message
from apps.core.exceptions import DomainError
from apps.core.money import CENT, ZERO
from apps.core.validation import fits_column
from apps.rounds.models import RoundOfPlay, RoundPlayer
from apps.tables.models import Game, GamePosting, PokerTable, RotationGame

from ..types import PlayerIn, RoundIn

#: Cards a player may hold at the end, and the most community cards, by game (14.9(c)-(h), 14.10(e), 14.11(d),
#: 14.12(d), 14.12A(d), 14.12B(d), 14.13(c)-(g), 14.13A(c)-(h)). Stud hands may be reported short of the last cards.
CARD_COUNTS: dict[str, tuple[tuple[int, ...], int]] = {
    hands.Game.HOLDEM: ((2,), 5), hands.Game.OMAHA: ((4,), 5), hands.Game.OMAHA_HILO8: ((4,), 5),
    hands.Game.STUD: ((2, 3, 4, 5, 6, 7), 1), hands.Game.STUD_LOW: ((2, 3, 4, 5, 6, 7), 1),
    hands.Game.STUD_HILO: ((2, 3, 4, 5, 6, 7), 1), hands.Game.STUD_HILO8: ((2, 3, 4, 5, 6, 7), 1),
    hands.Game.FIVE_CARD_STUD: ((2, 3, 4, 5), 0), hands.Game.DRAW_HIGH: ((5,), 0), hands.Game.DRAW_LOW: ((5,), 0),
    hands.Game.TRIPLE_DRAW_27: ((5,), 0), hands.Game.SINGLE_DRAW_27: ((5,), 0), hands.Game.BADUGI: ((4,), 0),
    hands.Game.MAMBO_STUD: ((2, 3, 4), 1),
}
#: Draws each draw game has (14.12(f), 14.12A(f), (h), (j), 14.12B(f), (h), (j)).
DRAWS = {hands.Game.DRAW_HIGH: 1, hands.Game.DRAW_LOW: 1, hands.Game.SINGLE_DRAW_27: 1,
         hands.Game.TRIPLE_DRAW_27: 3, hands.Game.BADUGI: 3}


@dataclass
class VerifiedRound:
    """A round of play that passed step 1 (and, unless called dead, step 2): its table and posted game, its gaming
    day, the cards as parsed and, for a settled round, the pots as built and the showdown as ranked."""

    table: PokerTable
    posting: GamePosting
    game: hands.Game
    round_in: RoundIn
    gaming_day: date
    board: tuple[hands.Card, ...]
    hole: dict[str, tuple[hands.Card, ...]]
    out: frozenset[str] = frozenset()
    build: hands.PotBuild | None = None
    showdown: dict[str, hands.ShowdownHand] | None = None
    contested: bool = False

    @property
    def dead(self) -> bool:
        return bool(self.round_in.dead_reason)

    @property
    def total_bet(self) -> Decimal:
        return sum((p.contributed for p in self.round_in.players), ZERO)

    @property
    def built(self) -> hands.PotBuild:
        """The pots as step 2 built them (`build_round`). Raises ValueError for a round called dead, which has
        none, or before step 2."""
        if self.build is None:
            raise ValueError("This round of play has no pots: called dead, or step 2 (build_round) not run.")
        return self.build

    @property
    def rotation_game(self) -> RotationGame | None:
        """The game of a mixed-game table's rotation the round was dealt in; None at a single-game table, whose posted
        game is the table itself."""
        return self.posting if isinstance(self.posting, RotationGame) else None

    @property
    def uncalled(self) -> Decimal:
        return sum(self.build.uncalled.values(), ZERO) if self.build else ZERO

    @property
    def pot_total(self) -> Decimal:
        """The sums bet: every pot before rake and contribution, the uncalled bet excluded (14.14(d))."""
        return ZERO if self.dead else self.total_bet - self.uncalled


def verify_rounds(*, rounds: Sequence[tuple[PokerTable, RoundIn]]) -> list[VerifiedRound]:
    """Steps 1 and 2 for a batch of rounds of play (a feed sending several at once), without writing: each round
    verified (`verify_round`) and its pots built and showdown ranked (`build_round`). Raises DomainError naming the
    round and its field, e.g. `rounds[3].players[1].hole_cards`, at the first round at fault."""
    verified = []
    for index, (table, round_in) in enumerate(rounds):
        try:
            round_ = verify_round(table=table, round_in=round_in)
            build_round(round_)
        except DomainError as exc:
            field = f"rounds[{index}]" + (f".{exc.field}" if exc.field else "")
            raise type(exc)(exc.message, field=field) from exc
        verified.append(round_)
    return verified


def verify_round(*, table: PokerTable, round_in: RoundIn, backfill: Backfill | None = None) -> VerifiedRound:
    """Step 1: check a round of play against its table, without writing (N.J.A.C. 13:69F-14.6(b), 14.8, 14.9 to
    14.13A). The game must be one the table deals (its game, or a game of its rotation; a mixed-game table needs the
    round to name it); two players at least and no more than the table seats; amounts in dollars and cents, the
    betting rounds adding up; the cards known, distinct, and as many as the game deals; the table open now (field
    `table`), unless the round is backfilled. Raises DomainError naming the field. A round dated before the previous
    gaming day is refused unless it comes with `backfill` (whether its day is open is settled when it is written:
    hold_open_gaming_days)."""
    if not table.is_open and backfill is None:
        raise DomainError(f"Table {table.number} is closed: a round of play is dealt at an open table only.",
                          field="table")
    posting = _posting(table, round_in)
    game = hands.Game(posting.game)
    gaming_day = _verify_time(table, round_in.started_at, backfill=backfill)
    _verify_players(table, round_in.players)
    hole, board = _verify_cards(game, round_in)
    return VerifiedRound(table=table, posting=posting, game=game, round_in=round_in, hole=hole, board=board,
                         gaming_day=gaming_day)


def build_round(round_: VerifiedRound) -> None:
    """Step 2: the main pot and side pots from what each player put in (14.7(c)4), the uncalled bet given back
    (14.14(d)), and the best hands of the players who contest a pot (14.3), on `round_`. A dead round has none.
    Raises DomainError when a contender's cards are missing or cannot make the game's hand."""
    if round_.dead:
        return
    players = round_.round_in.players
    out = frozenset(str(p.seat) for p in players if p.folded or p.mucked)
    tracked = all(p.returned is not None for p in players)
    try:
        build = hands.build_pots({str(p.seat): p.contributed for p in players}, folded=out,
                                 uncalled={str(p.seat): p.returned for p in players if p.returned is not None}
                                 if tracked else None,
                                 dead={str(p.seat): p.dead for p in players if p.dead})
    except hands.HandError as exc:
        raise DomainError(str(exc), field="players") from exc
    contested = any(len(pot.eligible) > 1 for pot in build.pots)
    showdown = {}
    if contested:
        missing = [p.seat for p in players if str(p.seat) not in out and str(p.seat) not in round_.hole
                   and any(str(p.seat) in pot.eligible for pot in build.pots if len(pot.eligible) > 1)]
        if missing:
            raise DomainError(f"The showdown needs the hole cards of seat(s) {', '.join(map(str, missing))}.",
                              field="players")
        try:
            showdown = hands.showdown_hands(round_.game, build.pots, round_.hole, round_.board)
        except hands.HandError as exc:
            raise DomainError(str(exc), field="players") from exc
    round_.out, round_.build, round_.showdown, round_.contested = out, build, showdown, contested


# --- step 1 in detail -------------------------------------------------------------------------------------------

def _posting(table: PokerTable, round_in: RoundIn) -> GamePosting:
    """The game, as posted at the table, a round was dealt in (14.8, 14.17)."""
    postings = table.posted_games()
    if round_in.game is None:
        if table.is_mixed:
            raise DomainError(f"Table {table.number} deals a rotation ({table.rotation_name}): name the game of the "
                              "round.", field="game")
        return postings[0]
    posting = table.posting_for(round_in.game, round_in.betting_structure)
    if posting is None:
        dealt = ", ".join(p.get_game_display() for p in postings)
        raise DomainError(f"Table {table.number} does not deal {_game_label(round_in.game)}; it deals {dealt}.",
                          field="game")
    return posting


def _verify_time(table: PokerTable, started_at, *, backfill: Backfill | None = None) -> date:
    """The gaming day of a round's start, refused when the time has no zone, is ahead of the casino's clock
    (CLOCK_TOLERANCE), falls before the records the casino keeps (Casino.records_kept_since) or, without a
    backfill, before the previous gaming day (not open: the current day and the previous one until closed are)."""
    if timezone.is_naive(started_at):
        raise DomainError("The round's time must carry a time zone.", field="started_at")
    if started_at > timezone.now() + CLOCK_TOLERANCE:
        raise DomainError("A round of play cannot start in the future (at most five minutes ahead of the "
                          "casino's clock).", field="started_at")
    try:
        gaming_day = gaming_day_of(casino=table.casino, moment=started_at)
    except (OverflowError, ValueError) as exc:
        raise DomainError("The round's time is out of range.", field="started_at") from exc
    if gaming_day < table.casino.records_kept_since:
        raise DomainError(f"The casino keeps records from gaming day {table.casino.records_kept_since:%Y-%m-%d}: "
                          "a round of play before it is not recorded.", field="started_at")
    if backfill is None and gaming_day < current_gaming_day(casino=table.casino) - timedelta(days=1):
        raise DomainError(not_open_message(casino=table.casino, gaming_day=gaming_day, what="a round of play"),
                          field="started_at")
    return gaming_day


def _game_label(game: str) -> str:
    return Game(game).label if game in Game.values else repr(game)


#: A control character (Unicode Cc) or a lone surrogate: never in a player's name (apps.core.validation).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _verify_players(table: PokerTable, players: Sequence[PlayerIn]) -> None:
    if len(players) < 2:
        raise DomainError("A round of play needs at least two players (N.J.A.C. 13:69F-14.6(b)).", field="players")
    if len(players) > table.seat_maximum:
        raise DomainError(f"This game seats at most {table.seat_maximum} players.", field="players")
    seats = [p.seat for p in players]
    if len(set(seats)) != len(seats):
        raise DomainError("Each seat may appear once.", field="players")
    for index, player in enumerate(players):
        where = f"players[{index}]"
        if not 1 <= player.seat <= 11:
            raise DomainError("A seat is numbered 1 to 11 (14.6(b)).", field=f"{where}.seat")
        if _CONTROL.search(player.name):
            raise DomainError("Control characters (NUL among them) are not allowed in a name.", field=f"{where}.name")
        for name in ("contributed", "returned", "dead"):
            amount = getattr(player, name)
            if amount is not None and (amount < 0 or amount != amount.quantize(CENT)):
                raise DomainError("Amounts are dollars of at least $0.00 with cents.", field=f"{where}.{name}")
            if amount is not None:
                fits_column(RoundPlayer, "contributed", amount, field=f"{where}.{name}")
        if (player.returned or ZERO) + player.dead > player.contributed:
            raise DomainError("What is given back and dead money are part of what the player put in.",
                              field=f"{where}.returned")
        if player.streets:
            net = player.contributed - (player.returned or ZERO)
            if any(a < 0 for a in player.streets) or sum(player.streets, ZERO) not in (player.contributed, net):
                raise DomainError("The betting rounds must add up to what the player put in.",
                                  field=f"{where}.streets")
    fits_column(RoundOfPlay, "total_bet", sum((p.contributed for p in players), ZERO), field="players",
                what="What the players put in")
    if all(p.folded for p in players):
        raise DomainError("At least one player must remain in the round.", field="players")
    if any(p.streets for p in players) and any(not p.streets for p in players if p.contributed > 0):
        raise DomainError("Give the betting rounds of every player who put chips in, or of none.", field="players")


def _verify_cards(game: hands.Game, round_in: RoundIn) -> tuple[dict[str, tuple], tuple]:
    """Every known card parsed; unknown, duplicate or wrongly counted cards refused with the field at fault, e.g.
    two hole cards in hold 'em (14.10(e)), four in Omaha (14.11(d)), five in draw (14.12(d)), at most five on the
    board. In a draw game a discarded card may be dealt again after the discards are reshuffled (14.12(f)2)."""
    holding, most_on_board = CARD_COUNTS[game]
    try:
        board = hands.parse_cards(round_in.board)
    except hands.HandError as exc:
        raise DomainError(str(exc), field="board") from exc
    if len(board) > most_on_board:
        raise DomainError(f"{game.value}: at most {most_on_board} community cards, got {len(board)}.", field="board")
    hole: dict[str, tuple] = {}
    for index, player in enumerate(round_in.players):
        where = f"players[{index}]"
        if player.draws or player.dealt_cards:
            _verify_draws(game, player, where)
        if not player.hole_cards:
            continue
        try:
            cards = hands.parse_cards(player.hole_cards)
        except hands.HandError as exc:
            raise DomainError(f"Seat {player.seat}: {exc}", field=f"{where}.hole_cards") from exc
        if len(cards) not in holding:
            raise DomainError(f"Seat {player.seat}: {game.value} players hold {' or '.join(map(str, holding))} "
                              f"cards, got {len(cards)}.", field=f"{where}.hole_cards")
        hole[str(player.seat)] = cards
    # in a draw game the discards and folded hands may be reshuffled and dealt again: the hands held to the end
    # are distinct; elsewhere every card dealt is
    folded = {str(p.seat) for p in round_in.players if p.folded} if game in DRAWS else set()
    try:
        hands.check_distinct(board, *(cards for seat, cards in hole.items() if seat not in folded))
    except hands.HandError as exc:
        raise DomainError(str(exc), field="players") from exc
    return hole, board


def _verify_draws(game: hands.Game, player: PlayerIn, where: str) -> None:
    if game not in DRAWS:
        raise DomainError(f"{game.value} has no draw.", field=f"{where}.draws")
    if len(player.draws) > DRAWS[game]:
        raise DomainError(f"{game.value} has {DRAWS[game]} draw(s), got {len(player.draws)}.", field=f"{where}.draws")
    for text, at in [(player.dealt_cards, f"{where}.dealt_cards")] + [
            (t, f"{where}.draws[{i}]") for i, d in enumerate(player.draws) for t in (d.discarded, d.drawn)]:
        tokens = text.replace("??", " ").split() if text else []
        try:
            hands.parse_cards(" ".join(tokens))
        except hands.HandError as exc:
            raise DomainError(f"Seat {player.seat}: {exc}", field=at) from exc
        if len(text.replace(" ", "")) % 2:
            raise DomainError(f"Seat {player.seat}: {text!r} is not a list of cards.", field=at)
