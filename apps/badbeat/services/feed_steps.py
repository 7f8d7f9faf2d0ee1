"""The bad beat steps of recording rounds of play (N.J.A.C. 13:69F-14.19(c)-per-pot, 14.19(i), 14.19(p)-reset;
14.20(c)1, 14.20(e)2-complete), in the order the hand feed (apps.feed.services) calls them, in the transaction that
records the rounds: lock the rounds' jackpots (`lock_jackpots`), compute their contributions (`take_contributions`) for
the writer to record, report those of a multi-casino system (`report_contributions`), then open a claim on each showdown
that qualifies (`check_showdowns`)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db.models import OuterRef, QuerySet, Subquery

from apps import hands
from apps.core.money import ZERO
from apps.core.writer import KeptRead, Totals, Writer
from apps.rounds.models import RoundOfPlay

from ..models import (
    Claim,
    Contribution,
    Funding,
    GamingDayContributions,
    Jackpot,
    JackpotKind,
    JackpotStatus,
    TableDayContributions,
)
from ..selectors import qualifies_as_bad_beat
from ..shared import SharedPayoutSystem, shared_payout_system
from .claims import open_claims_for_round
from .contributions import compute_contribution, reset_part


@dataclass
class LockedJackpots:
    """The jackpots of the casinos of rounds of play, row-locked in primary-key order until the commit
    (`lock_jackpots`), with what the contribution reads beside them under the lock."""

    jackpots: list[Jackpot] = field(default_factory=list)
    #: (jackpot id, gaming day) -> the jackpot's contributions of that gaming day so far, Decimal dollars (14.19(p))
    day_contributions: dict[tuple[int, date], Decimal] = field(default_factory=dict)
    #: the jackpots that fund a multi-casino system this casino takes part in (14.20)
    funds_system: frozenset[int] = frozenset()
    #: those whose system is suspended here, under an agreement that stops contributions meanwhile (14.20(c)1)
    system_stops: frozenset[int] = frozenset()


def lock_jackpots(*, rounds: Sequence[RoundOfPlay]) -> LockedJackpots:
    """Row-lock every jackpot of the casinos of `rounds` whose game participates (`_participates`), once, in
    primary-key order (concurrent writers lock them in the same order: no deadlock, apps.core.writer), until the
    commit; nothing is locked when no round participates. One query, which also reads what the contribution needs
    beside them: each jackpot's contributions so far on each gaming day of the rounds (14.19(p)-reset) and the
    multi-casino system's terms (`_system_terms`). The contribution
    (`take_contributions`) and the showdown check (`check_showdowns`) of the same rounds read them from here. Call
    inside the transaction that records the rounds (Django refuses `select_for_update` outside one)."""
    return _jackpots(rounds, for_update=True)


def read_jackpots(*, rounds: Sequence[RoundOfPlay]) -> LockedJackpots:
    """What `lock_jackpots` reads, without the lock: the jackpots' posted terms as they stand, for working out what
    each round owes (`contributions_owed`) before the lock is taken; nothing read here is recorded."""
    return _jackpots(rounds, for_update=False)


def _jackpots(rounds: Sequence[RoundOfPlay], *, for_update: bool) -> LockedJackpots:
    wanted = [r for r in rounds if _participates(r)]
    casino_ids = sorted({r.table.casino_id for r in wanted})
    if not casino_ids:
        return LockedJackpots()
    days = sorted({r.gaming_day for r in wanted})
    system = shared_payout_system()
    found = LockedJackpots()
    for jackpot in _LOCK(casino_ids, days, system=system, locked=for_update):
        found.jackpots.append(jackpot)
        for index, day in enumerate(days):
            found.day_contributions[(jackpot.pk, day)] = getattr(jackpot, f"day_{index}") or ZERO
    found.funds_system, found.system_stops = _system_terms(found.jackpots, system)
    return found


def _system_terms(jackpots: list[Jackpot], system: SharedPayoutSystem | None
                  ) -> tuple[frozenset[int], frozenset[int]]:
    """(the ids of the jackpots that fund a multi-casino system this casino takes part in, those of them whose
    system is suspended here under an agreement that stops contributions meanwhile: N.J.A.C. 13:69F-14.20(c)1), as
    the system's terms annotated them on the lock's query (SharedPayoutSystem.contribution_terms); none without a
    system."""
    if system is None:
        return frozenset(), frozenset()
    funds = frozenset(j.pk for j in jackpots if getattr(j, "funds_system"))  # noqa: B009 - the system's annotation
    return funds, frozenset(j.pk for j in jackpots if j.pk in funds and getattr(j, "system_stops"))  # noqa: B009


def _lock_query(casino_ids: list[int], days: list[date], *, system: SharedPayoutSystem | None,
                locked: bool) -> QuerySet[Jackpot]:
    """The jackpots of the casinos in primary-key order (row-locked when `locked`), each with its contributions on
    each of `days` (`day_0`, `day_1`, ...) and the system's terms (`funds_system`, `system_stops`)."""
    terms = system.contribution_terms() if system else {}
    day_columns = {f"day_{index}": Subquery(GamingDayContributions.objects.filter(
        jackpot=OuterRef("pk"), gaming_day=day).order_by().values("contributions")[:1])
        for index, day in enumerate(days)}  # one row at most (jackpot, gaming day are unique): no ordering
    jackpots = Jackpot.objects.select_for_update(of=("self",)) if locked else Jackpot.objects.all()
    return jackpots.filter(casino_id__in=casino_ids).order_by("pk").annotate(**terms, **day_columns)


