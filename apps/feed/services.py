"""The hand feed's writes: rounds of play recorded along the money path, in the regulation's order.

Every dollar of this system enters here. `record_rounds_of_play` is the one money path, read top to bottom:

    1. verify the round: players, cards, the game of the table or of its rotation    (14.6, 14.8, 14.9-14.13A)
    2. build the pots and side pots, give back the uncalled bet, rank the showdown    (14.7(c)4, 14.14(d), 14.3)
    3. take the rake                                     rake.services.take_rake       (14.14)
    4. take the bad beat contribution, after the rake    badbeat.services.take_contributions  (14.19(c))
    5. award the pots; move the kill button                                           (14.3, 14.10(j), 14.11(i))
    6. record the deck dealt                             decks.services.record_round_decks    (14.2(d)3)
    7. check the showdown for a bad beat                 badbeat.services.check_showdowns     (14.19(i))

Steps 1 and 2 write nothing (they read the table, its postings and the clock); 3 to 7 run in one transaction, which
takes the jackpot row locks at step 4, as late as the contribution allows, and commits right after step 7. Every
wait is bounded (PostgreSQL's lock_timeout: a lock held elsewhere answers 503, having written nothing). A round
called dead returns every chip and is logged as an irregularity (14.15(g)). Work that may wait for the commit
(alerts, notifications, sending to a multi-casino host) is started after it; nothing after the commit can undo a
round.
"""
from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps import hands
from apps.badbeat import services as badbeat
from apps.casinos.models import Backfill, Casino
from apps.casinos.selectors import (
    CLOCK_TOLERANCE,
    current_gaming_day,
    gaming_day_of,
    gaming_day_refusal,
    not_open_message,
)
from apps.casinos.services import hold_open_gaming_days
from apps.core.exceptions import AlreadyRecorded, DomainError, broken_constraint
from apps.core.money import CENT, ZERO
from apps.core.validation import fits_column
from apps.decks import services as decks
from apps.irregularities.models import IrregularityKind
from apps.irregularities.services import log_irregularity
from apps.rake import services as rake
from apps.rounds import services as records
from apps.rounds.models import RoundOfPlay, RoundPlayer, RoundSource
from apps.tables.models import Game, GamePosting, KillOption, PokerTable

from . import selectors
from .models import ImportJob, ImportStatus
from .phh import ParsedHand, PhhError, RefusedHand, parse_phh, sections
from .types import DrawIn, PlayerIn, RoundIn

logger = logging.getLogger(__name__)

__all__ = ["DrawIn", "ImportSummary", "PlayerIn", "RoundIn", "VerifiedRound", "betting_round_totals", "build_round",
           "import_phh", "record_round_of_play", "record_rounds_of_play", "verify_round", "verify_rounds"]

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
    def uncalled(self) -> Decimal:
        return sum(self.build.uncalled.values(), ZERO) if self.build else ZERO

    @property
    def pot_total(self) -> Decimal:
        """The sums bet: every pot before rake and contribution, the uncalled bet excluded (14.14(d))."""
        return ZERO if self.dead else self.total_bet - self.uncalled


# --- the money path --------------------------------------------------------------------------------------------

def record_round_of_play(*, table: PokerTable, round_in: RoundIn, recorded_by=None,
                         savepoint: bool = True, backfill: Backfill | None = None) -> RoundOfPlay:
    """Record and settle one round of play at `table`: `record_rounds_of_play` for one round (`savepoint` as there).
    Raises DomainError (field-level) and writes nothing for bad input."""
    return record_rounds_of_play(rounds=[(table, round_in)], recorded_by=recorded_by, savepoint=savepoint,
                                 backfill=backfill)[0]


