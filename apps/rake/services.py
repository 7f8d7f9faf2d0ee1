"""Writes about rake: structures posted at tables and the rake taken from each round of play."""
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.casinos.selectors import gaming_day_of
from apps.casinos.services import hold_open_gaming_days
from apps.core.exceptions import AlreadyRecorded, DomainError, broken_constraint
from apps.core.money import CENT, ZERO, floor_to, money
from apps.core.roles import Role
from apps.core.writer import Totals
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable, RotationGame

from .models import (
    FLOP_GAMES,
    LEGAL_MAXIMUM_PERCENTAGE,
    RakeMethod,
    RakeRecord,
    RakeStructure,
    TableHourRake,
    TimeCharge,
    TimeChargeBasis,
    TimeChargeStructure,
    TimeChargeVerification,
)
from .selectors import rake_structures_for


def verify_rake_structure(*, method: str = RakeMethod.PERCENTAGE, percentage: Decimal | None = None,
                          maximum: Decimal, minimum_pot: Decimal = ZERO, increment: Decimal = Decimal("1.00"),
                          levels: list[dict] | None = None, no_flop_no_drop: bool = False,
                          games: Sequence[str] | None = None) -> list[dict]:
    """Check a rake structure to be posted on the table's sign (N.J.A.C. 13:69F-14.14(c)-sign) and return its
    incremental levels normalised ([] for a percentage rake).

    The method's own terms are checked by `_check_percentage` (a percentage rake) and `_check_incremental_levels` (an
    incremental one). `maximum` (the posted maximum per pot), `minimum_pot` (Decimal dollars) and `increment` (the chip
    the rake rounds down to) are the sign's amounts: none negative, the increment above zero. `no_flop_no_drop` (either
    method, posted on the sign; see RakeStructure): a bool, refused when `games` — the game values
    the structure covers, None when not known — holds no flop game (FLOP_GAMES), since the sign would post a term that
    never applies. Raises DomainError naming the field.
    """
    if not isinstance(no_flop_no_drop, bool):
        raise DomainError("No flop, no drop is posted or not: true or false.", field="no_flop_no_drop")
    if no_flop_no_drop and games is not None and not FLOP_GAMES.intersection(games):
        raise DomainError("No flop, no drop applies to hold 'em and Omaha rounds only: this rake covers no game "
                          "dealt with a flop.", field="no_flop_no_drop")
    if maximum is None or maximum < 0:
        raise DomainError("The posted maximum rake may not be negative.", field="maximum")
    if minimum_pot < 0:
        raise DomainError("The minimum pot may not be negative.", field="minimum_pot")
    if increment <= 0:
        raise DomainError("The rake increment must be positive.", field="increment")
    if method == RakeMethod.PERCENTAGE:
        _check_percentage(percentage)
        return []
    if method != RakeMethod.INCREMENTAL:
        raise DomainError(f"Unknown rake method {method!r}.", field="method")
    return _check_incremental_levels(levels)


def _check_percentage(percentage: Decimal | None) -> None:
    """A percentage rake posts its percentage, at most 10 % of the sums bet (N.J.A.C. 13:69F-14.14(b)1-ten-percent):
    a structure over the legal maximum (LEGAL_MAXIMUM_PERCENTAGE), below zero or with none is refused. Raises
    DomainError on `percentage`."""
    if percentage is None or percentage < 0 or percentage > LEGAL_MAXIMUM_PERCENTAGE:
        raise DomainError("A percentage rake may not exceed 10% of the sums bet (N.J.A.C. 13:69F-14.14(b)1.i).",
                          field="percentage")


