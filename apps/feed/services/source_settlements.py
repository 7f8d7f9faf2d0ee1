"""The rake audit of hands recorded by other systems (issue 35): what a hand history says the players received (its
`winnings`, after the house's rake), the source's rake worked out from it, and our posted rake for the round
(N.J.A.C. 13:69F-14.14), written beside the round in the transaction that records it (`record_source_settlements`).

Money is Decimal dollars. For one hand, by our accounting: pot = what the players put in − the uncalled bet given
back (14.14(d)); the source's rake = pot − what its winnings pay from the pots. Sites write winnings two ways, with the
uncalled bet given back in the amounts or without it; the arithmetic tells which (`how_written`), and the audit row
says which and why. A hand "does not reconcile at all" when its winnings are negative, pay more than the pot, or pay a
player who folded or is eligible for no pot (or more than the pots that player is eligible for): the round is still
recorded, settled by our accounting, and its row is flagged, with no source rake.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from apps.core.money import ZERO
from apps.core.writer import Totals, Writer
from apps.rake.models import RakeRecord
from apps.rounds.models import RoundOfPlay

from ..models import SourceRakeDay, SourceSettlement, WinningsWritten
from ..phh import ParsedHand, SourceWinnings
from .verification import VerifiedRound

_LABELS = {WinningsWritten.WITHOUT_UNCALLED: "written without the uncalled bet",
           WinningsWritten.WITH_UNCALLED: "written with the uncalled bet given back",
           WinningsWritten.NO_UNCALLED: "no uncalled bet"}


@dataclass(frozen=True)
class Reading:
    """How one hand's winnings are read for the audit: a WinningsWritten value and why (for the row's note)."""

    written: str
    why: str


class VenueTally:
    """A running tally, per venue ('' for none), of how its hands write winnings when the arithmetic tells (a hand only
    one reading fits): a count per venue and reading, so an import streamed batch by batch keeps it whatever its
    number of hands (phh_imports counts each batch's hands before reading them)."""

    def __init__(self) -> None:
        self.counts: dict[str, Counter[str]] = {}

    def count(self, hands: Iterable[ParsedHand]) -> None:
        for hand in hands:
            winnings = hand.winnings
            if winnings is not None and len(winnings.readings) == 1 \
                    and winnings.readings[0] != WinningsWritten.NO_UNCALLED:
                self.counts.setdefault(winnings.venue, Counter())[winnings.readings[0]] += 1

    def readings(self) -> dict[str, str]:
        """For each venue counted, the reading most of its hands fit, when they agree more one way than the other."""
        found = {}
        for venue, counted in self.counts.items():
            ranked = counted.most_common()
            if len(ranked) == 1 or ranked[0][1] > ranked[1][1]:
                found[venue] = ranked[0][0]
        return found


def venue_readings(hands: Sequence[ParsedHand]) -> dict[str, str]:
    """For each venue of `hands` ('' for none), how its hands write winnings when the arithmetic tells (a hand only one
    reading fits): the reading most of them fit, when they agree more one way than the other (VenueTally)."""
    tally = VenueTally()
    tally.count(hands)
    return tally.readings()


def how_written(winnings: SourceWinnings, venues: dict[str, str]) -> Reading:
    """How `winnings` are read: the one reading the arithmetic allows; when both fit (the player given back the
    uncalled bet received at least that, and the amounts add up to no more than the pot), the way the venue's other
    hands are written when they tell (`venues`: the readings of an import's VenueTally, which counts the hands of its
    batches so far, the hand's own batch included), else without the uncalled bet (the smaller rake); when none fits,
    the closer one (with the uncalled bet when the amounts exceed the pot), and the hand does not reconcile."""
    readings, given_back = winnings.readings, sum(winnings.returned, ZERO)
    if len(readings) == 1:
        if readings[0] == WinningsWritten.NO_UNCALLED:
            return Reading(readings[0], "no uncalled bet: both ways of writing winnings read the same")
        if readings[0] == WinningsWritten.WITH_UNCALLED:
            return Reading(readings[0], f"the winnings add up to more than the pot, by no more than the uncalled bet "
                                        f"given back ({given_back}): they include it")
        return Reading(readings[0], "a player given back an uncalled bet is paid less than it: the winnings leave "
                                    "it out")
    if readings:
        venue = venues.get(winnings.venue)
        if venue is not None:
            return Reading(venue, f"both readings fit; read as the other hands of {winnings.venue or 'no venue'} "
                                  "in this import are written")
        return Reading(WinningsWritten.WITHOUT_UNCALLED, "both readings fit; read without the uncalled bet (the "
                                                         "smaller rake)")
    if not given_back:
        return Reading(WinningsWritten.NO_UNCALLED, "no uncalled bet")
    if sum(winnings.amounts, ZERO) > winnings.pot:
        return Reading(WinningsWritten.WITH_UNCALLED, "the winnings exceed the pot: read with the uncalled bet")
    return Reading(WinningsWritten.WITHOUT_UNCALLED, "read without the uncalled bet")


def settlement_of(*, verified: VerifiedRound, round_of_play: RoundOfPlay, hand: ParsedHand, reading: Reading,
                  our_rake: Decimal) -> SourceSettlement:
    """The audit row of one recorded round (unsaved): the source's winnings read as `reading`, checked against the
    pots our accounting built (who folded, who is eligible for which pot: `verification.build_round`) and the players our settlement
    paid, beside `our_rake` (the round's RakeRecord amount). Amounts are Decimal dollars."""
    winnings = hand.winnings
    if winnings is None:
        raise ValueError(f"{hand.label} records no winnings.")
    players = hand.round_in.players
    received = winnings.received(reading.written)
    pots = verified.built.pots
    faults = []
    negative = [f"p{i + 1} {amount}" for i, amount in enumerate(winnings.amounts) if amount < 0]
    if negative:
        faults.append(f"negative winnings ({', '.join(negative)})")
    for i, (player, amount) in enumerate(zip(players, received, strict=True)):
        if winnings.amounts[i] < 0:
            continue
        if amount < 0:
            faults.append(f"p{i + 1} is paid less than the uncalled bet given back")
        elif amount > 0 and player.folded:
            faults.append(f"p{i + 1} folded but is paid {amount}")
        elif amount > 0:
            eligible = sum((pot.amount for pot in pots if str(player.seat) in pot.eligible), ZERO)
            if amount > eligible:
                faults.append(f"p{i + 1} is paid {amount}, more than the pots they are eligible for ({eligible})")
    paid = sum(received, ZERO)
    if paid > winnings.pot:
        faults.append(f"the winnings pay {paid}, more than the pot ({winnings.pot})")
    theirs = {p.seat for p, amount in zip(players, received, strict=True) if amount > 0}
    ours = {p.seat for p in getattr(round_of_play, "written_players", ()) if p.awarded > 0}
    notes = [f"{_LABELS[WinningsWritten(reading.written)]}: {reading.why}"]
    if faults:
        notes.append("does not reconcile: " + "; ".join(faults))
    if theirs != ours:
        notes.append(f"the source pays seat(s) {', '.join(map(str, sorted(theirs))) or 'none'}, our settlement "
                     f"seat(s) {', '.join(map(str, sorted(ours))) or 'none'}")
    if hand.cards_not_revealed:
        notes.append("cards not revealed at the showdown: settled by what the history records")
    note = ". ".join(notes)
    return SourceSettlement(
        casino_id=verified.table.casino_id, round_of_play=round_of_play, table_id=verified.table.pk,
        gaming_day=verified.gaming_day, pot=winnings.pot, uncalled=sum(winnings.returned, ZERO),
        winnings_total=sum(winnings.amounts, ZERO), written=reading.written,
        source_rake=None if faults else winnings.pot - paid, our_rake=our_rake, reconciles=not faults,
        same_winners=theirs == ours, cards_not_revealed=hand.cards_not_revealed,
        note=note if len(note) <= 300 else note[:297] + "...")


def record_source_settlements(*, recorded: Sequence[tuple[VerifiedRound, RoundOfPlay, ParsedHand, Reading]]
                              ) -> list[SourceSettlement]:
    """Write the rake audit of rounds just recorded from hand histories (those whose hand records `winnings`), with
    their running totals by table and gaming day (SourceRakeDay), through the writer (apps.core.writer). Call it in the
    transaction that records the rounds (apps.feed.services.phh_imports does, right after each batch), so that a round
    and its audit commit together. Reads each round's rake record (apps.rake, read only). The rows written."""
    audited = [(v, r, h, reading) for v, r, h, reading in recorded if h.winnings is not None]
    if not audited:
        return []
    rake = dict(RakeRecord.objects.filter(round_of_play__in=[r for _, r, _, _ in audited])
                .values_list("round_of_play_id", "amount"))
    rows = [settlement_of(verified=v, round_of_play=r, hand=h, reading=reading, our_rake=rake.get(r.pk, ZERO))
            for v, r, h, reading in audited]
    writer = Writer()
    writer.add(rows)
    writer.add_totals(Totals(SourceRakeDay, ("table_id", "gaming_day"), [
        {"table_id": row.table_id, "gaming_day": row.gaming_day, "hands": 1, "flagged": int(not row.reconciles),
         "pot": row.pot if row.reconciles else ZERO, "source_rake": row.source_rake or ZERO,
         "our_rake": row.our_rake if row.reconciles else ZERO} for row in rows]))
    writer.flush()
    return rows
