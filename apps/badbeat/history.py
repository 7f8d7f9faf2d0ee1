"""The history of a bad beat claim, read from its pghistory event table (Claim is tracked with
`@pghistory.track()`: a snapshot of the row at its insert and at each update, stamped by the HistoryMiddleware with
the signed-in user and the URL). Read-only: who changed what, when, from what to what (N.J.A.C. 13:69F-14.19(i))."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.utils import timezone

from apps.casinos.models import User

from .models import Claim, ClaimStatus

#: The claim's columns shown in its history, in this order, with their labels.
FIELDS = {
    "status": "Status", "payout_amount": "Payout amount", "decided_by": "Decided by", "decided_at": "Decided at",
    "decision_note": "Note", "seat": "Losing seat", "losing_hand": "Losing hand", "losing_cards": "Losing cards",
    "winning_hand": "Winning hand", "winning_cards": "Winning cards", "evaluation": "Engine's verdict",
    "opened_by": "Opened by",
}
_PEOPLE = ("decided_by", "opened_by")


@dataclass(frozen=True)
class Change:
    """One column changed by an event: its label, the value before and after, as shown to people."""

    label: str
    before: str
    after: str


@dataclass(frozen=True)
class HistoryEntry:
    """One event of a claim's history: when, by whom (or how, with no one signed in), what kind, what changed."""

    at: datetime
    who: str
    what: str
    changes: tuple[Change, ...]


def _person(users: dict[int, User], pk) -> str:
    if pk is None:
        return "—"
    user = users.get(pk)
    return (user.get_full_name() or user.username) if user else f"user #{pk}"


def _shown(name: str, value, users: dict[int, User]) -> str:
    """A column's value as people read it: labels for choices, names for people, dollars and cents for money."""
    if name in _PEOPLE:
        return _person(users, value)
    if value is None or value == "":
        return "—"
    if name == "status":
        return ClaimStatus(value).label if value in ClaimStatus.values else str(value)
    if name == "payout_amount":
        return f"${Decimal(value):,.2f}"
    if name == "decided_at":
        return f"{timezone.localtime(value):%Y-%m-%d %H:%M:%S}"
    if name == "evaluation":
        return "qualifies" if (value or {}).get("qualifies") else "does not qualify"
    return str(value)


def _values(event) -> dict:
    return {name: getattr(event, f"{name}_id" if name in _PEOPLE else name) for name in FIELDS}


def claim_history(*, claim: Claim) -> list[HistoryEntry]:
    """The claim's events, oldest first: its opening (the values it was opened with) and each later change (the
    columns that changed, from what to what), each with the time and the signed-in user that made it (from the
    pghistory context; "the system" when no one was signed in, e.g. the engine at a showdown or a scheduled job).
    Empty where the events are not recorded (the demo's SQLite has no triggers)."""
    events = list(Claim.pgh_event_model.objects.filter(pgh_obj_id=claim.pk).select_related("pgh_context")
                  .order_by("pgh_created_at", "pgh_id"))
    actors = {(e.pgh_context.metadata or {}).get("user") for e in events if e.pgh_context_id and e.pgh_context}
    people = {v for e in events for v in (e.opened_by_id, e.decided_by_id)} | actors
    users = User.objects.in_bulk([pk for pk in people if isinstance(pk, int)])
    entries, previous = [], None
    for event in events:
        values = _values(event)
        metadata = (event.pgh_context.metadata or {}) if event.pgh_context_id and event.pgh_context else {}
        if metadata.get("user") is not None:
            who = _person(users, metadata["user"])
        else:
            who = f"the system, no one signed in ({metadata['url']})" if metadata.get("url") else "the system"
        if previous is None:
            what = "Opened" if event.pgh_label == "insert" else "First recorded"
            changes = tuple(Change(label, "", _shown(name, values[name], users)) for name, label in FIELDS.items()
                            if values[name] not in (None, "", {}))
        else:
            what = "Changed"
            shown = ((label, _shown(name, previous[name], users), _shown(name, values[name], users))
                     for name, label in FIELDS.items() if values[name] != previous[name])
            changes = tuple(Change(label, before, after) for label, before, after in shown if before != after)
        previous = values
        if changes or what != "Changed":
            entries.append(HistoryEntry(at=event.pgh_created_at, who=who, what=what, changes=changes))
    return entries