def _check_incremental_levels(levels: list[dict] | None) -> list[dict]:
    """The pot levels of an incremental rake (N.J.A.C. 13:69F-14.14(b)2-levels): predetermined amounts taken as the pot
    reaches predetermined levels. `levels`: [{"pot": ..., "take": ...}, ...], amounts in dollars (Decimal, str or int),
    at least one; pot levels strictly rising from above $0.00, each taking a positive amount, and never more taken in
    all than the pot of the level reached. Returns the levels normalised ([{"pot": "20.00", "take": "1.00"}, ...]).
    Raises DomainError on `levels`, naming the level."""
    if not levels:
        raise DomainError("An incremental rake needs at least one pot level (14.14(b)2).", field="levels")
    normalised, previous, taken = [], ZERO, ZERO
    for index, level in enumerate(levels):
        try:
            pot, take = money(level["pot"]), money(level["take"])
        except (KeyError, TypeError, ArithmeticError, ValueError) as exc:
            raise DomainError(f"Level {index + 1}: give a pot level and an amount.", field="levels") from exc
        if pot <= previous or take <= 0:
            raise DomainError(f"Level {index + 1}: pot levels rise and each takes a positive amount.", field="levels")
        taken += take
        if taken > pot:
            raise DomainError(f"Level {index + 1}: ${taken:,.2f} would be taken from a ${pot:,.2f} pot.",
                              field="levels")
        normalised.append({"pot": str(pot), "take": str(take)})
        previous = pot
    return normalised


@transaction.atomic
def post_rake_structure(*, table: PokerTable, maximum: Decimal, method: str = RakeMethod.PERCENTAGE,
                        percentage: Decimal | None = None, minimum_pot: Decimal = ZERO,
                        increment: Decimal = Decimal("1.00"), levels: list[dict] | None = None,
                        rotation_game: RotationGame | None = None, no_flop_no_drop: bool = False) -> RakeStructure:
    """Post (or change) the rake of `table` (N.J.A.C. 13:69F-14.14(b), 14.14(c)-sign), or of one
    game of its rotation (`rotation_game`, a mixed-game table); the sign follows. `no_flop_no_drop`: no rake from a hold
    'em or Omaha round that ends before the flop (RakeStructure.no_flop_no_drop), refused for a rake that covers no such
    game (the rotation game's, or every game the table posts). Raises DomainError."""
    games = [rotation_game.game] if rotation_game is not None else [p.game for p in table.posted_games()]
    levels = verify_rake_structure(method=method, percentage=percentage, maximum=maximum, minimum_pot=minimum_pot,
                                   increment=increment, levels=levels, no_flop_no_drop=no_flop_no_drop, games=games)
    if rotation_game is not None and rotation_game.table_id != table.pk:
        raise DomainError("That game is not in this table's rotation.", field="rotation_game")
    structure, _ = RakeStructure.objects.select_for_update().update_or_create(
        table=table, rotation_game=rotation_game,
        defaults={"method": method, "percentage": percentage if method == RakeMethod.PERCENTAGE else None,
                  "maximum": money(maximum), "minimum_pot": money(minimum_pot),
                  "increment": money(increment), "levels": levels, "no_flop_no_drop": no_flop_no_drop})
    return structure


def compute_incremental_rake(*, basis: Decimal, levels: list[dict], maximum: Decimal) -> tuple[Decimal, Decimal]:
    """Incremental rake (N.J.A.C. 13:69F-14.14(b)2-levels): the sum of the amounts of every pot level reached by
    `basis` (the sums bet, uncalled final bet excluded, 14.14(d)), at most the posted maximum.
    Returns (computed, amount taken), Decimal dollars."""
    computed = sum((Decimal(lv["take"]) for lv in levels if basis >= Decimal(lv["pot"])), ZERO)
    return computed, min(computed, maximum)


def compute_percentage_rake(*, basis: Decimal, percentage: Decimal, maximum: Decimal, minimum_pot: Decimal,
                            increment: Decimal, betting_rounds: Sequence[Decimal] = ()) -> tuple[Decimal, Decimal]:
    """Percentage rake of a round: (computed before the cap, amount taken), Decimal dollars.

    basis: the sums bet, the uncalled final bet excluded (N.J.A.C. 13:69F-14.14(d)). The fee is at most the
    percentage (never above 10 %) of the sums bet in each betting round, each rounded down to `increment`
    (14.14(b)1-ten-percent, 14.14(b)1-per-betting-round); without betting rounds, of the whole basis. Never more than
    the posted maximum; a basis below `minimum_pot` is not raked. A betting round in which nothing was bet, like a basis
    of $0.00, pays nothing."""
    if basis < minimum_pot:
        return ZERO, ZERO
    parts = list(betting_rounds) or [basis]
    raked = [(part, floor_to(part * percentage / Decimal(100), increment)) for part in parts]  # (sums bet, fee)
    computed = sum((fee for _, fee in raked), ZERO)
    amount = min(computed, maximum)
    if any(fee > part * LEGAL_MAXIMUM_PERCENTAGE / Decimal(100)
           for part, fee in raked):  # defence in depth: never over 10 % in any round
        raise DomainError("The rake would exceed 10% of the sums bet.", field="percentage")
    return computed, amount


