"""Writes about decks: receiving, assigning, and every event of a deck's life at a table."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from apps.casinos.models import Casino, User
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable

from .models import (
    AlertKind,
    Deck,
    DeckAlert,
    DeckDistribution,
    DeckDistributionLine,
    DeckEvent,
    DeckEventKind,
    DeckStatus,
    RoundDeck,
)
from .selectors import TableRow, alternation_breaks, due_alerts, rotation_board

FULL_DECK = 52
#: Who may record each event. 14.4(b): inspected by the dealer, verified by the floorperson or supervisor;
#: 14.2(b): placed into suit and sequence by the dealer or floorperson; 14.6(e)4: counted by the dealer.
FLOOR = {Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.ADMIN}
EVENT_ROLES: dict[str, set[Role]] = {
    DeckEventKind.INSPECTED: {Role.DEALER} | FLOOR,
    DeckEventKind.VERIFIED: FLOOR,
    DeckEventKind.SPREAD: {Role.DEALER} | FLOOR,
    DeckEventKind.PUT_IN_USE: {Role.DEALER} | FLOOR,
    DeckEventKind.ROTATED_OUT: {Role.DEALER} | FLOOR,
    DeckEventKind.SORTED: {Role.DEALER} | FLOOR,
    DeckEventKind.COUNTED: {Role.DEALER} | FLOOR,
    DeckEventKind.CHANGED: FLOOR,
    DeckEventKind.REMOVED: FLOOR,
    DeckEventKind.DESTROYED: {Role.POKER_SHIFT_SUPERVISOR, Role.ADMIN, Role.SECURITY},
}


def _when(at: datetime | None) -> datetime:
    now = timezone.now()
    if at is None:
        return now
    if timezone.is_naive(at):
        raise DomainError("The time must carry a time zone.", field="at")
    if at > now:
        raise DomainError("An event cannot be recorded in the future.", field="at")
    return at


def recordable_events(*, deck: Deck, by: User) -> list[DeckEventKind]:
    """The events `by` may record of `deck` as it stands, in DeckEventKind's order: those EVENT_ROLES gives one of the
    user's roles (every one for a superuser), of which, for a deck at a table, all but `destroyed`, and for a deck
    removed from play, `destroyed` only (record_deck_event refuses the others for the role or the deck's status);
    none for a deck in storage or destroyed. The event forms offer these
    only: a role with none (security, at a table) is shown no form. Reads the user's roles once (User.role_set), nothing
    else."""
    if deck.status == DeckStatus.AT_TABLE:
        possible = [kind for kind in EVENT_ROLES if kind != DeckEventKind.DESTROYED]
    elif deck.status == DeckStatus.REMOVED:
        possible = [DeckEventKind.DESTROYED]
    else:
        return []
    return [DeckEventKind(kind) for kind in DeckEventKind if kind in possible
            and (by.is_superuser or not by.role_set.isdisjoint(EVENT_ROLES[kind]))]


def _check_inspected_before_verified(*, deck: Deck, kind: DeckEventKind) -> None:
    """A deck is verified by the floorperson (or a supervisor: EVENT_ROLES, checked with the event's role) only after
    the dealer inspected it (N.J.A.C. 13:69F-14.4(b)-inspected-verified). Raises DomainError (field "kind")."""
    if kind == DeckEventKind.VERIFIED and not deck.events.filter(kind=DeckEventKind.INSPECTED).exists():
        raise DomainError("The dealer inspects the deck before the floorperson verifies it (14.4(b)).", field="kind")


@transaction.atomic
def receive_deck(*, casino: Casino, serial: str, back_colour: str, by: User, back_design: str = "",
                 at: datetime | None = None) -> Deck:
    """Take a new deck into the room's storage, a `received` event recorded. Raises DomainError naming the field (a
    blank serial or back colour, a serial the casino has already)."""
    serial, back_colour = serial.strip(), back_colour.strip()
    if not serial:
        raise DomainError("Give the deck's serial.", field="serial")
    if not back_colour:
        raise DomainError("Record the colour of the backs: decks at a table must be distinguishable.",
                          field="back_colour")
    if Deck.objects.filter(casino=casino, serial=serial).exists():
        raise DomainError(f"Deck {serial} is already recorded.", field="serial")
    at = _when(at)
    deck = Deck.objects.create(casino=casino, serial=serial, back_colour=back_colour, back_design=back_design,
                               received_at=at)
    DeckEvent.objects.create(deck=deck, kind=DeckEventKind.RECEIVED, at=at, by=by)
    return deck


@transaction.atomic
def assign_deck(*, deck: Deck, table: PokerTable, by: User, at: datetime | None = None) -> Deck:
    """Bring a stored deck of the table's casino to the table: at most two decks there (`_check_two_decks`), told
    apart from the other (`_check_distinguishable`, and `_check_shuffler_colours` with an automated shuffler).
    Raises DomainError naming the field."""
    table = PokerTable.objects.select_for_update().get(pk=table.pk)
    deck = Deck.objects.select_for_update().get(pk=deck.pk)
    if deck.casino_id != table.casino_id:
        raise DomainError("The deck belongs to another casino.", field="deck")
    if deck.status != DeckStatus.IN_STORAGE:
        raise DomainError(f"Deck {deck.serial} is {deck.get_status_display().lower()}, not in storage.", field="deck")
    present = list(Deck.objects.filter(table=table, status=DeckStatus.AT_TABLE))
    _check_two_decks(table=table, present=present)
    for other in present:
        _check_distinguishable(deck=deck, other=other)
        if table.uses_automated_shuffler:
            _check_shuffler_colours(deck=deck, other=other)
    at = _when(at)
    deck.status, deck.table = DeckStatus.AT_TABLE, table
    deck.save(update_fields=["status", "table"])
    DeckEvent.objects.create(deck=deck, kind=DeckEventKind.ASSIGNED, at=at, table=table, by=by)
    return deck


def _check_two_decks(*, table: PokerTable, present: list[Deck]) -> None:
    """A table has no more than two decks (N.J.A.C. 13:69F-14.2(a)-two-decks): `present`, the decks at it now,
    leaves room for one more. Raises DomainError (field "table")."""
    if len(present) >= 2:
        raise DomainError(f"Table {table.number} already has its two decks (14.2(a)).", field="table")


def _check_distinguishable(*, deck: Deck, other: Deck) -> None:
    """The two decks at a table are visually distinguishable (N.J.A.C. 13:69F-14.2(a)-distinguishable): their backs
    differ in colour or in design, whatever the case they are written in. Raises DomainError (field "deck")."""
    if (other.back_colour.lower(), other.back_design.lower()) == (deck.back_colour.lower(), deck.back_design.lower()):
        raise DomainError("The two decks at a table must be visually distinguishable (14.2(a)).", field="deck")


def _check_shuffler_colours(*, deck: Deck, other: Deck) -> None:
    """At a table with an automated shuffler, the two decks' backs are of different colours (N.J.A.C.
    13:69F-14.2(d)1), whatever the case they are written in. Raises DomainError (field "deck")."""
    if other.back_colour.lower() == deck.back_colour.lower():
        raise DomainError("With an automated shuffler the two decks need backs of different colours "
                          "(N.J.A.C. 13:69F-14.2(d)1).", field="deck")


def _leave_table(deck: Deck) -> None:
    deck.status, deck.table, deck.in_use = DeckStatus.REMOVED, None, False


def _check_shuffler_count(*, kind: DeckEventKind, table: PokerTable | None) -> None:
    """A count recorded as the table's counting shuffler's (N.J.A.C. 13:69F-14.6(e)4-counting-shuffler): a count
    only, at a table whose automated shuffler is recorded as approved to count (PokerTable.counting_shuffler_approval).
    Raises DomainError (field "by_shuffler")."""
    if kind != DeckEventKind.COUNTED:
        raise DomainError("A shuffler records counts only.", field="by_shuffler")
    if table is None or not table.counting_shuffler_approval:
        where = f"Table {table.number}'s shuffler" if table is not None else "The deck's table"
        raise DomainError(f"{where} is not recorded as a shuffler approved to count the cards as it shuffles "
                          "(N.J.A.C. 13:69F-14.6(e)4): count the deck by hand.", field="by_shuffler")


def _check_round(*, round_of_play: RoundOfPlay, table: PokerTable | None, kind: DeckEventKind,
                 card_count: int | None) -> None:
    """An event recorded with the round it happened in: a round of the deck's table; a count of other than 52 cards
    during a round only with the round called dead (N.J.A.C. 13:69F-14.15(g)-dead: missing or extra cards found, the
    round is dead and every chip returned). Raises DomainError (field "round_of_play")."""
    if round_of_play.table_id != (table.pk if table else None):
        raise DomainError("That round was played at another table.", field="round_of_play")
    if kind == DeckEventKind.COUNTED and card_count != FULL_DECK and not round_of_play.is_dead:
        raise DomainError("Missing or extra cards during a round: the round is called dead and every chip "
                          "returned (N.J.A.C. 13:69F-14.15(g)); record it as dead first.", field="round_of_play")


def _put_in_use(deck: Deck, table: PokerTable | None, by: User, at: datetime, card_count: int | None,
                note: str) -> tuple[list[str], str]:
    """A deck put in use at its table (`_into_play`; the table's wrong-count alerts cleared,
    `_clear_wrong_count_alerts`): the first time it is used its 3-hour and 6-hour clocks start, from `opened_at`,
    which no later use moves (N.J.A.C. 13:69F-14.2(b)-three-hours, 14.2(b)-six-hours); its 15-minute count clock runs
    from now while it is in use (14.6(e)4-every-fifteen-minutes). Returns (the deck's fields to save, the note)."""
    _into_play(deck=deck, table=table, by=by, at=at)
    deck.in_use_since = at
    deck.opened_at = deck.opened_at or at
    _clear_wrong_count_alerts(table=table, at=at)
    return ["in_use", "in_use_since", "opened_at"], note


def _into_play(*, deck: Deck, table: PokerTable | None, by: User, at: datetime) -> None:
    """`deck` in use at its table and the table's other deck in use rotated out, stored, a `rotated_out` event
    recorded for it (N.J.A.C. 13:69F-14.2(a)-stored: while one deck is in use the other is stored)."""
    for other in Deck.objects.select_for_update().filter(table=table, in_use=True).exclude(pk=deck.pk):
        other.in_use = False
        other.save(update_fields=["in_use"])
        DeckEvent.objects.create(deck=other, kind=DeckEventKind.ROTATED_OUT, at=at, table=table, by=by,
                                 note=f"Rotated out for deck {deck.serial}.")
    deck.in_use = True


def _clear_wrong_count_alerts(*, table: PokerTable | None, at: datetime) -> None:
    """The wrong-count alerts raised at `table` until `at` cleared: a replacement deck is in use there (N.J.A.C.
    13:69F-14.6(e)4-wrong-count: the deck counted wrong was removed; 14.15(g)-deck-replaced)."""
    DeckAlert.objects.filter(table=table, kind=AlertKind.WRONG_COUNT, cleared_at=None,
                             raised_at__lte=at).update(cleared_at=at)


def _sorted(deck: Deck, table: PokerTable | None, by: User, at: datetime, card_count: int | None,
            note: str) -> tuple[list[str], str]:
    """A deck placed into suit and sequence: its 3-hour clock restarts (N.J.A.C. 13:69F-14.2(b)-three-hours), and,
    all 52 cards being seen, its 15-minute count clock (14.6(e)4-every-fifteen-minutes); its 6-hour clock does not
    (14.2(b)-six-hours). Returns (the deck's fields to save, the note)."""
    deck.last_sorted_at = deck.last_counted_at = at
    return ["last_sorted_at", "last_counted_at"], note


def _counted(deck: Deck, table: PokerTable | None, by: User, at: datetime, card_count: int | None,
             note: str) -> tuple[list[str], str]:
    """A deck counted (by the dealer, or the table's approved counting shuffler): 52 cards restart its 15-minute
    count clock (N.J.A.C. 13:69F-14.6(e)4-every-fifteen-minutes); any other number pulls it (`_pull_deck`,
    14.6(e)4-wrong-count). Returns (the deck's fields to save, the note)."""
    if card_count == FULL_DECK:
        deck.last_counted_at = at
        return ["last_counted_at"], note
    return _pull_deck(deck=deck, table=table, at=at, card_count=card_count, note=note)


def _pull_deck(*, deck: Deck, table: PokerTable | None, at: datetime, card_count: int | None,
               note: str) -> tuple[list[str], str]:
    """A deck counted other than 52 cards removed from its table, the count added to the event's note, and a
    wrong-count alert raised at the table until a replacement deck is in use there, one open alert a deck (N.J.A.C.
    13:69F-14.6(e)4-wrong-count; found during a round, the deck is replaced, 14.15(g)-deck-replaced). Returns (the
    deck's fields to save, the note)."""
    _leave_table(deck)
    DeckAlert.objects.get_or_create(table=table, deck=deck, kind=AlertKind.WRONG_COUNT, cleared_at=None,
                                    defaults={"raised_at": at})
    return ["status", "table", "in_use"], (note + " " if note else "") + f"{card_count} cards found: deck removed (14.6(e)4)."


def _rotated_out(deck: Deck, table: PokerTable | None, by: User, at: datetime, card_count: int | None,
                 note: str) -> tuple[list[str], str]:
    deck.in_use = False
    return ["in_use"], note


def _out_of_play(deck: Deck, table: PokerTable | None, by: User, at: datetime, card_count: int | None,
                 note: str) -> tuple[list[str], str]:
    _leave_table(deck)
    return ["status", "table", "in_use"], note


def _destroyed(deck: Deck, table: PokerTable | None, by: User, at: datetime, card_count: int | None,
               note: str) -> tuple[list[str], str]:
    deck.status = DeckStatus.DESTROYED
    return ["status"], note


def _noted(deck: Deck, table: PokerTable | None, by: User, at: datetime, card_count: int | None,
           note: str) -> tuple[list[str], str]:
    return [], note


#: What each event does to the deck (inspected, verified and spread are recorded only).
_EVENTS = {
    DeckEventKind.INSPECTED: _noted, DeckEventKind.VERIFIED: _noted, DeckEventKind.SPREAD: _noted,
    DeckEventKind.PUT_IN_USE: _put_in_use, DeckEventKind.ROTATED_OUT: _rotated_out, DeckEventKind.SORTED: _sorted,
    DeckEventKind.COUNTED: _counted, DeckEventKind.CHANGED: _out_of_play, DeckEventKind.REMOVED: _out_of_play,
    DeckEventKind.DESTROYED: _destroyed,
}


@transaction.atomic
def record_deck_event(*, deck: Deck, kind: str, by: User, at: datetime | None = None,
                      card_count: int | None = None, note: str = "",
                      round_of_play: RoundOfPlay | None = None, by_shuffler: bool = False) -> DeckEvent:
    """Record one event of a deck at its table and move its clocks; returns the DeckEvent.

    Checked first: the kind (received and assigned have their own services), who may record it (EVENT_ROLES), the
    deck's state (at a table; `destroyed` only once removed from play), a deck inspected before it is verified, a
    count's `card_count`, a count by the table's counting shuffler (`by_shuffler`, `_check_shuffler_count`) and the
    round it happened in (`round_of_play`, `_check_round`). Then the event does its work (`_EVENTS`): put in use
    (`_put_in_use`), sorted (`_sorted`), counted (`_counted`; the pages ask the person recording a wrong count to
    confirm first, forms.DeckEventForm), rotated out, changed or removed (out of play), destroyed. Raises DomainError
    (role, state, input) naming the field, and writes nothing then."""
    try:
        kind = DeckEventKind(kind)
    except ValueError as exc:
        raise DomainError(f"Unknown deck event {kind!r}.", field="kind") from exc
    if kind in (DeckEventKind.RECEIVED, DeckEventKind.ASSIGNED):
        raise DomainError("Use receiving or assigning for this event.", field="kind")
    allowed = EVENT_ROLES[kind]
    if not (by.is_superuser or by.has_role(*allowed)):
        raise DomainError(f"{kind.label} is recorded by: {', '.join(sorted(r.label.lower() for r in allowed))}.",
                          field="kind")
    deck = Deck.objects.select_for_update().get(pk=deck.pk)
    at = _when(at)
    table = deck.table
    if kind == DeckEventKind.DESTROYED:
        if deck.status != DeckStatus.REMOVED:
            raise DomainError("Only a deck removed from play can be destroyed.", field="kind")
    elif deck.status != DeckStatus.AT_TABLE:
        raise DomainError(f"Deck {deck.serial} is not at a table.", field="deck")
    _check_inspected_before_verified(deck=deck, kind=kind)
    if kind == DeckEventKind.COUNTED and card_count is None:
        raise DomainError("Give the number of cards counted.", field="card_count")
    if by_shuffler:
        _check_shuffler_count(kind=kind, table=table)
    if round_of_play is not None:
        _check_round(round_of_play=round_of_play, table=table, kind=kind, card_count=card_count)
    fields, note = _EVENTS[kind](deck, table, by, at, card_count, note)
    if fields:
        deck.save(update_fields=fields)
    return DeckEvent.objects.create(deck=deck, kind=kind, at=at, table=table, by=by, card_count=card_count,
                                    note=note[:300], round_of_play=round_of_play, by_shuffler=by_shuffler)


@transaction.atomic
def collect_decks(table: PokerTable, by: User, at: datetime) -> list[DeckEvent]:
    """The decks still at a closing `table` (in use or standing by) collected by `by` at `at`: each removed from the
    table, a `removed` event recorded with the closing named in its note (N.J.A.C. 13:69F-14.2(a)-two-decks: decks
    are kept at an open table). Called by apps.tables.services.close_table through apps.tables.closing; returns the
    events (none when no deck is there). Raises DomainError when `by` may not remove decks (the floor's roles)."""
    decks = Deck.objects.filter(table=table, status=DeckStatus.AT_TABLE).order_by("pk")
    return [record_deck_event(deck=deck, kind=DeckEventKind.REMOVED, by=by, at=at,
                              note=f"Collected as table {table.number} closed.") for deck in decks]


@transaction.atomic
def refresh_deck_alerts(*, casino: Casino, now: datetime | None = None) -> tuple[int, int]:
    """Keep the alert rows in step with the board (the pages compute the clock alerts themselves, selectors
    .current_alerts): raise a row for every overdue clock and every open table short of two decks; clear the rest.

    At a shuffler table, the decks' alternation raises an alert of its own (`_alternation_alerts`). Run every minute
    by Celery beat; idempotent (one open alert per table, deck and kind). A wrong-count alert stays until a
    replacement deck is put in use at its table (record_deck_event), or the table closes (cleared here). Returns
    (raised, cleared).
    """
    now = now or timezone.now()
    rows = rotation_board(casino=casino, now=now)
    wanted: set[tuple[int, int | None, str]] = {(a.table_id, a.deck_id, a.kind) for a in due_alerts(rows=rows)}
    wanted |= _alternation_alerts(rows)
    open_alerts = {(a.table_id, a.deck_id, a.kind): a for a in DeckAlert.objects.select_for_update()
                   .filter(table__casino=casino, cleared_at=None).exclude(kind=AlertKind.WRONG_COUNT)}
    cleared = DeckAlert.objects.filter(table__casino=casino, table__is_open=False, kind=AlertKind.WRONG_COUNT,
                                       cleared_at=None).update(cleared_at=now)  # nobody plays at a closed table
    for key, alert in open_alerts.items():
        if key not in wanted:
            alert.cleared_at = now
            alert.save(update_fields=["cleared_at"])
            cleared += 1
    raised = 0
    for table_id, deck_id, kind in wanted - open_alerts.keys():
        DeckAlert.objects.create(table_id=table_id, deck_id=deck_id, kind=kind, raised_at=now)
        raised += 1
    return raised, cleared


def _alternation_alerts(rows: Sequence[TableRow]) -> set[tuple[int, int | None, str]]:
    """The alternation alerts of the rotation board's `rows` (N.J.A.C. 13:69F-14.2(d)3), as (table id, None,
    AlertKind.ALTERNATION): one at each table with an automated shuffler whose last round breaks the alternation
    (`_last_round_breaks_alternation`)."""
    return {(row.table.pk, None, AlertKind.ALTERNATION) for row in rows
            if row.table.uses_automated_shuffler and _last_round_breaks_alternation(row.table)}


def _last_round_breaks_alternation(table: PokerTable) -> bool:
    """Whether the last round of play at `table` was dealt from the same deck as the round before it, or with no deck
    recorded (`alternation_breaks` read from the round before it); an earlier break that the rounds since have mended
    is not counted. False for a table with no round."""
    last_two = list(table.rounds.order_by("-started_at", "-pk")[:2])
    return bool(last_two) and any(b.round_id == last_two[0].pk
                                  for b in alternation_breaks(table=table, since=last_two[-1].started_at))


@transaction.atomic
def distribute_decks(*, casino: Casino, assignments: list[tuple[PokerTable, Deck]], decided_by: User,
                     considerations: str) -> DeckDistribution:
    """Record the supervisor's distribution of decks for the gaming day and bring each deck to its table
    (N.J.A.C. 13:69F-14.2(c)-daily-distribution, 14.2(c)-considerations); every assignment is checked as assign_deck
    checks it. All or nothing. Raises DomainError (not a supervisor, nothing to distribute, or an assignment
    refused)."""
    if not (decided_by.is_superuser or decided_by.has_role(Role.POKER_SHIFT_SUPERVISOR, Role.ADMIN)):
        raise DomainError("The poker shift supervisor decides the distribution of decks (14.2(c)).", field="decided_by")
    if not assignments:
        raise DomainError("Choose at least one deck for a table.", field="assignments")
    if not considerations.strip():
        raise DomainError("Say how limits, location and game were considered (14.2(c)).", field="considerations")
    from apps.casinos.selectors import current_gaming_day

    distribution = DeckDistribution.objects.create(casino=casino, gaming_day=current_gaming_day(casino=casino),
                                                   decided_by=decided_by, considerations=considerations.strip())
    for table, deck in assignments:
        assign_deck(deck=deck, table=table, by=decided_by)
        DeckDistributionLine.objects.create(distribution=distribution, table=table, deck=deck)
    return distribution


def record_round_decks(*, rounds: Sequence[tuple[RoundOfPlay, str]]) -> list[RoundDeck]:
    """Link rounds of play to the deck the feed says was dealt in each (N.J.A.C. 13:69F-14.2(d)3, for the
    shuffler alternation check): rounds: (recorded round, deck serial); a round without a serial is passed over.
    Raises DomainError (field "deck") for a deck that is unknown or not at the round's table. Call in the
    transaction that records the rounds."""
    wanted = [(r, serial.strip()) for r, serial in rounds if serial and serial.strip()]
    if not wanted:
        return []
    casino_ids = {r.table.casino_id for r, _ in wanted}
    decks = {(d.casino_id, d.serial): d for d in Deck.objects.filter(
        casino_id__in=casino_ids, serial__in={serial for _, serial in wanted})}
    links = []
    for round_of_play, serial in wanted:
        deck = decks.get((round_of_play.table.casino_id, serial))
        if deck is None or deck.table_id != round_of_play.table_id or deck.status != DeckStatus.AT_TABLE:
            raise DomainError(f"Deck {serial} is not at table {round_of_play.table.number}.", field="deck")
        links.append(RoundDeck(round_of_play=round_of_play, deck=deck))
    return RoundDeck.objects.bulk_create(links)