def record_rounds_of_play(*, rounds: Sequence[tuple[PokerTable, RoundIn] | VerifiedRound],
                          recorded_by=None, savepoint: bool = True,
                          backfill: Backfill | None = None) -> list[RoundOfPlay]:
    """Record and settle rounds of play, each at its table, in one transaction; the recorded rounds in order.

    rounds: (table, round as the feed reports it), or a VerifiedRound that already passed steps 1 and 2 (a PHH
    file is verified whole before any of it is written).

    The money path in the regulation's order (see the module's docstring). Chips are conserved in every round:
    what the players put in = the uncalled bet given back + the rake + the contributions + the awards. Amounts are
    Decimal dollars. A round with a `dead_reason` is called dead: every chip goes back, nothing is raked or
    contributed, and the irregularity is logged (14.15(g)). Every jackpot of the casinos concerned is row-locked
    from step 4 to the commit: keep batches small (the PHH import writes IMPORT_BATCH rounds at a time).

    Money goes only into an open gaming day of the casino: the current one, or the previous one until it is closed
    (apps.casinos.services.hold_open_gaming_days); an earlier day only through `backfill`, an administrator's
    backfill of a past day that holds no other records.

    Raises DomainError naming the field — fewer than two players, more than the game seats, a game the table does
    not deal, unknown, duplicate or miscounted cards, a gaming day that is not open, a source hand already stored,
    a deck not at the table — and writes nothing then.

    Inside a caller's transaction the rounds are written in a savepoint of their own, so that a caller may catch the
    DomainError and go on in its transaction. `savepoint=False` spares that savepoint (two statements: SAVEPOINT and
    RELEASE) for a caller whose transaction is rolled back, whole or to a savepoint of its own, on any error: the
    API's request with an Idempotency-Key, whose savepoint rolls back an answer of 400 or more (without a key, the
    rounds' transaction is the request's own and takes no savepoint anyway). After an error such a caller must not
    query before that rollback (Django's `transaction.atomic(savepoint=False)`).
    """
    # 1. Verify each round: players, cards, the game of the table or its rotation, its gaming day.
    verified = [r if isinstance(r, VerifiedRound) else verify_round(table=r[0], round_in=r[1], backfill=backfill)
                for r in rounds]
    # 2. Build the main pot and side pots, give back the uncalled bet (14.7(c)4, 14.14(d)), rank the showdown.
    for round_ in verified:
        if round_.build is None:
            build_round(round_)
    with transaction.atomic(savepoint=savepoint):
        # ... and the gaming days stay open until these rounds commit: a closed day takes no round of play.
        for casino, days in _gaming_days(verified):
            hold_open_gaming_days(casino=casino, days=days, what="a round of play", field="started_at",
                                  backfill=backfill)
        recorded = _create_rounds(verified, recorded_by)
        settled = [(v, r) for v, r in zip(verified, recorded, strict=True) if not v.dead]
        # 3. The rake, first from the pots (14.14).
        raked = rake.take_rake(rounds=[r for _, r in settled])
        # 4. The bad beat contribution, from the pot after the rake (14.19(c)), the jackpots row-locked to the commit.
        jackpots = badbeat.lock_jackpots(rounds=[r for _, r in settled])
        contributed = badbeat.take_contributions(
            rounds=[r for _, r in settled], jackpots=jackpots,
            after_rake=[r.pot_total - taken for (_, r), taken in zip(settled, raked, strict=True)])
        # 5. Award the pots, the deductions coming out of the main pot first (14.3, 14.10(j)); the kill (14.11(i)).
        settlements = [_award(v, r, taken + contribution)
                       for (v, r), taken, contribution in zip(settled, raked, contributed, strict=True)]
        _record_seats_and_pots(verified, recorded, dict(zip([r.pk for _, r in settled], settlements, strict=True)))
        for (verified_round, round_of_play), settlement in zip(settled, settlements, strict=True):
            if verified_round.table.kill_option != KillOption.NONE and not verified_round.table.is_mixed:
                records.move_kill_button(round_of_play=round_of_play, table=verified_round.table,
                                         awards=settlement.awards)
        for verified_round, round_of_play in zip(verified, recorded, strict=True):
            if verified_round.dead:  # called dead: an irregularity of the shift (14.15(g))
                log_irregularity(table=verified_round.table, kind=IrregularityKind.DEAD_ROUND,
                                 description=f"Round called dead: {round_of_play.dead_reason}; "
                                             f"${round_of_play.refunded_amount:,.2f} returned to the players.",
                                 at=min(round_of_play.started_at, timezone.now()), reported_by=recorded_by,
                                 round_of_play=round_of_play)
        # 6. The deck dealt (14.2(d)3).
        decks.record_round_decks(rounds=[(r, v.round_in.deck) for v, r in zip(verified, recorded, strict=True)])
        # 7. Every showdown checked for a bad beat: a pending claim for the supervisor (14.19(i)).
        badbeat.check_showdowns(settled=[(r, s) for (_, r), s in zip(settled, settlements, strict=True)],
                                jackpots=jackpots)
    return recorded


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
                                 uncalled={str(p.seat): p.returned for p in players} if tracked else None,
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


