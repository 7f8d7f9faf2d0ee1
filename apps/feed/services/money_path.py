"""The hand feed's money path: rounds of play recorded in the regulation's order.

The money of every round of play enters here. `record_batch_of_rounds` is the one money path, read top to bottom:

    1. verify the round: players, cards, the game of the table or of its rotation    (14.6, 14.8, 14.9-14.13A)
    2. build the pots and side pots, give back the uncalled bet, rank the showdown    (14.7(c)4, 14.14(d))
    3. take the rake                                     rake.services.take_rake       (14.14)
    4. take the bad beat contribution, after the rake    badbeat.services.take_contributions  (14.19(c)-after-rake)
    5. award the pots (a hand run more than once: each pot split per run); the kill   (14.10(j)-winner,
    14.11(i)-placed, 14.11(i)-moves, 14.11(i)-collected)
    6. record the deck dealt                             decks.services.record_round_decks    (14.2(d)3)
    7. check the showdown for a bad beat                 badbeat.services.check_showdowns     (14.19(i))

Steps 1 and 2 (apps.feed.services.verification) write nothing and take no lock: step 1 reads the table, its posted
games and its casino's gaming-day settings and compares the round's time with the clock; step 2 is computed in
memory. Then one transaction: it first holds the rounds' gaming days open (hold_open_gaming_days: a day that is not
open refuses the rounds, and a close waits for the commit), writes the rounds and runs steps 3 to 7, and commits
right after step 7. The jackpot row locks are taken at step 4, as late as the contribution allows: what each round
owes depends on the posted terms only, so a batch's pots are awarded from it before the lock, and the contributions
(their reset parts, the balances) are then taken under the lock; a term changed in between has the pots awarded
again from what was taken (a single round is awarded after the lock: one read fewer). Every wait is
bounded (PostgreSQL's lock_timeout: a lock held elsewhere answers 503, having written nothing). A round called dead
returns every chip and is logged as an irregularity (14.15(g)-dead, 14.15(g)-returned). Work that may wait for the
commit (alerts, notifications, sending to a multi-casino host) is started after it; nothing after the commit can undo a
round. """
from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps import hands
from apps.badbeat import services as badbeat
from apps.casinos.models import Backfill, Casino
from apps.casinos.services import hold_open_gaming_days
from apps.core.exceptions import AlreadyRecorded, DomainError, unique_violation_on
from apps.core.money import CENT, ZERO
from apps.core.writer import Writer
from apps.decks import services as decks
from apps.irregularities.models import IrregularityKind
from apps.irregularities.services import log_irregularity
from apps.rake import services as rake
from apps.rounds import services as records
from apps.rounds.models import RoundOfPlay, RoundSource
from apps.tables.models import KillOption, PokerTable

from ..types import PlayerIn, RoundIn
from .verification import VerifiedRound, build_round, verify_round


def record_round_of_play(*, table: PokerTable, round_in: RoundIn, recorded_by=None,
                         backfill: Backfill | None = None) -> RoundOfPlay:
    """Record and settle one round of play at `table`: `record_batch_of_rounds` for one round. Raises DomainError
    (field-level) and writes nothing for bad input."""
    return record_batch_of_rounds(rounds=[(table, round_in)], recorded_by=recorded_by, backfill=backfill)[0]