#: The jackpots' read, locked or not: its SQL kept (apps.core.writer); the lock is refused outside a transaction.
_LOCK = KeptRead(_lock_query)


#: The fields of a jackpot a contribution changes (its running totals beside the records, 14.19(c), (p)).
BALANCE_FIELDS = ("balance", "reset_reserve", "contributions_total", "updated_at")


@dataclass
class ContributionsTaken:
    """The bad beat contributions of rounds of play (`take_contributions`), for the writer that records them
    (apps.core.writer): `taken`, the total taken from each round (Decimal dollars, in the rounds' order); the
    Contribution `records`; the `jackpots` whose balances changed (BALANCE_FIELDS, saved under their lock); the
    running `totals` of each jackpot's gaming day and of each table's gaming day. Those of jackpots that fund a
    multi-casino system are sent to it by `report_contributions` once they are written."""

    taken: list[Decimal]
    records: list[Contribution] = field(default_factory=list)
    jackpots: list[Jackpot] = field(default_factory=list)
    totals: list[Totals] = field(default_factory=list)

    def give_to(self, writer: Writer) -> None:
        """Hand what to record to `writer`: the contributions, the running totals, the jackpots' balances."""
        writer.add(self.records)
        writer.add_totals(*self.totals)
        for jackpot in self.jackpots:
            writer.save(jackpot, BALANCE_FIELDS)


def take_contributions(*, rounds: Sequence[RoundOfPlay], after_rake: Sequence[Decimal],
                       jackpots: LockedJackpots) -> ContributionsTaken:
    """Segregate the bad beat contributions of rounds of play, from each pot after the rake (N.J.A.C.
    13:69F-14.19(c)-per-pot, 14.19(c)-after-rake), as the dealer collects them (14.6(e)9): what to record
    (ContributionsTaken), nothing written here.

    rounds: rounds being recorded (pot_total, gaming_day, table, rotation_game set; their ids may come with the
    writer's flush: each contribution points at its round); after_rake: each round's pot less its rake; jackpots:
    the rounds' jackpots as `lock_jackpots` locked them in this transaction. What each round owes each jackpot is
    `_owed`'s (its game participating, its pot reaching the minimum, primary first); each is a Contribution of the
    round, its table and gaming day, with the pot it was taken from. Its reset part and the jackpot's balances are
    `_set_aside_reset`'s; the running totals of each jackpot's gaming day and of each table's gaming day are
    `_running_totals`'. A jackpot funding a multi-casino system takes nothing while the system is suspended here,
    unless its agreement says contributions continue (`_owed`)."""
    result = ContributionsTaken(taken=[ZERO] * len(rounds))
    for index, (round_of_play, owed) in enumerate(zip(rounds, _owed(rounds, after_rake, jackpots), strict=True)):
        for jackpot, amount, explanation, after in owed:
            result.records.append(Contribution(
                jackpot=jackpot, round_of_play=round_of_play, table_id=round_of_play.table_id,
                gaming_day=round_of_play.gaming_day, amount=amount, basis=after, explanation=explanation))
            result.taken[index] += amount
    result.jackpots = _set_aside_reset(result.records, jackpots)
    result.totals = _running_totals(result.records)
    return result


