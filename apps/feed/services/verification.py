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
from apps.tables.models import Game, GamePosting, PokerTable, RotationGame, StraddleOption

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
#: Games with a flop and a board of five: a bomb pot, and a hand run more than once, are dealt in them only.
FLOP_GAMES = frozenset({hands.Game.HOLDEM, hands.Game.OMAHA, hands.Game.OMAHA_HILO8})
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
    #: a hand run two or three times: each run's board (`board` is the first's), and each run's showdown
    boards: tuple[tuple[hands.Card, ...], ...] = ()
    run_showdowns: list[dict[str, hands.ShowdownHand]] | None = None

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
        """The game of a mixed-game table's rotation the round was dealt in; None at a single-game table, whose
        posted game is the table itself."""
        return self.posting if isinstance(self.posting, RotationGame) else None

    @property
    def uncalled(self) -> Decimal:
        return sum(self.build.uncalled.values(), ZERO) if self.build else ZERO

    @property
    def pot_total(self) -> Decimal:
        """The sums bet: every pot before rake and contribution, the uncalled bet excluded (14.14(d))."""
        return ZERO if self.dead else self.total_bet - self.uncalled

    @property
    def straddles(self) -> int:
        """How many straddles were posted."""
        return sum(1 for p in self.round_in.players if p.straddle > 0)


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
    """Step 1: check a round of play against its table, without writing (N.J.A.C. 13:69F-14.9 to 14.13A). The
    game must be one the table deals (its game, or a game of its rotation; a mixed-game table needs the round to name
    it); two players at least and no more than the table seats (`_verify_seats`); amounts in dollars and cents, the
    betting rounds adding up, a dead blind and a straddle within what the player put in; the cards known, distinct,
    and as many as the game deals, a hand run more than once on two or three full boards that share the cards dealt
    before the all-in (`_verify_cards`); straddles where and as many as the game posts them (`_verify_straddles`); a
    bomb pot at the posted bomb-pot ante (`_verify_bomb_pot`); the table open now (field `table`), unless the round
    is backfilled. Raises DomainError naming the field. A round dated before the previous
    gaming day is refused unless it comes with `backfill` (whether its day is open is settled when it is written:
    hold_open_gaming_days)."""
    if not table.is_open and backfill is None:
        raise DomainError(f"Table {table.number} is closed: a round of play is dealt at an open table only.",
                          field="table")
    posting = _posting(table, round_in)
    game = hands.Game(posting.game)
    gaming_day = _verify_time(table, round_in.started_at, backfill=backfill)
    _verify_players(table, round_in.players)
    hole, board, boards = _verify_cards(game, round_in)
    _verify_straddles(posting, round_in)
    _verify_bomb_pot(posting, game, round_in, board)
    return VerifiedRound(table=table, posting=posting, game=game, round_in=round_in, hole=hole, board=board,
                         gaming_day=gaming_day, boards=boards)


def build_round(round_: VerifiedRound) -> None:
    """Step 2: the main pot and side pots from what each player put in (14.7(c)4), the uncalled bet given back
    (14.14(d)), dead money (antes posted dead, dead blinds) in the main pot unmatched, and the best hands of the
    players who contest a pot, on `round_` — on each run's board for a hand run more than once. A dead round
    has none. Raises DomainError when a contender's cards are missing or cannot make the game's hand, or a hand run
    more than once has nobody contesting the pot (field `boards`)."""
    if round_.dead:
        return
    players = round_.round_in.players
    out = _out_of_the_pots(players)
    tracked = all(p.returned is not None for p in players)
    try:
        build = hands.build_pots({str(p.seat): p.contributed for p in players}, folded=out,
                                 uncalled={str(p.seat): p.returned for p in players if p.returned is not None}
                                 if tracked else None,
                                 dead={str(p.seat): p.dead for p in players if p.dead})
    except hands.HandError as exc:
        raise DomainError(str(exc), field="players") from exc
    contested = any(len(pot.eligible) > 1 for pot in build.pots)
    if round_.boards and not contested:
        raise DomainError("A hand is run more than once between players all in at the showdown; nobody contests "
                          "this pot.", field="boards")
    showdown = {}
    if contested:
        _verify_shown(players, out, round_.hole, build.pots)
        try:
            showdown = hands.showdown_hands(round_.game, build.pots, round_.hole, round_.board)
            if round_.boards:  # each run's showdown on its own board; the first is `board`'s
                round_.run_showdowns = [showdown, *(hands.showdown_hands(round_.game, build.pots, round_.hole, b)
                                                    for b in round_.boards[1:])]
        except hands.HandError as exc:
            raise DomainError(str(exc), field="players") from exc
    round_.out, round_.build, round_.showdown, round_.contested = out, build, showdown, contested


