"""Writes of the hand feed: recording and settling a round of play."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from functools import cache

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from apps import hands
from apps.casinos.selectors import gaming_day_of
from apps.core.exceptions import DomainError
from apps.core.money import CENT, ZERO
from apps.tables.models import KillOption, PokerTable

from .models import KillMove, KillRecord, Pot, PotAward, RoundOfPlay, RoundPlayer, RoundSource
from .signals import round_recorded, round_settled


@dataclass(frozen=True)
class PlayerIn:
    """A seat as reported by the feed.

    contributed: Decimal dollars, everything the player put in during the round, an uncalled final bet
    included (it is given back and never part of the pot, 14.14(d)). hole_cards: '' when unknown.
    mucked: the player reached the showdown but conceded without showing (14.15(d)).
    streets: optional, what the player put in each betting round in order (antes and blinds in the first);
    they add up to `contributed`. With them the percentage rake is limited betting round by betting round.
    """

    seat: int
    contributed: Decimal
    name: str = ""
    hole_cards: str = ""
    folded: bool = False
    mucked: bool = False
    starting_stack: Decimal | None = None
    streets: tuple[Decimal, ...] = ()


@dataclass(frozen=True)
class RoundIn:
    """A round of play as reported by the feed (PHH import, JSON API, dealer simulator)."""

    players: Sequence[PlayerIn]
    started_at: datetime
    board: str = ""
    source: str = RoundSource.JSON
    source_name: str = ""
    source_digest: str | None = None
    dead_reason: str = ""  # non-empty: the round was called dead (N.J.A.C. 13:69F-14.15(g))
    extra: dict = field(default_factory=dict)


Deduction = Callable[..., Decimal]


@cache
def _deductions() -> tuple[Deduction, ...]:
    return tuple(import_string(path) for path in settings.POT_DEDUCTIONS)


#: Cards a player may hold, and the most community cards, by game (14.9(c)-(h), 14.10(e), 14.11(d), 14.12(d),
#: 14.12A(d), 14.12B(d), 14.13(c)-(g), 14.13A(c)-(h)). Stud hands may be reported short of the last cards.
_CARD_COUNTS: dict[str, tuple[tuple[int, ...], int]] = {
    hands.Game.HOLDEM: ((2,), 5), hands.Game.OMAHA: ((4,), 5), hands.Game.OMAHA_HILO8: ((4,), 5),
    hands.Game.STUD: ((2, 3, 4, 5, 6, 7), 1), hands.Game.STUD_LOW: ((2, 3, 4, 5, 6, 7), 1),
    hands.Game.STUD_HILO: ((2, 3, 4, 5, 6, 7), 1), hands.Game.STUD_HILO8: ((2, 3, 4, 5, 6, 7), 1),
    hands.Game.FIVE_CARD_STUD: ((2, 3, 4, 5), 0), hands.Game.DRAW_HIGH: ((5,), 0), hands.Game.DRAW_LOW: ((5,), 0),
    hands.Game.TRIPLE_DRAW_27: ((5,), 0), hands.Game.BADUGI: ((4,), 0), hands.Game.MAMBO_STUD: ((2, 3, 4), 1),
}


def _verify_cards(game: hands.Game, round_in: RoundIn) -> tuple[dict[str, tuple], tuple]:
    """Parse every known card, refusing unknown, duplicate or wrongly counted cards for the game (field-level
    errors): e.g. two hole cards in hold 'em (14.10(e)), four in Omaha (14.11(d)), at most five on the board."""
    holding, most_on_board = _CARD_COUNTS[game]
    try:
        board = hands.parse_cards(round_in.board)
    except hands.HandError as exc:
        raise DomainError(str(exc), field="board") from exc
    if len(board) > most_on_board:
        raise DomainError(f"{game.value}: at most {most_on_board} community cards, got {len(board)}.", field="board")
    hole: dict[str, tuple] = {}
    for index, player in enumerate(round_in.players):
        if not player.hole_cards:
            continue
        try:
            hole[str(player.seat)] = hands.parse_cards(player.hole_cards)
        except hands.HandError as exc:
            raise DomainError(f"Seat {player.seat}: {exc}", field=f"players[{index}].hole_cards") from exc
        if len(hole[str(player.seat)]) not in holding:
            raise DomainError(f"Seat {player.seat}: {game.value} players hold {' or '.join(map(str, holding))} "
                              f"cards, got {len(hole[str(player.seat)])}.", field=f"players[{index}].hole_cards")
    try:
        hands.check_distinct(board, *hole.values())
    except hands.HandError as exc:
        raise DomainError(str(exc), field="players") from exc
    return hole, board