def record_batch_of_rounds(*, rounds: Sequence[tuple[PokerTable, RoundIn] | VerifiedRound],
                           recorded_by=None, backfill: Backfill | None = None) -> list[RoundOfPlay]:
    """Record and settle rounds of play, each at its table, in one transaction; the recorded rounds in order (each
    with its seats and pots as written: `written_players`, `written_pots`).

    rounds: (table, round as the feed reports it), or a VerifiedRound that already passed steps 1 and 2 (a PHH
    file is verified whole before any of it is written).

    The money path in the regulation's order (see the module's docstring). Chips are conserved in every round:
    what the players put in = the uncalled bet given back + the rake + the contributions + the awards. Amounts are
    Decimal dollars. A straddle is a live blind (in the pots as any bet), a dead blind dead money in the main pot; a
    bomb pot is settled as any pot; a hand run two or three times pays the rake and the contribution once, from the
    pots, before each pot is split into one share per run (step 5). A round with a `dead_reason` is called dead: every
    chip goes back, nothing is raked or contributed, and the irregularity is logged (14.15(g)-dead, 14.15(g)-returned).
    Steps 3 to 5 say what to record; one writer (apps.core.writer) writes it, in its lock order, before steps 6 and 7.
    Every jackpot of the casinos concerned is row-locked from step 4 to the commit: keep batches small (the PHH import
    writes IMPORT_BATCH rounds at a time).

    Money goes only into an open gaming day of the casino: the current one, or the previous one until it is closed
    (apps.casinos.services.hold_open_gaming_days); an earlier day only through `backfill`, an administrator's
    backfill of a past day that holds no other records.

    Raises DomainError naming the field — fewer than two players, more than the game seats, a game the table does
    not deal, unknown, duplicate or miscounted cards, a gaming day that is not open, a deck not at the table — or
    AlreadyRecorded (409) for a source hand already stored, and writes nothing then. Inside a caller's transaction
    the rounds are written in a savepoint of their own, so that the caller may catch the error and go on.
    """
    # 1. Verify each round: players, cards, the game of the table or its rotation, its gaming day.
    verified = [r if isinstance(r, VerifiedRound) else verify_round(table=r[0], round_in=r[1], backfill=backfill)
                for r in rounds]
    # 2. Build the main pot and side pots, give back the uncalled bet (14.7(c)4, 14.14(d)), rank the showdown.
    for round_ in verified:
        if round_.build is None:
            build_round(round_)
    digests = [v.round_in.source_digest for v in verified if v.round_in.source_digest]
    if len(set(digests)) != len(digests):
        raise DomainError("The same source hand is given twice.", field="source_digest")
    try:
        with transaction.atomic():
            # ... and the gaming days stay open until these rounds commit: a closed day takes no round of play.
            for casino, days in _gaming_days(verified):
                hold_open_gaming_days(casino=casino, days=days, what="a round of play", field="started_at",
                                      backfill=backfill)
            writer = Writer()
            recorded = [_round_of_play(v, recorded_by) for v in verified]
            writer.add(recorded)
            writer.add_totals(records.day_totals(rounds=recorded))
            settled = [(v, r) for v, r in zip(verified, recorded, strict=True) if not v.dead]
            # 3. The rake, first from the pots (14.14).
            settled_rounds = [r for _, r in settled]
            raked = rake.take_rake(rounds=settled_rounds)
            writer.add(raked.records)
            writer.add_totals(raked.hours)
            after_rake = [r.pot_total - taken for r, taken in zip(settled_rounds, raked.amounts, strict=True)]
            # 4. The bad beat contribution, from the pot after the rake (14.19(c)). What each round owes depends on the
            #    jackpots' posted terms only: for a batch, it is worked out first, unlocked, so that the pots are
            #    awarded (5) before the jackpots are row-locked — from there to the commit, for the contributions
            #    themselves (their reset parts, the balances). A single round is awarded after (one read fewer), and so
            #    is a batch whose contributions took other amounts (a posted term changed in between).
            owed, awarded = None, None
            if len(settled_rounds) > 1:
                owed = badbeat.contributions_owed(rounds=settled_rounds, after_rake=after_rake,
                                                  jackpots=badbeat.read_jackpots(rounds=settled_rounds))
                # 5. Award the pots, the deductions out of the main pot first (14.3, 14.10(j)); the kill (14.11(i)).
                awarded = _settle(verified, recorded, settled, raked.amounts, owed)
            jackpots = badbeat.lock_jackpots(rounds=settled_rounds)
            contributed = badbeat.take_contributions(rounds=settled_rounds, jackpots=jackpots, after_rake=after_rake)
            if awarded is None or contributed.taken != owed:  # 5. awarded under the lock
                awarded = _settle(verified, recorded, settled, raked.amounts, contributed.taken)
            settlements, rows = awarded
            contributed.give_to(writer)
            for seats_pots_awards in rows:
                writer.add(seats_pots_awards)
            writer.flush()
            badbeat.report_contributions(taken=contributed, jackpots=jackpots)
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
    except IntegrityError as exc:
        # a round whose source hand is stored meanwhile (posted twice at once: the first committed): rolled back above
        if digests and unique_violation_on(exc, RoundOfPlay):
            raise _already_recorded(verified) from exc
        raise
    return recorded