def betting_round_totals(players: Sequence[PlayerIn], uncalled: dict[str, Decimal]) -> list[Decimal]:
    """Sums bet in each betting round (N.J.A.C. 13:69F-14.14(b)1.i, (d)), Decimal dollars; empty when the feed gave
    no betting rounds. The uncalled final bet is taken out of the rounds where it was bet, last first, unless the
    feed tracked it (`PlayerIn.returned`), in which case its betting rounds already leave it out."""
    if not players or any(not p.streets for p in players if p.contributed > 0):
        return []
    width = max(len(p.streets) for p in players)
    totals = [ZERO] * width
    for p in players:
        streets = list(p.streets) + [ZERO] * (width - len(p.streets))
        left = ZERO if p.returned is not None else uncalled.get(str(p.seat), ZERO)
        for i in reversed(range(width)):
            take = min(left, streets[i])
            streets[i] -= take
            left -= take
        for i, amount in enumerate(streets):
            totals[i] += amount
    return [t.quantize(CENT) for t in totals]


# --- step 1: verification --------------------------------------------------------------------------------------

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


def _gaming_days(verified: Sequence[VerifiedRound]) -> list[tuple[Casino, set[date]]]:
    """The casinos of the rounds, in id order, each with the gaming days its rounds are recorded in."""
    days: dict[int, tuple[Casino, set[date]]] = {}
    for v in verified:
        days.setdefault(v.table.casino_id, (v.table.casino, set()))[1].add(v.gaming_day)
    return [days[casino_id] for casino_id in sorted(days)]


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


# --- steps 3 to 7: the records ---------------------------------------------------------------------------------

def _create_rounds(verified: Sequence[VerifiedRound], recorded_by) -> list[RoundOfPlay]:
    digests = [v.round_in.source_digest for v in verified if v.round_in.source_digest]
    if len(set(digests)) != len(digests):
        raise DomainError("The same source hand is given twice.", field="source_digest")
    rows = []
    for v in verified:
        round_in = v.round_in
        build = v.build
        rows.append(RoundOfPlay(
            table=v.table, game=v.game.value, betting_structure=v.posting.betting_structure,
            rotation_game=v.posting.rotation_game, started_at=round_in.started_at, gaming_day=v.gaming_day,
            board=hands.format_cards(v.board), total_bet=v.total_bet, uncalled_amount=v.uncalled,
            refunded_amount=v.total_bet if v.dead else ZERO, pot_total=v.pot_total, is_dead=v.dead,
            dead_reason=round_in.dead_reason[:200], went_to_showdown=v.contested,
            betting_rounds=[] if v.dead else [str(t) for t in betting_round_totals(round_in.players, build.uncalled)],
            source=round_in.source, source_name=round_in.source_name[:300], source_digest=round_in.source_digest,
            recorded_by=recorded_by))
    if not digests:  # nothing unique to collide with: no savepoint needed
        return records.create_rounds(rounds=rows)
    try:
        with transaction.atomic():
            return records.create_rounds(rounds=rows)
    except IntegrityError as exc:
        if "source_digest" not in broken_constraint(exc):
            raise
        raise _already_recorded(verified) from exc


