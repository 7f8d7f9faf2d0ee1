"""PHH imports: the hands of a PHH text or file read, verified and written along the money path batch by batch
(streamed: memory holds one batch whatever the number of hands), each hand that records `winnings` with its rake audit
(source_settlements) in its batch's transaction."""
from __future__ import annotations

import logging
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from itertools import islice
from pathlib import Path

from django.conf import settings
from django.db import connection, connections, transaction

from apps.casinos.models import Backfill, Casino
from apps.casinos.selectors import gaming_day_refusal
from apps.core.exceptions import DomainError
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable

from .. import selectors
from ..phh import ParsedHand, PhhError, PhhSource, RefusedHand, open_sections, parse_sections
from .money_path import record_batch_of_rounds
from .source_settlements import Reading, VenueTally, how_written, record_source_settlements
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
    """What an import did, per variant — each hand refused on its own with its label and reason (malformed, impossible
    actions, cards that do not fit the game, refused by the money path's checks, no table to take it) — with the files
    refused whole (not PHH at all: nothing of them stored) and the rounds written at each table."""

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

    def add(self, other: ImportSummary) -> None:
        """Count `other`'s hands, files and tables in this summary (the summary of several files)."""
        for code, tally in other.variants.items():
            mine = self.tally(code)
            mine.imported += tally.imported
            mine.already_stored += tally.already_stored
            mine.refused += tally.refused
        self.files_refused += other.files_refused
        for number, count in other.tables.items():
            self.tables[number] = self.tables.get(number, 0) + count
        if self.existing_round_id is None:
            self.existing_round_id = other.existing_round_id

    def as_json(self) -> dict:
        return {"imported": self.imported, "skipped": self.already_stored, "refused": self.refused,
                "variants": {code: {"imported": t.imported, "already_stored": t.already_stored,
                                    "refused": [{"hand": label, "reason": reason} for label, reason in t.refused]}
                             for code, t in sorted(self.variants.items())},
                "files_refused": [{"file": name, "reason": reason} for name, reason in self.files_refused],
                "tables": {str(number): count for number, count in sorted(self.tables.items())}}


def import_phh(*, casino: Casino, text: str | None = None, name: str, path: Path | None = None,
               table: PokerTable | None = None, recorded_by=None, summary: ImportSummary | None = None,
               progress: Callable[[int], None] | None = None, batch_size: int = IMPORT_BATCH,
               backfill: Backfill | None = None) -> ImportSummary:
    """Take the hands of one PHH document (`.phh` or `.phhs`: `text`, or the file at `path`, read line by line) in as
    rounds of play of `casino`; the summary.

    Each hand goes to a table of the casino that deals its game — a single-game table of that game or a mixed-game
    table whose rotation includes it, preferably one posting the hand's blinds or bring-in and its betting
    structure — or to `table`, which must deal the hand's game. Hands go to open tables only (a closed `table`
    refuses the whole text, DomainError field "table"), but for a backfill's. A hand no New Jersey game matches
    (short-deck hold 'em), that no table deals, or that cannot be taken in — malformed fields, actions that cannot have
    happened, cards that do not fit the game, a round the money path's checks refuse (verify_round, build_round) — is
    refused on its own with its label and the reason, and the others go in; a hand already stored (same source digest,
    looked up batch by batch: a hand repeated later in the document finds the earlier one stored) is counted and not
    stored again, so importing again changes nothing.

    Streamed: the document is checked whole first (phh.open_sections: TOML, headers), keeping nothing of it; then it
    is read again hand by hand, `batch_size` hands at a time parsed, accounted and verified, and their rounds written
    in one transaction along the money path (record_batch_of_rounds) before the next hands are read — so memory holds
    one batch's hands whatever the document's length, and no lock is held across batches. `progress(n)` is called as
    hands are done. A hand that records `winnings` gets its rake audit (apps.feed.models.SourceSettlement and the
    table's SourceRakeDay), in the transaction of its batch (source_settlements.record_source_settlements); a hand both
    readings of its winnings fit is read as its venue's hands of this batch and the batches before it are written (a
    running VenueTally: before streaming, all the document's hands decided it).

    A hand dated in a gaming day that is not open (the current one, and the previous one until it is closed) is
    refused with the reason, unless `backfill` is given: an administrator's backfill (casinos.Backfill) records
    into past gaming days that hold no other records; the caller closes them when it ends
    (apps.counts.services.close_backfilled_days). A hand dated in a closed day is refused either way.

    Raises DomainError (field "phh") for a document that is not PHH at all — TOML that cannot be read, no hand, a
    hand's header with a control character — and stores nothing of it then; OSError or UnicodeDecodeError, before
    storing anything, for a file at `path` that cannot be read as UTF-8 text.
    """
    summary = summary if summary is not None else ImportSummary()
    try:
        found = open_sections(PhhSource(name=name, text=text, path=path))
    except PhhError as exc:
        raise DomainError(str(exc), field="phh") from exc
    if table is not None:
        table = selectors.tables_dealing(casino=casino).get(pk=table.pk)
        tables = [table]
    else:
        tables = list(selectors.tables_dealing(casino=casino))
    hands = parse_sections(found, zone=casino.zone, refuse_malformed=True)
    run = _Run(summary=summary, tables=tables, table=table, recorded_by=recorded_by, backfill=backfill,
               progress=progress)
    while True:
        try:
            batch = list(islice(hands, batch_size))
        except PhhError as exc:  # the file changed since it was checked: the batches written stay
            raise DomainError(str(exc), field="phh") from exc
        if not batch:
            break
        run.take(batch)
        del batch  # one batch of hands in memory at a time
    return summary