def _gaming_days(verified: Sequence[VerifiedRound]) -> list[tuple[Casino, set[date]]]:
    """The casinos of the rounds, in id order, each with the gaming days its rounds are recorded in."""
    days: dict[int, tuple[Casino, set[date]]] = {}
    for v in verified:
        days.setdefault(v.table.casino_id, (v.table.casino, set()))[1].add(v.gaming_day)
    return [days[casino_id] for casino_id in sorted(days)]


def betting_round_totals(players: Sequence[PlayerIn], uncalled: dict[str, Decimal]) -> list[Decimal]:
    """Sums bet in each betting round (N.J.A.C. 13:69F-14.14(b)1-per-betting-round, 14.14(d)), Decimal dollars; empty
    when the feed gave no betting rounds. The uncalled final bet is taken out of the rounds where it was bet, last
    first, unless the feed tracked it (`PlayerIn.returned`), in which case its betting rounds already leave it out."""
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


# --- steps 3 to 7: the records ---------------------------------------------------------------------------------

def _round_of_play(v: VerifiedRound, recorded_by) -> RoundOfPlay:
    """The record of a verified round of play (unsaved: it gets its id when the writer flushes)."""
    round_in = v.round_in
    betting_rounds = [] if v.dead else [str(t) for t in betting_round_totals(round_in.players, v.built.uncalled)]
    return RoundOfPlay(
        table=v.table, game=v.game.value, betting_structure=v.posting.betting_structure,
        rotation_game=v.rotation_game, started_at=round_in.started_at, gaming_day=v.gaming_day,
        board=hands.format_cards(v.board), run_boards=[hands.format_cards(board) for board in v.boards],
        straddles=v.straddles, bomb_pot=round_in.bomb_pot, button=round_in.button,
        total_bet=v.total_bet, uncalled_amount=v.uncalled,
        refunded_amount=v.total_bet if v.dead else ZERO, pot_total=v.pot_total, is_dead=v.dead,
        dead_reason=round_in.dead_reason[:200], went_to_showdown=v.contested,
        betting_rounds=betting_rounds,
        source=round_in.source, source_name=round_in.source_name[:300], source_digest=round_in.source_digest,
        recorded_by=recorded_by)


def _already_recorded(verified: Sequence[VerifiedRound]) -> AlreadyRecorded:
    """The refusal of rounds one of which is stored already (the same external id of a JSON feed, the same PHH hand),
    e.g. posted twice at once: the first commits, the second meets the unique source digest. 409 with the stored
    round's id (`existing_id`); the field is `external_id` for a JSON round, `source_digest` otherwise."""
    # keyed as the column reads (a nullable text): the rounds without a digest are left out, so none is None
    by_digest: dict[str | None, RoundIn] = {v.round_in.source_digest: v.round_in for v in verified
                                           if v.round_in.source_digest}
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


def _settle(verified: Sequence[VerifiedRound], recorded: Sequence[RoundOfPlay],
            settled: Sequence[tuple[VerifiedRound, RoundOfPlay]], raked: Sequence[Decimal],
            contributions: Sequence[Decimal]) -> tuple[list[hands.Settlement], tuple[list, list, list]]:
    """Step 5 for every round settled: its pots awarded once the rake and the contribution (Decimal dollars, in the
    order of `settled`) are deducted (`_award`), and the records of the rounds' seats, pots and awards."""
    settlements = [_award(v, r, taken + contribution) for (v, r), taken, contribution
                   in zip(settled, raked, contributions, strict=True)]
    return settlements, _seats_and_pots(verified, recorded, settled, settlements)