def _set_aside_reset(records: Sequence[Contribution], jackpots: LockedJackpots) -> list[Jackpot]:
    """Set each contribution's reset part (N.J.A.C. 13:69F-14.19(p)-reset) — its jackpot's posted percentage of the
    gaming day's contributions so far with it, less that of those before it (`reset_part`), in order — and add it
    to its jackpot: the part to the reset reserve, the rest to the balance, the whole to the contributions of all
    time. The jackpots changed, in primary-key order (their locks' order); each gaming day's contributions before
    these are those `lock_jackpots` read under the lock."""
    day_totals = dict(jackpots.day_contributions)
    changed: dict[int, Jackpot] = {}
    for contribution in records:
        jackpot = contribution.jackpot
        key = (jackpot.pk, contribution.gaming_day)
        before = day_totals.get(key, ZERO)
        contribution.to_reset = reset_part(day_total_before=before, amount=contribution.amount,
                                           percentage=jackpot.reset_percentage)
        day_totals[key] = before + contribution.amount
        jackpot.balance += contribution.amount - contribution.to_reset
        jackpot.reset_reserve += contribution.to_reset
        jackpot.contributions_total += contribution.amount
        changed[jackpot.pk] = jackpot
    return [changed[pk] for pk in sorted(changed)]


def _running_totals(records: Sequence[Contribution]) -> list[Totals]:
    """The running totals the contributions add to, kept beside them (N.J.A.C. 13:69F-14.19(k)-official-record: the
    record of the daily contributions): each jackpot's gaming day (contributions, reset parts, how many) and each
    table's gaming day of each jackpot (amount, how many)."""
    return [
        Totals(TableDayContributions, ("jackpot_id", "table_id", "gaming_day"), [
            {"jackpot_id": c.jackpot_id, "table_id": c.table_id, "gaming_day": c.gaming_day, "amount": c.amount,
             "count": 1} for c in records]),
        Totals(GamingDayContributions, ("jackpot_id", "gaming_day"), [
            {"jackpot_id": c.jackpot_id, "gaming_day": c.gaming_day, "contributions": c.amount,
             "to_reset": c.to_reset, "count": 1} for c in records])]


def contributions_owed(*, rounds: Sequence[RoundOfPlay], after_rake: Sequence[Decimal],
                       jackpots: LockedJackpots) -> list[Decimal]:
    """What each round of play owes the bad beat jackpots under their posted terms (N.J.A.C.
    13:69F-14.19(c)-per-pot): Decimal dollars, in the rounds' order — exactly what `take_contributions` takes from
    the same terms (one computation, `_owed`); nothing is recorded. `jackpots` may be read without the lock
    (`read_jackpots`): the amounts depend only on the posted terms, not on the balances or the day's totals."""
    return [sum((amount for _, amount, _, _ in owed), ZERO) for owed in _owed(rounds, after_rake, jackpots)]


def _owed(rounds: Sequence[RoundOfPlay], after_rake: Sequence[Decimal],
          jackpots: LockedJackpots) -> list[list[tuple[Jackpot, Decimal, str, Decimal]]]:
    """For each round, the contributions it owes from its pot (N.J.A.C. 13:69F-14.19(c)-per-pot): (jackpot, amount,
    explanation, the pot it was taken from), the casino's collecting jackpots (`_collecting`) in order, primary
    first, each from what the one before left of the pot."""
    collecting: dict[int, list[Jackpot]] = {}
    for jackpot in sorted(_system_allows(_collecting(jackpots.jackpots), jackpots),
                          key=lambda j: (j.kind != JackpotKind.PRIMARY, j.pk)):
        collecting.setdefault(jackpot.casino_id, []).append(jackpot)
    owed: list[list[tuple[Jackpot, Decimal, str, Decimal]]] = [[] for _ in rounds]
    for index, round_of_play in enumerate(rounds):
        if not _participates(round_of_play):
            continue
        taken = ZERO
        for jackpot in collecting.get(round_of_play.table.casino_id, []):
            after = after_rake[index] - taken
            amount, explanation = compute_contribution(jackpot=jackpot, pot_total=round_of_play.pot_total,
                                                       after_rake=after)
            if amount <= 0:
                continue
            owed[index].append((jackpot, amount, explanation, after))
            taken += amount
    return owed