def import_phh_files(*, casino: Casino, paths: Sequence[Path], table: PokerTable | None = None, recorded_by=None,
                     backfill: Backfill | None = None, jobs: int = 1,
                     progress: Callable[[int], None] | None = None) -> Iterator[tuple[Path, ImportSummary]]:
    """`import_phh` of each PHH file at `paths` (read line by line), in order: (path, its summary) as each is done. A
    file that is not PHH at all, or cannot be read as UTF-8 text, is in its summary's `files_refused` (with whatever
    of it was written before, when it changed while read); any other error (the database down) goes up.

    With `jobs` > 1 (asked for: the default is 1), and several files, outside a transaction of the caller's: the files
    are imported by up to `jobs` worker processes at once (forked, each with its own database connections), every
    file by one worker, whole, exactly as one import would take it — the money path's locks order the workers'
    batches (the jackpots locked in primary-key order) and a hand two files hold is stored once (under the name of
    whichever file's worker writes it first). `progress(n)` is then called per file done (hand by hand otherwise)."""
    jobs = max(1, min(jobs, len(paths)))
    if jobs == 1 or connection.in_atomic_block:
        for path in paths:
            yield path, _import_file(casino=casino, path=path, table=table, recorded_by=recorded_by,
                                     backfill=backfill, progress=progress)
        return
    connections.close_all()  # a forked worker opens its own: none is shared across a fork
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
                               initializer=_forget_inherited_connections)
    try:
        done = pool.map(_import_file_in_worker, [(casino.pk, path, table.pk if table else None,
                                                  getattr(recorded_by, "pk", None), backfill.pk if backfill else None)
                                                 for path in paths])
        for path, summary in zip(paths, done, strict=True):
            if progress is not None:
                progress(summary.imported + summary.already_stored + summary.refused)
            yield path, summary
    finally:
        pool.shutdown(cancel_futures=True)


def _import_file(*, casino: Casino, path: Path, table: PokerTable | None, recorded_by, backfill: Backfill | None,
                 progress: Callable[[int], None] | None = None) -> ImportSummary:
    summary = ImportSummary()
    try:  # read line by line, batch by batch (streamed): memory does not grow with the file
        import_phh(casino=casino, path=path, name=path.name, table=table, summary=summary, progress=progress,
                   backfill=backfill, recorded_by=recorded_by)
    except DomainError as exc:
        summary.files_refused.append((str(path), exc.message))
    except (UnicodeDecodeError, OSError) as exc:  # raised before anything of the file is stored
        summary.files_refused.append((str(path), f"cannot be read as UTF-8 text ({exc})"))
    return summary