def _award(v: VerifiedRound, round_of_play: RoundOfPlay, deducted: Decimal) -> hands.Settlement:
    """Step 5: the rake and contribution come out of the main pot first, then the side pots in order; each pot goes
    to its winners, the last player left or the best hands at the showdown (14.6(d), 14.6(e)5-award), as the engine
    ranks the hands (14.10(j)-winner, 14.10(j)-board-plays, 14.11(f), 14.11(g)-qualifier,
    14.11(g)-high-takes-all). A hand run more than once: the rake and the contribution are taken once, from the pots,
    before each pot is split into one share per run and each share awarded on its run's board (apps.hands.award_runs:
    the odd chip of the split to the first run)."""
    net = []
    for pot in v.built.pots:
        take = min(pot.amount, deducted)
        deducted -= take
        net.append(hands.Pot(amount=pot.amount - take, eligible=pot.eligible))
    hole = {seat: cards for seat, cards in v.hole.items() if seat not in v.out} if v.contested else {}
    if v.boards:
        return hands.award_runs(v.game, net, hole, v.boards, showdowns=v.run_showdowns)
    return hands.award_pots(v.game, net, hole, v.board, showdown=v.showdown or {})


def _run_share(number: int, share: hands.PotResult) -> dict:
    """A run's share of a pot and its awards, as the pot records it (rounds.models.Pot.runs: Decimal strings)."""
    return {"run": number, "amount": str(share.pot.amount),
            "awards": [{"seat": int(seat), "amount": str(amount)}
                       for seat, amount in sorted(share.awards.items(), key=lambda kv: int(kv[0])) if amount > 0]}


def _seats_and_pots(verified: Sequence[VerifiedRound], recorded: Sequence[RoundOfPlay],
                    settled: Sequence[tuple[VerifiedRound, RoundOfPlay]],
                    settlements: Sequence[hands.Settlement]) -> tuple[list, list, list]:
    """The records of the rounds' seats, pots and the chips pushed from each pot (rounds.services.seats_and_pots):
    (seats, pots, awards) of all the rounds, each round keeping its own as written."""
    settlement_of = {id(r): s for (_, r), s in zip(settled, settlements, strict=True)}
    players, pots, awards = [], [], []
    for v, round_of_play in zip(verified, recorded, strict=True):
        settlement = settlement_of.get(id(round_of_play))
        seats = []
        for p in v.round_in.players:
            seat = str(p.seat)
            best = settlement.hands.get(seat) if settlement else None
            high = best.high if best is not None else None
            low = best.low if best is not None else None
            seats.append(records.SeatRow(
                seat=p.seat, name=p.name[:80], starting_stack=p.starting_stack,
                contributed=p.contributed, returned=p.contributed if v.dead else v.built.uncalled.get(seat, ZERO),
                hole_cards=hands.format_cards(v.hole[seat]) if seat in v.hole else "", dealt_cards=p.dealt_cards[:40],
                draws=[{"discarded": d.discarded, "drawn": d.drawn} for d in p.draws], folded=p.folded,
                at_showdown=v.contested and seat not in v.out,
                high_hand=high.category.label if high is not None else "",
                high_cards=hands.format_cards(high.cards) if high is not None else "",
                low_hand=low.category.label if low is not None else "",
                low_cards=hands.format_cards(low.cards) if low is not None else "",
                awarded=settlement.awards.get(seat, ZERO) if settlement else ZERO,
                straddle=p.straddle, dead_money=p.dead))
        round_pots = [] if settlement is None else [records.PotRow(
            index=index, gross=gross.amount, deducted=gross.amount - result.pot.amount, amount=result.pot.amount,
            eligible_seats=sorted(int(s) for s in gross.eligible),
            awards=[(int(seat), amount) for seat, amount in sorted(result.awards.items(), key=lambda kv: int(kv[0]))
                    if amount > 0],
            runs=[_run_share(number, run.pots[index]) for number, run in enumerate(settlement.runs, start=1)])
            for index, (gross, result) in enumerate(zip(v.built.pots, settlement.pots, strict=True))]
        round_players, round_pot_rows, round_awards = records.seats_and_pots(round_of_play=round_of_play,
                                                                              seats=seats, pots=round_pots)
        players += round_players
        pots += round_pot_rows
        awards += round_awards
    return players, pots, awards