def _collecting(jackpots: Sequence[Jackpot]) -> list[Jackpot]:
    """The jackpots of `jackpots` that take contributions, in their order: collecting (N.J.A.C.
    13:69F-14.19(c)-terminate: none once its collection is terminated or it is discontinued) and funded by their own
    contributions (not a secondary funded from a portion of the primary, which takes none)."""
    return [j for j in jackpots if j.is_collecting and j.status != JackpotStatus.DISCONTINUED
            and j.funding == Funding.CONTRIBUTIONS]


def _system_allows(collecting: list[Jackpot], jackpots: LockedJackpots) -> list[Jackpot]:
    """Those of `collecting` that take contributions now: all but a jackpot funding a multi-casino system suspended
    here whose agreement stops contributions meanwhile (N.J.A.C. 13:69F-14.20(c)1; `jackpots.system_stops`)."""
    return [j for j in collecting if j.pk not in jackpots.system_stops]


def report_contributions(*, taken: ContributionsTaken, jackpots: LockedJackpots) -> None:
    """Send the contributions of jackpots that fund a multi-casino system to it (N.J.A.C. 13:69F-14.20(e)2-complete),
    in the transaction that recorded them, once they are written (they have their ids): the system records what it
    sends to its host. taken: what `take_contributions` took; jackpots: the same rounds' jackpots as `lock_jackpots`
    locked them (`funds_system`, the ids of those that fund the system). Nothing is sent without a system."""
    system = shared_payout_system()
    reported = [c for c in taken.records if c.jackpot_id in jackpots.funds_system]
    if reported and system is not None:
        system.record_contributions(contributions=reported)


def _participates(round_of_play: RoundOfPlay) -> bool:
    """Whether the game a round was dealt in contributes to the bad beat payout as posted (14.19(c)-designated)."""
    posting = round_of_play.table if round_of_play.rotation_game is None else round_of_play.rotation_game
    return bool(posting.bad_beat_participation) and not round_of_play.is_dead


def check_showdowns(*, settled: Sequence[tuple[RoundOfPlay, hands.Settlement]],
                    jackpots: LockedJackpots) -> list[Claim]:
    """Open a pending claim for each jackpot a round's showdown qualifies for (N.J.A.C. 13:69F-14.19(a)-losing-hand,
    14.19(i)), for a poker shift supervisor to verify; the claims opened.

    A quick look at the settled hands first: only when a hand at the showdown that won nothing of the main pot
    (of a run's share of it, for a hand run more than once) reaches some jackpot's qualifying hand is the round
    judged in full (players dealt in, both hole cards, the kind of pot: straddled, bomb pot, run more than once,
    14.19(b)3-applied). Rounds whose game does not participate, or without a showdown, are passed over. jackpots: the
    rounds' jackpots as `lock_jackpots` locked them in this transaction.
    """
    candidates = [(r, s) for r, s in settled if r.went_to_showdown and s.pots and _participates(r)]
    if not candidates:
        return []
    casino_ids = {r.table.casino_id for r, _ in candidates}
    offered_at: dict[int, list[Jackpot]] = {}
    for jackpot in jackpots.jackpots:
        if jackpot.casino_id in casino_ids and jackpot.status != JackpotStatus.DISCONTINUED:
            offered_at.setdefault(jackpot.casino_id, []).append(jackpot)
    claims: list[Claim] = []
    for round_of_play, settlement in candidates:
        offered = offered_at.get(round_of_play.table.casino_id, [])
        losing = []
        for run in settlement.runs or (settlement,):
            main = run.pots[0]
            winners = {seat for seat, amount in main.awards.items() if amount > ZERO}
            highs = [run.hands[s].high for s in main.pot.eligible if s not in winners and s in run.hands]
            losing += [value for value in highs if value is not None]
        if any(qualifies_as_bad_beat(jackpot=j, losing=value) for j in offered for value in losing):
            claims += open_claims_for_round(round_of_play=round_of_play)
    return claims