def _out_of_the_pots(players: Sequence[PlayerIn]) -> frozenset[str]:
    """The seats that take no part in any pot: those who folded, and those who conceded a losing hand unshown at the
    showdown (mucked, 14.15(d)-conceded)."""
    return frozenset(str(p.seat) for p in players if p.folded or p.mucked)


def _verify_shown(players: Sequence[PlayerIn], out: frozenset[str], hole: dict[str, tuple],
                  pots: Sequence[hands.Pot]) -> None:
    """At the showdown every hand contesting a pot is shown in its entirety: each seat still in (`out`: those who
    folded or conceded) and eligible for a pot two or more contest has its hole cards in `hole` (14.15(d)-shown).
    Raises DomainError (field `players`) naming the seats whose cards are missing."""
    missing = [p.seat for p in players if str(p.seat) not in out and str(p.seat) not in hole
               and any(str(p.seat) in pot.eligible for pot in pots if len(pot.eligible) > 1)]
    if missing:
        raise DomainError(f"The showdown needs the hole cards of seat(s) {', '.join(map(str, missing))}.",
                          field="players")


# --- step 1 in detail -------------------------------------------------------------------------------------------

def _posting(table: PokerTable, round_in: RoundIn) -> GamePosting:
    """The game, as posted at the table (its game, or one of its rotation), a round was dealt in."""
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


#: The amounts of a player as the feed reports them -> the field an error names (the JSON feed's `dead_blind` is
#: PlayerIn.dead).
_AMOUNT_FIELDS = {"contributed": "contributed", "returned": "returned", "dead": "dead_blind", "straddle": "straddle"}

#: A control character (Unicode Cc) or a lone surrogate: never in a player's name (apps.core.validation).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _verify_seats(table: PokerTable, players: Sequence[PlayerIn]) -> None:
    """Who plays a round: two players at least and no more than the table seats, each in a seat of its own numbered
    1 to 11 (N.J.A.C. 13:69F-14.6(b)-two-to-eleven). Raises DomainError naming the field ("players",
    "players[i].seat")."""
    if len(players) < 2:
        raise DomainError("A round of play needs at least two players (N.J.A.C. 13:69F-14.6(b)).", field="players")
    if len(players) > table.seat_maximum:
        raise DomainError(f"This game seats at most {table.seat_maximum} players.", field="players")
    seats = [p.seat for p in players]
    if len(set(seats)) != len(seats):
        raise DomainError("Each seat may appear once.", field="players")
    for index, player in enumerate(players):
        if not 1 <= player.seat <= 11:
            raise DomainError("A seat is numbered 1 to 11 (14.6(b)).", field=f"players[{index}].seat")


def _verify_players(table: PokerTable, players: Sequence[PlayerIn]) -> None:
    _verify_seats(table, players)
    for index, player in enumerate(players):
        where = f"players[{index}]"
        if _CONTROL.search(player.name):
            raise DomainError("Control characters (NUL among them) are not allowed in a name.", field=f"{where}.name")
        for name, field in _AMOUNT_FIELDS.items():
            amount = getattr(player, name)
            if amount is not None and (amount < 0 or amount != amount.quantize(CENT)):
                raise DomainError("Amounts are dollars of at least $0.00 with cents.", field=f"{where}.{field}")
            if amount is not None:
                fits_column(RoundPlayer, "contributed", amount, field=f"{where}.{field}")
        if player.dead > player.contributed:
            raise DomainError("The dead blind is part of what the player put in (contributed).",
                              field=f"{where}.dead_blind")
        if player.dead + player.straddle > player.contributed:
            raise DomainError("The straddle is part of what the player put in (contributed), beside any dead blind.",
                              field=f"{where}.straddle")
        if (player.returned or ZERO) + player.dead > player.contributed:
            raise DomainError("What is given back and dead money are part of what the player put in.",
                              field=f"{where}.returned")
        first = player.streets[0] if player.streets else ZERO
        if player.streets and sum(player.streets, ZERO) != player.contributed and not any(player.streets[1:]):
            first += player.returned or ZERO  # given net of a bet nobody called, in the first round: a re-straddle's
        if player.streets and player.dead + player.straddle > first:
            raise DomainError("A dead blind and a straddle are put in before the cards: part of the first betting "
                              "round.", field=f"{where}.streets")
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