def _already_recorded(verified: Sequence[VerifiedRound]) -> AlreadyRecorded:
    """The refusal of rounds one of which is stored already (the same external id of a JSON feed, the same PHH hand),
    e.g. posted twice at once: the first commits, the second meets the unique source digest. 409 with the stored
    round's id (`existing_id`); the field is `external_id` for a JSON round, `source_digest` otherwise."""
    by_digest = {v.round_in.source_digest: v.round_in for v in verified if v.round_in.source_digest}
    existing = RoundOfPlay.objects.filter(source_digest__in=by_digest).values_list("pk", "source_digest").first()
    if existing is None:  # the other request rolled back meanwhile: this one may be tried again
        return AlreadyRecorded("This source hand is being recorded by another request: try again.",
                               field="source_digest")
    pk, digest = existing
    round_in = by_digest[digest]
    if round_in.source == RoundSource.JSON:
        return AlreadyRecorded(f"Round {round_in.source_name!r} is already recorded (round of play {pk}).",
                               field="external_id", existing_id=pk)
    return AlreadyRecorded(f"This source hand is already recorded (round of play {pk}).", field="source_digest",
                           existing_id=pk)


def _award(v: VerifiedRound, round_of_play: RoundOfPlay, deducted: Decimal) -> hands.Settlement:
    """Step 5: the rake and contribution come out of the main pot first, then the side pots in order; each pot goes
    to its winners as the engine ranks the hands (14.3, 14.10(j), 14.11(f)-(g))."""
    net = []
    for pot in v.build.pots:
        take = min(pot.amount, deducted)
        deducted -= take
        net.append(hands.Pot(amount=pot.amount - take, eligible=pot.eligible))
    hole = {seat: cards for seat, cards in v.hole.items() if seat not in v.out} if v.contested else {}
    return hands.award_pots(v.game, net, hole, v.board, showdown=v.showdown or {})


def _record_seats_and_pots(verified: Sequence[VerifiedRound], recorded: Sequence[RoundOfPlay],
                           settlements: dict[int, hands.Settlement]) -> None:
    seats: list[records.SeatRow] = []
    pots: list[records.PotRow] = []
    for v, round_of_play in zip(verified, recorded, strict=True):
        settlement = settlements.get(round_of_play.pk)
        for p in v.round_in.players:
            seat = str(p.seat)
            best = settlement.hands.get(seat) if settlement else None
            high = best.high if best is not None else None
            low = best.low if best is not None else None
            seats.append(records.SeatRow(
                round_of_play_id=round_of_play.pk, seat=p.seat, name=p.name[:80], starting_stack=p.starting_stack,
                contributed=p.contributed, returned=p.contributed if v.dead else v.build.uncalled.get(seat, ZERO),
                hole_cards=hands.format_cards(v.hole[seat]) if seat in v.hole else "", dealt_cards=p.dealt_cards[:40],
                draws=[{"discarded": d.discarded, "drawn": d.drawn} for d in p.draws], folded=p.folded,
                at_showdown=v.contested and seat not in v.out,
                high_hand=high.category.label if high is not None else "",
                high_cards=hands.format_cards(high.cards) if high is not None else "",
                low_hand=low.category.label if low is not None else "",
                low_cards=hands.format_cards(low.cards) if low is not None else "",
                awarded=settlement.awards.get(seat, ZERO) if settlement else ZERO))
        if settlement is None:
            continue
        for index, (gross, result) in enumerate(zip(v.build.pots, settlement.pots, strict=True)):
            pots.append(records.PotRow(
                round_of_play_id=round_of_play.pk, index=index, gross=gross.amount,
                deducted=gross.amount - result.pot.amount, amount=result.pot.amount,
                eligible_seats=sorted(int(s) for s in gross.eligible),
                awards=[(int(seat), amount) for seat, amount in sorted(result.awards.items(), key=lambda kv: int(kv[0]))
                        if amount > 0]))
    written_seats, written_pots = records.record_seats_and_pots(seats=seats, pots=pots)
    # each recorded round holds its seats and pots as written (as a prefetch would): the answer reads them from here
    players: dict[int, list] = {r.pk: [] for r in recorded}
    pots_of: dict[int, list] = {r.pk: [] for r in recorded}
    for seat in sorted(written_seats, key=lambda p: p.seat):
        players[seat.round_of_play_id].append(seat)
    for pot in written_pots:
        pots_of[pot.round_of_play_id].append(pot)
    for round_of_play in recorded:
        records.hold_prefetched(round_of_play, players=players[round_of_play.pk], pots=pots_of[round_of_play.pk])