@dataclass
class RakeTaken:
    """The rake of rounds of play (`take_rake`), for the writer that records it (apps.core.writer): `amounts`, the
    rake taken from each round (Decimal dollars, in the rounds' order); `records`, one RakeRecord per round; `hours`,
    what they add to each table's running total of the hour and game (TableHourRake)."""

    amounts: list[Decimal]
    records: list[RakeRecord]
    hours: Totals


def take_rake(*, rounds: Sequence[RoundOfPlay]) -> RakeTaken:
    """Take the posted rake of each round of play (N.J.A.C. 13:69F-14.14), as the dealer collects it (14.6(e)8): what to
    record (RakeTaken), nothing written here.

    The rake is the first thing taken from the pot and side pots, before the bad beat contribution (the money path
    takes that next); its basis is the sums bet, the uncalled final bet excluded (14.14(d)), raked by the posted
    method (`_rake_of`). At a mixed-game table each game may post its own rake (the table's applies
    otherwise); one that posts "no flop, no drop" takes nothing from a round that ended before the flop
    (`_posted_structure`, `_rake_of`). One RakeRecord per round, also when nothing is taken, so that every
    round's rake is accounted for; a round has one at most (RakeRecord: its unique round refuses a second when it is
    written). rounds: rounds being recorded (their ids may come with the writer's flush:
    each record points at its round). """
    structures = rake_structures_for(table_ids={r.table_id for r in rounds})
    records, amounts = [], []
    for round_of_play in rounds:
        structure = _posted_structure(structures, round_of_play)
        computed, amount, explanation = _rake_of(round_of_play, structure)
        records.append(RakeRecord(
            round_of_play=round_of_play, table_id=round_of_play.table_id, gaming_day=round_of_play.gaming_day,
            amount=amount, basis=round_of_play.pot_total, percentage=structure.percentage if structure else None,
            maximum=structure.maximum if structure else None, computed=computed, explanation=explanation))
        amounts.append(amount)
    hours = Totals(TableHourRake, ("table_id", "gaming_day", "hour", "game", "betting_structure"), [
        {"table_id": r.table_id, "gaming_day": r.gaming_day, "hour": rake_hour(round_of_play.started_at),
         "game": round_of_play.game, "betting_structure": round_of_play.betting_structure, "rounds": 1,
         "basis": r.basis, "amount": r.amount} for r, round_of_play in zip(records, rounds, strict=True)])
    return RakeTaken(amounts=amounts, records=records, hours=hours)


def _posted_structure(structures: dict, round_of_play: RoundOfPlay) -> RakeStructure | None:
    """The rake structure a round of play is raked under (`structures`: rake_structures_for's): the one its game
    posts at a mixed-game table, else the table's (14.14(c)-as-posted); None when no rake is posted."""
    return (structures.get((round_of_play.table_id, round_of_play.rotation_game_id))
            or structures.get((round_of_play.table_id, None)))


def rake_hour(started_at: datetime) -> datetime:
    """The hour (its start, aware, UTC) a round of play that started at `started_at` is counted in."""
    return started_at.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


#: The explanation of a round not raked under "no flop, no drop" (RakeStructure.no_flop_no_drop).
NO_FLOP_EXPLANATION = "No flop, no drop: the round ended before the flop; no rake."


def ended_before_the_flop(round_of_play: RoundOfPlay) -> bool:
    """Whether a round of play ended before the flop, as "no flop, no drop" reads it (N.J.A.C.
    13:69F-14.14(c)-as-posted; see RakeStructure.no_flop_no_drop): a round of a flop game (FLOP_GAMES) with no community
    card on its board and no chips bet after its first betting round (`betting_rounds`, Decimal strings). False for a
    round that reached the flop (everyone folding on the flop included, and an all-in before the flop whose board was
    dealt out) and for every stud and draw round (no flop is dealt)."""
    if round_of_play.game not in FLOP_GAMES or round_of_play.board.strip():
        return False
    return not any(Decimal(b) > 0 for b in round_of_play.betting_rounds[1:])