def _import_file_in_worker(args: tuple[int, Path, int | None, int | None, int | None]) -> ImportSummary:
    """A worker process's import of one file (import_phh_files): the casino, table, user and backfill read again by
    their ids, on the worker's own connection."""
    from apps.casinos.models import User

    casino_id, path, table_id, user_id, backfill_id = args
    try:
        return _import_file(casino=Casino.objects.get(pk=casino_id), path=path,
                            table=PokerTable.objects.get(pk=table_id) if table_id else None,
                            recorded_by=User.objects.get(pk=user_id) if user_id else None,
                            backfill=Backfill.objects.get(pk=backfill_id) if backfill_id else None)
    finally:
        connections.close_all()


def _forget_inherited_connections() -> None:
    """In a forked worker: drop any database connection object copied from the parent without closing it (closing
    would end the parent's session on the socket both hold; psycopg does not close a copy when it is collected), so
    that the worker's first query opens a connection of its own."""
    for wrapper in connections.all(initialized_only=True):
        wrapper.connection = None


@dataclass
class _Run:
    """What an import keeps from batch to batch: the summary, the tables, the gaming days' refusals (per casino and
    day) and the venues' running tally — nothing per hand."""

    summary: ImportSummary
    tables: list[PokerTable]
    table: PokerTable | None
    recorded_by: object
    backfill: Backfill | None
    progress: Callable[[int], None] | None
    venues: VenueTally = field(default_factory=VenueTally)
    day_refusals: dict[tuple[int, date], str | None] = field(default_factory=dict)

    def take(self, parsed: list[ParsedHand | RefusedHand]) -> None:
        """Account, verify and write one batch of hands (in one transaction: _write_batch)."""
        summary, table, backfill = self.summary, self.table, self.backfill
        stored_ids = dict(RoundOfPlay.objects.filter(source_digest__in=[
            h.round_in.source_digest if isinstance(h, ParsedHand) else h.source_digest for h in parsed])
            .values_list("source_digest", "pk"))
        stored = set(stored_ids)
        self.venues.count(h for h in parsed if isinstance(h, ParsedHand))
        venues = self.venues.readings()
        fresh: list[tuple[VerifiedRound, str, ParsedHand, Reading | None]] = []
        for hand in parsed:
            if isinstance(hand, RefusedHand):
                summary.tally(hand.variant).refused.append((hand.label, hand.reason))
                continue
            if hand.round_in.source_digest in stored:
                summary.tally(hand.variant.code).already_stored += 1
                if summary.existing_round_id is None:
                    summary.existing_round_id = stored_ids.get(hand.round_in.source_digest)
                continue
            chosen, reason = selectors.table_for_hand(hand=hand, tables=self.tables, fixed=table is not None,
                                                      open_only=backfill is None)
            if chosen is None:
                summary.tally(hand.variant.code).refused.append((hand.label, reason))
                continue
            try:
                verified = verify_round(table=chosen, round_in=hand.round_in, backfill=backfill)
            except DomainError as exc:
                if exc.field == "table":  # the table given is closed: no hand of the text goes in
                    raise
                # dated where the casino records nothing, or refused by the checks: this hand only is refused
                summary.tally(hand.variant.code).refused.append((hand.label, _refusal(exc)))
                continue
            key = (chosen.casino_id, verified.gaming_day)
            if key not in self.day_refusals:
                self.day_refusals[key] = gaming_day_refusal(casino=chosen.casino, gaming_day=verified.gaming_day,
                                                            what="a round of play", backfill=backfill)
            refusal = self.day_refusals[key]
            if refusal:
                summary.tally(hand.variant.code).refused.append((hand.label, refusal))
                continue
            try:
                build_round(verified)
            except DomainError as exc:
                summary.tally(hand.variant.code).refused.append((hand.label, _refusal(exc)))
                continue
            stored.add(hand.round_in.source_digest)
            fresh.append((verified, hand.variant.code, hand,
                          how_written(hand.winnings, venues) if hand.winnings is not None else None))
        if self.progress is not None:
            self.progress(len(parsed) - len(fresh))
        if not fresh:
            return
        self._written(fresh, _write_batch(fresh, self.recorded_by, backfill))

    def _written(self, fresh: list[tuple[VerifiedRound, str, ParsedHand, Reading | None]], written: list[bool]) -> None:
        """Count a batch the writer wrote (`written`: which of `fresh` it stored)."""
        summary = self.summary
        for (verified, code, _, _), was_written in zip(fresh, written, strict=True):
            if was_written:
                summary.tally(code).imported += 1
                summary.tables[verified.table.number] = summary.tables.get(verified.table.number, 0) + 1
            else:
                summary.tally(code).already_stored += 1
        if summary.existing_round_id is None and not all(written):  # stored meanwhile by another import
            summary.existing_round_id = RoundOfPlay.objects.filter(source_digest__in=[
                v.round_in.source_digest for (v, *_), was_written in zip(fresh, written, strict=True)
                if not was_written]).values_list("pk", flat=True).first()
        if self.progress is not None:
            self.progress(len(fresh))