def _verify_streets(players: Sequence[PlayerIn]) -> None:
    for index, player in enumerate(players):
        if player.streets and (sum(player.streets, ZERO) != player.contributed or any(a < 0 for a in player.streets)):
            raise DomainError("The betting rounds must add up to what the player put in.",
                              field=f"players[{index}].streets")
    if any(p.streets for p in players) and any(not p.streets for p in players if p.contributed > 0):
        raise DomainError("Give the betting rounds of every player who put chips in, or of none.", field="players")


def _verify_players(table: PokerTable, players: Sequence[PlayerIn]) -> None:
    if len(players) < 2:
        raise DomainError("A round of play needs at least two players (N.J.A.C. 13:69F-14.6(b)).", field="players")
    if len(players) > table.seat_maximum:
        raise DomainError(f"This game seats at most {table.seat_maximum} players.", field="players")
    seats = [p.seat for p in players]
    if len(set(seats)) != len(seats):
        raise DomainError("Each seat may appear once.", field="players")
    for index, player in enumerate(players):
        if player.contributed < 0 or player.contributed != player.contributed.quantize(CENT):
            raise DomainError("Contributions are dollar amounts of at least $0.00 with cents.",
                              field=f"players[{index}].contributed")
    if all(p.folded for p in players):
        raise DomainError("At least one player must remain in the round.", field="players")
    _verify_streets(players)


def betting_round_totals(players: Sequence[PlayerIn], uncalled: Mapping[str, Decimal]) -> list[Decimal]:
    """Sums bet in each betting round, the uncalled final bet taken out of the rounds where it was bet, last
    first (N.J.A.C. 13:69F-14.14(b)1.i, (d)). Empty when the feed gave no betting rounds."""
    if not players or any(not p.streets for p in players if p.contributed > 0):
        return []
    width = max(len(p.streets) for p in players)
    totals = [ZERO] * width
    for p in players:
        streets = list(p.streets) + [ZERO] * (width - len(p.streets))
        left = uncalled.get(str(p.seat), ZERO)
        for i in reversed(range(width)):
            take = min(left, streets[i])
            streets[i] -= take
            left -= take
        for i, amount in enumerate(streets):
            totals[i] += amount
    return [t.quantize(CENT) for t in totals]


def _take_from_pots(pots: Sequence[hands.Pot], amount: Decimal) -> tuple[list[hands.Pot], list[Decimal]]:
    """Take `amount` from the main pot first, then the side pots in order. Returns (net pots, taken per pot)."""
    net, taken = [], []
    for pot in pots:
        take = min(pot.amount, amount)
        amount -= take
        net.append(hands.Pot(amount=pot.amount - take, eligible=pot.eligible))
        taken.append(take)
    return net, taken


def _record_dead_round(*, table: PokerTable, round_in: RoundIn, board: tuple, hole: dict,
                       recorded_by) -> RoundOfPlay:
    """A round called dead: every chip in the pot goes back to the player who put it in (14.15(g), (e))."""
    total_bet = sum((p.contributed for p in round_in.players), ZERO)
    round_of_play = RoundOfPlay.objects.create(
        table=table, game=table.game, started_at=round_in.started_at,
        gaming_day=gaming_day_of(casino=table.casino, moment=round_in.started_at), board=hands.format_cards(board),
        total_bet=total_bet, refunded_amount=total_bet, pot_total=ZERO, is_dead=True,
        dead_reason=round_in.dead_reason[:200], source=round_in.source, source_name=round_in.source_name[:300],
        source_digest=round_in.source_digest, recorded_by=recorded_by)
    RoundPlayer.objects.bulk_create([
        RoundPlayer(round_of_play=round_of_play, seat=p.seat, name=p.name[:80], starting_stack=p.starting_stack,
                    contributed=p.contributed, returned=p.contributed, folded=p.folded,
                    hole_cards=hands.format_cards(hole[str(p.seat)]) if str(p.seat) in hole else "")
        for p in round_in.players])
    return round_of_play