def _verify_cards(game: hands.Game, round_in: RoundIn) -> tuple[dict[str, tuple], tuple, tuple[tuple, ...]]:
    """Every known card parsed; unknown, duplicate or wrongly counted cards refused with the field at fault: the hole
    cards the game deals each player (`_hole_cards`), at most five on the board, no card dealt twice (`_dealt_once`:
    in a draw game a discarded card may be dealt again after the discards are reshuffled). Returns (hole cards by
    seat, the board, the run boards).

    A hand run more than once gives `boards`: two or three full boards in a game with a flop, which share the
    cards dealt before the all-in (none, the flop, or the flop and the turn) and differ in every card after it; no
    card twice across the hole cards and every board (one deck deals every run: apps.hands.verify_run_boards); its `board` is then empty or the first run's, and no player put anything in after
    the betting round of the all-in. """
    holding, most_on_board = CARD_COUNTS[game]
    try:
        board = hands.parse_cards(round_in.board)
    except hands.HandError as exc:
        raise DomainError(str(exc), field="board") from exc
    if len(board) > most_on_board:
        raise DomainError(f"{game.value}: at most {most_on_board} community cards, got {len(board)}.", field="board")
    boards = _run_boards(game, round_in, board)
    if boards:
        board = boards[0]
    hole: dict[str, tuple] = {}
    for index, player in enumerate(round_in.players):
        where = f"players[{index}]"
        if player.draws or player.dealt_cards:
            _verify_draws(game, player, where)
            _verify_draw_cards(player, where)
        if player.hole_cards:
            hole[str(player.seat)] = _hole_cards(game, player, where, holding)
    _dealt_once(game, round_in, board, hole)
    if boards:
        try:
            shared = hands.verify_run_boards(boards, *hole.values())
        except hands.HandError as exc:
            raise DomainError(str(exc), field="boards") from exc
        _verify_no_betting_after_the_run(round_in, shared)
    return hole, board, boards


def _hole_cards(game: hands.Game, player: PlayerIn, where: str, holding: tuple[int, ...]) -> tuple:
    """A player's hole cards, parsed: as many as the game deals each player (`holding`, CARD_COUNTS) — two in hold
    'em (N.J.A.C. 13:69F-14.10(e)-two-cards), four in Omaha (14.11(d)-four-cards), five in draw. Raises DomainError
    (field `where`.hole_cards) for a card that does not parse or a count the game does not deal."""
    try:
        cards = hands.parse_cards(player.hole_cards)
    except hands.HandError as exc:
        raise DomainError(f"Seat {player.seat}: {exc}", field=f"{where}.hole_cards") from exc
    if len(cards) not in holding:
        raise DomainError(f"Seat {player.seat}: {game.value} players hold {' or '.join(map(str, holding))} "
                          f"cards, got {len(cards)}.", field=f"{where}.hole_cards")
    return cards


def _dealt_once(game: hands.Game, round_in: RoundIn, board: tuple, hole: dict[str, tuple]) -> None:
    """No card dealt twice: the board and every hand are distinct, except that in a draw game the discards and the
    folded hands may be reshuffled and dealt again (N.J.A.C. 13:69F-14.12(f)2-reshuffle), so there only the hands
    held to the end are distinct. `hole`: hole cards by seat. Raises DomainError (field "players")."""
    folded = {str(p.seat) for p in round_in.players if p.folded} if game in DRAWS else set()
    try:
        hands.check_distinct(board, *(cards for seat, cards in hole.items() if seat not in folded))
    except hands.HandError as exc:
        raise DomainError(str(exc), field="players") from exc


