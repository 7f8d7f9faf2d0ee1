"""PHH imports: the hands of a PHH text verified whole, then written along the money path in batches."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date

from django.conf import settings

from apps.casinos.models import Backfill, Casino
from apps.casinos.selectors import gaming_day_refusal
from apps.core.exceptions import DomainError
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable

from .. import selectors
from ..phh import ParsedHand, PhhError, RefusedHand, parse_phh
from .money_path import record_batch_of_rounds
from .verification import VerifiedRound, build_round, verify_round

logger = logging.getLogger(__name__)


#: Rounds written per transaction by an import: the jackpot rows are locked for one batch at a time, so rounds from
#: the tables go through between batches while a long import runs (bench/README.md measures how long).
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
    path (record_batch_of_rounds), so no lock is held across batches. `progress(n)` is called as hands are done.

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
        refusal = day_refusals[key]
        if refusal:
            summary.tally(hand.variant.code).refused.append((hand.label, refusal))
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
    """record_batch_of_rounds, written again after IMPORT_BATCH_BACKOFF when the database was busy — only outside an
    enclosing transaction, where the failed batch's transaction was rolled back whole and nothing else with it."""
    from django.db import OperationalError, connection

    from apps.core.unavailable import BUSY_RETRY_AFTER, unavailable

    for pause in (*IMPORT_BATCH_BACKOFF, None):
        try:
            record_batch_of_rounds(rounds=rounds, **kwargs)
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