def _refusal(exc: DomainError) -> str:
    """A hand's refusal by the money path's checks, naming the field at fault ("players[1].hole_cards: ...")."""
    return f"{exc.field}: {exc.message}" if exc.field and exc.field != "started_at" else exc.message


#: Seconds an import waits before writing a batch again when the database was busy (a row lock or a statement past
#: its timeout, a deadlock: apps.core.unavailable); then the error goes up (a 503, or the task's retry).
IMPORT_BATCH_BACKOFF = (0.5, 1.0, 2.0)


def _record_batch(rounds: list[VerifiedRound], after: Callable[[list[RoundOfPlay]], object] | None = None,
                  **kwargs) -> None:
    """record_batch_of_rounds, then `after(recorded rounds)` in the same transaction (the rake audit); written again
    after IMPORT_BATCH_BACKOFF when the database was busy — only outside an enclosing transaction, where the failed
    batch's transaction was rolled back whole and nothing else with it."""
    from django.db import OperationalError, connection

    from apps.core.unavailable import BUSY_RETRY_AFTER, unavailable

    for pause in (*IMPORT_BATCH_BACKOFF, None):
        try:
            with transaction.atomic():
                recorded = record_batch_of_rounds(rounds=rounds, **kwargs)
                if after is not None:
                    after(recorded)
            return
        except OperationalError as exc:
            condition = unavailable(exc)
            if pause is None or connection.in_atomic_block or condition is None \
                    or condition.retry_after != BUSY_RETRY_AFTER:
                raise
            logger.warning("Import batch of %d rounds: %s; written again in %.1f s", len(rounds), condition.reason,
                           pause)
            time.sleep(pause)


def _audit(batch: Sequence[tuple[VerifiedRound, str, ParsedHand, Reading | None]],
           recorded: Sequence[RoundOfPlay]) -> None:
    """The rake audit of a batch just recorded (`recorded`, in the batch's order), in its transaction."""
    record_source_settlements(recorded=[(v, r, hand, reading) for (v, _, hand, reading), r
                                        in zip(batch, recorded, strict=True) if reading is not None])


def _write_batch(batch: Sequence[tuple[VerifiedRound, str, ParsedHand, Reading | None]], recorded_by,
                 backfill: Backfill | None) -> list[bool]:
    """Record a batch of verified rounds, with the rake audit of those whose hand records `winnings` in the same
    transaction; a hand stored meanwhile by another import is left out. Which were written."""
    todo = list(batch)
    for _attempt in range(3):
        try:
            _record_batch([v for v, *_ in todo], after=partial(_audit, list(todo)), recorded_by=recorded_by,
                          backfill=backfill)
            written = {id(v) for v, *_ in todo}
            return [id(v) in written for v, *_ in batch]
        except DomainError as exc:
            if exc.field != "source_digest":
                raise
            taken = set(RoundOfPlay.objects.filter(source_digest__in=[v.round_in.source_digest for v, *_ in todo])
                        .values_list("source_digest", flat=True))
            todo = [row for row in todo if row[0].round_in.source_digest not in taken]
            if not todo:
                return [False] * len(batch)
    raise DomainError("This file is being imported by someone else at the same time; import it again.", field="phh")