# --- PHH imports -----------------------------------------------------------------------------------------------

#: Rounds written per transaction by an import: the jackpot rows stay locked well under 100 ms per batch, so rounds
#: from the tables go through while a long import runs.
IMPORT_BATCH = getattr(settings, "PHH_IMPORT_BATCH", 200)  # settings.PHH_IMPORT_BATCH: the fault harness lowers it


@dataclass
class VariantTally:
    """What an import did with the hands of one PHH variant: imported, already stored, refused (label, reason)."""

    imported: int = 0
    already_stored: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class ImportSummary:
    """What an import did, per variant, with the files refused whole (malformed: nothing of them stored) and the
    rounds written at each table."""

    variants: dict[str, VariantTally] = field(default_factory=dict)
    files_refused: list[tuple[str, str]] = field(default_factory=list)
    tables: dict[int, int] = field(default_factory=dict)
    existing_round_id: int | None = None  # a round of play that held one of the hands already stored

    @property
    def nothing_new(self) -> bool:
        """Every hand of the text was stored already (none taken in, none refused)."""
        return self.already_stored > 0 and not self.imported and not self.refused

    def tally(self, variant: str) -> VariantTally:
        return self.variants.setdefault(variant, VariantTally())

    @property
    def imported(self) -> int:
        return sum(t.imported for t in self.variants.values())

    @property
    def already_stored(self) -> int:
        return sum(t.already_stored for t in self.variants.values())

    @property
    def refused(self) -> int:
        return sum(len(t.refused) for t in self.variants.values())

    def as_json(self) -> dict:
        return {"imported": self.imported, "skipped": self.already_stored, "refused": self.refused,
                "variants": {code: {"imported": t.imported, "already_stored": t.already_stored,
                                    "refused": [{"hand": label, "reason": reason} for label, reason in t.refused]}
                             for code, t in sorted(self.variants.items())},
                "files_refused": [{"file": name, "reason": reason} for name, reason in self.files_refused],
                "tables": {str(number): count for number, count in sorted(self.tables.items())}}