def _rake_of(round_of_play: RoundOfPlay, structure: RakeStructure | None) -> tuple[Decimal, Decimal, str]:
    """(computed, amount taken, how) of one round under the structure posted for it (N.J.A.C.
    13:69F-14.14(c)-as-posted): nothing when none is posted, nothing from a round that ended before the flop when the
    structure posts "no flop, no drop", else the rake of its method (`_incremental_rake_of`, `_percentage_rake_of`)."""
    if structure is None:
        return ZERO, ZERO, "No rake is posted at this table."
    if structure.no_flop_no_drop and ended_before_the_flop(round_of_play):
        return ZERO, ZERO, NO_FLOP_EXPLANATION
    if structure.method == RakeMethod.INCREMENTAL:
        return _incremental_rake_of(round_of_play.pot_total, structure)
    return _percentage_rake_of(round_of_play, structure)


def _incremental_rake_of(pot_total: Decimal, structure: RakeStructure) -> tuple[Decimal, Decimal, str]:
    """(computed, amount taken, how) of an incremental rake (N.J.A.C. 13:69F-14.14(b)2-levels) from a round whose sums
    bet are `pot_total` (Decimal dollars): the amounts of the levels reached, at most the posted maximum; the how names
    the levels reached and the cap when it applied."""
    computed, amount = compute_incremental_rake(basis=pot_total, levels=structure.levels, maximum=structure.maximum)
    reached = [lv for lv in structure.levels if pot_total >= Decimal(lv["pot"])]
    capped = f", capped at the posted maximum ${structure.maximum:,.2f}." if amount < computed else "."
    return computed, amount, (f"Pot ${pot_total:,.2f} reached {len(reached)} of {len(structure.levels)} levels: "
                              f"${computed:,.2f}{capped}")


def _percentage_rake_of(round_of_play: RoundOfPlay, structure: RakeStructure) -> tuple[Decimal, Decimal, str]:
    """(computed, amount taken, how) of a percentage rake from one round (N.J.A.C. 13:69F-14.14(b)1-ten-percent,
    14.14(b)1-per-betting-round): `compute_percentage_rake` of its betting rounds; the how names the sums raked, the
    minimum pot or the cap when either applied (at most 300 characters, RakeRecord.explanation). Raises ValueError for
    a stored percentage structure with no percentage (verify_rake_structure refuses one)."""
    if structure.percentage is None:
        raise ValueError(f"Rake structure {structure.pk} is a percentage rake with no percentage posted.")
    pot_total = round_of_play.pot_total
    betting_rounds = [Decimal(b) for b in round_of_play.betting_rounds]
    computed, amount = compute_percentage_rake(
        basis=pot_total, percentage=structure.percentage, maximum=structure.maximum,
        minimum_pot=structure.minimum_pot, increment=structure.increment, betting_rounds=betting_rounds)
    if pot_total < structure.minimum_pot:
        return computed, amount, f"Pot ${pot_total:,.2f} is below the ${structure.minimum_pot:,.2f} minimum: no rake."
    bet = [b for b in betting_rounds if b]  # the betting rounds in which something was bet
    of = " + ".join(f"${b:,.2f}" for b in bet) + " bet in the betting rounds" if len(bet) > 1 else f"${pot_total:,.2f}"
    how = (f"{structure.percentage}% of {of} = ${computed:,.2f}, capped at the posted maximum ${structure.maximum:,.2f}."
           if computed > structure.maximum else
           f"{structure.percentage}% of {of}, each rounded down to ${structure.increment:,.2f}: ${amount:,.2f}.")
    return computed, amount, how[:300]