@transaction.atomic
def record_round(*, table: PokerTable, round_in: RoundIn, recorded_by=None) -> RoundOfPlay:
    """Record and settle one round of play at `table`.

    Builds the main pot and side pots from the contributions (N.J.A.C. 13:69F-14.7(c)4), gives back the
    uncalled final bet (14.14(d)), takes the deductions of settings.POT_DEDUCTIONS in order — the rake
    (14.14), then the bad-beat contribution (14.19(c)) — from the main pot first, and awards each pot to its
    winners as the hand engine ranks the hands (14.3, 14.10(j)). Chips are conserved: the sum of the
    contributions equals the uncalled bet returned + the awards + the deductions. A round with a
    `dead_reason` is called dead: every chip goes back, nothing is raked or contributed (14.15(g)).

    Amounts are Decimal dollars. Raises DomainError (field-level) for bad input — fewer than two players,
    unknown/duplicate/miscounted cards, a source hand already stored — and writes nothing then.
    """
    try:
        game = hands.Game(table.game)
    except ValueError as exc:  # pragma: no cover - choices keep them aligned
        raise DomainError(f"Game {table.game!r} is not known to the hand engine.", field="table") from exc
    if round_in.source_digest and RoundOfPlay.objects.filter(source_digest=round_in.source_digest).exists():
        raise DomainError("This source hand is already recorded.", field="source_digest")
    if timezone.is_naive(round_in.started_at):
        raise DomainError("The round's time must carry a time zone.", field="started_at")
    _verify_players(table, round_in.players)
    hole, board = _verify_cards(game, round_in)
    if round_in.dead_reason:
        round_of_play = _record_dead_round(table=table, round_in=round_in, board=board, hole=hole,
                                           recorded_by=recorded_by)
        round_recorded.send(sender=RoundOfPlay, round_of_play=round_of_play, extra=round_in.extra)
        return round_of_play

    out = {str(p.seat) for p in round_in.players if p.folded or p.mucked}
    contenders = [p for p in round_in.players if not (p.folded or p.mucked)]
    build = hands.build_pots({str(p.seat): p.contributed for p in round_in.players}, folded=out)
    contested = any(len(pot.eligible) > 1 for pot in build.pots)
    if contested:
        missing = [p.seat for p in contenders if str(p.seat) not in hole]
        if missing:
            raise DomainError(f"The showdown needs the hole cards of seat(s) {', '.join(map(str, missing))}.",
                              field="players")
    total_bet = sum((p.contributed for p in round_in.players), ZERO)
    uncalled = sum(build.uncalled.values(), ZERO)
    pot_total = total_bet - uncalled

    round_of_play = RoundOfPlay.objects.create(
        table=table, game=game.value, started_at=round_in.started_at,
        betting_rounds=[str(t) for t in betting_round_totals(round_in.players, build.uncalled)],
        gaming_day=gaming_day_of(casino=table.casino, moment=round_in.started_at), board=hands.format_cards(board),
        total_bet=total_bet, uncalled_amount=uncalled, pot_total=pot_total, went_to_showdown=contested,
        source=round_in.source, source_name=round_in.source_name[:300], source_digest=round_in.source_digest,
        recorded_by=recorded_by,
    )
    deducted = ZERO
    for deduction in _deductions():
        taken = deduction(round_of_play=round_of_play, pot_total=pot_total, already_deducted=deducted)
        if taken < 0 or deducted + taken > pot_total:
            raise DomainError("The deductions exceed the pot.", field="players")  # pragma: no cover - guarded upstream
        deducted += taken
    net_pots, taken = _take_from_pots(build.pots, deducted)
    showdown_hands = {seat: cards for seat, cards in hole.items() if seat not in out}
    try:
        settlement = hands.award_pots(game, net_pots, showdown_hands if contested else {}, board)
    except hands.HandError as exc:
        raise DomainError(str(exc), field="players") from exc

    players = []
    for p in round_in.players:
        seat = str(p.seat)
        best = settlement.hands.get(seat)
        high = best.high if best is not None else None
        low = best.low if best is not None else None
        players.append(RoundPlayer(
            round_of_play=round_of_play, seat=p.seat, name=p.name[:80], starting_stack=p.starting_stack,
            contributed=p.contributed, returned=build.uncalled.get(seat, ZERO),
            hole_cards=hands.format_cards(hole[seat]) if seat in hole else "", folded=p.folded,
            at_showdown=contested and seat not in out,
            high_hand=high.category.label if high is not None else "",
            high_cards=hands.format_cards(high.cards) if high is not None else "",
            low_hand=low.category.label if low is not None else "",
            low_cards=hands.format_cards(low.cards) if low is not None else "",
            awarded=settlement.awards.get(seat, ZERO),
        ))
    RoundPlayer.objects.bulk_create(players)
    pots = Pot.objects.bulk_create([
        Pot(round_of_play=round_of_play, index=i, gross=gross.amount, deducted=t, amount=gross.amount - t,
            eligible_seats=sorted(int(s) for s in gross.eligible))
        for i, (gross, t) in enumerate(zip(build.pots, taken, strict=True))
    ])
    PotAward.objects.bulk_create([
        PotAward(pot=pot, seat=int(seat), amount=amount)
        for pot, result in zip(pots, settlement.pots, strict=True)
        for seat, amount in sorted(result.awards.items(), key=lambda kv: int(kv[0])) if amount > 0
    ])
    if table.kill_option != KillOption.NONE:
        _record_kill(round_of_play, table, settlement)
    round_recorded.send(sender=RoundOfPlay, round_of_play=round_of_play, extra=round_in.extra)
    round_settled.send(sender=RoundOfPlay, round_of_play=round_of_play, settlement=settlement)
    return round_of_play