def import_phh(*, casino: Casino, text: str, name: str, table: PokerTable | None = None, recorded_by=None,
               summary: ImportSummary | None = None, progress: Callable[[int], None] | None = None,
               batch_size: int = IMPORT_BATCH, backfill: Backfill | None = None) -> ImportSummary:
    """Take the hands of one PHH text (`.phh` or `.phhs`) in as rounds of play of `casino`; the summary.

    Each hand goes to a table of the casino that deals its game — a single-game table of that game or a mixed-game
    table whose rotation includes it, preferably one posting the hand's blinds or bring-in and its betting
    structure — or to `table`, which must deal the hand's game. Hands go to open tables only (a closed `table`
    refuses the whole text, DomainError field "table"), but for a backfill's. A hand no New Jersey game matches
    (short-deck hold 'em), or that no table deals, is refused with the reason and the others go in; a hand already stored
    (same source digest) is counted and not stored again, so importing again changes nothing. The whole text is
    read, accounted and verified first; then it is written `batch_size` rounds per transaction along the money
    path (record_rounds_of_play), so no lock is held across batches. `progress(n)` is called as hands are done.

    A hand dated in a gaming day that is not open (the current one, and the previous one until it is closed) is
    refused with the reason, unless `backfill` is given: an administrator's backfill (casinos.Backfill) records
    into past gaming days that hold no other records; the caller closes them when it ends
    (apps.counts.services.close_backfilled_days). A hand dated in a closed day is refused either way.

    Raises DomainError (field "phh") for a malformed text — TOML, a field, cards, actions that cannot have
    happened, cards that do not fit the game — and stores nothing of it then.
    """
    summary = summary if summary is not None else ImportSummary()
    try:
        parsed = list(parse_phh(text, name=name, zone=casino.zone))
    except PhhError as exc:
        raise DomainError(str(exc), field="phh") from exc
    if table is not None:
        table = selectors.tables_dealing(casino=casino).get(pk=table.pk)
        tables = [table]
    else:
        tables = list(selectors.tables_dealing(casino=casino))
    stored_ids = dict(RoundOfPlay.objects.filter(source_digest__in=[
        h.round_in.source_digest if isinstance(h, ParsedHand) else h.source_digest for h in parsed])
        .values_list("source_digest", "pk"))
    stored = set(stored_ids)
    fresh: list[tuple[VerifiedRound, str]] = []
    day_refusals: dict[tuple[int, date], str | None] = {}
    for hand in parsed:
        if isinstance(hand, RefusedHand):
            summary.tally(hand.variant).refused.append((hand.label, hand.reason))
            continue
        if hand.round_in.source_digest in stored:
            summary.tally(hand.variant.code).already_stored += 1
            if summary.existing_round_id is None:
                summary.existing_round_id = stored_ids.get(hand.round_in.source_digest)
            continue
        chosen, reason = selectors.table_for_hand(hand=hand, tables=tables, fixed=table is not None,
                                                  open_only=backfill is None)
        if chosen is None:
            summary.tally(hand.variant.code).refused.append((hand.label, reason))
            continue
        try:
            verified = verify_round(table=chosen, round_in=hand.round_in, backfill=backfill)
        except DomainError as exc:
            if exc.field == "started_at":  # dated where the casino records nothing: this hand only is refused
                summary.tally(hand.variant.code).refused.append((hand.label, exc.message))
                continue
            if exc.field == "table":  # the table given is closed: no hand of the text goes in
                raise
            raise DomainError(f"{hand.label}: {exc.message}", field="phh") from exc
        key = (chosen.casino_id, verified.gaming_day)
        if key not in day_refusals:
            day_refusals[key] = gaming_day_refusal(casino=chosen.casino, gaming_day=verified.gaming_day,
                                                   what="a round of play", backfill=backfill)
        if day_refusals[key]:
            summary.tally(hand.variant.code).refused.append((hand.label, day_refusals[key]))
            continue
        try:
            build_round(verified)
        except DomainError as exc:
            raise DomainError(f"{hand.label}: {exc.message}", field="phh") from exc
        stored.add(hand.round_in.source_digest)
        fresh.append((verified, hand.variant.code))
    if progress is not None:
        progress(len(parsed) - len(fresh))
    for start in range(0, len(fresh), batch_size):
        batch = fresh[start:start + batch_size]
        written = _write_batch(batch, recorded_by, backfill)
        for (verified, code), was_written in zip(batch, written, strict=True):
            if was_written:
                summary.tally(code).imported += 1
                summary.tables[verified.table.number] = summary.tables.get(verified.table.number, 0) + 1
            else:
                summary.tally(code).already_stored += 1
        if progress is not None:
            progress(len(batch))
    if summary.existing_round_id is None and summary.already_stored:  # stored meanwhile by another import
        summary.existing_round_id = RoundOfPlay.objects.filter(
            source_digest__in=[v.round_in.source_digest for v, _ in fresh]).values_list("pk", flat=True).first()
    return summary


#: Seconds an import waits before writing a batch again when the database was busy (a row lock or a statement past
#: its timeout, a deadlock: apps.core.unavailable); then the error goes up (a 503, or the task's retry).
IMPORT_BATCH_BACKOFF = (0.5, 1.0, 2.0)


def _record_batch(rounds: list[VerifiedRound], **kwargs) -> None:
    """record_rounds_of_play, written again after IMPORT_BATCH_BACKOFF when the database was busy — only outside an
    enclosing transaction, where the failed batch's transaction was rolled back whole and nothing else with it."""
    from django.db import OperationalError, connection

    from apps.core.unavailable import BUSY_RETRY_AFTER, unavailable

    for pause in (*IMPORT_BATCH_BACKOFF, None):
        try:
            record_rounds_of_play(rounds=rounds, **kwargs)
            return
        except OperationalError as exc:
            condition = unavailable(exc)
            if pause is None or connection.in_atomic_block or condition is None \
                    or condition.retry_after != BUSY_RETRY_AFTER:
                raise
            logger.warning("Import batch of %d rounds: %s; written again in %.1f s", len(rounds), condition.reason,
                           pause)
            time.sleep(pause)