#: The betting round of the all-in of a hand run more than once, by the cards the runs share: before the flop (none
#: shared), on the flop (3), on the turn (4). No one bets after it.
_ALL_IN_STREET = {0: 0, 3: 1, 4: 2}
_STREET_NAMES = ("before the flop", "on the flop", "on the turn")


def _run_boards(game: hands.Game, round_in: RoundIn, board: tuple) -> tuple[tuple, ...]:
    """The run boards of a hand run more than once, parsed (field `boards[i]`); () for a hand run once."""
    if not round_in.boards:
        return ()
    if game not in FLOP_GAMES:
        raise DomainError(f"{game.value} has no board to run more than once.", field="boards")
    if len(round_in.boards) not in (2, 3):
        raise DomainError(f"A hand is run two or three times; give two or three boards, not {len(round_in.boards)}.",
                          field="boards")
    boards = []
    for index, text in enumerate(round_in.boards):
        try:
            boards.append(hands.parse_cards(text))
        except hands.HandError as exc:
            raise DomainError(str(exc), field=f"boards[{index}]") from exc
    if board and board != boards[0]:
        raise DomainError("A hand run more than once gives its boards in `boards`; `board` is then empty or the first "
                          "run's.", field="board")
    return tuple(boards)


def _verify_no_betting_after_the_run(round_in: RoundIn, shared: int) -> None:
    """The hand was run once every bet was in: no betting round after the all-in's holds chips."""
    street = _ALL_IN_STREET[shared]
    for index, player in enumerate(round_in.players):
        if any(player.streets[street + 1:]):
            raise DomainError(f"The runs share {shared} cards: the players were all in {_STREET_NAMES[street]}, "
                              "and no one bets after it.", field=f"players[{index}].streets")


def _in_turn(players: Sequence[PlayerIn], button: int) -> list[PlayerIn]:
    """The players dealt in, in turn from the first to the left of the button (seats ascending, clockwise); a player
    on the button is last."""
    return sorted(players, key=lambda p: (p.seat - button - 1) % 11)


def _verify_straddles(posting: GamePosting, round_in: RoundIn) -> None:
    """The straddles of a round against the game as posted (GamePosting.straddles, maximum_straddles). A
    straddle is a live blind raise posted before the cards: none in a game that posts no straddle or in a bomb pot;
    no more than the posted maximum; under the gun, the first by the player to the left of the big blind and each
    re-straddle by the next player to the left (the round's `button` places them); on the button, by the player on
    the button (not a blind, so with three players or more); from any seat, by any player but the blinds (when the
    button is given). Each straddle is at least twice the bet before it (the big blind first): in turn from the
    button's left where the button places them, else from the smallest. Raises DomainError naming the player's
    `straddle` (or `button`)."""
    if round_in.button is not None and not 1 <= round_in.button <= 11:
        raise DomainError("The button is at a seat numbered 1 to 11.", field="button")
    straddlers = [(index, p) for index, p in enumerate(round_in.players) if p.straddle > 0]
    if not straddlers:
        return
    first = f"players[{straddlers[0][0]}].straddle"
    option = posting.straddles
    if option == StraddleOption.NONE:
        raise DomainError(f"{posting.game_label} allows no straddle as posted.", field=first)
    if round_in.bomb_pot:
        raise DomainError("A bomb pot has no betting before the flop: no straddle.", field=first)
    index_of = {id(p): index for index, p in enumerate(round_in.players)}
    button = round_in.button
    if button is None:
        if option != StraddleOption.ANY_SEAT:
            raise DomainError(f"Give the seat of the button: this game allows a straddle "
                              f"{StraddleOption(option).label.lower()} only.", field="button")
        order = sorted((p for _, p in straddlers), key=lambda p: (p.straddle, p.seat))
    else:
        turn = _in_turn(round_in.players, button)
        blinds = {p.seat for p in turn[:2]}  # heads up, the button is the small blind: both players are blinds
        if option == StraddleOption.UNDER_THE_GUN:  # in turn from the big blind's left
            chain = [p.seat for p in turn[2:]]
            where = f"under the gun (seat {chain[0]}), then by each next player to the left" if chain else \
                "under the gun, and heads up no one is"
        elif option == StraddleOption.BUTTON:
            chain = [button] if button not in blinds else []
            where = f"on the button (seat {button}), not by a blind"
        else:
            chain = [p.seat for p in turn if p.seat not in blinds]
            where = "from any seat but the blinds"
        order = [p for p in turn if p.straddle > 0]
        for number, player in enumerate(order):
            in_turn = option != StraddleOption.UNDER_THE_GUN or chain[number:number + 1] == [player.seat]
            if player.seat not in chain or not in_turn:
                raise DomainError(f"Seat {player.seat} may not straddle: this game allows a straddle {where}.",
                                  field=f"players[{index_of[id(player)]}].straddle")
    if len(order) > posting.maximum_straddles:
        extra = order[posting.maximum_straddles]
        raise DomainError(f"At most {posting.maximum_straddles} straddle(s) a round, as posted.",
                          field=f"players[{index_of[id(extra)]}].straddle")
    before = posting.big_blind
    for player in order:
        if before and player.straddle < 2 * before:
            raise DomainError(f"A straddle is at least twice the bet before it (${before:,.2f}); seat {player.seat} "
                              f"straddled ${player.straddle:,.2f}.", field=f"players[{index_of[id(player)]}].straddle")
        before = player.straddle