@transaction.atomic
def post_time_charge_structure(*, table: PokerTable, hourly_fee: Decimal, interval_minutes: int,
                               basis: str = TimeChargeBasis.PER_PLAYER) -> TimeChargeStructure:
    """Post a time-charge rake at `table`, or change it: an hourly fee of the table (N.J.A.C.
    13:69F-14.14(b)3-hourly), `hourly_fee` Decimal dollars above zero, assessed every `interval_minutes`
    (`_check_interval`) per player or per table (`basis`, `_check_basis`). Raises DomainError naming the field."""
    if hourly_fee <= 0:
        raise DomainError("The hourly fee must be positive.", field="hourly_fee")
    _check_interval(hourly_fee, interval_minutes)
    _check_basis(basis)
    structure, _ = TimeChargeStructure.objects.update_or_create(
        table=table, defaults={"hourly_fee": money(hourly_fee), "interval_minutes": interval_minutes, "basis": basis})
    return structure


def _check_interval(hourly_fee: Decimal, interval_minutes: int) -> None:
    """Time charges are assessed fractionally, every 20 or 30 minutes (N.J.A.C. 13:69F-14.14(b)3-fractional), and the
    hourly fee (Decimal dollars) must divide into whole cents for each interval. Raises DomainError on
    `interval_minutes` or `hourly_fee`."""
    if interval_minutes not in (20, 30):
        raise DomainError("Time charges are assessed every 20 or 30 minutes (14.14(b)3.iii).", field="interval_minutes")
    per_interval = hourly_fee * interval_minutes / 60
    if per_interval != per_interval.quantize(CENT):
        raise DomainError(f"${hourly_fee:,.2f} an hour does not divide into whole cents every {interval_minutes} "
                          "minutes.", field="hourly_fee")


def _check_basis(basis: str) -> None:
    """Time charges are taken per player or per table (N.J.A.C. 13:69F-14.14(b)3-basis): `basis` a TimeChargeBasis
    value. Raises DomainError on `basis`."""
    if basis not in TimeChargeBasis.values:
        raise DomainError(f"Unknown basis {basis!r}: per player or per table.", field="basis")


#: The exclusion constraint (PostgreSQL, migration rake 0009) that keeps the periods of a table's time charges apart.
PERIODS_APART = "time_charge_periods_do_not_overlap"


@transaction.atomic
def collect_time_charge(*, table: PokerTable, period_start: datetime, players_seated: int, collected_by) -> TimeCharge:
    """Record the time charges collected at an open table for one interval of its posted time charge: the amount
    `_charge_for`'s (Decimal dollars), the period `_period_of` `period_start` (aware), each period charged once
    (`_charge_overlapping`, `_already_collected`). `players_seated`: everyone seated, inactive players included, 1 to
    the table's seats.

    A period that overlaps one collected already at the table (07:00 and 07:13, every 30 minutes) is refused with
    AlreadyRecorded (409) naming the period collected and its id, `existing_id` — also when two are collected at the
    same moment (PostgreSQL's exclusion constraint PERIODS_APART). Raises DomainError (table closed, no time charge
    posted, bad count, period in the future or in a closed gaming day) and AlreadyRecorded.
    """
    if not table.is_open:
        raise DomainError(f"Table {table.number} is closed: time charges are collected at an open table only.",
                          field="table")
    structure = TimeChargeStructure.objects.filter(table=table).first()
    if structure is None:
        raise DomainError(f"No time charge is posted at table {table.number}.", field="table")
    if timezone.is_naive(period_start) or period_start > timezone.now():
        raise DomainError("The period must be an aware time, not in the future.", field="period_start")
    if not 1 <= players_seated <= table.seat_maximum:
        raise DomainError(f"Seated players: 1 to {table.seat_maximum} at this game.", field="players_seated")
    gaming_day = gaming_day_of(casino=table.casino, moment=period_start)
    hold_open_gaming_days(casino=table.casino, days=[gaming_day], what="a time charge", field="period_start")
    period_start, period_end = _period_of(structure, period_start)
    if (collected := _charge_overlapping(table=table, start=period_start, end=period_end)) is not None:
        raise _already_collected(table, collected)
    amount, explanation = _charge_for(structure, players_seated)
    try:
        with transaction.atomic():
            return TimeCharge.objects.create(
                table=table, period_start=period_start, interval_minutes=structure.interval_minutes,
                players_seated=players_seated, amount=amount, collected_by=collected_by, explanation=explanation,
                gaming_day=gaming_day)
    except IntegrityError as exc:  # collected by another request at the same moment
        if broken_constraint(exc) not in (PERIODS_APART, "time_charge_once_per_period"):
            raise
        collected = _charge_overlapping(table=table, start=period_start, end=period_end)
        if collected is None:  # the other request rolled back meanwhile
            raise DomainError("This period is being collected by another request: try again.",
                              field="period_start") from exc
        raise _already_collected(table, collected) from exc