def _write_batch(batch: Sequence[tuple[VerifiedRound, str]], recorded_by, backfill: Backfill | None) -> list[bool]:
    """Record a batch of verified rounds; a hand stored meanwhile by another import is left out. Which were
    written."""
    todo = list(batch)
    for _attempt in range(3):
        try:
            _record_batch([v for v, _ in todo], recorded_by=recorded_by, backfill=backfill)
            written = {id(v) for v, _ in todo}
            return [id(v) in written for v, _ in batch]
        except DomainError as exc:
            if exc.field != "source_digest":
                raise
            taken = set(RoundOfPlay.objects.filter(source_digest__in=[v.round_in.source_digest for v, _ in todo])
                        .values_list("source_digest", flat=True))
            todo = [(v, code) for v, code in todo if v.round_in.source_digest not in taken]
            if not todo:
                return [False] * len(batch)
    raise DomainError("This file is being imported by someone else at the same time; import it again.", field="phh")


# --- import jobs (an API import of more than ASYNC_IMPORT_HANDS hands) -----------------------------------------

#: An API import of more hands than this runs as a Celery task and answers 202 with a job to poll
#: (settings.PHH_ASYNC_IMPORT_HANDS; the fault harness lowers it).
ASYNC_IMPORT_HANDS = getattr(settings, "PHH_ASYNC_IMPORT_HANDS", 1000)


def count_hands(*, text: str, name: str) -> int:
    """How many hands a PHH text holds (its TOML read, nothing accounted). Raises DomainError (field "phh")."""
    try:
        return len(sections(text, name=name))
    except PhhError as exc:
        raise DomainError(str(exc), field="phh") from exc


@transaction.atomic
def queue_import(*, casino: Casino, text: str, name: str, hands_count: int, requested_by,
                 table: PokerTable | None = None) -> ImportJob:
    """Keep a PHH text as an import job and start it once committed (apps.feed.tasks.run_import). The job row is the
    work: when the broker cannot take the task, the job stays queued, the request still answers, and the sweeper
    (`sweep_import_jobs`) sends it once the broker is back."""
    job = ImportJob.objects.create(casino=casino, text=text, name=name[:200], hands=hands_count, table=table,
                                   requested_by=requested_by)
    transaction.on_commit(lambda: send_import_job(job_id=job.pk))
    return job


def send_import_job(*, job_id: int, now=None) -> bool:
    """Hand an import job's task to the broker (after the commit that recorded it) and note it on the job; False
    (logged) when the broker did not take it, or the note could not be written: the sweeper sends it again."""
    from django.db import DatabaseError, models

    from apps.core.tasks import send_task

    from .tasks import run_import

    if not send_task(run_import, job_id=job_id):
        return False
    try:
        ImportJob.objects.filter(pk=job_id).update(enqueued_at=now or timezone.now(),
                                                   attempts=models.F("attempts") + 1)
    except DatabaseError:
        logger.warning("Import job %s sent, but its sending not noted", job_id, exc_info=True)
        return False
    return True


#: The sweeper (settings.CELERY_BEAT_SCHEDULE, every IMPORT_JOB_SWEEP_SECONDS) sends again a job queued and never
#: sent after IMPORT_JOB_SEND_GRACE_S (the broker was down at the commit); sent and still queued after
#: IMPORT_JOB_RESEND_AFTER_S, doubling with each sending up to an hour (its message was lost: a Redis restarted
#: without its data); running with no progress for IMPORT_JOB_STALE_AFTER_S (its worker died mid-batch). Each may
#: be set in settings.
IMPORT_JOB_SEND_GRACE_S = 5.0
IMPORT_JOB_RESEND_AFTER_S = 300.0
IMPORT_JOB_STALE_AFTER_S = 300.0