def _verify_bomb_pot(posting: GamePosting, game: hands.Game, round_in: RoundIn, board: tuple) -> None:
    """A bomb pot against the game as posted (GamePosting.bomb_pot_ante): offered (an ante above $0.00 in a
    game with a flop); every player dealt in put in exactly the ante before the flop (each player's first betting
    round, which the round must give, is the ante: no blind, no dead blind, no betting); the flop is dealt before any
    betting, so the board shows it. Raises DomainError naming the field (`bomb_pot`, `players[i].streets`,
    `players[i].dead_blind`, `board`)."""
    if not round_in.bomb_pot:
        return
    ante = posting.bomb_pot_ante
    if not ante or game not in FLOP_GAMES:
        raise DomainError(f"{posting.game_label} offers no bomb pot as posted.", field="bomb_pot")
    for index, player in enumerate(round_in.players):
        where = f"players[{index}]"
        if player.dead:
            raise DomainError("A bomb pot has no blinds: no dead blind.", field=f"{where}.dead_blind")
        if not player.streets:
            raise DomainError("A bomb pot gives each player's betting rounds, the first being the bomb-pot ante.",
                              field=f"{where}.streets")
        if player.streets[0] != ante:
            raise DomainError(f"In a bomb pot every player dealt in puts in the ${ante:,.2f} ante and nothing more "
                              f"before the flop; seat {player.seat} put in ${player.streets[0]:,.2f}.",
                              field=f"{where}.streets")
    if len(board) < 3:
        raise DomainError("A bomb pot deals the flop before any betting: give the board.", field="board")


def _verify_draws(game: hands.Game, player: PlayerIn, where: str) -> None:
    """A draw game's player draws at most as often as the game deals draws: once in five-card draw (14.12(f)-draw),
    three times in triple draw (14.12A(f)-draw, 14.12A(h), 14.12A(j)) and in badugi (14.12B(f)-draw, 14.12B(h),
    14.12B(j)). Raises DomainError naming the field (`where`: "players[i]")."""
    if game not in DRAWS:
        raise DomainError(f"{game.value} has no draw.", field=f"{where}.draws")
    if len(player.draws) > DRAWS[game]:
        raise DomainError(f"{game.value} has {DRAWS[game]} draw(s), got {len(player.draws)}.", field=f"{where}.draws")


def _verify_draw_cards(player: PlayerIn, where: str) -> None:
    """The cards a draw game's player was dealt, discarded and drew are cards ('??' for one not shown)."""
    for text, at in [(player.dealt_cards, f"{where}.dealt_cards")] + [
            (t, f"{where}.draws[{i}]") for i, d in enumerate(player.draws) for t in (d.discarded, d.drawn)]:
        tokens = text.replace("??", " ").split() if text else []
        try:
            hands.parse_cards(" ".join(tokens))
        except hands.HandError as exc:
            raise DomainError(f"Seat {player.seat}: {exc}", field=at) from exc
        if len(text.replace(" ", "")) % 2:
            raise DomainError(f"Seat {player.seat}: {text!r} is not a list of cards.", field=at)