@dataclass(frozen=True)
class ImportResult:
    """What one PHH source gave: rounds recorded and hands already stored (skipped)."""

    imported: int
    skipped: int


@transaction.atomic
def import_phh(*, table: PokerTable, text: str, name: str, recorded_by=None,
               progress: Callable[[int], None] | None = None) -> ImportResult:
    """Record every hand of a PHH text (`.phh` or `.phhs`) at `table`, all or nothing.

    Each source hand is stored once: a hand whose digest is already recorded is skipped, so importing the
    same file again changes nothing. `progress(n)` is called after each hand. Raises DomainError (field
    "phh") for a malformed file, an unsupported variant, a game other than the table's, or bad cards; the
    whole file is then rolled back.
    """
    from .phh import PhhError, parse_phh  # pokerkit is only loaded where PHH is read

    imported = skipped = 0
    try:
        parsed = list(parse_phh(text, name=name))
    except PhhError as exc:
        raise DomainError(str(exc), field="phh") from exc
    known = set(RoundOfPlay.objects.filter(source_digest__in=[h.round_in.source_digest for h in parsed])
                .values_list("source_digest", flat=True))
    for hand in parsed:
        if hand.game != table.game:
            raise DomainError(f"{hand.round_in.source_name}: a {hand.game} hand cannot be recorded at a "
                              f"{table.get_game_display()} table.", field="phh")
        if hand.round_in.source_digest in known:
            skipped += 1
        else:
            try:
                record_round(table=table, round_in=hand.round_in, recorded_by=recorded_by)
            except DomainError as exc:
                raise DomainError(f"{hand.round_in.source_name}: {exc.message}", field="phh") from exc
            known.add(hand.round_in.source_digest)
            imported += 1
        if progress is not None:
            progress(1)
    return ImportResult(imported=imported, skipped=skipped)


def current_kill(*, table: PokerTable) -> KillRecord | None:
    """The kill in effect for the next round at `table`, or None (no kill offered, or collected)."""
    if table.kill_option == KillOption.NONE:
        return None
    latest = table.kill_records.order_by("-round_of_play__started_at", "-pk").first()
    return latest if latest is not None and latest.seat is not None else None


def kill_limits(*, table: PokerTable) -> tuple[Decimal, Decimal | None, str]:
    """The wagering limits of the next round: twice the posted limits with a kill, one and a half times with a
    half-kill (N.J.A.C. 13:69F-14.1, 14.11(i)); the posted limits otherwise. Returns (minimum, maximum, label)."""
    kill = current_kill(table=table)
    if kill is None:
        return table.minimum_wager, table.maximum_wager, "Posted limits"
    factor = Decimal(2) if table.kill_option == KillOption.KILL else Decimal("1.5")
    maximum = table.maximum_wager * factor if table.maximum_wager is not None else None
    return (table.minimum_wager * factor).quantize(CENT), maximum.quantize(CENT) if maximum is not None else None, \
        f"{table.get_kill_option_display()} in effect: seat {kill.seat} holds the kill button"


def _record_kill(round_of_play: RoundOfPlay, table: PokerTable, settlement) -> None:
    """Move the kill button after a round (N.J.A.C. 13:69F-14.11(i)).

    A player who wins the entire pot, the pot qualifying in amount, takes the kill button for the next round;
    the kill is collected once a pot does not qualify in amount or is split between a high and a low winner
    (or shared by tied hands, when no single player wins the entire pot).
    """
    holder = current_kill(table=table)
    winners = {seat for seat, amount in settlement.awards.items() if amount > 0}
    qualifies = round_of_play.pot_total >= (table.kill_pot_minimum or Decimal(0))
    if qualifies and len(winners) == 1:
        seat = int(next(iter(winners)))
        move = KillMove.PLACED if holder is None else (KillMove.KEPT if holder.seat == seat else KillMove.MOVED)
        reason = f"Seat {seat} won the entire ${round_of_play.pot_total:,.2f} pot."
    else:
        seat, move = None, KillMove.COLLECTED
        reason = (f"The ${round_of_play.pot_total:,.2f} pot does not qualify in amount." if not qualifies
                  else "The pot was split.")
        if holder is None:
            return  # nothing to collect, nothing to record
    KillRecord.objects.create(round_of_play=round_of_play, table=table, move=move, seat=seat, reason=reason)