def sweep_import_jobs(*, now=None) -> list[int]:
    """Send again the import jobs that were never sent, whose message was lost, or whose worker died (the thresholds
    above); the ids sent. Idempotent: a job sent twice runs once at a time (its advisory lock, `run_import_job`) and
    stores no hand twice."""
    from django.db.models import Q

    now = now or timezone.now()
    grace = getattr(settings, "IMPORT_JOB_SEND_GRACE_S", IMPORT_JOB_SEND_GRACE_S)
    resend = getattr(settings, "IMPORT_JOB_RESEND_AFTER_S", IMPORT_JOB_RESEND_AFTER_S)
    stale = getattr(settings, "IMPORT_JOB_STALE_AFTER_S", IMPORT_JOB_STALE_AFTER_S)
    candidates = ImportJob.objects.filter(
        Q(status=ImportStatus.QUEUED, enqueued_at__isnull=True, created_at__lte=now - timedelta(seconds=grace))
        | Q(status=ImportStatus.QUEUED, enqueued_at__lte=now - timedelta(seconds=resend))
        | Q(status=ImportStatus.RUNNING, heartbeat_at__lte=now - timedelta(seconds=stale))
        | Q(status=ImportStatus.RUNNING, heartbeat_at__isnull=True, started_at__lte=now - timedelta(seconds=stale))
    ).order_by("pk").values_list("pk", "status", "enqueued_at", "attempts")
    sent = []
    for pk, status, enqueued_at, attempts in candidates:
        backoff = min(resend * 2 ** max(attempts - 1, 0), 3600.0)
        if status == ImportStatus.QUEUED and enqueued_at is not None and enqueued_at > now - timedelta(seconds=backoff):
            continue
        if send_import_job(job_id=pk, now=now):
            sent.append(pk)
        else:
            break  # the broker is not taking messages: the next sweep tries again
    if sent:
        logger.warning("Import jobs sent again by the sweeper: %s", sent)
    return sent


#: pg_try_advisory_lock(space, job id): the session running an import job (one at a time per job).
IMPORT_JOB_LOCK_SPACE = 0x1F0B


def run_import_job(*, job_id: int) -> ImportJob:
    """Run an import job: `import_phh` with its progress kept on the job (each batch of hands, visible at once to
    whoever polls it) and its summary at the end; a malformed text fails the job with the reason. Idempotent: a job
    done or failed is left as it is, a job run again stores no hand twice, and a job another worker is running (its
    session's advisory lock) is left to it."""
    from django.db import connection

    on_postgresql = connection.vendor == "postgresql"
    if on_postgresql:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [IMPORT_JOB_LOCK_SPACE, job_id % 2**31])
            if not cursor.fetchone()[0]:
                return ImportJob.objects.get(pk=job_id)
    try:
        return _run_import_job(job_id=job_id)
    finally:
        if on_postgresql and connection.connection is not None and not connection.needs_rollback:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [IMPORT_JOB_LOCK_SPACE, job_id % 2**31])
            except Exception:  # noqa: BLE001 - a broken connection: its session, and the lock, are gone with it
                logger.warning("Import job %s: advisory lock not released (connection lost)", job_id)


def _run_import_job(*, job_id: int) -> ImportJob:
    with transaction.atomic():
        job = (ImportJob.objects.select_for_update(of=("self",)).select_related("casino", "table", "requested_by")
               .get(pk=job_id))
        if job.status in (ImportStatus.DONE, ImportStatus.FAILED):
            return job
        job.status, job.started_at, job.processed = ImportStatus.RUNNING, timezone.now(), 0
        job.heartbeat_at = job.started_at
        job.save(update_fields=["status", "started_at", "processed", "heartbeat_at"])
    summary = ImportSummary()
    done = 0

    def progress(count: int) -> None:
        nonlocal done
        done += count
        ImportJob.objects.filter(pk=job.pk).update(processed=min(done, job.hands), heartbeat_at=timezone.now())

    try:
        import_phh(casino=job.casino, text=job.text, name=job.name, table=job.table, recorded_by=job.requested_by,
                   summary=summary, progress=progress)
    except DomainError as exc:
        ImportJob.objects.filter(pk=job.pk).update(status=ImportStatus.FAILED, error=exc.message,
                                                   summary=summary.as_json(), finished_at=timezone.now())
    else:
        ImportJob.objects.filter(pk=job.pk).update(status=ImportStatus.DONE, processed=job.hands,
                                                   summary=summary.as_json(), finished_at=timezone.now())
    job.refresh_from_db()
    return job