def _charge_for(structure: TimeChargeStructure, players_seated: int) -> tuple[Decimal, str]:
    """(amount, how) of one interval's time charges under `structure`: the hourly fee of the table for the interval
    (N.J.A.C. 13:69F-14.14(b)3-hourly), from every seated player, inactive ones included, or once for the table
    (14.14(b)3-basis). Amount in Decimal dollars."""
    per_interval = structure.charge_per_interval
    if structure.basis == TimeChargeBasis.PER_PLAYER:
        return per_interval * players_seated, (f"{players_seated} seated × ${per_interval:,.2f} "
                                               f"(${structure.hourly_fee:,.2f}/h for {structure.interval_minutes} min)")
    return per_interval, f"Per table: ${structure.hourly_fee:,.2f}/h for {structure.interval_minutes} min"


def _period_of(structure: TimeChargeStructure, period_start: datetime) -> tuple[datetime, datetime]:
    """The period of play one collection covers (N.J.A.C. 13:69F-14.14(b)3-fractional): [start, start + the posted
    interval), in UTC, from the aware `period_start`."""
    start = period_start.astimezone(UTC)
    return start, start + timedelta(minutes=structure.interval_minutes)


def _charge_overlapping(*, table: PokerTable, start: datetime, end: datetime) -> TimeCharge | None:
    """The time charge of `table` whose period overlaps [start, end), or None (N.J.A.C. 13:69F-14.14(b)3-fractional:
    each period of play is charged once): the last one to start before `end` (the periods of a table do not overlap,
    so no earlier one reaches further), by the index of (table, period_start)."""
    last = TimeCharge.objects.filter(table=table, period_start__lt=end).order_by("-period_start").first()
    if last is not None and last.period_start + timedelta(minutes=last.interval_minutes) > start:
        return last
    return None


def _already_collected(table: PokerTable, charge: TimeCharge) -> AlreadyRecorded:
    """The refusal (409) of a period that overlaps `charge`, collected already: it names that period, in the casino's
    time, and its id (N.J.A.C. 13:69F-14.14(b)3-fractional: each period of play is charged once)."""
    zone = table.casino.zone
    start = charge.period_start.astimezone(zone)
    end = (charge.period_start + timedelta(minutes=charge.interval_minutes)).astimezone(zone)
    return AlreadyRecorded(f"Table {table.number}: the period {start:%Y-%m-%d %H:%M}–{end:%H:%M} was already collected "
                           f"(time charge {charge.pk}); a period of play is charged once.", field="period_start",
                           existing_id=charge.pk)


@transaction.atomic
def verify_time_charge(*, time_charge: TimeCharge, verified_by) -> TimeChargeVerification:
    """A floorperson (or supervisor) verifies a collection before the dealer drops it (14.14(b)3-verified).

    The verifier may not be the dealer who collected it. Raises DomainError (also for a collection already verified,
    when another verification commits first: the time charge row is append-only, so the app may not lock it).
    """
    if not (verified_by.is_superuser or verified_by.has_role(Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)):
        raise DomainError("Time charges are verified by a floorperson or a supervisor (14.14(b)3.v).",
                          field="verified_by")
    if verified_by.pk == time_charge.collected_by_id:
        raise DomainError("The person who collected the charges cannot verify them.", field="verified_by")
    if TimeChargeVerification.objects.filter(time_charge_id=time_charge.pk).exists():
        raise DomainError("This collection is already verified.", field="time_charge")
    try:  # one verification a collection (its unique time_charge), also when two floorpersons verify at once
        with transaction.atomic():
            return TimeChargeVerification.objects.create(time_charge=time_charge, verified_by=verified_by)
    except IntegrityError as exc:
        raise DomainError("This collection is already verified.", field="time_charge") from exc
